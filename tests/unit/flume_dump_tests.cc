// Unit tests for dump_file (formats/flume/file_dump.h): every Flume file kind
// built with the encoders into a temporary directory, dumped, and compared
// as WHOLE output strings written out by hand. "@D" in an expected string
// stands for the temporary directory. Record sizes and offsets follow the
// spec (§5.2, §5.3: a commit is 36 bytes, a rollback 31, a take 41; a V2
// record has 23 bytes before its body); CRC32s were computed independently
// (Python zlib.crc32).
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "finding.h"
#include "flume/aes_ctr.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/event_json.h"
#include "flume/file_dump.h"
#include "flume/inflight_file.h"
#include "flume/log_metadata.h"
#include "flume/log_writer.h"
#include "flume/snappy_stream.h"
#include "input_file.h"
#include "payload.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::flume;

namespace {

// `pattern` with every "@D" replaced by `dir`.
std::string expand(std::string pattern, const std::string& dir) {
  for (std::size_t at = pattern.find("@D"); at != std::string::npos; at = pattern.find("@D", at + dir.size()))
    pattern.replace(at, 2, dir);
  return pattern;
}

void write(const std::filesystem::path& path, const std::string& bytes) {
  qjt_test::write_file(path, qjt_test::Bytes(bytes.begin(), bytes.end()));
}

struct DumpResult {
  std::string out;
  std::uint64_t lines = 0;
  std::uint64_t sink_calls = 0;
  std::string findings;  // format_finding of each, one a line
};

// Dumps the file as the CLI would: mapped with InputFile.
DumpResult dump(const std::filesystem::path& path, FileKind kind, FileDumpOptions options = {}) {
  DumpResult result;
  std::string error;
  const auto input = InputFile::open(path.string(), &error);
  REQUIRE_MESSAGE(input, error);
  FindingList findings;
  result.lines = dump_file(
      path.string(), input->bytes(), kind, options, &result.out, [&] { ++result.sink_calls; }, &findings);
  for (const Finding& f : findings.findings()) result.findings += format_finding(f) + "\n";
  return result;
}

FileDumpOptions json_options(DataMode mode = DataMode::kText) {
  FileDumpOptions options;
  options.json = true;
  options.mode = mode;
  return options;
}

FileDumpOptions text_options(DataMode mode = DataMode::kText) {
  FileDumpOptions options;
  options.mode = mode;
  return options;
}

std::string log_meta(std::int32_t file_id, std::optional<LogFileEncryption> encryption = std::nullopt) {
  LogMetadata meta;
  meta.log_file_id = file_id;
  meta.encryption = std::move(encryption);
  return encode_log_metadata(meta);
}

// put@0 (59 bytes), take@59, commit@100, rollback@136, commit@167 (type 9),
// a take NOOP'd at 203, end of data (0x80 fill) at 244.
std::string sample_v3_log() {
  V3RecordWriter w;
  std::string log;
  const HeaderToWrite headers[] = {{"k1", "v1"}};
  CHECK(w.put(&log, 1, 101, headers, "hello"));
  CHECK(w.take(&log, 2, 102, EventPointer{1, 0}));
  CHECK(w.commit(&log, 1, 103, 1));
  CHECK(w.rollback(&log, 3, 104));
  CHECK(w.commit(&log, 2, 105, 9));
  const std::size_t noop = log.size();
  CHECK(w.take(&log, 4, 106, EventPointer{1, 0}));
  log[noop] = '\0';  // what the integrity tool does to a record
  REQUIRE(log.size() == 244);
  log.append(4, '\x80');
  return log;
}

const char* const kSampleV3JsonStart =
    R"({"type":"record","format":"flume","file":"@D/log-3","kind":"log_record","offset":0,"op":"PUT","version":3,"transaction_id":1,"write_order_id":101,"headers":{"k1":"v1"},"size":5,"data":"hello","crc":907060870,"crc_ok":true})"
    "\n"
    R"({"type":"record","format":"flume","file":"@D/log-3","kind":"log_record","offset":59,"op":"TAKE","version":3,"transaction_id":2,"write_order_id":102,"taken":{"file_id":1,"offset":0}})"
    "\n"
    R"({"type":"record","format":"flume","file":"@D/log-3","kind":"log_record","offset":100,"op":"COMMIT","version":3,"transaction_id":1,"write_order_id":103,"commit_type":"PUT"})"
    "\n"
    R"({"type":"record","format":"flume","file":"@D/log-3","kind":"log_record","offset":136,"op":"ROLLBACK","version":3,"transaction_id":3,"write_order_id":104})"
    "\n"
    R"({"type":"record","format":"flume","file":"@D/log-3","kind":"log_record","offset":167,"op":"COMMIT","version":3,"transaction_id":2,"write_order_id":105,"commit_type":9})"
    "\n"
    R"({"type":"record","format":"flume","file":"@D/log-3","kind":"log_record","offset":203,"op":"NOOP","version":3,"size":41)";
const char* const kSampleV3JsonEnd =
    R"({"type":"record","format":"flume","file":"@D/log-3","kind":"log_record","offset":244,"op":"END_OF_DATA","version":3,"fill":4})"
    "\n";

// The NOOP line carries its bytes (the take with its OP byte zeroed) and the
// end line the length of the fill, so that convert --to flume-log can give
// the log back (log_json.h).
std::string sample_v3_json() {
  const std::string noop = qjt::base64_encode(qjt::ByteSpan(std::string_view(sample_v3_log()).substr(203, 41)));
  return std::string(kSampleV3JsonStart) + R"(,"raw_b64":")" + noop + "\"}\n" + kSampleV3JsonEnd;
}

// A V3 checkpoint of capacity 5, head 3, three elements (slots 1032, 1033,
// 1029), and its checkpoint.meta.
void write_v3_checkpoint(const std::filesystem::path& dir, bool with_meta) {
  std::filesystem::create_directories(dir);
  CheckpointImage image;
  image.version = 3;
  image.write_order_id = 77;
  image.slots = *place_in_ring(5, 3, {{2, 100}, {2, 200}, {3, 50}});
  write(dir / "checkpoint", *encode_checkpoint(image));
  if (!with_meta) return;
  CheckpointMeta meta;
  meta.write_order_id = 77;
  meta.queue_size = 3;
  meta.queue_head = 3;
  meta.active_logs = {{2, 2}, {3, 1}};
  write(dir / "checkpoint.meta", encode_checkpoint_meta(meta));
}

// A V2 checkpoint of capacity 4, head 3, size 2, marker INCOMPLETE.
std::string v2_checkpoint() {
  CheckpointImage image;
  image.version = 2;
  image.write_order_id = 9;
  image.marker = kCheckpointIncomplete;
  image.v2_size = 2;
  image.v2_head = 3;
  image.v2_active_logs = {{1, 2}};
  image.slots = *place_in_ring(4, 3, {{1, 24}, {1, 63}});
  return *encode_checkpoint(image);
}

const char* const kV2CheckpointJson =
    R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint","version":2,"write_order_id":9,"capacity":4,"marker":1,"complete":false,"size":2,"head":3,"active_logs":[{"file_id":1,"count":2}]})"
    "\n"
    R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":0,"slot":1032,"file_id":1,"offset":24})"
    "\n"
    R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":1,"slot":1029,"file_id":1,"offset":63})"
    "\n";

std::string with_file(std::string pattern, const std::string& file) {
  for (std::size_t at = pattern.find("@F"); at != std::string::npos; at = pattern.find("@F", at + file.size()))
    pattern.replace(at, 2, file);
  return pattern;
}

}  // namespace

TEST_CASE("flume dump: V3 log with every record type, JSON and text") {
  qjt_test::TempDir tmp("dump-v3");
  const std::string dir = tmp.path().string();
  write(tmp.path() / "log-3", sample_v3_log());
  write(tmp.path() / "log-3.meta", log_meta(3));

  const DumpResult json = dump(tmp.path() / "log-3", FileKind::kLogV3, json_options());
  CHECK(json.out == expand(sample_v3_json(), dir));
  CHECK(json.lines == 7);
  CHECK(json.sink_calls == 7);
  CHECK(json.findings == "");

  const DumpResult text = dump(tmp.path() / "log-3", FileKind::kLogV3, text_options());
  CHECK(text.out ==
        "         0  put txid=1 woid=101 size=5 crc=ok headers={\"k1\":\"v1\"}\n"
        "    data=\"hello\"\n"
        "        59  take txid=2 woid=102 -> log-1 @ 0\n"
        "       100  commit txid=1 woid=103 type=put\n"
        "       136  rollback txid=3 woid=104\n"
        "       167  commit txid=2 woid=105 type=9\n"
        "       203  noop size=41\n"
        "       244  end_of_data\n");
  CHECK(text.lines == 7);

  // Without a payload the put is one line; in JSON the field is left out.
  const DumpResult bare = dump(tmp.path() / "log-3", FileKind::kLogV3, text_options(DataMode::kNone));
  CHECK(bare.out.substr(0, bare.out.find('\n', 0) + 1) ==
        "         0  put txid=1 woid=101 size=5 crc=ok headers={\"k1\":\"v1\"}\n");
  CHECK(bare.out.find("data=") == std::string::npos);
  const DumpResult b64 = dump(tmp.path() / "log-3", FileKind::kLogV3, json_options(DataMode::kBase64));
  CHECK(qjt_test::contains(b64.out, R"("size":5,"data_b64":"aGVsbG8=","crc":907060870,)"));
}

TEST_CASE("flume dump: the limit stops output and decoding; the sink runs per line") {
  qjt_test::TempDir tmp("dump-limit");
  write(tmp.path() / "log-3", sample_v3_log());
  write(tmp.path() / "log-3.meta", log_meta(3));
  FileDumpOptions options = json_options();
  options.limit = 2;
  const DumpResult r = dump(tmp.path() / "log-3", FileKind::kLogV3, options);
  const std::string all = expand(sample_v3_json(), tmp.path().string());
  const std::size_t second_end = all.find('\n', all.find('\n') + 1) + 1;
  CHECK(r.out == all.substr(0, second_end));
  CHECK(r.lines == 2);
  CHECK(r.sink_calls == 2);
  options.limit = 0;
  CHECK(dump(tmp.path() / "log-3", FileKind::kLogV3, options).out == "");
}

TEST_CASE("flume dump: encrypted V3 log, with and without the key") {
  qjt_test::TempDir tmp("dump-aes");
  const std::string dir = tmp.path().string();
  const std::string key = "0123456789abcdef";
  std::string iv;
  for (char c = 0; c < 16; ++c) iv.push_back(c);
  std::string error;
  auto cipher = AesCtr::create(ByteSpan(key), ByteSpan(iv), &error);
  REQUIRE_MESSAGE(cipher, error);
  V3RecordWriter w(&*cipher);
  std::string log;
  CHECK(w.put(&log, 7, 70, {}, "secret"));  // 50 bytes
  CHECK(w.commit(&log, 7, 71, 1));
  CHECK(log.find("secret") == std::string::npos);
  write(tmp.path() / "log-2", log);
  write(tmp.path() / "log-2.meta", log_meta(2, LogFileEncryption{"AESCTRNOPADDING", "key-0", iv}));

  const KeyRing keys = {{"key-0", key}};
  FileDumpOptions options = json_options();
  options.keys = &keys;
  const std::string expected = expand(
      R"({"type":"record","format":"flume","file":"@D/log-2","kind":"log_record","offset":0,"op":"PUT","version":3,"transaction_id":7,"write_order_id":70,"headers":{},"size":6,"data":"secret","crc":1554180325,"crc_ok":true})"
      "\n"
      R"({"type":"record","format":"flume","file":"@D/log-2","kind":"log_record","offset":50,"op":"COMMIT","version":3,"transaction_id":7,"write_order_id":71,"commit_type":"PUT"})"
      "\n"
      R"({"type":"record","format":"flume","file":"@D/log-2","kind":"log_record","offset":86,"op":"END_OF_DATA","version":3,"fill":0})"
      "\n",
      dir);
  DumpResult r = dump(tmp.path() / "log-2", FileKind::kLogV3, options);
  CHECK(r.out == expected);
  CHECK(r.findings == "");

  // Flume's reader falls back to .meta.tmp when .meta is missing.
  std::filesystem::rename(tmp.path() / "log-2.meta", tmp.path() / "log-2.meta.tmp");
  r = dump(tmp.path() / "log-2", FileKind::kLogV3, options);
  CHECK(r.out == expected);
  CHECK(r.findings == "");

  r = dump(tmp.path() / "log-2", FileKind::kLogV3, json_options());
  CHECK(r.out == "");
  CHECK(r.lines == 0);
  CHECK(r.findings == expand("@D/log-2: error[missing_key]: the log is encrypted (AESCTRNOPADDING) with key alias "
                             "\"key-0\": expected --key key-0=HEX, found no such key; none of its records can be "
                             "read\n",
                             dir));

  const KeyRing short_key = {{"key-0", "12345"}};
  options.keys = &short_key;
  r = dump(tmp.path() / "log-2", FileKind::kLogV3, options);
  CHECK(r.out == "");
  CHECK(qjt_test::contains(r.findings, expand("@D/log-2: error[bad_key]: key alias \"key-0\": ", dir)));
}

TEST_CASE("flume dump: V2 log from offset 24, hex payload") {
  qjt_test::TempDir tmp("dump-v2log");
  std::string log;
  append_v2_log_header(&log, V2LogHeader{2, 1, 0, 0});
  const HeaderToWrite headers[] = {{"a", "b"}};
  append_v2_put(&log, 5, 6, headers, "x");          // 24, 39 bytes
  append_v2_take(&log, 8, 9, EventPointer{1, 24});  // 63, 31 bytes
  append_v2_commit(&log, 5, 7, 1);                  // 94, 25 bytes
  write(tmp.path() / "log-1", log);
  const DumpResult r = dump(tmp.path() / "log-1", FileKind::kLogV2, json_options(DataMode::kHex));
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/log-1","kind":"log_record","offset":24,"op":"PUT","version":2,"transaction_id":5,"write_order_id":6,"headers":{"a":"b"},"size":1,"data_hex":"78","crc":null,"crc_ok":true})"
          "\n"
          R"({"type":"record","format":"flume","file":"@D/log-1","kind":"log_record","offset":63,"op":"TAKE","version":2,"transaction_id":8,"write_order_id":9,"taken":{"file_id":1,"offset":24}})"
          "\n"
          R"({"type":"record","format":"flume","file":"@D/log-1","kind":"log_record","offset":94,"op":"COMMIT","version":2,"transaction_id":5,"write_order_id":7,"commit_type":"PUT"})"
          "\n"
          R"({"type":"record","format":"flume","file":"@D/log-1","kind":"log_record","offset":119,"op":"END_OF_DATA","version":2})"
          "\n",
          tmp.path().string()));
  CHECK(r.findings == "");
  CHECK(dump(tmp.path() / "log-1", FileKind::kLogV2, text_options(DataMode::kHex)).out ==
        "        24  put txid=5 woid=6 size=1 crc=none headers={\"a\":\"b\"}\n"
        "    data_hex=\"78\"\n"
        "        63  take txid=8 woid=9 -> log-1 @ 24\n"
        "        94  commit txid=5 woid=7 type=put\n"
        "       119  end_of_data\n");

  // A header naming another file id is reported; the records still print.
  write(tmp.path() / "log-4", log);
  const DumpResult other = dump(tmp.path() / "log-4", FileKind::kLogV2, json_options());
  CHECK(other.lines == 4);
  CHECK(qjt_test::contains(other.findings, "error[log_file_id_mismatch]"));
}

TEST_CASE("flume dump: truncated V3 log, CRC mismatch, data after the end fill") {
  qjt_test::TempDir tmp("dump-broken");
  const std::string dir = tmp.path().string();
  V3RecordWriter w;
  std::string log;
  CHECK(w.put(&log, 1, 2, {}, "hello"));  // 49 bytes, body at 34..39
  CHECK(w.commit(&log, 1, 3, 1));         // 49, payload 31 bytes
  log[38] = 'O';
  log.resize(log.size() - 10);
  write(tmp.path() / "log-5", log);  // no meta beside it

  const DumpResult r = dump(tmp.path() / "log-5", FileKind::kLogV3, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/log-5","kind":"log_record","offset":0,"op":"PUT","version":3,"transaction_id":1,"write_order_id":2,"headers":{},"size":5,"data":"hellO","crc":907060870,"crc_ok":false,"raw_b64":")" +
              qjt::base64_encode(qjt::ByteSpan(std::string_view(log).substr(0, 49))) +
              "\"}\n"
              R"({"type":"record","format":"flume","file":"@D/log-5","kind":"log_record","offset":49,"op":"BROKEN","version":3,"error":"expected a record payload of 31 bytes, found 21","raw_b64":")" +
              qjt::base64_encode(qjt::ByteSpan(std::string_view(log).substr(49))) + "\"}\n",
          dir));
  CHECK(r.findings ==
        expand("@D/log-5: warning[missing_log_meta]: expected log-5.meta beside the V3 log (its file id and "
               "encryption), found none: dumped as an unencrypted log\n"
               "@D/log-5:0: error[crc_mismatch]: expected CRC32 3610a686, found 0d7e864e over bytes 34 to 39\n"
               "@D/log-5:49: error[broken_record]: expected a record payload of 31 bytes, found 21\n",
               dir));
  CHECK(dump(tmp.path() / "log-5", FileKind::kLogV3, text_options(DataMode::kNone)).out ==
        "         0  put txid=1 woid=2 size=5 crc=mismatch\n"
        "        49  broken  expected a record payload of 31 bytes, found 21\n");

  std::string filled;
  CHECK(w.put(&filled, 1, 2, {}, "hello"));
  filled += "\x80\x80\x80Z";
  write(tmp.path() / "log-6", filled);
  write(tmp.path() / "log-6.meta", log_meta(6));
  const DumpResult after = dump(tmp.path() / "log-6", FileKind::kLogV3, text_options(DataMode::kNone));
  CHECK(after.out ==
        "         0  put txid=1 woid=2 size=5 crc=ok\n"
        "        49  end_of_data\n");
  CHECK(after.findings == expand("@D/log-6:52: warning[data_after_end]: expected only the 0x80 fill after the end "
                                 "of data at 49, found other bytes from 52: Flume stops reading at the fill and "
                                 "never reads them\n",
                                 dir));
}

TEST_CASE("flume dump: V3 checkpoint with its checkpoint.meta, and without") {
  qjt_test::TempDir tmp("dump-cp3");
  const std::string dir = tmp.path().string();
  write_v3_checkpoint(tmp.path() / "cp", true);

  DumpResult r = dump(tmp.path() / "cp" / "checkpoint", FileKind::kCheckpoint, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/cp/checkpoint","kind":"checkpoint","version":3,"write_order_id":77,"capacity":5,"marker":0,"complete":true,"size":3,"head":3,"active_logs":[{"file_id":2,"count":2},{"file_id":3,"count":1}]})"
          "\n"
          R"({"type":"record","format":"flume","file":"@D/cp/checkpoint","kind":"checkpoint_element","index":0,"slot":1032,"file_id":2,"offset":100})"
          "\n"
          R"({"type":"record","format":"flume","file":"@D/cp/checkpoint","kind":"checkpoint_element","index":1,"slot":1033,"file_id":2,"offset":200})"
          "\n"
          R"({"type":"record","format":"flume","file":"@D/cp/checkpoint","kind":"checkpoint_element","index":2,"slot":1029,"file_id":3,"offset":50})"
          "\n",
          dir));
  CHECK(r.lines == 4);
  CHECK(r.findings == "");
  CHECK(dump(tmp.path() / "cp" / "checkpoint", FileKind::kCheckpoint, text_options()).out ==
        "checkpoint v3 woid=77 capacity=5 size=3 head=3 complete active_logs=2:2,3:1\n"
        "  [0] slot 1032 -> log-2 @ 100\n"
        "  [1] slot 1033 -> log-2 @ 200\n"
        "  [2] slot 1029 -> log-3 @ 50\n");

  r = dump(tmp.path() / "cp" / "checkpoint.meta", FileKind::kCheckpointMeta, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/cp/checkpoint.meta","kind":"checkpoint_meta","version":3,"write_order_id":77,"queue_size":3,"queue_head":3,"active_logs":[{"file_id":2,"count":2},{"file_id":3,"count":1}]})"
          "\n",
          dir));
  CHECK(dump(tmp.path() / "cp" / "checkpoint.meta", FileKind::kCheckpointMeta, text_options()).out ==
        "checkpoint_meta v3 woid=77 size=3 head=3 active_logs=2:2,3:1\n");

  write_v3_checkpoint(tmp.path() / "lone", false);
  r = dump(tmp.path() / "lone" / "checkpoint", FileKind::kCheckpoint, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/lone/checkpoint","kind":"checkpoint","version":3,"write_order_id":77,"capacity":5,"marker":0,"complete":true,"size":null,"head":null,"active_logs":null})"
          "\n",
          dir));
  CHECK(r.findings == expand("@D/lone/checkpoint.meta: warning[missing_checkpoint_meta]: expected checkpoint.meta "
                             "beside the version 3 checkpoint @D/lone/checkpoint (it holds the queue's head and "
                             "size), found none: queue elements not listed\n",
                             dir));
  CHECK(dump(tmp.path() / "lone" / "checkpoint", FileKind::kCheckpoint, text_options()).out ==
        "checkpoint v3 woid=77 capacity=5 size=? head=? complete active_logs=?\n");
}

TEST_CASE("flume dump: V2 checkpoint, and the same compressed as a snappy backup") {
  qjt_test::TempDir tmp("dump-cp2");
  std::filesystem::create_directories(tmp.path() / "v2");
  std::filesystem::create_directories(tmp.path() / "backup");
  const std::string checkpoint = v2_checkpoint();
  const std::string plain = (tmp.path() / "v2" / "checkpoint").string();
  const std::string snappy = (tmp.path() / "backup" / "checkpoint.snappy").string();
  write(plain, checkpoint);
  write(snappy, compress_snappy_stream(ByteSpan(checkpoint), 4096));

  DumpResult r = dump(plain, FileKind::kCheckpoint, json_options());
  CHECK(r.out == with_file(kV2CheckpointJson, plain));
  CHECK(r.findings == "");
  CHECK(dump(plain, FileKind::kCheckpoint, text_options()).out ==
        "checkpoint v2 woid=9 capacity=4 size=2 head=3 incomplete active_logs=1:2\n"
        "  [0] slot 1032 -> log-1 @ 24\n"
        "  [1] slot 1029 -> log-1 @ 63\n");

  r = dump(snappy, FileKind::kSnappyCheckpoint, json_options());
  CHECK(r.out == with_file(kV2CheckpointJson, snappy));
  CHECK(r.lines == 3);
  CHECK(r.findings == "");
}

TEST_CASE("flume dump: a checkpoint with a head outside the ring lists no elements") {
  qjt_test::TempDir tmp("dump-cphead");
  CheckpointImage image;
  image.version = 2;
  image.v2_size = 1;
  image.v2_head = 7;
  image.slots = {EventPointer{1, 0}.to_long(), 0};
  write(tmp.path() / "checkpoint", *encode_checkpoint(image));
  const DumpResult r = dump(tmp.path() / "checkpoint", FileKind::kCheckpoint, text_options());
  CHECK(r.out == "checkpoint v2 woid=0 capacity=2 size=1 head=7 complete active_logs=none\n");
  CHECK(qjt_test::contains(r.findings, ":24: error[checkpoint_head]: "));
}

TEST_CASE("flume dump: inflight files, one line per transaction") {
  qjt_test::TempDir tmp("dump-inflight");
  const std::string dir = tmp.path().string();
  write(tmp.path() / "inflightputs", encode_inflight({{42, {{1, 417}, {2, 5}}, 0}}));
  write(tmp.path() / "inflighttakes", encode_inflight({{7, {{3, 0}}, 0}, {8, {{3, 41}}, 0}}));

  DumpResult r = dump(tmp.path() / "inflightputs", FileKind::kInflight, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/inflightputs","kind":"inflight_puts","offset":16,"transaction_id":42,"pointers":[{"file_id":1,"offset":417},{"file_id":2,"offset":5}]})"
          "\n",
          dir));
  CHECK(r.findings == "");
  CHECK(dump(tmp.path() / "inflightputs", FileKind::kInflight, text_options()).out ==
        "        16  inflight_puts txid=42 -> log-1 @ 417, log-2 @ 5\n");

  r = dump(tmp.path() / "inflighttakes", FileKind::kInflight, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/inflighttakes","kind":"inflight_takes","offset":16,"transaction_id":7,"pointers":[{"file_id":3,"offset":0}]})"
          "\n"
          R"({"type":"record","format":"flume","file":"@D/inflighttakes","kind":"inflight_takes","offset":40,"transaction_id":8,"pointers":[{"file_id":3,"offset":41}]})"
          "\n",
          dir));
  CHECK(dump(tmp.path() / "inflighttakes", FileKind::kInflight, text_options()).out ==
        "        16  inflight_takes txid=7 -> log-3 @ 0\n"
        "        40  inflight_takes txid=8 -> log-3 @ 41\n");

  // A name saying neither; a flipped checksum byte is a finding.
  std::string damaged = encode_inflight({{42, {{1, 417}}, 0}});
  damaged[0] = static_cast<char>(damaged[0] ^ 0x01);
  write(tmp.path() / "inflight-copy", damaged);
  r = dump(tmp.path() / "inflight-copy", FileKind::kInflight, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/inflight-copy","kind":"inflight","offset":16,"transaction_id":42,"pointers":[{"file_id":1,"offset":417}]})"
          "\n",
          dir));
  CHECK(qjt_test::contains(r.findings, "error[inflight_checksum]"));
}

TEST_CASE("flume dump: log-N.meta, plain and encrypted") {
  qjt_test::TempDir tmp("dump-logmeta");
  const std::string dir = tmp.path().string();
  LogMetadata plain;
  plain.log_file_id = 4;
  plain.checkpoint_position = 1234;
  plain.checkpoint_write_order_id = 99;
  write(tmp.path() / "log-4.meta", encode_log_metadata(plain));

  DumpResult r = dump(tmp.path() / "log-4.meta", FileKind::kLogMeta, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/log-4.meta","kind":"log_meta","version":3,"log_file_id":4,"checkpoint_position":1234,"checkpoint_write_order_id":99,"backup_checkpoint_position":0,"backup_checkpoint_write_order_id":0,"encryption":null})"
          "\n",
          dir));
  CHECK(r.findings == "");
  CHECK(dump(tmp.path() / "log-4.meta", FileKind::kLogMeta, text_options()).out ==
        "log_meta v3 log_file_id=4 checkpoint_position=1234 checkpoint_woid=99 backup_position=0 backup_woid=0 "
        "encryption=none\n");

  LogMetadata encrypted;
  encrypted.log_file_id = 9;
  encrypted.backup_checkpoint_position.reset();
  encrypted.backup_checkpoint_write_order_id.reset();
  std::string iv;
  for (char c = 0; c < 16; ++c) iv.push_back(c);
  encrypted.encryption = LogFileEncryption{"AESCTRNOPADDING", "key-0", iv};
  write(tmp.path() / "log-9.meta", encode_log_metadata(encrypted));
  r = dump(tmp.path() / "log-9.meta", FileKind::kLogMeta, json_options());
  CHECK(
      r.out ==
      expand(
          R"({"type":"record","format":"flume","file":"@D/log-9.meta","kind":"log_meta","version":3,"log_file_id":9,"checkpoint_position":0,"checkpoint_write_order_id":0,"backup_checkpoint_position":null,"backup_checkpoint_write_order_id":null,"encryption":{"cipher_provider":"AESCTRNOPADDING","key_alias":"key-0","parameters_hex":"000102030405060708090a0b0c0d0e0f"}})"
          "\n",
          dir));
  CHECK(dump(tmp.path() / "log-9.meta", FileKind::kLogMeta, text_options()).out ==
        "log_meta v3 log_file_id=9 checkpoint_position=0 checkpoint_woid=0 backup_position=none backup_woid=none "
        "encryption=AESCTRNOPADDING key_alias=key-0 iv=000102030405060708090a0b0c0d0e0f\n");

  // A meta naming another id than its file name.
  write(tmp.path() / "log-5.meta", encode_log_metadata(plain));
  r = dump(tmp.path() / "log-5.meta", FileKind::kLogMeta, json_options());
  CHECK(r.lines == 1);
  CHECK(r.findings == expand("@D/log-5.meta: error[log_file_id_mismatch]: expected logFileID 5 (from the name "
                             "log-5.meta), found 4; Flume files this log's puts under 4\n",
                             dir));
}

TEST_CASE("flume dump: backupComplete and unknown files give a finding and no line") {
  qjt_test::TempDir tmp("dump-other");
  const std::string dir = tmp.path().string();
  write(tmp.path() / "backupComplete", "");
  write(tmp.path() / "notes.txt", "hello");
  DumpResult r = dump(tmp.path() / "backupComplete", FileKind::kBackupComplete, json_options());
  CHECK(r.out == "");
  CHECK(r.lines == 0);
  CHECK(r.findings == expand("@D/backupComplete: warning[not_dumpable]: expected a file with records, found the "
                             "empty backupComplete marker (it says the backup checkpoint beside it is usable): "
                             "nothing to dump\n",
                             dir));
  r = dump(tmp.path() / "notes.txt", FileKind::kUnknown, json_options());
  CHECK(r.out == "");
  CHECK(r.findings == expand("@D/notes.txt: error[unknown_file]: expected a Flume file channel file (checkpoint, "
                             "checkpoint.meta, inflightputs, inflighttakes, log-N, log-N.meta, "
                             "checkpoint.snappy), found no Flume file name and no Flume file signature\n",
                             dir));
}

TEST_CASE("flume dump: real V2 checkpoint fixture, nine elements from head 0") {
  const auto fixture = qjt_test::read_shared_fixture_gz("flume-v2/fileformat-v2-checkpoint.gz");
  if (!fixture) {
    MESSAGE("shared fixture flume-v2/fileformat-v2-checkpoint.gz not present: skipped");
    return;
  }
  qjt_test::TempDir tmp("dump-fixture");
  qjt_test::write_file(tmp.path() / "checkpoint", *fixture);
  const std::string file = (tmp.path() / "checkpoint").string();
  const DumpResult r = dump(file, FileKind::kCheckpoint, json_options());
  // Pointers 8589936804, 4294969563, 12884904153, 8589936919, 4294969678,
  // 12884904268, 8589937034, 4294969793, 12884904383 as fileID << 32 | offset.
  CHECK(
      r.out ==
      with_file(
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint","version":2,"write_order_id":1344302226747,"capacity":10,"marker":0,"complete":true,"size":9,"head":0,"active_logs":[{"file_id":1,"count":3},{"file_id":2,"count":3},{"file_id":3,"count":3}]})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":0,"slot":1029,"file_id":2,"offset":2212})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":1,"slot":1030,"file_id":1,"offset":2267})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":2,"slot":1031,"file_id":3,"offset":2265})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":3,"slot":1032,"file_id":2,"offset":2327})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":4,"slot":1033,"file_id":1,"offset":2382})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":5,"slot":1034,"file_id":3,"offset":2380})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":6,"slot":1035,"file_id":2,"offset":2442})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":7,"slot":1036,"file_id":1,"offset":2497})"
          "\n"
          R"({"type":"record","format":"flume","file":"@F","kind":"checkpoint_element","index":8,"slot":1037,"file_id":3,"offset":2495})"
          "\n",
          file));
  CHECK(r.lines == 10);
  CHECK(r.findings == "");
  // The same pointers, unpacked independently of the hand-written lines.
  const std::int64_t pointers[] = {8589936804,  4294969563, 12884904153, 8589936919, 4294969678,
                                   12884904268, 8589937034, 4294969793,  12884904383};
  std::size_t from = r.out.find('\n') + 1;
  for (const std::int64_t p : pointers) {
    const EventPointer e = EventPointer::from_long(p);
    const std::size_t end = r.out.find('\n', from);
    CHECK(qjt_test::contains(r.out.substr(from, end - from), "\"file_id\":" + std::to_string(e.file_id) +
                                                                 ",\"offset\":" + std::to_string(e.offset) + "}"));
    from = end + 1;
  }
}

TEST_CASE("flume dump: cut and flipped inputs of every kind never crash") {
  qjt_test::TempDir tmp("dump-robust");
  std::string v3;
  {
    V3RecordWriter w;
    const HeaderToWrite headers[] = {{"k", "v"}};
    CHECK(w.put(&v3, 1, 2, headers, "body"));
    CHECK(w.commit(&v3, 1, 3, 1));
  }
  std::string v2;
  append_v2_log_header(&v2, V2LogHeader{2, 1, 0, 0});
  append_v2_put(&v2, 1, 2, {}, "x");
  CheckpointMeta cmeta;
  cmeta.queue_size = 1;
  const std::string checkpoint = v2_checkpoint();
  const std::pair<FileKind, std::string> inputs[] = {
      {FileKind::kLogV3, v3},
      {FileKind::kLogV2, v2},
      {FileKind::kCheckpoint, checkpoint},
      {FileKind::kSnappyCheckpoint, compress_snappy_stream(ByteSpan(checkpoint), 1024)},
      {FileKind::kCheckpointMeta, encode_checkpoint_meta(cmeta)},
      {FileKind::kInflight, encode_inflight({{1, {{1, 2}}, 0}})},
      {FileKind::kLogMeta, log_meta(1)},
  };
  for (const auto& [kind, bytes] : inputs) {
    for (std::size_t cut = 0; cut <= bytes.size(); cut += 1 + bytes.size() / 64) {
      for (const bool json : {true, false}) {
        std::string input = bytes.substr(0, cut);
        if (cut > 0 && cut % 2 == 0) input[cut / 2] = static_cast<char>(input[cut / 2] ^ 0x5A);
        std::string out;
        FindingList findings;
        FileDumpOptions options;
        options.json = json;
        const std::uint64_t lines =
            dump_file((tmp.path() / "log-1").string(), ByteSpan(input), kind, options, &out, {}, &findings);
        CHECK(lines <= out.size());
      }
    }
  }
}

TEST_CASE("event headers in JSON: keys escaped, each byte that is not UTF-8 one U+FFFD") {
  const std::string key = "k\"\xC3\xA9", value = "\xE0\x80\x80 \xF0\x90\x80 \xC0\xAF \xFF";
  LogRecord put;
  put.headers = {EventHeader{ByteSpan(std::string_view(key)), ByteSpan(std::string_view(value))},
                 EventHeader{ByteSpan(std::string_view("empty")), ByteSpan()}};
  std::string out;
  JsonWriter json(&out);
  write_headers_json(&json, put);
  const std::string r = "\xEF\xBF\xBD";
  CHECK(out == "{\"k\\\"\xC3\xA9\":\"" + r + r + r + " " + r + r + r + " " + r + r + " " + r + "\",\"empty\":\"\"}");
}
