// Flume data logs (log-N): LogReader, the record encoders and AesCtr.
// Byte vectors are laid out by hand from flume-format.md §5.1-5.3 (framing
// big-endian, protobuf fixed fields little-endian); the real V2 files are
// read from ../shared/fixtures/flume-v2 when present.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "flume/aes_ctr.h"
#include "flume/log_reader.h"
#include "flume/log_record.h"
#include "flume/log_writer.h"
#include "input_file.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::flume;
using qjt_test::Bytes;
using qjt_test::cat;
using qjt_test::contains;
using qjt_test::span;
using qjt_test::text;

namespace {

// A record with its views copied out: views into an encrypted reader's
// buffer do not outlive the next call.
struct Decoded {
  LogRecordType type = LogRecordType::kEndOfData;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::int64_t txid = 0;
  std::int64_t woid = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::uint64_t body_offset = 0;
  bool null_body = false;
  std::optional<std::uint32_t> stored_crc;
  bool crc_ok = true;
  EventPointer taken;
  std::int16_t commit_type = 0;
  std::string error;
  std::uint64_t trailing_bytes = 0;
};

Decoded copy(const LogRecord& r) {
  Decoded d;
  d.type = r.type;
  d.offset = r.offset;
  d.size = r.size;
  d.txid = r.transaction_id;
  d.woid = r.write_order_id;
  for (const EventHeader& h : r.headers)
    d.headers.emplace_back(qjt_test::as_string(h.key), qjt_test::as_string(h.value));
  d.body = qjt_test::as_string(r.body);
  d.body_offset = r.body_offset;
  d.null_body = r.null_body;
  d.stored_crc = r.stored_crc;
  d.crc_ok = r.crc_ok;
  d.taken = r.taken;
  d.commit_type = r.commit_type;
  d.error = r.error;
  d.trailing_bytes = r.trailing_bytes;
  return d;
}

std::vector<Decoded> read_all(ByteSpan file, int version, std::uint64_t start, AesCtr* decryptor = nullptr) {
  LogReader reader(file, version, start, decryptor);
  std::vector<Decoded> out;
  LogRecord r;
  while (reader.next(&r)) {
    out.push_back(copy(r));
    REQUIRE(out.size() <= file.size() + 1);  // no endless stream
  }
  return out;
}
std::vector<Decoded> read_all(const std::string& file, int version, std::uint64_t start, AesCtr* decryptor = nullptr) {
  return read_all(ByteSpan(file), version, start, decryptor);
}

std::string str(const Bytes& b) { return std::string(b.begin(), b.end()); }

Bytes be32(std::uint32_t v) {
  return {std::uint8_t(v >> 24), std::uint8_t(v >> 16), std::uint8_t(v >> 8), std::uint8_t(v)};
}
Bytes be64(std::uint64_t v) { return cat({be32(std::uint32_t(v >> 32)), be32(std::uint32_t(v))}); }
Bytes le32(std::uint32_t v) {
  return {std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)};
}
Bytes le64(std::uint64_t v) { return cat({le32(std::uint32_t(v)), le32(std::uint32_t(v >> 32))}); }

// A V3 record around a hand-made payload.
Bytes v3_record(const Bytes& payload) { return cat({{0x7F}, be32(std::uint32_t(payload.size())), payload}); }
// The delimited TransactionEventHeader Flume always writes.
Bytes v3_header(std::uint32_t type, std::uint64_t txid, std::uint64_t woid) {
  return cat({{0x17, 0x0D}, le32(type), {0x11}, le64(txid), {0x19}, le64(woid)});
}

// The spec's real Put (§5.3), 71 bytes, written by Flume 1.11.
const Bytes kSpecPut = cat({{0x7F, 0x00, 0x00, 0x00, 0x42},
                            {0x17, 0x0D, 0x01, 0x00, 0x00, 0x00},
                            {0x11, 0x01, 0x30, 0xEF, 0x7D, 0xBA, 0x02, 0x00, 0x00},
                            {0x19, 0x02, 0x20, 0x4A, 0xA9, 0xD1, 0x01, 0x00, 0x00},
                            {0x28, 0x0A, 0x1D},
                            {0x0A, 0x08, 0x0A, 0x02},
                            text("k1"),
                            {0x12, 0x02},
                            text("v1"),
                            {0x0A, 0x08, 0x0A, 0x02},
                            text("k2"),
                            {0x12, 0x02},
                            text("v2"),
                            {0x12, 0x07},
                            text("event-A"),
                            {0x11, 0x88, 0xC1, 0xBB, 0x61, 0x00, 0x00, 0x00, 0x00},
                            {0x00}});

const HeaderToWrite kSpecHeaders[] = {{"k1", "v1"}, {"k2", "v2"}};

// A small V3 log of every record type, followed by `fill` bytes of 0x80.
std::string sample_v3_log(AesCtr* encryptor = nullptr, std::size_t fill = 0) {
  V3RecordWriter w(encryptor);
  std::string log;
  CHECK(w.put(&log, 11, 101, kSpecHeaders, "first"));
  CHECK(w.put(&log, 11, 102, {}, "second", PutChecksum::kAbsent));
  const HeaderToWrite null_value[] = {{"nullvalue", std::nullopt}};
  CHECK(w.put(&log, 11, 103, null_value, ""));
  CHECK(w.commit(&log, 11, 104, 1));
  CHECK(w.take(&log, 12, 105, EventPointer{7, 0}));
  CHECK(w.rollback(&log, 12, 106));
  CHECK(w.take(&log, 13, 107, EventPointer{7, 48}));
  CHECK(w.commit(&log, 13, 108, 2));
  log.append(fill, '\x80');
  return log;
}

void check_sample_v3(const std::vector<Decoded>& r) {
  REQUIRE(r.size() == 9);
  CHECK(r[0].type == LogRecordType::kPut);
  CHECK(r[0].offset == 0);
  CHECK(r[0].txid == 11);
  CHECK(r[0].woid == 101);
  CHECK(r[0].headers == std::vector<std::pair<std::string, std::string>>{{"k1", "v1"}, {"k2", "v2"}});
  CHECK(r[0].body == "first");
  CHECK(r[0].stored_crc.has_value());
  CHECK(r[0].crc_ok);
  CHECK(r[1].type == LogRecordType::kPut);
  CHECK(r[1].body == "second");
  CHECK_FALSE(r[1].stored_crc.has_value());
  CHECK(r[1].crc_ok);
  CHECK(r[2].headers == std::vector<std::pair<std::string, std::string>>{{"nullvalue", ""}});
  CHECK(r[2].body.empty());
  CHECK(r[2].stored_crc == 0u);  // crc32("") = 0
  CHECK(r[3].type == LogRecordType::kCommit);
  CHECK(r[3].commit_type == 1);
  CHECK(r[3].size == 36);
  CHECK(r[4].type == LogRecordType::kTake);
  CHECK(r[4].taken == EventPointer{7, 0});
  CHECK(r[4].size == 41);
  CHECK(r[5].type == LogRecordType::kRollback);
  CHECK(r[5].size == 31);
  CHECK(r[6].taken == EventPointer{7, 48});
  CHECK(r[7].commit_type == 2);
  CHECK(r[7].woid == 108);
  CHECK(r[8].type == LogRecordType::kEndOfData);
  for (std::size_t i = 1; i < r.size(); ++i) CHECK(r[i].offset == r[i - 1].offset + r[i - 1].size);
}

std::string v3_error_of(const Bytes& payload) {
  const Bytes file = v3_record(payload);
  const auto r = read_all(ByteSpan(file.data(), file.size()), 3, 0);
  REQUIRE(r.size() == 1);
  CHECK(r[0].type == LogRecordType::kBroken);
  CHECK(r[0].size == file.size());
  return r[0].error;
}

std::string hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

Bytes unhex(std::string_view h) {
  Bytes out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16)));
  return out;
}

AesCtr make_cipher(const Bytes& key, const Bytes& iv) {
  std::string error;
  auto cipher = AesCtr::create(span(key), span(iv), &error);
  REQUIRE_MESSAGE(cipher.has_value(), error);
  return std::move(*cipher);
}

}  // namespace

TEST_CASE("flume log_record_type_name") {
  CHECK(std::string(log_record_type_name(LogRecordType::kPut)) == "put");
  CHECK(std::string(log_record_type_name(LogRecordType::kTake)) == "take");
  CHECK(std::string(log_record_type_name(LogRecordType::kRollback)) == "rollback");
  CHECK(std::string(log_record_type_name(LogRecordType::kCommit)) == "commit");
  CHECK(std::string(log_record_type_name(LogRecordType::kNoop)) == "noop");
  CHECK(std::string(log_record_type_name(LogRecordType::kEndOfData)) == "end_of_data");
  CHECK(std::string(log_record_type_name(LogRecordType::kBroken)) == "broken");
}

TEST_CASE("flume V3 put: the writer produces the spec's 71-byte record") {
  std::string out = "prefix";
  V3RecordWriter w;
  REQUIRE(w.put(&out, 3000000000001, 2000000000002, kSpecHeaders, "event-A"));
  CHECK(hex(out.substr(6)) == hex(str(kSpecPut)));
  CHECK(out.substr(0, 6) == "prefix");
}

TEST_CASE("flume V3 put: the reader decodes the spec's record") {
  const Bytes file = cat({kSpecPut, Bytes(10, 0x80)});
  LogReader reader(span(file), 3, 0);
  LogRecord r;
  REQUIRE(reader.next(&r));
  CHECK(r.type == LogRecordType::kPut);
  CHECK(r.offset == 0);
  CHECK(r.size == 71);
  CHECK(r.transaction_id == 3000000000001);
  CHECK(r.write_order_id == 2000000000002);
  REQUIRE(r.headers.size() == 2);
  CHECK(qjt_test::as_string(r.headers[0].key) == "k1");
  CHECK(qjt_test::as_string(r.headers[0].value) == "v1");
  CHECK(qjt_test::as_string(r.headers[1].key) == "k2");
  CHECK(qjt_test::as_string(r.headers[1].value) == "v2");
  CHECK(qjt_test::as_string(r.body) == "event-A");
  CHECK(r.body.data() == file.data() + 54);  // a view into the file, not a copy
  CHECK(r.body_offset == 54);
  CHECK(r.stored_crc == 0x61BBC188u);
  CHECK(r.computed_crc == 0x61BBC188u);
  CHECK(r.crc_ok);
  REQUIRE(reader.next(&r));
  CHECK(r.type == LogRecordType::kEndOfData);
  CHECK(r.offset == 71);
  CHECK_FALSE(reader.next(&r));
  CHECK_FALSE(reader.next(&r));
  CHECK_FALSE(reader.data_after_end_fill().has_value());
}

TEST_CASE("flume V3 commit, rollback and take: exact bytes and sizes 36, 31, 41") {
  V3RecordWriter w;
  std::string commit, rollback, take;
  REQUIRE(w.commit(&commit, 5, 6, 1));
  REQUIRE(w.rollback(&rollback, 5, 7));
  REQUIRE(w.take(&take, 5, 8, EventPointer{3, 0x1234}));
  CHECK(hex(commit) == hex(str(v3_record(cat({v3_header(4, 5, 6), {0x05, 0x0D}, le32(1), {0x00}})))));
  CHECK(hex(rollback) == hex(str(v3_record(cat({v3_header(3, 5, 7), {0x00}, {0x00}})))));
  CHECK(hex(take) ==
        hex(str(v3_record(cat({v3_header(2, 5, 8), {0x0A, 0x0D}, le32(3), {0x15}, le32(0x1234), {0x00}})))));
  CHECK(commit.size() == 36);
  CHECK(rollback.size() == 31);
  CHECK(take.size() == 41);
}

TEST_CASE("flume V3 round trip of every record type") {
  const std::string log = sample_v3_log(nullptr, 100);
  check_sample_v3(read_all(log, 3, 0));
}

TEST_CASE("flume V3 put: a checksum mismatch keeps the put and reading goes on") {
  std::string log = sample_v3_log();
  const std::size_t body = log.find("first");
  REQUIRE(body != std::string::npos);
  log[body] = 'F';
  const auto r = read_all(log, 3, 0);
  REQUIRE(r.size() == 9);
  CHECK(r[0].type == LogRecordType::kPut);
  CHECK_FALSE(r[0].crc_ok);
  CHECK(r[0].body == "First");
  CHECK(r[0].body_offset == body);
  CHECK(r[8].type == LogRecordType::kEndOfData);
  // The same record without its checksum is not checked: crc_ok stays true.
  CHECK(r[1].crc_ok);

  // A reader told not to verify fills stored_crc but trusts it.
  LogReader reader(ByteSpan(log), 3, 0);
  reader.set_verify_checksums(false);
  LogRecord record;
  REQUIRE(reader.next(&record));
  CHECK(record.stored_crc.has_value());
  CHECK(record.crc_ok);
}

TEST_CASE("flume V3 put: a checksum above 32 bits never matches, as Flume compares longs") {
  // crc32("ab") = 0x9E83486D, stored with bit 32 set.
  const Bytes payload =
      cat({v3_header(1, 1, 2), {0x0F, 0x0A, 0x04, 0x12, 0x02}, text("ab"), {0x11}, le64(0x1'9E83486Dull), {0x00}});
  const Bytes file = v3_record(payload);
  const auto r = read_all(ByteSpan(file.data(), file.size()), 3, 0);
  REQUIRE(r.size() == 2);
  CHECK(r[0].type == LogRecordType::kPut);
  CHECK(r[0].stored_crc == 0x9E83486Du);
  CHECK_FALSE(r[0].crc_ok);
}

TEST_CASE("flume V3 reader is as lenient as protobuf-java: unknown fields, field order, merged events") {
  // Header fields out of order plus an unknown varint field 9; the put's
  // event given twice (headers append, body: the last one wins).
  const Bytes header = cat({{0x19, 0x48, 0x05}, {0x19}, le64(77), {0x11}, le64(66), {0x0D}, le32(1)});
  const Bytes put =
      cat({{0x0E}, {0x0A, 0x06, 0x0A, 0x04, 0x0A, 0x02}, text("k1"), {0x0A, 0x04, 0x12, 0x02}, text("zz")});
  const Bytes file = v3_record(cat({header, put, {0x02, 0x50, 0x01}, text("ignored")}));
  const auto r = read_all(ByteSpan(file.data(), file.size()), 3, 0);
  REQUIRE_MESSAGE(r.size() == 2, r[0].error);
  CHECK(r[0].type == LogRecordType::kPut);
  CHECK(r[0].txid == 66);
  CHECK(r[0].woid == 77);
  CHECK(r[0].headers == std::vector<std::pair<std::string, std::string>>{{"k1", ""}});
  CHECK(r[0].body == "zz");
  CHECK_FALSE(r[0].stored_crc.has_value());
  CHECK(r[0].trailing_bytes == 7);  // "ignored", after the footer: skipped, as Flume does, and counted
}

TEST_CASE("flume V3: a length that runs past the footer counts the bytes it swallowed") {
  V3RecordWriter w;
  std::string log;
  REQUIRE(w.commit(&log, 5, 6, 1));  // 36 bytes
  REQUIRE(w.rollback(&log, 7, 8));   // 31 bytes, which the damaged length below takes in
  REQUIRE(w.commit(&log, 9, 10, 1));
  const auto r = read_all(log, 3, 0);
  REQUIRE(r.size() == 4);
  CHECK(r[0].trailing_bytes == 0);  // Flume's own records have none

  log[4] = static_cast<char>(log[4] + 31);  // the commit's length, low byte: 31 -> 62
  LogReader reader(ByteSpan(log), 3, 0);
  LogRecord record;
  REQUIRE(reader.next(&record));
  CHECK(record.type == LogRecordType::kCommit);
  CHECK(record.size == 36 + 31);
  CHECK(record.trailing_bytes == 31);
  CHECK(record.trailing_offset() == 36);
  CHECK(trailing_bytes_message(record) ==
        "expected the commit to end at byte 36 with its footer, found 31 more byte(s) up to byte 67 that its "
        "length takes in: Flume skips them, and any records a damaged length swallowed there are never replayed");
  REQUIRE(reader.next(&record));  // the rollback is hidden: reading goes on after it, as Flume's does
  CHECK(record.type == LogRecordType::kCommit);
  CHECK(record.transaction_id == 9);
  CHECK(record.trailing_bytes == 0);
}

TEST_CASE("flume V3 broken payloads: expected/found messages with the position in the record") {
  SUBCASE("unknown record type") {
    const std::string e = v3_error_of(cat({v3_header(9, 1, 2), {0x00}, {0x00}}));
    CHECK(contains(e, "expected record type 1 (put), 2 (take), 3 (rollback) or 4 (commit), found 9"));
    CHECK(contains(e, "(at byte 6 of the record)"));
  }
  SUBCASE("the type is cast to a short, as Flume does") {
    const Bytes file = v3_record(cat({v3_header(0x10003, 1, 2), {0x00}, {0x00}}));
    const auto r = read_all(ByteSpan(file.data(), file.size()), 3, 0);
    CHECK(r[0].type == LogRecordType::kRollback);
  }
  SUBCASE("missing required header field") {
    const std::string e = v3_error_of(cat({{0x05, 0x0D}, le32(3), {0x00}, {0x00}}));
    CHECK(contains(e, "transaction header: expected required field 2 (transactionID), found none"));
  }
  SUBCASE("missing footer") {
    const std::string e = v3_error_of(cat({v3_header(3, 1, 2), {0x00}}));
    CHECK(contains(e, "footer: expected a varint length prefix, found no bytes (at byte 30 of the record)"));
  }
  SUBCASE("put without event") {
    const std::string e = v3_error_of(cat({v3_header(1, 1, 2), {0x00}, {0x00}}));
    CHECK(contains(e, "put: expected required field 1 (event), found none"));
  }
  SUBCASE("put event without body") {
    const std::string e = v3_error_of(cat({v3_header(1, 1, 2), {0x02, 0x0A, 0x00}, {0x00}}));
    CHECK(contains(e, "put event: expected required field 2 (body), found none (at byte 32 of the record)"));
  }
  SUBCASE("header without key") {
    const std::string e = v3_error_of(cat({v3_header(1, 1, 2), {0x06, 0x0A, 0x04, 0x0A, 0x00, 0x12, 0x00}, {0x00}}));
    CHECK(contains(e, "put event header: expected required field 1 (key), found none"));
  }
  SUBCASE("a length running past its message") {
    const std::string e = v3_error_of(cat({v3_header(1, 1, 2), {0x04, 0x0A, 0x02, 0x12, 0x09}, {0x00}}));
    CHECK(contains(e, "put event: field 2: expected 9 bytes, found 0 (at byte 32 of the record)"));
  }
  SUBCASE("a huge protobuf length is an error, not an allocation") {
    const std::string e = v3_error_of(
        cat({v3_header(1, 1, 2), {0x0B, 0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, {0x00}}));
    CHECK(contains(e, "put: field 1: expected 18446744073709551615 bytes"));
  }
  SUBCASE("take missing its offset") {
    const std::string e = v3_error_of(cat({v3_header(2, 1, 2), {0x05, 0x0D}, le32(1), {0x00}}));
    CHECK(contains(e, "take: expected required field 2 (offset), found none"));
  }
  SUBCASE("commit without type") {
    const std::string e = v3_error_of(cat({v3_header(4, 1, 2), {0x00}, {0x00}}));
    CHECK(contains(e, "commit: expected required field 1 (type), found none"));
  }
  SUBCASE("garbage in the footer") {
    const std::string e = v3_error_of(cat({v3_header(3, 1, 2), {0x00}, {0x01, 0x07}}));
    CHECK(contains(e, "footer: "));
  }
}

TEST_CASE("flume V3 framing errors") {
  SUBCASE("negative length") {
    const Bytes file = cat({{0x7F}, be32(0xFFFFFFFF), Bytes(40, 0)});
    const auto r = read_all(ByteSpan(file.data(), file.size()), 3, 0);
    REQUIRE(r.size() == 1);
    CHECK(r[0].type == LogRecordType::kBroken);
    CHECK(r[0].error == "expected a record length >= 0, found -1");
    CHECK(r[0].size == 0);
  }
  SUBCASE("huge length past the end: no allocation, kBroken") {
    const Bytes file = cat({{0x7F}, be32(0x7FFFFFFF), Bytes(40, 0)});
    const auto r = read_all(ByteSpan(file.data(), file.size()), 3, 0);
    REQUIRE(r.size() == 1);
    CHECK(r[0].error == "expected a record payload of 2147483647 bytes, found 40");
  }
  SUBCASE("length cut short") {
    const Bytes file = {0x7F, 0x00, 0x00};
    const auto r = read_all(ByteSpan(file.data(), file.size()), 3, 0);
    CHECK(r[0].error == "expected a 4-byte record length after the OP byte, found 2 bytes");
  }
  SUBCASE("bad OP byte") {
    std::string log = sample_v3_log();
    const std::size_t second = 5 + static_cast<std::size_t>(static_cast<unsigned char>(log[4]));
    log[second] = '\x42';
    const auto r = read_all(log, 3, 0);
    REQUIRE(r.size() == 2);
    CHECK(r[1].type == LogRecordType::kBroken);
    CHECK(r[1].offset == second);
    CHECK(r[1].error == "expected an OP byte 0x7F, 0x80 or 0x00, found 0x42");
  }
  SUBCASE("unsupported version and a start past the end") {
    const std::string log = sample_v3_log();
    auto r = read_all(log, 4, 0);
    REQUIRE(r.size() == 1);
    CHECK(r[0].error == "expected log format version 2 or 3, found 4");
    r = read_all(log, 3, log.size() + 1);
    REQUIRE(r.size() == 1);
    CHECK(r[0].type == LogRecordType::kBroken);
    CHECK(contains(r[0].error, "expected a start offset within the file"));
    r = read_all(log, 3, log.size());
    REQUIRE(r.size() == 1);
    CHECK(r[0].type == LogRecordType::kEndOfData);
    CHECK(r[0].offset == log.size());
  }
  SUBCASE("empty file") {
    const auto r = read_all(ByteSpan(), 3, 0);
    REQUIRE(r.size() == 1);
    CHECK(r[0].type == LogRecordType::kEndOfData);
  }
}

TEST_CASE("flume NOOP records are skipped by their length") {
  std::string log = sample_v3_log(nullptr, 16);
  const auto plain = read_all(log, 3, 0);
  log[plain[1].offset] = '\0';  // what the integrity tool does to a record
  log[plain[4].offset] = '\0';
  const auto r = read_all(log, 3, 0);
  REQUIRE(r.size() == plain.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    CHECK(r[i].offset == plain[i].offset);
    CHECK(r[i].size == plain[i].size);
    if (i == 1 || i == 4) {
      CHECK(r[i].type == LogRecordType::kNoop);
      CHECK(r[i].error == "skipped " + std::to_string(plain[i].size - 5) + " bytes");
    } else {
      CHECK(r[i].type == plain[i].type);
    }
  }
  SUBCASE("a NOOP length that is negative, past the end or cut short is broken") {
    Bytes file = cat({{0x00}, be32(0x80000000)});
    CHECK(read_all(ByteSpan(file.data(), file.size()), 3, 0)[0].error ==
          "expected a NOOP length >= 0, found -2147483648");
    file = cat({{0x00}, be32(10), Bytes(9, 0x80)});
    CHECK(read_all(ByteSpan(file.data(), file.size()), 3, 0)[0].error ==
          "expected a NOOP payload of 10 bytes, found 9");
    file = {0x00, 0x00};
    CHECK(read_all(ByteSpan(file.data(), file.size()), 3, 0)[0].error ==
          "expected a 4-byte NOOP length after the OP byte, found 1 bytes");
  }
}

TEST_CASE("flume end-of-data fill: records written after the 0x80 fill are detected on request") {
  std::string log = sample_v3_log(nullptr, 4096);
  {
    LogReader reader(ByteSpan(log), 3, 0);
    LogRecord r;
    while (reader.next(&r)) {
    }
    CHECK(r.type == LogRecordType::kEndOfData);
    CHECK_FALSE(reader.data_after_end_fill().has_value());
  }
  const std::size_t end = log.size() - 4096;
  for (std::size_t garbage : {end + 1, end + 7, end + 8, end + 1000, log.size() - 1}) {
    std::string copy = log;
    copy[garbage] = '\x7F';
    LogReader reader(ByteSpan(copy), 3, 0);
    LogRecord r;
    while (reader.next(&r)) {
    }
    CHECK(r.type == LogRecordType::kEndOfData);
    CHECK(r.offset == end);
    CHECK(reader.data_after_end_fill() == garbage);
  }
  // Ended by the physical end, or broken: there is no fill to look past.
  std::string cut = log.substr(0, end);
  LogReader reader(ByteSpan(cut), 3, 0);
  LogRecord r;
  while (reader.next(&r)) {
  }
  CHECK_FALSE(reader.data_after_end_fill().has_value());
  CHECK(find_first_non_fill(ByteSpan(log), 0) == 0);
  CHECK_FALSE(find_first_non_fill(ByteSpan(log), end).has_value());
  CHECK_FALSE(find_first_non_fill(ByteSpan(log), log.size() + 5).has_value());
}

TEST_CASE("flume V2 put: the writer produces the spec's 33-byte record") {
  std::string out;
  append_v2_put(&out, 0x0102030405060708, 0x1112131415161718, {}, std::string_view("0"));
  const Bytes expected = cat({{0x7F, 0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01},
                              be64(0x0102030405060708),
                              be64(0x1112131415161718),
                              {0x00},
                              be32(0),
                              be32(1),
                              text("0")});
  CHECK(out.size() == 33);
  CHECK(hex(out) == hex(str(expected)));
  const auto r = read_all(out, 2, 0);
  REQUIRE(r.size() == 2);
  CHECK(r[0].type == LogRecordType::kPut);
  CHECK(r[0].size == 33);
  CHECK(r[0].txid == 0x0102030405060708);
  CHECK(r[0].woid == 0x1112131415161718);
  CHECK(r[0].body == "0");
  CHECK(r[0].body_offset == 32);
  CHECK_FALSE(r[0].stored_crc.has_value());
  CHECK(r[1].type == LogRecordType::kEndOfData);
}

TEST_CASE("flume V2 round trip: header and every record type") {
  std::string log;
  append_v2_log_header(&log, V2LogHeader{2, 5, 24, 99});
  CHECK(hex(log) == hex(str(cat({be32(2), be32(5), be64(24), be64(99)}))));
  const std::string long_key(200, 'k');
  const std::string long_value(70000, 'v');
  const HeaderToWrite headers[] = {{"a", "b"}, {long_key, long_value}, {"empty", std::nullopt}};
  append_v2_put(&log, 1, 2, headers, std::string_view("body"));
  append_v2_put(&log, 1, 3, {}, std::nullopt);
  append_v2_commit(&log, 1, 4, 1);
  append_v2_take(&log, 2, 5, EventPointer{5, 24});
  append_v2_rollback(&log, 2, 6);
  append_v2_commit(&log, 3, 7, 2);
  log.append(50, '\x80');

  FindingList findings;
  const auto header = read_v2_log_header(ByteSpan(log), "log-5", 5, &findings);
  REQUIRE(header.has_value());
  CHECK(findings.findings().empty());
  CHECK(header->file_id == 5);
  CHECK(header->checkpoint_position == 24);
  CHECK(header->checkpoint_write_order_id == 99);

  const auto r = read_all(log, 2, kV2LogHeaderSize);
  REQUIRE(r.size() == 7);
  CHECK(r[0].type == LogRecordType::kPut);
  CHECK(r[0].offset == 24);
  CHECK(r[0].headers ==
        std::vector<std::pair<std::string, std::string>>{{"a", "b"}, {long_key, long_value}, {"empty", ""}});
  CHECK(r[0].body == "body");
  CHECK(r[1].null_body);
  CHECK(r[1].body.empty());
  CHECK(r[2].type == LogRecordType::kCommit);
  CHECK(r[2].commit_type == 1);
  CHECK(r[2].size == 1 + 4 + 2 + 16 + 2);
  CHECK(r[3].type == LogRecordType::kTake);
  CHECK(r[3].taken == EventPointer{5, 24});
  CHECK(r[3].size == 1 + 4 + 2 + 16 + 8);
  CHECK(r[4].type == LogRecordType::kRollback);
  CHECK(r[4].size == 23);
  CHECK(r[5].commit_type == 2);
  CHECK(r[5].txid == 3);
  CHECK(r[6].type == LogRecordType::kEndOfData);
  for (std::size_t i = 1; i < r.size(); ++i) CHECK(r[i].offset == r[i - 1].offset + r[i - 1].size);
}

TEST_CASE("flume V2 put: class table entries are skipped, type bytes are not checked") {
  const Bytes file = cat({{0x7F, 0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01},
                          be64(1),
                          be64(2),
                          {0x02, 0x01, 0x00, 0x03},
                          text("abc"),
                          {0x02, 0x00, 0x00},  // two (id, UTF) pairs
                          be32(1),
                          {0x00, 0x01},
                          text("k"),
                          {0x55, 0x02},
                          text("vv"),
                          be32(2),
                          text("xy")});
  const auto r = read_all(ByteSpan(file.data(), file.size()), 2, 0);
  REQUIRE(r.size() == 2);
  CHECK(r[0].type == LogRecordType::kPut);
  CHECK(r[0].headers == std::vector<std::pair<std::string, std::string>>{{"k", "vv"}});
  CHECK(r[0].body == "xy");
  CHECK(r[0].size == file.size());
}

TEST_CASE("flume V2 broken records") {
  const Bytes prefix = cat({{0x7F, 0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01}, be64(1), be64(2), {0x00}});
  auto error_of = [](const Bytes& file) {
    const auto r = read_all(ByteSpan(file.data(), file.size()), 2, 0);
    REQUIRE(r.size() == 1);
    CHECK(r[0].type == LogRecordType::kBroken);
    return r[0].error;
  };
  CHECK(error_of(cat({{0x7F, 0xDE, 0xAD, 0xBE, 0xEE}, Bytes(30, 0)})) ==
        "expected the V2 record magic 0xDEADBEEF, found 0xDEADBEEE (at byte 1 of the record)");
  CHECK(error_of(cat({{0x7F, 0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x07}, Bytes(30, 0)})) ==
        "expected record type 1 (put), 2 (take), 3 (rollback) or 4 (commit), found 7 (at byte 5 of the record)");
  CHECK(error_of({0x7F, 0xDE, 0xAD}) ==
        "expected the V2 record magic 0xDEADBEEF (4 bytes), found 2 (at byte 1 of the record)");
  CHECK(error_of(cat({prefix, be32(0x7FFFFFFF), Bytes(100, 0)})) ==
        "expected 2147483647 headers (at least 8589934588 bytes), found 100 bytes (at byte 24 of the record)");
  // A VInt key length of 2^31-1: refused against the bytes present.
  CHECK(error_of(cat({prefix, be32(1), {0x8C, 0x8C, 0x7F, 0xFF, 0xFF, 0xFF}, Bytes(10, 0)})) ==
        "expected a header key of 2147483647 bytes, found 10 (at byte 34 of the record)");
  // A VInt beyond int32.
  CHECK(contains(error_of(cat({prefix, be32(1), {0x8C, 0x88, 0x01, 0, 0, 0, 0, 0, 0, 0}})),
                 "expected a header key length (Hadoop VInt), found a truncated or oversized one"));
  CHECK(error_of(cat({prefix, be32(1), {0x8C, 0xFF}, Bytes(10, 0)})) ==
        "expected a header key length >= 0, found -1 (at byte 29 of the record)");
  CHECK(error_of(cat({prefix, be32(0), be32(0xFFFFFFFE)})) ==
        "expected a body length >= -1, found -2 (at byte 28 of the record)");
  CHECK(error_of(cat({prefix, be32(0), be32(0x7FFFFFFF), text("abc")})) ==
        "expected a body of 2147483647 bytes, found 3 (at byte 32 of the record)");
  // A negative header count reads as none, as Java's loop does.
  const Bytes negative = cat({prefix, be32(0xFFFFFFFF), be32(1), text("z")});
  const auto r = read_all(ByteSpan(negative.data(), negative.size()), 2, 0);
  REQUIRE(r.size() == 2);
  CHECK(r[0].body == "z");
  CHECK(r[0].headers.empty());
}

TEST_CASE("flume Hadoop VInt: exact bytes and round trips") {
  auto encode = [](std::int64_t v) {
    std::string out;
    append_hadoop_vlong(&out, v);
    return hex(out);
  };
  CHECK(encode(0) == "00");
  CHECK(encode(127) == "7f");
  CHECK(encode(-112) == "90");
  CHECK(encode(128) == "8f80");
  CHECK(encode(255) == "8fff");
  CHECK(encode(256) == "8e0100");
  CHECK(encode(-113) == "8770");
  CHECK(encode(-256) == "87ff");
  CHECK(encode(-257) == "860100");
  CHECK(encode(2147483647) == "8c7fffffff");
  CHECK(encode(-2147483648LL) == "847fffffff");
  for (std::int64_t v : {0LL, 1LL, -1LL, 127LL, 128LL, -112LL, -113LL, 255LL, 256LL, 65535LL, 65536LL, -65536LL,
                         16777216LL, 2147483647LL, -2147483648LL}) {
    std::string out;
    append_hadoop_vlong(&out, v);
    ByteReader in{ByteSpan(out)};
    std::int32_t back = 0;
    REQUIRE(read_hadoop_vint(&in, &back));
    CHECK(back == v);
    CHECK(in.remaining() == 0);
  }
  std::string big;
  append_hadoop_vlong(&big, 2147483648LL);
  ByteReader in{ByteSpan(big)};
  std::int32_t value = 0;
  CHECK_FALSE(read_hadoop_vint(&in, &value));
  CHECK(in.position() == 0);
  const Bytes cut = {0x8E, 0x01};
  ByteReader short_in(span(cut));
  CHECK_FALSE(read_hadoop_vint(&short_in, &value));
  CHECK(short_in.position() == 0);
}

TEST_CASE("flume V2 header findings") {
  auto check = [](const Bytes& file, std::optional<std::int32_t> id, const char* code) {
    FindingList findings;
    const auto header = read_v2_log_header(span(file), "log-1", id, &findings);
    REQUIRE(findings.findings().size() == 1);
    CHECK(findings.findings()[0].code == code);
    CHECK(findings.findings()[0].file == "log-1");
    return header;
  };
  CHECK_FALSE(check(Bytes(23, 0), 1, "log_header_truncated").has_value());
  CHECK_FALSE(check(cat({be32(3), be32(1), be64(0), be64(0)}), 1, "log_header_version").has_value());
  CHECK(check(cat({be32(2), be32(2), be64(0), be64(0)}), 1, "log_file_id_mismatch").has_value());
  CHECK(check(cat({be32(2), be32(1), be64(10), be64(0)}), 1, "log_checkpoint_position").has_value());
  CHECK(check(cat({be32(2), be32(1), be64(25), be64(0)}), std::nullopt, "log_checkpoint_position").has_value());
  FindingList none;
  CHECK(read_v2_log_header(span(cat({be32(2), be32(1), be64(24), be64(0)})), "log-1", 1, &none).has_value());
  CHECK(none.findings().empty());
}

TEST_CASE("flume every truncation prefix of a log reads cleanly up to the cut") {
  std::string v2;
  append_v2_log_header(&v2, V2LogHeader{2, 1, 0, 0});
  const HeaderToWrite headers[] = {{"key", "value"}};
  append_v2_put(&v2, 1, 2, headers, std::string_view("payload"));
  append_v2_take(&v2, 1, 3, EventPointer{1, 24});
  append_v2_rollback(&v2, 1, 4);
  append_v2_commit(&v2, 1, 5, 1);
  AesCtr cipher = make_cipher(Bytes(32, 0x5A), Bytes(16, 0xA5));
  struct Case {
    std::string log;
    int version;
    std::uint64_t start;
    AesCtr* cipher;
  };
  for (const Case& c : {Case{sample_v3_log(), 3, 0, nullptr}, Case{v2, 2, kV2LogHeaderSize, nullptr},
                        Case{sample_v3_log(&cipher), 3, 0, &cipher}}) {
    const auto full = read_all(c.log, c.version, c.start, c.cipher);
    std::set<std::uint64_t> boundaries;
    for (const Decoded& d : full) boundaries.insert(d.offset);
    for (std::size_t cut = c.start; cut <= c.log.size(); ++cut) {
      // A heap copy of exactly `cut` bytes, so ASan sees any overread.
      const Bytes prefix(c.log.begin(), c.log.begin() + static_cast<std::ptrdiff_t>(cut));
      const auto r = read_all(span(prefix), c.version, c.start, c.cipher);
      REQUIRE(!r.empty());
      for (std::size_t i = 0; i + 1 < r.size(); ++i) {
        CHECK(r[i].type == full[i].type);
        CHECK(r[i].offset == full[i].offset);
      }
      CAPTURE(cut);
      if (boundaries.count(cut) != 0) {
        CHECK(r.back().type == LogRecordType::kEndOfData);
        CHECK(r.back().offset == cut);
      } else {
        CHECK(r.back().type == LogRecordType::kBroken);
      }
    }
  }
}

TEST_CASE("flume seeded byte flips never crash: every record is in bounds and the stream ends") {
  std::string v2;
  append_v2_log_header(&v2, V2LogHeader{2, 1, 0, 0});
  const HeaderToWrite headers[] = {{"key", "value"}, {"k2", "v2"}};
  for (int i = 0; i < 4; ++i) {
    append_v2_put(&v2, i, 2 * i, headers, std::string_view("payload"));
    append_v2_commit(&v2, i, 2 * i + 1, 1);
  }
  v2.append(64, '\x80');
  std::string v3 = sample_v3_log(nullptr, 64);
  std::mt19937 rng(1234);
  std::size_t crc_failures = 0, broken = 0;
  for (int round = 0; round < 3000; ++round) {
    const bool use_v3 = round % 2 == 0;
    const std::string& original = use_v3 ? v3 : v2;
    Bytes file(original.begin(), original.end());
    const std::size_t flips = 1 + rng() % 3;
    for (std::size_t f = 0; f < flips; ++f) {
      const std::size_t at = (use_v3 ? 0 : kV2LogHeaderSize) + rng() % (file.size() - (use_v3 ? 0 : kV2LogHeaderSize));
      file[at] = static_cast<std::uint8_t>(file[at] ^ (1u << (rng() % 8)));
    }
    LogReader reader(span(file), use_v3 ? 3 : 2, use_v3 ? 0 : kV2LogHeaderSize);
    LogRecord r;
    std::size_t count = 0;
    std::uint64_t previous_end = use_v3 ? 0 : kV2LogHeaderSize;
    while (reader.next(&r)) {
      REQUIRE(++count <= file.size());
      CHECK(r.offset == previous_end);
      CHECK(r.offset + r.size <= file.size());
      for (const EventHeader& h : r.headers) {
        CHECK(h.key.data() >= file.data());
        CHECK(h.key.data() + h.key.size() <= file.data() + file.size());
      }
      CHECK(r.body.size() <= file.size());
      if (r.type == LogRecordType::kPut && !r.crc_ok) ++crc_failures;
      if (r.type == LogRecordType::kBroken) ++broken;
      previous_end = r.offset + r.size;
    }
    CHECK((r.type == LogRecordType::kEndOfData || r.type == LogRecordType::kBroken));
    (void)reader.data_after_end_fill();
  }
  CHECK(crc_failures > 0);
  CHECK(broken > 0);
}

// The same log read from a file through windows of several sizes (smaller
// than any field, a record, larger) decodes exactly as from its bytes.
void require_windowed_same(const Bytes& file, int version, std::uint64_t start, AesCtr* decryptor = nullptr) {
  const std::vector<Decoded> expected = read_all(span(file), version, start, decryptor);
  qjt_test::TempDir dir("flume-window");
  const auto path = (dir.path() / "log-1").string();
  qjt_test::write_file(path, file);
  std::string error;
  const auto input = InputFile::open(path, &error);
  REQUIRE(input != nullptr);
  for (const std::size_t capacity : {1u, 7u, 64u, 4096u, 256u << 10}) {
    CAPTURE(capacity);
    LogReader reader(*input, version, start, decryptor, capacity);
    LogRecord r;
    std::size_t i = 0;
    while (reader.next(&r)) {
      REQUIRE(i < expected.size());
      const Decoded got = copy(r);
      const Decoded& want = expected[i++];
      REQUIRE(got.type == want.type);
      REQUIRE(got.offset == want.offset);
      REQUIRE(got.size == want.size);
      REQUIRE(got.txid == want.txid);
      REQUIRE(got.woid == want.woid);
      REQUIRE(got.headers == want.headers);
      REQUIRE(got.body == want.body);
      REQUIRE(got.body_offset == want.body_offset);
      REQUIRE(got.null_body == want.null_body);
      REQUIRE(got.stored_crc == want.stored_crc);
      REQUIRE(got.crc_ok == want.crc_ok);
      REQUIRE(got.taken.file_id == want.taken.file_id);
      REQUIRE(got.taken.offset == want.taken.offset);
      REQUIRE(got.commit_type == want.commit_type);
      REQUIRE(got.error == want.error);
      REQUIRE(got.trailing_bytes == want.trailing_bytes);
    }
    REQUIRE(i == expected.size());
  }
}

TEST_CASE("flume reader over a file, through windows of any size, decodes as over its bytes") {
  std::string v2;
  append_v2_log_header(&v2, V2LogHeader{2, 1, 0, 0});
  const HeaderToWrite headers[] = {{"key", "value"}, {"k2", "v2"}};
  for (int i = 0; i < 4; ++i) {
    append_v2_put(&v2, i, 2 * i, headers, std::string(300, static_cast<char>('a' + i)));
    append_v2_commit(&v2, i, 2 * i + 1, 1);
  }
  v2.append(64, '\x80');
  const std::string v3 = sample_v3_log(nullptr, 64);
  std::mt19937 rng(99);
  for (int round = 0; round < 200; ++round) {
    const bool use_v3 = round % 2 == 0;
    const std::string& original = use_v3 ? v3 : v2;
    Bytes file(original.begin(), original.end());
    if (round >= 2) {  // the first two as written, the rest with a byte flipped or cut
      const std::size_t at = rng() % file.size();
      if (round % 5 == 0) {
        file.resize(at);
      } else {
        file[at] = static_cast<std::uint8_t>(file[at] ^ (1u << (rng() % 8)));
      }
    }
    CAPTURE(round);
    require_windowed_same(file, use_v3 ? 3 : 2, use_v3 ? 0 : kV2LogHeaderSize);
  }
  const auto fixture = qjt_test::read_shared_fixture_gz("flume-v2/fileformat-v2-log-1.gz");
  if (fixture) require_windowed_same(*fixture, 2, kV2LogHeaderSize);
}

TEST_CASE("flume AES/CTR matches NIST SP 800-38A F.5.1 and restarts the counter per call") {
  AesCtr cipher = make_cipher(unhex("2b7e151628aed2a6abf7158809cf4f3c"), unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"));
  const Bytes plain = unhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51");
  for (int i = 0; i < 2; ++i) {
    Bytes out(plain.size());
    REQUIRE(cipher.apply(plain.data(), plain.size(), out.data()));
    CHECK(hex(str(out)) == "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff");
  }
  std::string error;
  const Bytes iv(16, 1);
  CHECK_FALSE(AesCtr::create(span(Bytes(15, 0)), span(iv), &error).has_value());
  CHECK(error == "expected an AES key of 16, 24 or 32 bytes, found 15 bytes");
  CHECK_FALSE(AesCtr::create(span(Bytes(16, 0)), span(Bytes(12, 0)), &error).has_value());
  CHECK(error == "expected a 16-byte AES/CTR IV, found 12 bytes");
}

TEST_CASE("flume encrypted V3 round trip, and the wrong key is broken") {
  // IV as Flume makes it: 12 random bytes and int32 BE 1.
  const Bytes iv = cat({unhex("00112233445566778899aabb"), be32(1)});
  for (std::size_t key_size : {16u, 24u, 32u}) {
    CAPTURE(key_size);
    Bytes key(key_size);
    for (std::size_t i = 0; i < key_size; ++i) key[i] = static_cast<std::uint8_t>(i * 7 + 3);
    AesCtr encryptor = make_cipher(key, iv);
    const std::string plain = sample_v3_log(nullptr, 32);
    const std::string log = sample_v3_log(&encryptor, 32);
    REQUIRE(log.size() == plain.size());
    CHECK(log != plain);
    // OP byte and length stay clear.
    CHECK(log.substr(0, 5) == plain.substr(0, 5));

    AesCtr decryptor = make_cipher(key, iv);
    check_sample_v3(read_all(log, 3, 0, &decryptor));
    require_windowed_same(Bytes(log.begin(), log.end()), 3, 0, &decryptor);

    // Every record starts the key stream at the IV: equal payloads encrypt equally.
    V3RecordWriter w(&encryptor);
    std::string a, b;
    REQUIRE(w.rollback(&a, 1, 2));
    REQUIRE(w.rollback(&b, 1, 2));
    CHECK(a == b);

    Bytes wrong_key = key;
    wrong_key[0] ^= 1;
    AesCtr wrong = make_cipher(wrong_key, iv);
    const auto r = read_all(log, 3, 0, &wrong);
    REQUIRE(r.size() == 1);
    CHECK(r[0].type == LogRecordType::kBroken);
    CHECK(r[0].offset == 0);
    CHECK(r[0].size == 5 + static_cast<std::size_t>(static_cast<unsigned char>(log[4])));

    // Encrypted body views point into the reader's buffer; the offset is in the file.
    LogReader reader(ByteSpan(log), 3, 0, &decryptor);
    LogRecord record;
    REQUIRE(reader.next(&record));
    CHECK(qjt_test::as_string(record.body) == "first");
    CHECK(record.body_offset == plain.find("first"));
  }
}

TEST_CASE("flume reader reuses the record: no growth of headers across records") {
  const std::string log = sample_v3_log();
  LogReader reader(ByteSpan(log), 3, 0);
  LogRecord r;
  REQUIRE(reader.next(&r));
  CHECK(r.headers.size() == 2);
  const auto* storage = r.headers.data();
  REQUIRE(reader.next(&r));
  CHECK(r.headers.empty());
  REQUIRE(reader.next(&r));
  CHECK(r.headers.size() == 1);
  CHECK(r.headers.data() == storage);  // the same allocation, reused
}

// ---- the real V2 files written by Flume 1.2/1.3 ----

TEST_CASE("flume V2 fixtures: fileformat-v2-log-{1,2,3}") {
  const std::int64_t positions[] = {2587, 2557, 2554};
  const std::size_t counts[] = {3586, 3585, 3582};
  std::set<std::string> bodies;
  std::size_t puts = 0;
  for (int id = 1; id <= 3; ++id) {
    const std::string name = "flume-v2/fileformat-v2-log-" + std::to_string(id) + ".gz";
    const auto file = qjt_test::read_shared_fixture_gz(name);
    if (!file) {
      MESSAGE("shared fixture " << name << " not found; skipped");
      return;
    }
    CAPTURE(id);
    CHECK(file->size() == 1048600);
    FindingList findings;
    const auto header = read_v2_log_header(span(*file), "log-" + std::to_string(id), id, &findings);
    REQUIRE(header.has_value());
    CHECK(findings.findings().empty());
    CHECK(header->version == 2);
    CHECK(header->file_id == id);
    CHECK(header->checkpoint_position == positions[id - 1]);
    CHECK(header->checkpoint_write_order_id == 1344302226747);

    LogReader reader(span(*file), 2, kV2LogHeaderSize);
    LogRecord r;
    std::size_t records = 0;
    bool checkpoint_is_a_boundary = false;
    while (reader.next(&r)) {
      if (r.offset == static_cast<std::uint64_t>(header->checkpoint_position)) checkpoint_is_a_boundary = true;
      if (r.type == LogRecordType::kEndOfData || r.type == LogRecordType::kBroken) break;
      ++records;
      if (r.type == LogRecordType::kPut) {
        ++puts;
        CHECK(r.headers.empty());
        bodies.insert(qjt_test::as_string(r.body));
        // Checkpoint pointers listed in the fixture README: (2, 2212) holds "62".
        if (id == 2 && r.offset == 2212) CHECK(qjt_test::as_string(r.body) == "62");
        if (id == 1 && r.offset == 24) CHECK(qjt_test::as_string(r.body) == "0");
      }
    }
    CHECK(r.type == LogRecordType::kEndOfData);
    CHECK(records == counts[id - 1]);
    CHECK(checkpoint_is_a_boundary);
    CHECK_FALSE(reader.data_after_end_fill().has_value());
    // Reading from the checkpoint position works too.
    LogReader from_checkpoint(span(*file), 2, static_cast<std::uint64_t>(header->checkpoint_position));
    REQUIRE(from_checkpoint.next(&r));
    CHECK(r.type != LogRecordType::kBroken);
  }
  CHECK(puts == 2692);
  std::set<std::string> expected;
  for (int i = 0; i <= 2691; ++i) expected.insert(std::to_string(i));
  CHECK(bodies == expected);
}

TEST_CASE("flume V2 fixtures: fileformat-v2-pre-FLUME-1432-log-{1,2,3}") {
  const std::size_t counts[] = {34, 32, 34};
  for (int id = 1; id <= 3; ++id) {
    const std::string name = "flume-v2/fileformat-v2-pre-FLUME-1432-log-" + std::to_string(id) + ".gz";
    const auto file = qjt_test::read_shared_fixture_gz(name);
    if (!file) {
      MESSAGE("shared fixture " << name << " not found; skipped");
      return;
    }
    CAPTURE(id);
    FindingList findings;
    const auto header = read_v2_log_header(span(*file), "log", id, &findings);
    REQUIRE(header.has_value());
    CHECK(findings.findings().empty());
    LogReader reader(span(*file), 2, kV2LogHeaderSize);
    LogRecord r;
    std::size_t records = 0;
    while (reader.next(&r)) {
      if (r.type == LogRecordType::kEndOfData || r.type == LogRecordType::kBroken) break;
      ++records;
      CHECK((r.type == LogRecordType::kPut || r.type == LogRecordType::kCommit));
      if (r.type == LogRecordType::kPut) {
        const std::string body = qjt_test::as_string(r.body);
        CHECK(body.rfind("rollback-", 0) == 0);
        CHECK(body.size() >= 12);
        CHECK(body.substr(body.size() - 2) == "-0");
      }
    }
    CHECK(r.type == LogRecordType::kEndOfData);
    CHECK(records == counts[id - 1]);
    CHECK_FALSE(reader.data_after_end_fill().has_value());
  }
}
