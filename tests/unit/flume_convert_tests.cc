// qjt convert on Flume: data logs to dump's JSON Lines and back
// (log_json.h), and the V2 -> V3 checkpoint upgrade (checkpoint_upgrade.h).
// Round trips are checked against the files' own bytes; the upgrade's meta
// against bytes written out by hand from spec §2.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "flume/aes_ctr.h"
#include "flume/channel_layout.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/checkpoint_upgrade.h"
#include "flume/file_dump.h"
#include "flume/log_json.h"
#include "flume/log_metadata.h"
#include "flume/log_reader.h"
#include "flume/log_writer.h"
#include "input_file.h"
#include "unit_helpers.h"

using namespace qjt::flume;
using qjt::ByteSpan;
using qjt::DataMode;
using qjt::FindingList;
using qjt::InputFile;
namespace fs = std::filesystem;

namespace {

const std::string kTestdata = QJT_TESTDATA_DIR "/flume";
const std::string kKey = std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f", 16);

std::string slurp(const fs::path& path) {
  std::string error;
  const auto input = InputFile::open(path.string(), &error);
  REQUIRE_MESSAGE(input, error);
  return std::string(input->bytes().as_chars());
}

void put(const fs::path& path, const std::string& bytes) {
  qjt_test::write_file(path, qjt_test::Bytes(bytes.begin(), bytes.end()));
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// What convert --to jsonl writes for `log`: its meta's line (when there is
// a meta beside it), then dump --json of the log.
std::vector<std::string> to_lines(const fs::path& log, FileKind kind, DataMode mode = DataMode::kText) {
  static const KeyRing keys{{"k1", kKey}};
  FileDumpOptions options;
  options.json = true;
  options.mode = mode;
  options.keys = &keys;
  std::string out;
  FindingList findings;
  const fs::path meta = log.string() + ".meta";
  if (fs::exists(meta))
    dump_file(meta.string(), ByteSpan(slurp(meta)), FileKind::kLogMeta, options, &out, {}, &findings);
  const std::string bytes = slurp(log);
  dump_file(log.string(), ByteSpan(bytes), kind, options, &out, {}, &findings);
  return split_lines(out);
}

struct Assembled {
  std::string log;
  std::optional<std::string> meta;
  bool upgraded = false;
};

Assembled assemble(const std::vector<std::string>& lines) {
  static const KeyRing keys{{"k1", kKey}};
  LogJsonAssembler assembler(&keys);
  for (const std::string& text : lines) {
    LogJsonLine line;
    std::string error;
    REQUIRE_MESSAGE(parse_log_json_line(text, &line, &error), std::string(error + " in " + text));
    REQUIRE_MESSAGE(assembler.add(line, &error), std::string(error + " in " + text));
  }
  Assembled out;
  out.log = assembler.records() + std::string(assembler.fill(), '\x80') + assembler.after_fill();
  out.meta = assembler.meta_bytes();
  out.upgraded = assembler.upgraded_v2();
  return out;
}

void check_round_trip(const fs::path& log) {
  for (DataMode mode : {DataMode::kText, DataMode::kBase64, DataMode::kHex}) {
    const Assembled back = assemble(to_lines(log, FileKind::kLogV3, mode));
    CHECK_MESSAGE(back.log == slurp(log), log.string());
    const fs::path meta = log.string() + ".meta";
    if (fs::exists(meta)) {
      REQUIRE(back.meta);
      CHECK_MESSAGE(*back.meta == slurp(meta), meta.string());
    } else {
      CHECK_FALSE(back.meta);
    }
  }
}

std::size_t lines_with(const std::vector<std::string>& lines, std::string_view needle) {
  std::size_t n = 0;
  for (const auto& line : lines)
    if (qjt_test::contains(line, needle)) ++n;
  return n;
}

struct ReadBack {
  std::string type;
  std::int64_t txid = 0, woid = 0;
  std::string body;
  bool crc_ok = true;
};

std::vector<ReadBack> read_records(const std::string& bytes, int version) {
  LogReader reader(ByteSpan(bytes), version, version == 2 ? kV2LogHeaderSize : 0);
  std::vector<ReadBack> out;
  LogRecord r;
  while (reader.next(&r)) {
    out.push_back(ReadBack{log_record_type_name(r.type), r.transaction_id, r.write_order_id,
                           std::string(r.body.as_chars()), r.crc_ok});
  }
  return out;
}

bool same_records(const std::vector<ReadBack>& a, const std::vector<ReadBack>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].type != b[i].type || a[i].txid != b[i].txid || a[i].woid != b[i].woid || a[i].body != b[i].body)
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("flume convert: every V3 log of testdata/flume round-trips byte for byte, log and meta") {
  std::size_t logs = 0;
  for (const char* channel : {"channel", "damaged", "encrypted"}) {
    for (int id = 1; id <= 2; ++id) {
      check_round_trip(fs::path(kTestdata) / channel / ("data" + std::to_string(id)) / ("log-" + std::to_string(id)));
      ++logs;
    }
  }
  CHECK(logs == 6);
  // The encrypted log's put was re-encrypted under the meta's IV: the raw
  // field is not what made it identical.
  const auto lines = to_lines(fs::path(kTestdata) / "encrypted/data2/log-2", FileKind::kLogV3);
  CHECK(lines_with(lines, "\"raw_b64\"") == 1);  // charlie: a header without a value
  CHECK(lines_with(lines, "\"data\":\"delta\"") == 1);
}

TEST_CASE("flume convert: records JSON cannot show keep their bytes, and only those") {
  qjt_test::TempDir tmp("convert-exact");
  V3RecordWriter w;
  std::string log;
  const HeaderToWrite null_value[] = {{"k", std::nullopt}};
  const HeaderToWrite not_utf8[] = {{"\xff\xfe", "v"}};
  const HeaderToWrite twice[] = {{"k", "1"}, {"k", "2"}};
  const HeaderToWrite plain[] = {{"k", "v"}};
  CHECK(w.put(&log, 1, 1, null_value, "a"));                   // raw: field 2 absent
  CHECK(w.put(&log, 1, 2, not_utf8, "b"));                     // raw: U+FFFD in JSON
  CHECK(w.put(&log, 1, 3, twice, "c"));                        // raw: a JSON object keeps one "k"
  CHECK(w.put(&log, 1, 4, plain, "d", PutChecksum::kAbsent));  // fields: "crc":null
  const std::size_t bad_crc = log.size();
  CHECK(w.put(&log, 1, 5, plain, "e"));  // raw once its body changes
  log[log.size() - 11] = 'E';            // the body byte, before the 9-byte checksum field and the footer
  const std::size_t take = log.size();
  CHECK(w.take(&log, 2, 6, EventPointer{1, 0}));
  // An unknown field (3, varint 5) in the Take message: Flume skips it.
  log.insert(take + 5 + 24 + 11, "\x18\x05", 2);
  log[take + 5 + 24] = 12;  // the Take message's length
  log[take + 4] = 38;       // the record's length
  const std::size_t noop = log.size();
  CHECK(w.commit(&log, 2, 7, 2));
  log[noop] = '\0';
  CHECK(w.commit(&log, 1, 8, 1));  // fields
  log += std::string(100, '\x80') + "late";
  put(tmp.path() / "log-9", log);
  LogMetadata meta;
  meta.log_file_id = 9;
  put(tmp.path() / "log-9.meta", encode_log_metadata(meta) + "xy");  // trailing bytes Flume ignores

  const auto lines = to_lines(tmp.path() / "log-9", FileKind::kLogV3);
  REQUIRE(lines.size() == 10);  // meta, 5 puts, take, noop, commit, end
  CHECK(qjt_test::contains(lines[0], "\"raw_b64\""));
  for (std::size_t i : {1u, 2u, 3u, 5u, 6u, 7u}) CHECK_MESSAGE(qjt_test::contains(lines[i], "\"raw_b64\""), lines[i]);
  for (std::size_t i : {4u, 8u}) CHECK_MESSAGE(!qjt_test::contains(lines[i], "\"raw_b64\""), lines[i]);
  CHECK(qjt_test::contains(lines[4], "\"crc\":null"));
  CHECK(qjt_test::contains(lines[5], "\"crc_ok\":false"));
  CHECK(qjt_test::contains(lines[7], "\"op\":\"NOOP\""));
  CHECK(qjt_test::contains(lines[9], R"("fill":100,"after_fill_b64":"bGF0ZQ==")"));  // "late"
  CHECK(bad_crc > 0);
  check_round_trip(tmp.path() / "log-9");
}

TEST_CASE("flume convert: a torn record's bytes run to the end of the file") {
  qjt_test::TempDir tmp("convert-torn");
  V3RecordWriter w;
  std::string log;
  CHECK(w.put(&log, 1, 1, {}, "whole"));
  CHECK(w.put(&log, 1, 2, {}, "torn"));
  log.resize(log.size() - 7);
  log += std::string(20, '\x80');  // the fill after a crash: not data
  put(tmp.path() / "log-3", log);
  const auto lines = to_lines(tmp.path() / "log-3", FileKind::kLogV3);
  REQUIRE(lines.size() == 2);  // no meta beside it: put, broken
  CHECK(qjt_test::contains(lines[1], "\"op\":\"BROKEN\""));
  check_round_trip(tmp.path() / "log-3");
}

TEST_CASE("flume convert: an edited body gets a valid CRC, a deleted put is gone") {
  auto lines = to_lines(fs::path(kTestdata) / "channel/data2/log-2", FileKind::kLogV3);
  std::vector<std::string> edited;
  for (std::string line : lines) {
    if (qjt_test::contains(line, "\"data\":\"foxtrot\"")) continue;  // delete foxtrot's put
    const auto at = line.find("\"data\":\"delta\"");
    if (at != std::string::npos) line.replace(at, 14, "\"data\":\"DELTA-2\"");
    edited.push_back(line);
  }
  const Assembled back = assemble(edited);
  const auto records = read_records(back.log, 3);
  REQUIRE(records.size() == 6);  // charlie, commit, delta, commit, commit, end
  CHECK(records[2].type == "put");
  CHECK(records[2].body == "DELTA-2");
  CHECK(records[2].crc_ok);
  CHECK(records[4].type == "commit");
  CHECK(records[4].txid == 6);
  CHECK(records[5].type == "end_of_data");
}

TEST_CASE("flume convert: V2 logs become V3 logs holding the same records") {
  const std::string ours = slurp(fs::path(kTestdata) / "v2/data2/log-2");
  std::vector<std::pair<std::string, std::string>> logs{{"testdata v2/log-2", ours}};
  for (int i = 1; i <= 3; ++i) {
    const auto fixture = qjt_test::read_shared_fixture_gz("flume-v2/fileformat-v2-log-" + std::to_string(i) + ".gz");
    if (!fixture) {
      MESSAGE("no ../shared fixtures: only testdata/flume/v2 is checked");
      break;
    }
    logs.emplace_back("fixture log-" + std::to_string(i), std::string(fixture->begin(), fixture->end()));
  }
  qjt_test::TempDir tmp("convert-v2");
  // Not a structured binding: clang 14 cannot capture one in doctest's lambdas.
  for (const auto& log : logs) {
    const std::string& name = log.first;
    const std::string& bytes = log.second;
    put(tmp.path() / "log-1", bytes);
    const Assembled back = assemble(to_lines(tmp.path() / "log-1", FileKind::kLogV2));
    CHECK(back.upgraded);
    CHECK_FALSE(back.meta);
    const auto v2 = read_records(bytes, 2);
    CHECK_MESSAGE(v2.size() > 2, name);
    CHECK_MESSAGE(same_records(v2, read_records(back.log, 3)), name);
  }
}

TEST_CASE("flume convert: bad lines say what was expected and where the log must end") {
  const auto error_of = [](std::string_view text) {
    LogJsonLine line;
    std::string error;
    CHECK_FALSE(parse_log_json_line(text, &line, &error));
    return error;
  };
  CHECK(qjt_test::contains(error_of("{"), "expected one JSON object, found invalid JSON"));
  CHECK(error_of("[1]") == "expected one JSON object, found [1]");
  CHECK(qjt_test::contains(error_of(R"({"kind":"checkpoint"})"), "expected \"kind\" log_meta or log_record"));
  CHECK(error_of(R"({"kind":"log_record","op":"PUT","version":3,"write_order_id":1})") ==
        "expected \"transaction_id\" as an integer from -9223372036854775808 to 9223372036854775807, found no such "
        "field");
  CHECK(qjt_test::contains(error_of(R"({"kind":"log_record","op":"NOOP","version":3,"size":5})"),
                           "expected the NOOP record's bytes in \"raw_b64\" or \"raw_hex\""));
  CHECK(qjt_test::contains(
      error_of(R"({"kind":"log_record","op":"PUT","version":3,"transaction_id":1,"write_order_id":2,"headers":{}})"),
      "found none (a dump made with --data=none"));
  CHECK(error_of(R"({"kind":"log_record","op":"END_OF_DATA","version":3,"fill":2147483648})") ==
        "expected \"fill\" as an integer from 0 to 2147483647, found 2147483648");
  CHECK(
      error_of(
          R"({"kind":"log_record","op":"COMMIT","version":3,"transaction_id":1,"write_order_id":2,"commit_type":"x"})") ==
      "expected \"commit_type\" as an integer from -32768 to 32767, found \"x\" (or \"PUT\" or \"TAKE\")");
  CHECK(qjt_test::contains(
      error_of(
          R"({"kind":"log_record","op":"PUT","version":3,"transaction_id":1,"write_order_id":2,"headers":{},"data":"a","data_hex":"61"})"),
      "expected one of \"data\" and \"data_hex\", found both"));
  // The envelope: "file" is ignored, "format" must name Flume.
  CHECK(error_of(R"({"format":"kestrel","file":"x","kind":"log_record","op":"END_OF_DATA","version":3})") ==
        "expected \"format\" \"flume\" or no \"format\", found \"kestrel\": the line is not a flume record "
        "(give each family's lines to its own conversion)");
  // "type", when present, must be "record": a finding or report line is no record.
  CHECK(qjt_test::contains(
      error_of(R"({"type":"finding","severity":"error","kind":"log_record","op":"END_OF_DATA","version":3})"),
      "expected \"type\" \"record\" or no \"type\", found \"finding\""));
  CHECK(qjt_test::contains(error_of(R"({"type":"report","ok":true})"), "found \"report\""));
  {
    LogJsonLine record;
    std::string why;
    CHECK(parse_log_json_line(
        R"({"type":"record","format":"flume","file":"x","kind":"log_record","op":"END_OF_DATA","version":3})", &record,
        &why));
    // The old lower-case names of the record are not read: "op" is upper case.
    CHECK_FALSE(parse_log_json_line(
        R"({"kind":"log_record","op":"rollback","version":3,"transaction_id":1,"write_order_id":2})", &record, &why));
    CHECK(qjt_test::contains(why, "expected \"op\" PUT, TAKE"));
    // A line of an older release ("type":"put") is told where its record went.
    CHECK_FALSE(parse_log_json_line(R"({"kind":"log_record","type":"put","version":3})", &record, &why));
    CHECK(qjt_test::contains(why, R"(found "put")"));
    CHECK(qjt_test::contains(why, R"(it is now "op" "PUT" beside "type" "record")"));
  }

  // Order: the meta first, nothing after the end; the key for an encrypted meta.
  LogJsonAssembler assembler(nullptr);
  LogJsonLine line;
  std::string error;
  REQUIRE(parse_log_json_line(
      R"({"kind":"log_record","op":"ROLLBACK","version":3,"transaction_id":1,"write_order_id":2})", &line, &error));
  CHECK(assembler.add(line, &error));
  REQUIRE(parse_log_json_line(
      R"({"kind":"log_meta","version":3,"log_file_id":1,"checkpoint_position":0,"checkpoint_write_order_id":0,"encryption":null})",
      &line, &error));
  CHECK_FALSE(assembler.add(line, &error));
  CHECK(error == "expected the log_meta line first (it decides the encryption), found it later");
  REQUIRE(parse_log_json_line(R"({"format":"flume","file":"x","kind":"log_record","op":"END_OF_DATA","version":3})",
                              &line, &error));
  CHECK(assembler.add(line, &error));
  CHECK_FALSE(assembler.add(line, &error));
  CHECK(assembler.refusal() == LogJsonAssembler::Refusal::kBadLine);

  LogJsonAssembler no_key(nullptr);
  REQUIRE(parse_log_json_line(
      R"({"kind":"log_meta","version":3,"log_file_id":2,"checkpoint_position":0,"checkpoint_write_order_id":0,"encryption":{"cipher_provider":"AESCTRNOPADDING","key_alias":"k1","parameters_hex":"a0a1a2a3a4a5a6a7a8a9aaab00000001"}})",
      &line, &error));
  CHECK_FALSE(no_key.add(line, &error));
  CHECK(no_key.refusal() == LogJsonAssembler::Refusal::kMissingKey);
  CHECK(qjt_test::contains(error, "expected --key k1=HEX"));
}

// ---------------------------------------------------------------- the checkpoint upgrade

namespace {

// checkpoint.meta as spec §2 lays it out, written out by hand: length 48,
// version 3, writeOrderID (below 2^16 here), queueSize, queueHead, then two
// activeLogs {logFileID, count}.
qjt_test::Bytes meta_bytes(std::uint16_t woid, std::uint8_t size, std::uint8_t head, std::uint8_t file1,
                           std::uint8_t count1, std::uint8_t file2, std::uint8_t count2) {
  const auto low = static_cast<std::uint8_t>(woid & 0xFF), high = static_cast<std::uint8_t>(woid >> 8);
  return qjt_test::cat({
      {0x30},
      {0x0D, 0x03, 0x00, 0x00, 0x00},
      {0x11, low, high, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
      {0x1D, size, 0x00, 0x00, 0x00},
      {0x25, head, 0x00, 0x00, 0x00},
      {0x2A, 0x0A, 0x0D, file1, 0x00, 0x00, 0x00, 0x15, count1, 0x00, 0x00, 0x00},
      {0x2A, 0x0A, 0x0D, file2, 0x00, 0x00, 0x00, 0x15, count2, 0x00, 0x00, 0x00},
  });
}

// testdata/flume/v2's: write order id 1000, size 3, head 8, counts 1:2, 2:1.
const qjt_test::Bytes kTestdataV2Meta = meta_bytes(1000, 3, 8, 1, 2, 2, 1);

CheckpointFiles checkpoint_files(const fs::path& dir) {
  FindingList ignored;
  ChannelDirs dirs;
  dirs.checkpoint_dir = dir.string();
  return discover_channel(dirs, &ignored, false).checkpoint;
}

std::string as_text(const qjt_test::Bytes& bytes) { return std::string(bytes.begin(), bytes.end()); }

}  // namespace

TEST_CASE("flume upgrade: checkpoint.meta from a V2 header, counts in Flume's HashMap order") {
  CheckpointImage image;
  image.version = 2;
  image.write_order_id = 5;
  image.v2_size = 2;
  image.v2_head = 7;
  // Slot order 2, 17, 3 (count 0), 2 again (its count replaced). HashMap
  // buckets (h ^ h>>>16) & 15: 17 -> 1, 2 -> 2, 3 -> 3.
  image.v2_active_logs = {ActiveLogCount{2, 9}, ActiveLogCount{17, 1}, ActiveLogCount{3, 0}, ActiveLogCount{2, 1}};
  image.slots.assign(10, 0);
  const std::string bytes = *encode_checkpoint(image);
  const auto checkpoint = CheckpointFile::decode(ByteSpan(bytes), "checkpoint", nullptr);
  REQUIRE(checkpoint);
  const qjt_test::Bytes expected = meta_bytes(5, 2, 7, 17, 1, 2, 1);  // 17 first, 3 left out
  CHECK(encode_checkpoint_meta(meta_from_v2_header(*checkpoint)) == as_text(expected));
}

TEST_CASE("flume upgrade: plan, apply, re-run, and the half-done state") {
  qjt_test::TempDir tmp("upgrade");
  const fs::path cp = tmp.path() / "checkpoint";
  fs::create_directories(cp);
  const std::string original = slurp(fs::path(kTestdata) / "v2/checkpoint/checkpoint");
  put(cp / "checkpoint", original);

  FindingList findings;
  UpgradePlan plan = plan_checkpoint_upgrade(checkpoint_files(cp), &findings);
  REQUIRE(plan.state == UpgradeState::kV2);
  CHECK(plan.existing_backup.empty());
  CHECK(encode_checkpoint_meta(plan.meta) == as_text(kTestdataV2Meta));
  std::string backup, error;
  REQUIRE_MESSAGE(apply_checkpoint_upgrade(plan, 1234, &backup, &error), error);
  CHECK(backup == (cp / "checkpoint-backup-1234").string());
  CHECK(slurp(backup) == original);
  std::string upgraded = original;
  upgraded[7] = 3;
  CHECK(slurp(cp / "checkpoint") == upgraded);
  CHECK(slurp(cp / "checkpoint.meta") == as_text(kTestdataV2Meta));
  struct stat a {
  }, b{};
  REQUIRE(::stat((cp / "checkpoint").c_str(), &a) == 0);
  REQUIRE(::stat(backup.c_str(), &b) == 0);
  CHECK(a.st_ino != b.st_ino);  // replaced by rename, never written through a hard link
  CHECK(plan_checkpoint_upgrade(checkpoint_files(cp), &findings).state == UpgradeState::kV3);
  CHECK(findings.findings().empty());

  // Killed between the two renames: the meta is there, the checkpoint is V2.
  put(cp / "checkpoint", original);
  plan = plan_checkpoint_upgrade(checkpoint_files(cp), &findings);
  REQUIRE(plan.state == UpgradeState::kHalfDone);
  CHECK(plan.existing_backup == backup);
  REQUIRE(apply_checkpoint_upgrade(plan, 5678, &backup, &error));
  CHECK(slurp(cp / "checkpoint") == upgraded);
  CHECK_FALSE(fs::exists(cp / "checkpoint-backup-5678"));

  // Another meta beside a V2 checkpoint is not ours to guess about.
  put(cp / "checkpoint", original);
  put(cp / "checkpoint.meta", "\x02\x0D\x03");
  plan = plan_checkpoint_upgrade(checkpoint_files(cp), &findings);
  CHECK(plan.state == UpgradeState::kRefused);
  REQUIRE(findings.findings().size() == 1);
  CHECK(findings.findings()[0].code == "upgrade_refused");
}

TEST_CASE("flume upgrade: an incomplete or missing checkpoint is refused") {
  qjt_test::TempDir tmp("upgrade-refused");
  FindingList findings;
  CHECK(plan_checkpoint_upgrade(checkpoint_files(tmp.path()), &findings).state == UpgradeState::kRefused);
  std::string incomplete = slurp(fs::path(kTestdata) / "v2/checkpoint/checkpoint");
  incomplete[4 * 8 + 7] = 1;  // long[4], the marker
  put(tmp.path() / "checkpoint", incomplete);
  CHECK(plan_checkpoint_upgrade(checkpoint_files(tmp.path()), &findings).state == UpgradeState::kRefused);
  REQUIRE(findings.findings().size() == 2);
  CHECK(qjt_test::contains(findings.findings()[1].message,
                           "expected a complete V2 checkpoint (marker 0), found marker 1"));
}

TEST_CASE("flume upgrade: a checkpoint larger than the writer's buffer keeps every byte") {
  qjt_test::TempDir tmp("upgrade-large");
  CheckpointImage image;
  image.version = 2;
  image.write_order_id = 42;
  image.v2_size = 1;
  image.v2_head = 199999;
  image.v2_active_logs = {ActiveLogCount{1, 1}};
  image.slots.assign(200000, 0);
  image.slots.back() = (std::int64_t{1} << 32) | 77;  // log-1 @ 77, the head
  const std::string original = *encode_checkpoint(image);
  REQUIRE(original.size() > (1u << 20));
  put(tmp.path() / "checkpoint", original);
  FindingList findings;
  const UpgradePlan plan = plan_checkpoint_upgrade(checkpoint_files(tmp.path()), &findings);
  REQUIRE(plan.state == UpgradeState::kV2);
  std::string backup, error;
  REQUIRE_MESSAGE(apply_checkpoint_upgrade(plan, 1, &backup, &error), error);
  std::string upgraded = original;
  upgraded[7] = 3;
  CHECK(slurp(tmp.path() / "checkpoint") == upgraded);
  CHECK(slurp(backup) == original);
}
