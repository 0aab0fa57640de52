// Unit tests for the checkpoint side of Flume's file channel: checkpoint,
// checkpoint.meta, inflightputs/inflighttakes, log-N.meta and the
// snappy-java stream of a compressed backup. Expected bytes come from the
// spec (flume-format.md §1-§5.4) and from Flume's real V2 fixtures; MD5s
// were computed independently (Python hashlib).
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "finding.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/inflight_file.h"
#include "flume/log_metadata.h"
#include "flume/snappy_stream.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::flume;
using qjt_test::Bytes;
using qjt_test::contains;
using qjt_test::span;

namespace {

Bytes be64(std::int64_t value) {
  Bytes out;
  for (int shift = 56; shift >= 0; shift -= 8)
    out.push_back(static_cast<std::uint8_t>((static_cast<std::uint64_t>(value) >> shift) & 0xFF));
  return out;
}

Bytes bytes_of(const std::string& s) { return Bytes(s.begin(), s.end()); }

bool has_code(const FindingList& findings, std::string_view code) {
  for (const Finding& f : findings.findings())
    if (f.code == code) return true;
  return false;
}

const Finding* first(const FindingList& findings, std::string_view code) {
  for (const Finding& f : findings.findings())
    if (f.code == code) return &f;
  return nullptr;
}

// Each strict prefix of `bytes`, and each of `flips` copies with one
// seeded byte changed, through `check` (which runs the decoder).
template <typename Check>
void for_each_prefix(const Bytes& bytes, std::size_t from, Check check) {
  for (std::size_t n = from; n < bytes.size(); ++n) check(Bytes(bytes.begin(), bytes.begin() + static_cast<long>(n)));
}

template <typename Check>
void for_each_flip(const Bytes& bytes, unsigned seed, int flips, Check check) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::size_t> position(0, bytes.size() - 1);
  std::uniform_int_distribution<int> mask(1, 255);
  for (int i = 0; i < flips; ++i) {
    Bytes copy = bytes;
    copy[position(random)] ^= static_cast<std::uint8_t>(mask(random));
    check(copy);
  }
}

CheckpointImage v3_image_abc() {
  // The spec's example: A, B, C put into an empty capacity-10 queue end up
  // at head 8 in slots 8, 9, 0.
  CheckpointImage image;
  image.version = 3;
  image.write_order_id = 2000000000014;
  image.slots = *place_in_ring(10, 8, {EventPointer{1, 100}, EventPointer{1, 200}, EventPointer{2, 300}});
  return image;
}

Bytes encoded_checkpoint(const CheckpointImage& image) { return bytes_of(*encode_checkpoint(image)); }

// The spec's 37-byte checkpoint.meta written by Flume 1.11.
const Bytes kRealCheckpointMeta = {0x24, 0x0D, 0x03, 0x00, 0x00, 0x00, 0x11, 0x0E, 0x20, 0x4A, 0xA9, 0xD1, 0x01,
                                   0x00, 0x00, 0x1D, 0x01, 0x00, 0x00, 0x00, 0x25, 0x00, 0x00, 0x00, 0x00, 0x2A,
                                   0x0A, 0x0D, 0x01, 0x00, 0x00, 0x00, 0x15, 0x01, 0x00, 0x00, 0x00};

}  // namespace

// ---------------------------------------------------------------- checkpoint

TEST_CASE("flume checkpoint: V3 encode places header longs big-endian and the ring after 1029 longs") {
  const Bytes file = encoded_checkpoint(v3_image_abc());
  REQUIRE(file.size() == (1029 + 10) * 8);
  CHECK(Bytes(file.begin(), file.begin() + 8) == be64(3));
  CHECK(Bytes(file.begin() + 8, file.begin() + 16) == be64(2000000000014));
  CHECK(Bytes(file.begin() + 16, file.begin() + 32) == Bytes(16, 0));              // V3 leaves 2 and 3 zero
  CHECK(Bytes(file.begin() + 40, file.begin() + 1029 * 8) == Bytes(1024 * 8, 0));  // and 5..1028
  CHECK(Bytes(file.begin() + (1029 + 8) * 8, file.begin() + (1029 + 9) * 8) == be64(EventPointer{1, 100}.to_long()));
  CHECK(Bytes(file.begin() + 1029 * 8, file.begin() + 1030 * 8) == be64(EventPointer{2, 300}.to_long()));
}

TEST_CASE("flume checkpoint: decode and walk the ring from head 8 with wraparound") {
  const Bytes file = encoded_checkpoint(v3_image_abc());
  FindingList findings;
  const auto checkpoint = CheckpointFile::decode(span(file), "checkpoint", &findings, 10);
  REQUIRE(checkpoint);
  CHECK(findings.findings().empty());
  CHECK(checkpoint->version() == 3);
  CHECK(checkpoint->write_order_id() == 2000000000014);
  CHECK(checkpoint->marker_state() == CheckpointMarker::kComplete);
  CHECK(checkpoint->capacity() == 10);
  const auto ring = CheckpointRing::make(*checkpoint, RingPosition{8, 3, "checkpoint.meta", 20, 15}, &findings);
  REQUIRE(ring);
  CHECK(ring->physical_slot(0) == 1037);
  CHECK(ring->physical_slot(1) == 1038);
  CHECK(ring->physical_slot(2) == 1029);
  CHECK(ring->at(0).pointer == EventPointer{1, 100});
  CHECK(ring->at(2).pointer == EventPointer{2, 300});
  CHECK(ring->at(2).slot == 1029);
  check_ring_elements(*ring, "checkpoint", &findings);
  CHECK(findings.findings().empty());
}

TEST_CASE("flume checkpoint: V2 header size, head and active-log counts round trip") {
  CheckpointImage image;
  image.version = 2;
  image.write_order_id = 77;
  image.v2_size = 2;
  image.v2_head = 4;
  image.v2_active_logs = {{1, 3}, {7, 1}};
  image.slots = *place_in_ring(5, 4, {EventPointer{1, 10}, EventPointer{7, 20}});
  const Bytes file = encoded_checkpoint(image);
  CHECK(Bytes(file.begin() + 40, file.begin() + 48) == be64((std::int64_t{1} << 32) + 3));
  FindingList findings;
  const auto checkpoint = CheckpointFile::decode(span(file), "checkpoint", &findings);
  REQUIRE(checkpoint);
  const auto counts = checkpoint->v2_active_logs();
  REQUIRE(counts.size() == 2);
  CHECK(counts[0].slot == 5);
  CHECK(counts[0].count == ActiveLogCount{1, 3});
  CHECK(counts[1].count == ActiveLogCount{7, 1});
  const RingPosition position = v2_ring_position(*checkpoint, "checkpoint");
  CHECK(position.head == 4);
  CHECK(position.size == 2);
  const auto ring = CheckpointRing::make(*checkpoint, position, &findings);
  REQUIRE(ring);
  CHECK(ring->at(1).slot == 1029);
  CHECK(ring->at(1).pointer == EventPointer{7, 20});
  CHECK(findings.findings().empty());
}

TEST_CASE("flume checkpoint: active-log counts pack with Java's + and unpack with >>> 32 and (int)") {
  CHECK(pack_active_log_count({3, 3}) == 12884901891);
  // A negative count borrows from the file ID, as in Flume.
  CHECK(pack_active_log_count({2, -1}) == 0x1FFFFFFFF);
  CHECK(unpack_active_log_count(0x1FFFFFFFF) == ActiveLogCount{1, -1});
}

TEST_CASE("flume checkpoint: lengths that fit no capacity are findings") {
  FindingList findings;
  const Bytes short_header(1029 * 8 - 8, 0);
  CHECK_FALSE(CheckpointFile::decode(span(short_header), "cp", &findings));
  CHECK(has_code(findings, "checkpoint_length"));

  FindingList header_only;
  const Bytes no_ring(1029 * 8, 0);
  const auto a = CheckpointFile::decode(span(no_ring), "cp", &header_only);
  REQUIRE(a);
  CHECK_FALSE(a->length_ok());
  CHECK(has_code(header_only, "checkpoint_length"));

  FindingList ragged;
  Bytes odd = encoded_checkpoint(v3_image_abc());
  odd.push_back(0);
  const auto b = CheckpointFile::decode(span(odd), "cp", &ragged);
  REQUIRE(b);
  CHECK(b->capacity() == 0);
  CHECK(b->slot_count() == 1039);
  CHECK(contains(first(ragged, "checkpoint_length")->message, "not a multiple of 8"));
  CHECK_FALSE(CheckpointRing::make(*b, RingPosition{0, 0, "cp", {}, {}}, &ragged));
}

TEST_CASE("flume checkpoint: a capacity other than the configured one is a finding") {
  const Bytes file = encoded_checkpoint(v3_image_abc());
  FindingList findings;
  REQUIRE(CheckpointFile::decode(span(file), "cp", &findings, 11));
  const Finding* f = first(findings, "checkpoint_capacity");
  REQUIRE(f);
  CHECK(contains(f->message, "expected capacity 11"));
  CHECK(contains(f->message, "found capacity 10"));
}

TEST_CASE("flume checkpoint: version and marker compare all 64 bits") {
  CheckpointImage image = v3_image_abc();
  image.version = (std::int64_t{1} << 32) | 3;
  image.marker = std::int64_t{1} << 32;
  FindingList findings;
  const Bytes file = encoded_checkpoint(image);
  const auto checkpoint = CheckpointFile::decode(span(file), "cp", &findings);
  REQUIRE(checkpoint);
  const Finding* version = first(findings, "checkpoint_version");
  REQUIRE(version);
  CHECK(version->offset == 0);
  CHECK(version->file == "cp");
  const Finding* marker = first(findings, "checkpoint_marker");
  REQUIRE(marker);
  CHECK(marker->offset == 32);
  CHECK(checkpoint->marker_state() == CheckpointMarker::kUnknown);
}

TEST_CASE("flume checkpoint: an incomplete marker is exposed, not reported") {
  CheckpointImage image = v3_image_abc();
  image.marker = kCheckpointIncomplete;
  FindingList findings;
  const Bytes file = encoded_checkpoint(image);
  const auto checkpoint = CheckpointFile::decode(span(file), "cp", &findings);
  REQUIRE(checkpoint);
  CHECK(checkpoint->marker_state() == CheckpointMarker::kIncomplete);
  CHECK(findings.findings().empty());
}

TEST_CASE("flume checkpoint: head and size outside the capacity are findings at their source") {
  const Bytes file = encoded_checkpoint(v3_image_abc());
  const auto checkpoint = CheckpointFile::decode(span(file), "cp", nullptr);
  REQUIRE(checkpoint);
  FindingList findings;
  CHECK_FALSE(CheckpointRing::make(*checkpoint, RingPosition{10, 11, "checkpoint.meta", 20, 15}, &findings));
  const Finding* head = first(findings, "checkpoint_head");
  const Finding* size = first(findings, "checkpoint_size");
  REQUIRE(head);
  REQUIRE(size);
  CHECK(head->file == "checkpoint.meta");
  CHECK(head->offset == 20);
  CHECK(size->offset == 15);
  FindingList negative;
  CHECK_FALSE(CheckpointRing::make(*checkpoint, RingPosition{-1, -1, "cp", 24, 16}, &negative));
  CHECK(negative.findings().size() == 2);
  CHECK(CheckpointRing::make(*checkpoint, RingPosition{9, 10, "cp", 24, 16}, nullptr));
}

TEST_CASE("flume checkpoint: empty and impossible elements inside the queue are findings") {
  CheckpointImage image = v3_image_abc();
  image.slots[9] = 0;                             // element 1
  image.slots[0] = EventPointer{0, 5}.to_long();  // element 2: file ID 0
  const Bytes file = encoded_checkpoint(image);
  const auto checkpoint = CheckpointFile::decode(span(file), "cp", nullptr);
  REQUIRE(checkpoint);
  const auto ring = CheckpointRing::make(*checkpoint, RingPosition{8, 3, "cp", {}, {}}, nullptr);
  REQUIRE(ring);
  FindingList findings;
  check_ring_elements(*ring, "cp", &findings);
  REQUIRE(findings.findings().size() == 2);
  CHECK(findings.findings()[0].code == "checkpoint_empty_element");
  CHECK(findings.findings()[0].offset == (1029 + 9) * 8);
  CHECK(findings.findings()[1].code == "checkpoint_pointer");
  CHECK(findings.findings()[1].offset == 1029 * 8);
}

TEST_CASE("flume checkpoint: the encoder refuses a ring without slots and too many active logs") {
  CheckpointImage image;
  CHECK_FALSE(encode_checkpoint(image));
  image.version = 2;
  image.slots.assign(1, 0);
  image.v2_active_logs.assign(1025, ActiveLogCount{1, 1});
  CHECK_FALSE(encode_checkpoint(image));
  image.v2_active_logs.resize(1024);
  CHECK(encode_checkpoint(image));
  CHECK_FALSE(place_in_ring(2, 2, {}));
  CHECK_FALSE(place_in_ring(1, 0, {EventPointer{1, 1}, EventPointer{1, 2}}));
}

TEST_CASE("flume checkpoint: every truncation and seeded byte flips decode without crashing") {
  CheckpointImage image = v3_image_abc();
  image.version = 2;
  image.v2_size = 3;
  image.v2_head = 8;
  image.v2_active_logs = {{1, 2}, {2, 1}};
  const Bytes file = encoded_checkpoint(image);
  const auto decode_all = [](const Bytes& bytes, FindingList* findings) {
    const auto checkpoint = CheckpointFile::decode(span(bytes), "cp", findings, 10);
    if (!checkpoint) return;
    (void)checkpoint->v2_active_logs();
    const auto ring = CheckpointRing::make(*checkpoint, v2_ring_position(*checkpoint, "cp"), findings);
    if (!ring) return;
    for (std::size_t i = 0; i < ring->size(); ++i) (void)ring->at(i);
    check_ring_elements(*ring, "cp", findings);
  };
  for_each_prefix(file, 0, [&](const Bytes& prefix) {
    FindingList findings;
    decode_all(prefix, &findings);
    CHECK_FALSE(findings.findings().empty());
  });
  for_each_flip(file, 1, 2000, [&](const Bytes& flipped) {
    FindingList findings;
    decode_all(flipped, &findings);
  });
}

TEST_CASE("flume checkpoint: real V2 fixture, capacity 10, nine pointers from head 0") {
  const auto file = qjt_test::read_shared_fixture_gz("flume-v2/fileformat-v2-checkpoint.gz");
  if (!file) {
    MESSAGE("shared fixture flume-v2/fileformat-v2-checkpoint.gz not present: skipped");
    return;
  }
  FindingList findings;
  const auto checkpoint = CheckpointFile::decode(span(*file), "checkpoint", &findings, 10);
  REQUIRE(checkpoint);
  CHECK(findings.findings().empty());
  CHECK(checkpoint->capacity() == 10);
  CHECK(checkpoint->version() == 2);
  CHECK(checkpoint->write_order_id() == 1344302226747);
  CHECK(checkpoint->v2_size() == 9);
  CHECK(checkpoint->v2_head() == 0);
  CHECK(checkpoint->marker_state() == CheckpointMarker::kComplete);
  std::vector<ActiveLogCount> counts;
  for (const auto& c : checkpoint->v2_active_logs()) counts.push_back(c.count);
  CHECK(counts == std::vector<ActiveLogCount>{{1, 3}, {2, 3}, {3, 3}});
  const auto ring = CheckpointRing::make(*checkpoint, v2_ring_position(*checkpoint, "checkpoint"), &findings);
  REQUIRE(ring);
  const std::vector<std::int64_t> expected = {8589936804,  4294969563, 12884904153, 8589936919, 4294969678,
                                              12884904268, 8589937034, 4294969793,  12884904383};
  REQUIRE(ring->size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK(ring->at(i).value == expected[i]);
  check_ring_elements(*ring, "checkpoint", &findings);
  CHECK(findings.findings().empty());

  // Re-encoding the decoded header and slots gives the file back.
  CheckpointImage image;
  image.version = 2;
  image.write_order_id = checkpoint->write_order_id();
  image.v2_size = checkpoint->v2_size();
  image.v2_head = checkpoint->v2_head();
  image.v2_active_logs = counts;
  for (std::size_t i = 0; i < checkpoint->capacity(); ++i) image.slots.push_back(checkpoint->slot(1029 + i));
  CHECK(bytes_of(*encode_checkpoint(image)) == *file);
}

TEST_CASE("flume checkpoint: real pre-FLUME-1432 V2 fixture, capacity 10000, empty") {
  const auto file = qjt_test::read_shared_fixture_gz("flume-v2/fileformat-v2-pre-FLUME-1432-checkpoint.gz");
  if (!file) {
    MESSAGE("shared fixture flume-v2/fileformat-v2-pre-FLUME-1432-checkpoint.gz not present: skipped");
    return;
  }
  FindingList findings;
  const auto checkpoint = CheckpointFile::decode(span(*file), "checkpoint", &findings);
  REQUIRE(checkpoint);
  CHECK(checkpoint->capacity() == 10000);
  CHECK(checkpoint->version() == 2);
  CHECK(checkpoint->write_order_id() == 1344369723543);
  CHECK(checkpoint->v2_size() == 0);
  const auto ring = CheckpointRing::make(*checkpoint, v2_ring_position(*checkpoint, "checkpoint"), &findings);
  REQUIRE(ring);
  CHECK(ring->size() == 0);
  CHECK(findings.findings().empty());
}

// ---------------------------------------------------------------- checkpoint.meta

TEST_CASE("flume checkpoint.meta: the spec's 37-byte file decodes and re-encodes byte for byte") {
  FindingList findings;
  const CheckpointMetaDecode decoded = decode_checkpoint_meta(span(kRealCheckpointMeta), "checkpoint.meta", &findings);
  CHECK(findings.findings().empty());
  REQUIRE(decoded.valid);
  CHECK(decoded.meta.version == 3);
  CHECK(decoded.meta.write_order_id == 2000000000014);
  CHECK(decoded.meta.queue_size == 1);
  CHECK(decoded.meta.queue_head == 0);
  CHECK(decoded.meta.active_logs == std::vector<ActiveLogCount>{{1, 1}});
  CHECK(decoded.queue_size_offset == 15);
  CHECK(decoded.queue_head_offset == 20);
  CHECK(bytes_of(encode_checkpoint_meta(decoded.meta)) == kRealCheckpointMeta);

  CheckpointMeta meta;
  meta.write_order_id = 2000000000014;
  meta.queue_size = 1;
  meta.active_logs = {{1, 1}};
  CHECK(bytes_of(encode_checkpoint_meta(meta)) == kRealCheckpointMeta);
  const RingPosition position = meta_ring_position(decoded, "checkpoint.meta");
  CHECK(position.size == 1);
  CHECK(position.size_offset == 15);
}

TEST_CASE("flume checkpoint.meta: fields in any order, unknown fields skipped") {
  // activeLogs, queueHead, unknown varint field 9, queueSize, writeOrderID, version.
  const Bytes message = {0x2A, 0x0A, 0x0D, 0x02, 0,    0,    0,    0x15, 0x05, 0, 0, 0,    0x25,
                         0x04, 0,    0,    0,    0x48, 0x01, 0x1D, 0x06, 0,    0, 0, 0x11, 0x09,
                         0,    0,    0,    0,    0,    0,    0,    0x0D, 0x03, 0, 0, 0};
  Bytes file = {static_cast<std::uint8_t>(message.size())};
  file.insert(file.end(), message.begin(), message.end());
  FindingList findings;
  const CheckpointMetaDecode decoded = decode_checkpoint_meta(span(file), "m", &findings);
  CHECK(findings.findings().empty());
  CHECK(decoded.valid);
  CHECK(decoded.meta.write_order_id == 9);
  CHECK(decoded.meta.queue_size == 6);
  CHECK(decoded.meta.queue_head == 4);
  CHECK(decoded.meta.active_logs == std::vector<ActiveLogCount>{{2, 5}});
}

TEST_CASE("flume checkpoint.meta: missing, mistyped and trailing fields are findings at file offsets") {
  SUBCASE("missing queueHead") {
    Bytes file = kRealCheckpointMeta;
    file.erase(file.begin() + 20, file.begin() + 25);
    file[0] = 0x1F;
    FindingList findings;
    CHECK_FALSE(decode_checkpoint_meta(span(file), "m", &findings).valid);
    const Finding* f = first(findings, "meta_missing_field");
    REQUIRE(f);
    CHECK(contains(f->message, "queueHead"));
  }
  SUBCASE("queueSize as a varint") {
    Bytes file = kRealCheckpointMeta;
    file[15] = 0x18;  // field 3, wire type 0; the next byte 0x01 is its value
    file.erase(file.begin() + 17, file.begin() + 20);
    file[0] = 0x21;
    FindingList findings;
    CHECK_FALSE(decode_checkpoint_meta(span(file), "m", &findings).valid);
    const Finding* f = first(findings, "meta_malformed");
    REQUIRE(f);
    CHECK(f->offset == 15);
    CHECK(contains(f->message, "expected fixed32 for field 3 (queueSize), found varint"));
  }
  SUBCASE("an ActiveLog without its count") {
    Bytes file = kRealCheckpointMeta;
    file.resize(32);
    file[26] = 0x05;
    file[0] = 0x1F;
    FindingList findings;
    CHECK_FALSE(decode_checkpoint_meta(span(file), "m", &findings).valid);
    const Finding* f = first(findings, "meta_missing_field");
    REQUIRE(f);
    CHECK(f->offset == 27);  // the nested message's first byte
    CHECK(contains(f->message, "count"));
  }
  SUBCASE("bytes after the message") {
    Bytes file = kRealCheckpointMeta;
    file.push_back(0);
    file.push_back(0);
    FindingList findings;
    CHECK(decode_checkpoint_meta(span(file), "m", &findings).valid);
    const Finding* f = first(findings, "meta_trailing_bytes");
    REQUIRE(f);
    CHECK(f->offset == 37);
    CHECK(f->severity == Severity::kWarning);
  }
  SUBCASE("version 2") {
    Bytes file = kRealCheckpointMeta;
    file[2] = 2;
    FindingList findings;
    CHECK(decode_checkpoint_meta(span(file), "m", &findings).valid);
    const Finding* f = first(findings, "meta_version");
    REQUIRE(f);
    CHECK(f->offset == 1);
  }
  SUBCASE("empty file") {
    FindingList findings;
    CHECK_FALSE(decode_checkpoint_meta(qjt::ByteSpan(), "m", &findings).valid);
    CHECK(has_code(findings, "meta_empty"));
  }
  SUBCASE("a nested field cut short reports the offset inside the file") {
    Bytes file = kRealCheckpointMeta;
    file[26] = 0x07;  // ActiveLog length 7: its count field has 2 of 4 bytes
    file.resize(34);
    file[0] = 0x21;
    FindingList findings;
    CHECK_FALSE(decode_checkpoint_meta(span(file), "m", &findings).valid);
    const Finding* f = first(findings, "meta_malformed");
    REQUIRE(f);
    CHECK(f->offset == 32);
  }
}

TEST_CASE("flume checkpoint.meta: a writeOrderID other than the checkpoint's is a finding") {
  const Bytes file = encoded_checkpoint(v3_image_abc());  // woid 2000000000014, as the spec's meta
  const auto checkpoint = CheckpointFile::decode(span(file), "checkpoint", nullptr);
  REQUIRE(checkpoint);
  FindingList same;
  check_meta_matches_checkpoint(decode_checkpoint_meta(span(kRealCheckpointMeta), "m", nullptr), "m", *checkpoint,
                                &same);
  CHECK(same.findings().empty());
  Bytes other = kRealCheckpointMeta;
  other[7] ^= 1;
  FindingList findings;
  check_meta_matches_checkpoint(decode_checkpoint_meta(span(other), "m", nullptr), "m", *checkpoint, &findings);
  const Finding* f = first(findings, "checkpoint_meta_write_order_id");
  REQUIRE(f);
  CHECK(f->offset == 6);
}

TEST_CASE("flume checkpoint.meta: every truncation and seeded byte flips") {
  CheckpointMeta meta;
  meta.write_order_id = 1234567890123;
  meta.queue_size = 5;
  meta.queue_head = 3;
  meta.active_logs = {{1, 2}, {2, 3}, {-1, 300}};
  const Bytes file = bytes_of(encode_checkpoint_meta(meta));
  CHECK(decode_checkpoint_meta(span(file), "m", nullptr).meta == meta);
  for_each_prefix(file, 0, [](const Bytes& prefix) {
    FindingList findings;
    CHECK_FALSE(decode_checkpoint_meta(span(prefix), "m", &findings).valid);
    CHECK_FALSE(findings.findings().empty());
  });
  for_each_flip(file, 2, 3000, [](const Bytes& flipped) {
    FindingList findings;
    (void)decode_checkpoint_meta(span(flipped), "m", &findings);
  });
}

// ---------------------------------------------------------------- inflights

TEST_CASE("flume inflight: the 32-byte empty file") {
  const Bytes expected = qjt_test::cat(
      {{0x4a, 0xe7, 0x13, 0x36, 0xe4, 0x4b, 0xf9, 0xbf, 0x79, 0xd2, 0x75, 0x2e, 0x23, 0x48, 0x18, 0xa5}, Bytes(16, 0)});
  CHECK(bytes_of(encode_inflight({})) == expected);
  FindingList findings;
  const InflightFile decoded = decode_inflight(span(expected), "inflightputs", &findings);
  CHECK(findings.findings().empty());
  CHECK(decoded.checksum_ok);
  CHECK(decoded.complete);
  CHECK(decoded.transactions.empty());
  CHECK(decode_inflight(qjt::ByteSpan(), "inflightputs", &findings).transactions.empty());
  CHECK(findings.findings().empty());
}

TEST_CASE("flume inflight: the spec's 56-byte file with one transaction") {
  const Bytes expected =
      qjt_test::cat({{0xd9, 0x75, 0x53, 0x95, 0x63, 0x61, 0x5a, 0xa5, 0x3a, 0xa2, 0xea, 0x0a, 0x16, 0xe2, 0x74, 0x13},
                     be64(3000000000005),
                     be64(1),
                     be64(0x00000001000001A1),
                     Bytes(16, 0)});
  REQUIRE(expected.size() == 56);
  const std::vector<InflightTransaction> transactions = {{3000000000005, {EventPointer{1, 417}}, 0}};
  CHECK(bytes_of(encode_inflight(transactions)) == expected);
  FindingList findings;
  const InflightFile decoded = decode_inflight(span(expected), "inflighttakes", &findings);
  CHECK(findings.findings().empty());
  REQUIRE(decoded.transactions.size() == 1);
  CHECK(decoded.transactions[0].transaction_id == 3000000000005);
  CHECK(decoded.transactions[0].offset == 16);
  CHECK(decoded.transactions[0].pointers == std::vector<EventPointer>{EventPointer{1, 417}});
}

TEST_CASE("flume inflight: a corrupted checksum names both digests") {
  Bytes file = bytes_of(encode_inflight({}));
  file[0] = 0;
  FindingList findings;
  const InflightFile decoded = decode_inflight(span(file), "inflightputs", &findings);
  CHECK_FALSE(decoded.checksum_ok);
  const Finding* f = first(findings, "inflight_checksum");
  REQUIRE(f);
  CHECK(f->offset == 0);
  CHECK(f->message ==
        "expected MD5 4ae71336e44bf9bf79d2752e234818a5 of bytes 16 to the end, "
        "found 00e71336e44bf9bf79d2752e234818a5");
}

TEST_CASE("flume inflight: an untrusted count is checked against the bytes left") {
  // A count of 2^40 + 5 is 5 to Java's (int) cast, more pointers than the
  // file holds: the parse keeps the one present, as Flume does, and says so.
  const Bytes file =
      qjt_test::cat({Bytes(16, 0), be64(9), be64((std::int64_t{1} << 40) + 5), be64(0x0000000200000010)});
  FindingList findings;
  const InflightFile decoded = decode_inflight(span(file), "inflightputs", &findings);
  CHECK_FALSE(decoded.complete);
  CHECK(has_code(findings, "inflight_checksum"));
  CHECK(has_code(findings, "inflight_count"));
  const Finding* truncated = first(findings, "inflight_truncated");
  REQUIRE(truncated);
  CHECK(truncated->offset == 40);
  REQUIRE(decoded.transactions.size() == 1);
  CHECK(decoded.transactions[0].pointers == std::vector<EventPointer>{EventPointer{2, 16}});
}

TEST_CASE("flume inflight: a negative count reads no pointers, as Java's loop does") {
  const Bytes file = qjt_test::cat({Bytes(16, 0), be64(5), be64(-1), be64(7), be64(1), be64(42)});
  FindingList findings;
  const InflightFile decoded = decode_inflight(span(file), "i", &findings);
  CHECK(has_code(findings, "inflight_count"));
  CHECK(decoded.complete);
  REQUIRE(decoded.transactions.size() == 1);
  CHECK(decoded.transactions[0].transaction_id == 7);
  CHECK(decoded.transactions[0].pointers[0].to_long() == 42);
}

TEST_CASE("flume inflight: lengths 1 to 15 and ragged tails are findings") {
  FindingList findings;
  const Bytes tiny(15, 0);
  CHECK_FALSE(decode_inflight(span(tiny), "i", &findings).complete);
  CHECK(first(findings, "inflight_length"));
  Bytes ragged = bytes_of(encode_inflight({}));
  ragged.push_back(0);
  FindingList tail;
  CHECK_FALSE(decode_inflight(span(ragged), "i", &tail).complete);
  const Finding* f = first(tail, "inflight_truncated");
  REQUIRE(f);
  CHECK(f->offset == 32);
}

TEST_CASE("flume inflight: every truncation and every seeded byte flip is a finding") {
  const Bytes file =
      bytes_of(encode_inflight({{11, {EventPointer{1, 24}, EventPointer{1, 90}}, 0}, {-3, {EventPointer{4, 0}}, 0}}));
  CHECK(decode_inflight(span(file), "i", nullptr).transactions.size() == 2);
  for_each_prefix(file, 1, [](const Bytes& prefix) {
    FindingList findings;
    (void)decode_inflight(span(prefix), "i", &findings);
    CHECK_FALSE(findings.findings().empty());
  });
  for_each_flip(file, 3, 2000, [](const Bytes& flipped) {
    FindingList findings;
    (void)decode_inflight(span(flipped), "i", &findings);
    CHECK_FALSE(findings.findings().empty());
  });
}

// ---------------------------------------------------------------- log-N.meta

TEST_CASE("flume log meta: a new unencrypted meta is 47 bytes in field order") {
  LogMetadata metadata;
  metadata.log_file_id = 1;
  const Bytes expected = qjt_test::cat({{0x2E, 0x0D, 3, 0, 0, 0, 0x15, 1, 0, 0, 0, 0x19},
                                        Bytes(8, 0),
                                        {0x21},
                                        Bytes(8, 0),
                                        {0x31},
                                        Bytes(8, 0),
                                        {0x39},
                                        Bytes(8, 0)});
  const Bytes encoded = bytes_of(encode_log_metadata(metadata));
  CHECK(encoded.size() == 47);
  CHECK(encoded == expected);
  FindingList findings;
  const LogMetadataDecode decoded = decode_log_metadata(span(encoded), "log-1.meta", &findings);
  CHECK(findings.findings().empty());
  CHECK(decoded.valid);
  CHECK(decoded.metadata == metadata);
}

TEST_CASE("flume log meta: encryption and checkpoint marks round trip") {
  LogMetadata metadata;
  metadata.log_file_id = 12;
  metadata.checkpoint_position = 4096;
  metadata.checkpoint_write_order_id = 3000000000001;
  metadata.backup_checkpoint_position = 1024;
  metadata.backup_checkpoint_write_order_id = 3000000000000;
  metadata.encryption = LogFileEncryption{"AESCTRNOPADDING", "key-0", std::string(16, '\x07')};
  const std::string encoded = encode_log_metadata(metadata);
  FindingList findings;
  const LogMetadataDecode decoded = decode_log_metadata(qjt::ByteSpan(encoded), "log-12.meta", &findings);
  CHECK(findings.findings().empty());
  CHECK(decoded.valid);
  CHECK(decoded.metadata == metadata);
  // Field 5 follows field 4 and precedes field 6.
  CHECK(encoded[1 + 5 + 5 + 9 + 9] == 0x2A);
}

TEST_CASE("flume log meta: absent optional fields stay absent; missing required ones are findings") {
  const Bytes message = {0x0D, 3, 0, 0, 0, 0x15, 2, 0, 0, 0, 0x19, 1, 0, 0, 0, 0, 0, 0, 0};
  Bytes file = {static_cast<std::uint8_t>(message.size())};
  file.insert(file.end(), message.begin(), message.end());
  FindingList findings;
  const LogMetadataDecode decoded = decode_log_metadata(span(file), "log-2.meta", &findings);
  CHECK_FALSE(decoded.valid);
  CHECK(decoded.metadata.log_file_id == 2);
  CHECK(decoded.metadata.checkpoint_position == 1);
  CHECK_FALSE(decoded.metadata.backup_checkpoint_position);
  const Finding* f = first(findings, "meta_missing_field");
  REQUIRE(f);
  CHECK(contains(f->message, "checkpointWriteOrderID"));
  CHECK(f->offset == 1);
}

TEST_CASE("flume log meta: an encryption message without keyAlias is a finding") {
  LogMetadata metadata;
  metadata.encryption = LogFileEncryption{"AESCTRNOPADDING", "", std::nullopt};
  Bytes file = bytes_of(encode_log_metadata(metadata));
  // Rename encryption's field 2 to field 4, an unknown one.
  for (std::size_t i = 0; i + 1 < file.size(); ++i)
    if (file[i] == 0x12 && file[i + 1] == 0x00) file[i] = 0x22;
  FindingList findings;
  CHECK_FALSE(decode_log_metadata(span(file), "log-0.meta", &findings).valid);
  const Finding* f = first(findings, "meta_missing_field");
  REQUIRE(f);
  CHECK(contains(f->message, "keyAlias"));
}

TEST_CASE("flume log meta: every truncation and seeded byte flips") {
  LogMetadata metadata;
  metadata.log_file_id = 3;
  metadata.checkpoint_position = 77;
  metadata.encryption = LogFileEncryption{"AESCTRNOPADDING", "k", std::string("0123456789abcdef")};
  const Bytes file = bytes_of(encode_log_metadata(metadata));
  for_each_prefix(file, 0, [](const Bytes& prefix) {
    FindingList findings;
    CHECK_FALSE(decode_log_metadata(span(prefix), "log-3.meta", &findings).valid);
    CHECK_FALSE(findings.findings().empty());
  });
  for_each_flip(file, 4, 3000, [](const Bytes& flipped) {
    FindingList findings;
    (void)decode_log_metadata(span(flipped), "log-3.meta", &findings);
  });
}

TEST_CASE("flume log meta: which of .meta, .meta.tmp and .meta.old a reader uses") {
  const LogMetaChoice none = choose_log_meta(false, false, false);
  CHECK(none.read == LogMetaFile::kNone);
  CHECK_FALSE(none.tmp_is_leftover);

  const LogMetaChoice all = choose_log_meta(true, true, true);
  CHECK(all.read == LogMetaFile::kMeta);
  CHECK_FALSE(all.renamed_to_meta);
  CHECK(all.tmp_is_leftover);
  CHECK(all.old_is_leftover);

  // Crash between meta -> old and tmp -> meta: the new tmp wins.
  const LogMetaChoice tmp_old = choose_log_meta(false, true, true);
  CHECK(tmp_old.read == LogMetaFile::kTmp);
  CHECK(tmp_old.renamed_to_meta);
  CHECK_FALSE(tmp_old.tmp_is_leftover);
  CHECK(tmp_old.old_is_leftover);

  const LogMetaChoice old_only = choose_log_meta(false, false, true);
  CHECK(old_only.read == LogMetaFile::kOld);
  CHECK(old_only.renamed_to_meta);
  CHECK_FALSE(old_only.old_is_leftover);

  CHECK(log_meta_file_name("log-7", LogMetaFile::kTmp) == "log-7.meta.tmp");
  CHECK(log_meta_file_name("log-7", LogMetaFile::kOld) == "log-7.meta.old");
  CHECK(log_meta_file_name("log-7", LogMetaFile::kMeta) == "log-7.meta");
}

// ---------------------------------------------------------------- snappy stream

TEST_CASE("flume snappy: header bytes and a round trip in 32 KiB blocks") {
  Bytes data;
  for (int i = 0; i < 100000; ++i) data.push_back(static_cast<std::uint8_t>((i * 7) % 13));
  const std::string stream = compress_snappy_stream(span(data));
  const Bytes header = {0x82, 0x53, 0x4E, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1};
  CHECK(Bytes(stream.begin(), stream.begin() + 16) == header);
  FindingList findings;
  const SnappyStreamDecode decoded =
      decompress_snappy_stream(qjt::ByteSpan(stream), data.size(), "cp.snappy", &findings);
  CHECK(findings.findings().empty());
  CHECK(decoded.complete);
  CHECK(Bytes(decoded.data.begin(), decoded.data.end()) == data);

  // The first block's length says how much of it is there: 4 blocks in all.
  std::size_t blocks = 0;
  for (std::size_t at = 16; at + 4 <= stream.size(); ++blocks) {
    const std::size_t length = (static_cast<std::size_t>(static_cast<std::uint8_t>(stream[at])) << 24) |
                               (static_cast<std::size_t>(static_cast<std::uint8_t>(stream[at + 1])) << 16) |
                               (static_cast<std::size_t>(static_cast<std::uint8_t>(stream[at + 2])) << 8) |
                               static_cast<std::size_t>(static_cast<std::uint8_t>(stream[at + 3]));
    at += 4 + length;
  }
  CHECK(blocks == 4);
}

TEST_CASE("flume snappy: the output limit is checked before allocating") {
  const Bytes data(70000, 'x');
  const std::string stream = compress_snappy_stream(span(data));
  FindingList findings;
  const SnappyStreamDecode decoded = decompress_snappy_stream(qjt::ByteSpan(stream), 40000, "s", &findings);
  CHECK_FALSE(decoded.complete);
  CHECK(decoded.data.size() == 32768);
  const Finding* f = first(findings, "snappy_output_limit");
  REQUIRE(f);
  CHECK(f->offset > 16);
}

TEST_CASE("flume snappy: bad magic, bad lengths and corrupt blocks are findings") {
  const Bytes data(1000, 'a');
  const std::string good = compress_snappy_stream(span(data));
  SUBCASE("magic") {
    std::string s = good;
    s[1] = 'X';
    FindingList findings;
    CHECK_FALSE(decompress_snappy_stream(qjt::ByteSpan(s), 1 << 20, "s", &findings).complete);
    const Finding* f = first(findings, "snappy_header");
    REQUIRE(f);
    CHECK(f->offset == 0);
  }
  SUBCASE("a block length past the end") {
    std::string s = good;
    s[16] = 0x7F;
    FindingList findings;
    CHECK_FALSE(decompress_snappy_stream(qjt::ByteSpan(s), 1 << 20, "s", &findings).complete);
    const Finding* f = first(findings, "snappy_truncated");
    REQUIRE(f);
    CHECK(f->offset == 16);
  }
  SUBCASE("a negative block length") {
    std::string s = good;
    s[16] = static_cast<char>(0xF0);
    FindingList findings;
    CHECK_FALSE(decompress_snappy_stream(qjt::ByteSpan(s), 1 << 20, "s", &findings).complete);
    CHECK(has_code(findings, "snappy_block"));
  }
  SUBCASE("a huge uncompressed length in the block") {
    // varint 0xFFFFFFFF then a literal tag: no allocation of 4 GiB.
    const Bytes block = {0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00, 'a'};
    Bytes s = qjt_test::cat({Bytes(good.begin(), good.begin() + 16), {0, 0, 0, 7}, block});
    FindingList findings;
    CHECK_FALSE(decompress_snappy_stream(span(s), 1 << 20, "s", &findings).complete);
    CHECK(has_code(findings, "snappy_output_limit"));
  }
  SUBCASE("concatenated streams decode as one") {
    const std::string twice = good + good;
    FindingList findings;
    const SnappyStreamDecode decoded = decompress_snappy_stream(qjt::ByteSpan(twice), 1 << 20, "s", &findings);
    CHECK(findings.findings().empty());
    CHECK(decoded.data.size() == 2000);
  }
}

TEST_CASE("flume snappy: every truncation and seeded byte flips") {
  Bytes data;
  for (int i = 0; i < 5000; ++i) data.push_back(static_cast<std::uint8_t>(i * i % 251));
  const std::string stream = compress_snappy_stream(span(data), 1024);
  const Bytes file(stream.begin(), stream.end());
  for_each_prefix(file, 0, [&](const Bytes& prefix) {
    FindingList findings;
    const SnappyStreamDecode decoded = decompress_snappy_stream(span(prefix), data.size(), "s", &findings);
    // A cut at a block boundary is a shorter valid stream; the data shows it.
    CHECK((!findings.findings().empty() || decoded.data.size() < data.size()));
  });
  for_each_flip(file, 5, 3000, [&](const Bytes& flipped) {
    FindingList findings;
    const SnappyStreamDecode decoded = decompress_snappy_stream(span(flipped), data.size(), "s", &findings);
    CHECK(decoded.data.size() <= data.size());
  });
}

TEST_CASE("flume snappy: the real V2 checkpoint fixture compresses and decompresses back") {
  const auto file = qjt_test::read_shared_fixture_gz("flume-v2/fileformat-v2-checkpoint.gz");
  if (!file) {
    MESSAGE("shared fixture flume-v2/fileformat-v2-checkpoint.gz not present: skipped");
    return;
  }
  const std::string stream = compress_snappy_stream(span(*file));
  FindingList findings;
  const SnappyStreamDecode decoded = decompress_snappy_stream(qjt::ByteSpan(stream), file->size(), "s", &findings);
  CHECK(findings.findings().empty());
  CHECK(Bytes(decoded.data.begin(), decoded.data.end()) == *file);
}
