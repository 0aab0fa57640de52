// JournalReader against hand-written journals. Every byte array below is
// laid out from the opcode table in kestrel-format.md section 1.2 (all
// integers little-endian); the expected values are written independently as
// hex or decimal literals.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kestrel/journal_format.h"
#include "kestrel/journal_reader.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::kestrel;
using qjt_test::Bytes;
using qjt_test::cat;
using qjt_test::contains;
using qjt_test::span;

namespace {

std::vector<JournalRecord> decode_all(const Bytes& journal) {
  JournalReader reader(span(journal));
  std::vector<JournalRecord> records;
  JournalRecord r;
  while (reader.next(&r)) {
    records.push_back(r);
    REQUIRE(records.size() <= journal.size() + 1);  // no endless stream
  }
  return records;
}

std::string payload_of(const JournalRecord& r) { return qjt_test::as_string(r.payload); }

// A REMOVE in front of the record under test, so its offset is 1, not 0.
const Bytes kLead = {0x01};

void check_lead_and_eof(const std::vector<JournalRecord>& records, std::uint64_t size) {
  REQUIRE(records.size() == 3);
  CHECK(records[0].type == RecordType::kRemove);
  CHECK(records[0].offset == 0);
  CHECK(records[0].length == 1);
  CHECK(records[2].type == RecordType::kEndOfFile);
  CHECK(records[2].offset == size);
  CHECK(records[2].length == 0);
}

// Expects exactly one BROKEN record at `offset` covering the rest of the file,
// after `before` good records. Callers check that the message states the
// expected and the found value. Most messages say "expected ..."; a block
// running past the end says "size ... says N bytes follow, found M".
JournalRecord expect_broken(const std::vector<JournalRecord>& records, std::size_t before, std::uint64_t offset,
                            std::uint64_t file_size, bool says_expected = true) {
  REQUIRE(records.size() == before + 1);
  const JournalRecord& b = records.back();
  CHECK(b.type == RecordType::kBroken);
  CHECK(b.offset == offset);
  CHECK(b.length == file_size - offset);
  if (says_expected) CHECK(contains(b.error, "expected"));
  return b;
}

}  // namespace

// ---------------------------------------------------------------- one case per opcode

TEST_CASE("reader: opcode 0x00 legacy ADD") {
  // 00 | size=4+3 | expiry 1700000000 s = 0x6553F100 | "abc"
  const Bytes j = cat({kLead, {0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0xF1, 0x53, 0x65, 'a', 'b', 'c'}});
  const auto records = decode_all(j);
  check_lead_and_eof(records, 13);
  const JournalRecord& r = records[1];
  CHECK(r.type == RecordType::kAdd);
  CHECK(r.offset == 1);
  CHECK(r.length == 12);  // 9 + N
  CHECK_FALSE(r.has_add_time);
  CHECK(r.expiry_ms == 1700000000000LL);
  CHECK(payload_of(r) == "abc");
  CHECK(r.error.empty());
}

TEST_CASE("reader: legacy ADD with expiry 0 and an empty payload") {
  const Bytes j = {0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  const auto records = decode_all(j);
  REQUIRE(records.size() == 2);
  CHECK(records[0].type == RecordType::kAdd);
  CHECK(records[0].length == 9);
  CHECK(records[0].expiry_ms == 0);
  CHECK_FALSE(records[0].has_add_time);
  CHECK(records[0].payload.size() == 0);
  CHECK(records[1].type == RecordType::kEndOfFile);
  CHECK(records[1].offset == 9);
}

TEST_CASE("reader: legacy ADD expiry is widened before multiplying") {
  // 0x7FFFFFFF seconds: Kestrel 2.x uses Time.fromSeconds (64-bit), no overflow.
  const Bytes j = {0x00, 0x05, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x7F, 'z'};
  const auto records = decode_all(j);
  REQUIRE(records.size() == 2);
  CHECK(records[0].expiry_ms == 2147483647000LL);
  CHECK(payload_of(records[0]) == "z");
}

TEST_CASE("reader: opcode 0x01 REMOVE") {
  const Bytes j = {0x01, 0x01};
  const auto records = decode_all(j);
  check_lead_and_eof(records, 2);
  CHECK(records[1].type == RecordType::kRemove);
  CHECK(records[1].offset == 1);
  CHECK(records[1].length == 1);
  CHECK(records[1].payload.size() == 0);
}

TEST_CASE("reader: opcode 0x02 ADDX") {
  // 02 | size=16+3=0x13 | add_time 0x0000018BCFE56800 | expiry 0x0000018BCFE5A0E8 | "xyz"
  const Bytes j = cat({kLead,
                       {0x02, 0x13, 0x00, 0x00, 0x00},
                       {0x00, 0x68, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00},
                       {0xE8, 0xA0, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00},
                       {'x', 'y', 'z'}});
  REQUIRE(j.size() == 1 + 24);
  const auto records = decode_all(j);
  check_lead_and_eof(records, 25);
  const JournalRecord& r = records[1];
  CHECK(r.type == RecordType::kAddX);
  CHECK(r.offset == 1);
  CHECK(r.length == 24);  // 21 + N
  CHECK(r.has_add_time);
  CHECK(r.add_time_ms == 0x0000018BCFE56800LL);
  CHECK(r.add_time_ms == 1700000000000LL);
  CHECK(r.expiry_ms == 0x0000018BCFE5A0E8LL);
  CHECK(payload_of(r) == "xyz");
  // The payload is a view into the input, right after the 16-byte block header.
  CHECK(r.payload.data() == j.data() + 1 + 21);
}

TEST_CASE("reader: ADDX with no payload and no expiry") {
  const Bytes j = cat({{0x02, 0x10, 0x00, 0x00, 0x00},
                       {0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
                       {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}});
  const auto records = decode_all(j);
  REQUIRE(records.size() == 2);
  CHECK(records[0].type == RecordType::kAddX);
  CHECK(records[0].length == 21);
  CHECK(records[0].add_time_ms == 1);
  CHECK(records[0].expiry_ms == 0);
  CHECK(records[0].payload.size() == 0);
  CHECK(records[1].type == RecordType::kEndOfFile);
  CHECK(records[1].offset == 21);
}

TEST_CASE("reader: opcode 0x03 legacy REMOVE_TENTATIVE") {
  const Bytes j = {0x01, 0x03};
  const auto records = decode_all(j);
  check_lead_and_eof(records, 2);
  CHECK(records[1].type == RecordType::kRemoveTentative);
  CHECK(records[1].offset == 1);
  CHECK(records[1].length == 1);
}

TEST_CASE("reader: opcode 0x04 SAVE_XID") {
  const Bytes j = {0x01, 0x04, 0x2A, 0x00, 0x00, 0x00};
  const auto records = decode_all(j);
  check_lead_and_eof(records, 6);
  CHECK(records[1].type == RecordType::kSaveXid);
  CHECK(records[1].offset == 1);
  CHECK(records[1].length == 5);
  CHECK(records[1].xid == 42);
}

TEST_CASE("reader: opcode 0x05 UNREMOVE") {
  const Bytes j = {0x01, 0x05, 0x01, 0x02, 0x00, 0x00};
  const auto records = decode_all(j);
  check_lead_and_eof(records, 6);
  CHECK(records[1].type == RecordType::kUnremove);
  CHECK(records[1].offset == 1);
  CHECK(records[1].length == 5);
  CHECK(records[1].xid == 0x0201);
}

TEST_CASE("reader: opcode 0x06 CONFIRM_REMOVE") {
  const Bytes j = {0x01, 0x06, 0xFF, 0xFF, 0xFF, 0x7F};
  const auto records = decode_all(j);
  check_lead_and_eof(records, 6);
  CHECK(records[1].type == RecordType::kConfirmRemove);
  CHECK(records[1].offset == 1);
  CHECK(records[1].length == 5);
  CHECK(records[1].xid == 2147483647);
}

TEST_CASE("reader: opcode 0x07 ADD_XID") {
  // 07 | xid 7 | size=16+2 | add_time 0x0102030405060708 | expiry 0 | "hi"
  const Bytes j = cat({kLead,
                       {0x07, 0x07, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00},
                       {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01},
                       {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
                       {'h', 'i'}});
  const auto records = decode_all(j);
  check_lead_and_eof(records, 28);
  const JournalRecord& r = records[1];
  CHECK(r.type == RecordType::kAddXid);
  CHECK(r.offset == 1);
  CHECK(r.length == 27);  // 25 + N
  CHECK(r.xid == 7);
  CHECK(r.has_add_time);
  CHECK(r.add_time_ms == 0x0102030405060708LL);
  CHECK(r.expiry_ms == 0);
  CHECK(payload_of(r) == "hi");
}

TEST_CASE("reader: opcode 0x08 CONTINUE") {
  // 08 | xid 5 | size=16+0 | add_time 1000 = 0x3E8 | expiry -1 (all ones)
  const Bytes j = cat({kLead,
                       {0x08, 0x05, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00},
                       {0xE8, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
                       {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}});
  const auto records = decode_all(j);
  check_lead_and_eof(records, 26);
  const JournalRecord& r = records[1];
  CHECK(r.type == RecordType::kContinue);
  CHECK(r.offset == 1);
  CHECK(r.length == 25);
  CHECK(r.xid == 5);
  CHECK(r.has_add_time);
  CHECK(r.add_time_ms == 1000);
  CHECK(r.expiry_ms == -1);
  CHECK(r.payload.size() == 0);
}

TEST_CASE("reader: opcode 0x09 REMOVE_TENTATIVE_XID") {
  const Bytes j = {0x01, 0x09, 0x03, 0x00, 0x00, 0x00};
  const auto records = decode_all(j);
  check_lead_and_eof(records, 6);
  CHECK(records[1].type == RecordType::kRemoveTentativeXid);
  CHECK(records[1].offset == 1);
  CHECK(records[1].length == 5);
  CHECK(records[1].xid == 3);
}

TEST_CASE("reader: negative xid is decoded as signed") {
  const Bytes j = {0x09, 0xFE, 0xFF, 0xFF, 0xFF};
  const auto records = decode_all(j);
  REQUIRE(records.size() == 2);
  CHECK(records[0].xid == -2);
}

TEST_CASE("reader: a mixed 2.x journal decodes in order") {
  const Bytes j = cat({{0x02, 0x11, 0x00, 0x00, 0x00},  // ADDX "a" at 0, 22 bytes
                       {0x0A, 0, 0, 0, 0, 0, 0, 0},
                       {0, 0, 0, 0, 0, 0, 0, 0},
                       {'a'},
                       {0x09, 0x01, 0x00, 0x00, 0x00},  // RTX 1 at 22
                       {0x06, 0x01, 0x00, 0x00, 0x00},  // CONFIRM 1 at 27
                       {0x01}});                        // REMOVE at 32
  const auto records = decode_all(j);
  REQUIRE(records.size() == 5);
  CHECK(records[0].type == RecordType::kAddX);
  CHECK(records[0].add_time_ms == 10);
  CHECK(records[1].offset == 22);
  CHECK(records[1].type == RecordType::kRemoveTentativeXid);
  CHECK(records[2].offset == 27);
  CHECK(records[2].type == RecordType::kConfirmRemove);
  CHECK(records[3].offset == 32);
  CHECK(records[3].type == RecordType::kRemove);
  CHECK(records[4].type == RecordType::kEndOfFile);
  CHECK(records[4].offset == 33);
}

// ---------------------------------------------------------------- end of file

TEST_CASE("reader: empty journal is a clean end at offset 0") {
  const auto records = decode_all({});
  REQUIRE(records.size() == 1);
  CHECK(records[0].type == RecordType::kEndOfFile);
  CHECK(records[0].offset == 0);
  CHECK(records[0].length == 0);
}

TEST_CASE("reader: nothing follows the terminal record") {
  const Bytes ok = {0x01};
  JournalReader a(span(ok));
  JournalRecord r;
  REQUIRE(a.next(&r));
  REQUIRE(a.next(&r));
  CHECK(r.type == RecordType::kEndOfFile);
  CHECK_FALSE(a.next(&r));
  CHECK_FALSE(a.next(&r));

  // After a BROKEN record, the valid REMOVEs behind it are not decoded.
  const Bytes bad = {0x0A, 0x01, 0x01};
  JournalReader b(span(bad));
  REQUIRE(b.next(&r));
  CHECK(r.type == RecordType::kBroken);
  CHECK_FALSE(b.next(&r));
  CHECK_FALSE(b.next(&r));
}

// ---------------------------------------------------------------- broken records

TEST_CASE("reader: BROKEN on a truncated xid") {
  for (std::uint8_t op : std::initializer_list<std::uint8_t>{0x04, 0x05, 0x06, 0x07, 0x08, 0x09}) {
    CAPTURE(int{op});
    const Bytes j = {0x01, op, 0x2A, 0x00};  // two of the four xid bytes
    const auto records = decode_all(j);
    const JournalRecord b = expect_broken(records, 1, 1, 4);
    CHECK(contains(b.error, "xid"));
    CHECK(contains(b.error, "found 2"));
  }
  const auto bare = decode_all({0x09});  // opcode only
  const JournalRecord b = expect_broken(bare, 0, 0, 1);
  CHECK(contains(b.error, "found 0"));
}

TEST_CASE("reader: BROKEN on a truncated size field") {
  const auto addx = decode_all({0x01, 0x02, 0x13, 0x00});
  CHECK(contains(expect_broken(addx, 1, 1, 4).error, "size"));
  const auto legacy = decode_all({0x00, 0x07});
  CHECK(contains(expect_broken(legacy, 0, 0, 2).error, "size"));
  const auto addxid = decode_all({0x07, 0x01, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00});
  CHECK(contains(expect_broken(addxid, 0, 0, 8).error, "size"));
  const auto cont = decode_all({0x01, 0x01, 0x08, 0x01, 0x00, 0x00, 0x00});
  CHECK(contains(expect_broken(cont, 2, 2, 7).error, "size"));
}

TEST_CASE("reader: BROKEN on a truncated data block") {
  // ADDX says 19 bytes follow, only 10 do.
  const Bytes j = cat({{0x01, 0x02, 0x13, 0x00, 0x00, 0x00}, Bytes(10, 0x00)});
  const auto records = decode_all(j);
  const JournalRecord b = expect_broken(records, 1, 1, 16, false);
  CHECK(contains(b.error, "19 bytes"));
  CHECK(contains(b.error, "found 10"));

  // CONTINUE: block cut one byte short of its payload.
  const Bytes c = cat({{0x08, 0x01, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00}, Bytes(17, 0x00)});
  const JournalRecord bc = expect_broken(decode_all(c), 0, 0, c.size(), false);
  CHECK(contains(bc.error, "18 bytes"));
  CHECK(contains(bc.error, "found 17"));

  // Legacy ADD: size 7 with 6 bytes behind it.
  const Bytes a = {0x00, 0x07, 0x00, 0x00, 0x00, 0, 0, 0, 0, 'a', 'b'};
  const JournalRecord ba = expect_broken(decode_all(a), 0, 0, a.size(), false);
  CHECK(contains(ba.error, "7 bytes"));
  CHECK(contains(ba.error, "found 6"));
}

TEST_CASE("reader: BROKEN on an item block shorter than 16 bytes") {
  // ADDX with size 15 and 15 bytes present, then two REMOVEs that must not be decoded.
  const Bytes j = cat({{0x01, 0x02, 0x0F, 0x00, 0x00, 0x00}, Bytes(15, 0x00), {0x01, 0x01}});
  const auto records = decode_all(j);
  const JournalRecord b = expect_broken(records, 1, 1, j.size());
  CHECK(contains(b.error, "found a size field of 15"));
  CHECK(contains(b.error, "at least 16"));
  // The BROKEN record's payload is the raw tail, from its offset to the end.
  CHECK(b.payload.data() == j.data() + 1);
  CHECK(b.payload.size() == j.size() - 1);

  for (std::uint8_t op : std::initializer_list<std::uint8_t>{0x07, 0x08}) {
    CAPTURE(int{op});
    const Bytes x = cat({{op, 0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00}, Bytes(8, 0x00)});
    const JournalRecord bx = expect_broken(decode_all(x), 0, 0, x.size());
    CHECK(contains(bx.error, "16"));
  }
}

TEST_CASE("reader: BROKEN on a legacy ADD block shorter than 4 bytes") {
  const Bytes j = {0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
  const auto records = decode_all(j);
  const JournalRecord b = expect_broken(records, 1, 1, j.size());
  CHECK(contains(b.error, "found a size field of 3"));
  CHECK(contains(b.error, "at least 4"));
}

TEST_CASE("reader: BROKEN on a zero-size block") {
  const Bytes addx = cat({{0x02, 0x00, 0x00, 0x00, 0x00}, Bytes(20, 0x01)});
  const JournalRecord b = expect_broken(decode_all(addx), 0, 0, addx.size());
  CHECK(contains(b.error, "found a size field of 0"));
  const Bytes legacy = {0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
  expect_broken(decode_all(legacy), 1, 1, legacy.size());
  const Bytes cont = cat({{0x08, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, Bytes(20, 0x01)});
  expect_broken(decode_all(cont), 0, 0, cont.size());
}

TEST_CASE("reader: BROKEN on a negative size") {
  const Bytes minus_one = cat({{0x01, 0x02, 0xFF, 0xFF, 0xFF, 0xFF}, Bytes(20, 0x00)});
  const JournalRecord b1 = expect_broken(decode_all(minus_one), 1, 1, minus_one.size());
  CHECK(contains(b1.error, "-1"));
  CHECK(contains(b1.error, "negative"));

  const Bytes min = cat({{0x07, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80}, Bytes(20, 0x00)});
  const JournalRecord b2 = expect_broken(decode_all(min), 0, 0, min.size());
  CHECK(contains(b2.error, "-2147483648"));

  const Bytes legacy = cat({{0x00, 0xFC, 0xFF, 0xFF, 0xFF}, Bytes(8, 0x00)});
  const JournalRecord b3 = expect_broken(decode_all(legacy), 0, 0, legacy.size());
  CHECK(contains(b3.error, "-4"));
}

TEST_CASE("reader: BROKEN on a size larger than the rest of the file") {
  const Bytes j = cat({{0x01, 0x01, 0x02, 0xFF, 0xFF, 0xFF, 0x7F}, Bytes(40, 0x00)});
  const JournalRecord b = expect_broken(decode_all(j), 2, 2, j.size(), false);
  CHECK(contains(b.error, "2147483647"));
  CHECK(contains(b.error, "found 40"));

  // One byte more than what remains.
  const Bytes k = cat({{0x02, 0x11, 0x00, 0x00, 0x00}, Bytes(16, 0x00)});
  const JournalRecord bk = expect_broken(decode_all(k), 0, 0, k.size(), false);
  CHECK(contains(bk.error, "17"));
  CHECK(contains(bk.error, "found 16"));
}

TEST_CASE("reader: BROKEN on invalid opcode 0x0a") {
  const Bytes j = {0x01, 0x0A, 0x01};
  const JournalRecord b = expect_broken(decode_all(j), 1, 1, 3);
  CHECK(contains(b.error, "0x0a"));
  CHECK(contains(b.error, "10"));
}

TEST_CASE("reader: BROKEN on invalid opcode 0x80 reported as -128") {
  const Bytes j = {0x01, 0x01, 0x80, 0x00, 0x00, 0x00, 0x00};
  const JournalRecord b = expect_broken(decode_all(j), 2, 2, 7);
  CHECK(contains(b.error, "-128"));
  const JournalRecord ff = expect_broken(decode_all({0xFF}), 0, 0, 1);
  CHECK(contains(ff.error, "-1"));
}

TEST_CASE("record types: names and field classes") {
  CHECK(record_type_name(RecordType::kAdd) == "ADD");
  CHECK(record_type_name(RecordType::kAddX) == "ADDX");
  CHECK(record_type_name(RecordType::kContinue) == "CONTINUE");
  CHECK(record_type_name(RecordType::kRemoveTentativeXid) == "REMOVE_TENTATIVE_XID");
  CHECK(record_type_name(RecordType::kEndOfFile) == "END_OF_FILE");
  CHECK(record_type_name(RecordType::kBroken) == "BROKEN");
  CHECK(parse_record_type("SAVE_XID") == RecordType::kSaveXid);
  CHECK_FALSE(parse_record_type("STATE_DUMP").has_value());
  for (int op = 0; op <= 9; ++op) {
    const auto t = static_cast<RecordType>(op);
    CAPTURE(op);
    CHECK(parse_record_type(record_type_name(t)) == t);
    CHECK(carries_item(t) == (op == 0 || op == 2 || op == 7 || op == 8));
    CHECK(carries_xid(t) == (op >= 4 && op != 3));
  }
  CHECK(addx_record_size(3) == 24);
}
