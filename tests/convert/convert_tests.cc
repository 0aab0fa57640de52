// Tests of `qjt convert`: they run the built qjt binary (QJT_BINARY) on
// journals written here byte by byte from the spec's table (kestrel-format.md
// 1.2), with no code shared with qjt's writer, and on every journal under
// testdata/kestrel; plus unit tests of the JSON line parser and the 1.x
// upgrade.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "kestrel/journal_json_parse.h"
#include "kestrel/journal_reader.h"
#include "kestrel/legacy_upgrade.h"

namespace fs = std::filesystem;

namespace {

// ---- a test-only encoder, from the spec's byte table ------------------------

class Journal {
 public:
  Journal& add(std::int32_t expiry_s, std::string_view data) {  // 0x00, legacy
    u8(0x00);
    i32(static_cast<std::int32_t>(4 + data.size()));
    i32(expiry_s);
    bytes_ += data;
    return *this;
  }
  Journal& remove() { return u8(0x01); }
  Journal& addx(std::int64_t add_ms, std::int64_t expiry_ms, std::string_view data) {
    u8(0x02);
    return block(add_ms, expiry_ms, data);
  }
  Journal& remove_tentative() { return u8(0x03); }
  Journal& save_xid(std::int32_t xid) { return u8(0x04).i32(xid); }
  Journal& unremove(std::int32_t xid) { return u8(0x05).i32(xid); }
  Journal& confirm(std::int32_t xid) { return u8(0x06).i32(xid); }
  Journal& add_xid(std::int32_t xid, std::int64_t add_ms, std::int64_t expiry_ms, std::string_view data) {
    u8(0x07).i32(xid);
    return block(add_ms, expiry_ms, data);
  }
  Journal& cont(std::int32_t xid, std::int64_t add_ms, std::int64_t expiry_ms, std::string_view data) {
    u8(0x08).i32(xid);
    return block(add_ms, expiry_ms, data);
  }
  Journal& rtx(std::int32_t xid) { return u8(0x09).i32(xid); }
  Journal& raw(std::string_view bytes) {
    bytes_ += bytes;
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  Journal& u8(int v) {
    bytes_.push_back(static_cast<char>(v));
    return *this;
  }
  Journal& le(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    return *this;
  }
  Journal& i32(std::int32_t v) { return le(static_cast<std::uint32_t>(v), 4); }
  Journal& i64(std::int64_t v) { return le(static_cast<std::uint64_t>(v), 8); }
  Journal& block(std::int64_t add_ms, std::int64_t expiry_ms, std::string_view data) {
    i32(static_cast<std::int32_t>(16 + data.size())).i64(add_ms).i64(expiry_ms);
    bytes_ += data;
    return *this;
  }
  std::string bytes_;
};

std::string unhex(std::string_view hex) {
  std::string out;
  std::string digits;
  for (char c : hex)
    if (c != ' ') digits.push_back(c);
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  return out;
}

// ---- files and processes ----------------------------------------------------

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "qjt-convert-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path operator/(const std::string& name) const { return path / name; }
};

struct Result {
  int status = -1;
  std::string out;  // standard output, when captured
  std::string err;  // standard error
};

// Runs `qjt ARGS` through the shell (ARGS is shell text: quote paths), with
// standard output into a file and standard error captured.
Result run_qjt(const TempDir& dir, const std::string& args, const std::string& stdin_file = "/dev/null") {
  const fs::path out = dir / "stdout", err = dir / "stderr";
  const std::string command = std::string(quote(QJT_BINARY)) + " " + args + " <" + quote(stdin_file) + " >" +
                              quote(out.string()) + " 2>" + quote(err.string());
  const int raw = std::system(command.c_str());
  Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

int shell(const std::string& command) {
  const int raw = std::system(command.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

bool have_jq() { return shell("command -v jq >/dev/null 2>&1") == 0; }

const char* const kModes[] = {"text", "base64", "hex"};

// journal -> JSON Lines (mode) -> journal gives the same bytes, through files
// and through pipes; the exit status says whether the file is broken. Read
// as Kestrel's: a file that starts with no opcode is of no known format to
// convert without --format, as to dump.
void check_round_trip(const TempDir& dir, const fs::path& journal, int expected_status, bool pipes = true) {
  const std::string j = quote(journal.string());
  for (const char* mode : kModes) {
    CAPTURE(journal.string());
    CAPTURE(mode);
    const fs::path jsonl = dir / "rt.jsonl", back = dir / "rt.back";
    fs::remove(jsonl);  // an existing -o is refused
    fs::remove(back);
    const Result to = run_qjt(dir, std::string("convert --to jsonl --format kestrel --data ") + mode + " " + j +
                                       " -o " + quote(jsonl.string()));
    CHECK(to.status == expected_status);
    CHECK(to.out.empty());
    const Result from = run_qjt(dir, "convert --to kestrel " + quote(jsonl.string()) + " -o " + quote(back.string()));
    CHECK(from.status == expected_status);
    CHECK(fs::exists(back));
    CHECK(read_file(back) == read_file(journal));
    if (!pipes) continue;
    // The same through standard input and output.
    const int piped =
        shell(quote(QJT_BINARY) + " convert --to jsonl --format kestrel --data " + mode + " " + j + " 2>/dev/null | " +
              quote(QJT_BINARY) + " convert --to kestrel - 2>/dev/null | cmp -s - " + j);
    CHECK(piped == 0);
  }
  // In the default mode the JSON Lines are exactly what dump --json prints
  // (read as Kestrel's: a file that starts with no opcode is of no known
  // format to dump without --format).
  const Result dump = run_qjt(dir, "dump --json --format kestrel " + j);
  const Result conv = run_qjt(dir, "convert --to jsonl --format kestrel " + j);
  CHECK(conv.status == dump.status);
  CHECK(conv.out == dump.out);
}

// Every opcode 0 to 9, payloads that are text, not UTF-8, empty and with
// JSON-hostile bytes, extreme values, then a BROKEN tail.
Journal every_opcode() {
  Journal j;
  j.add(0, "legacy").add(-5, "").add(2147483647, "\xff\xfe not utf-8");
  j.addx(1700000000000, 0, "plain").addx(-1, INT64_MIN, std::string("nul\0\"\\\n\t", 9));
  j.remove_tentative().save_xid(-2147483647 - 1).unremove(0).confirm(2147483647);
  j.add_xid(42, 1, 2, "\xc3\xa9t\xc3\xa9").cont(7, INT64_MAX, 3, "continued").rtx(-1).remove();
  return j;
}

}  // namespace

// ---- unit: payload decoders and the line parser -----------------------------

TEST_CASE("base64 and hex decoding is strict") {
  std::string out, error;
  CHECK(qjt::kestrel::base64_decode("", &out, &error));
  CHECK(out.empty());
  CHECK(qjt::kestrel::base64_decode("QQ==", &out, &error));
  CHECK(out == "A");
  CHECK(qjt::kestrel::base64_decode("QUI=", &out, &error));
  CHECK(out == "AB");
  CHECK(qjt::kestrel::base64_decode("QUJD/+8A", &out, &error));
  CHECK(out == std::string("ABC\xff\xef\x00", 6));
  for (const char* bad : {"QQ=", "Q===", "QQ=A", "QQ==QQ==", "Q!==", "QUJD\n", "QQ ="}) {
    CAPTURE(bad);
    CHECK_FALSE(qjt::kestrel::base64_decode(bad, &out, &error));
    CHECK(error.find("base64") != std::string::npos);
  }
  CHECK(qjt::kestrel::hex_decode("00ffA0", &out, &error));
  CHECK(out == std::string("\x00\xff\xa0", 3));
  CHECK_FALSE(qjt::kestrel::hex_decode("abc", &out, &error));
  CHECK(error.find("odd") != std::string::npos);
  CHECK_FALSE(qjt::kestrel::hex_decode("zz", &out, &error));
  CHECK(error.find("'z'") != std::string::npos);
}

TEST_CASE("a parsed line encodes like the record it describes") {
  qjt::kestrel::JournalRecord record;
  std::string storage, error;
  REQUIRE(qjt::kestrel::parse_record_json(
      R"({"file":"stale","offset":999,"op":"ADD_XID","xid":-3,"add_time_ms":5,"expiry_ms":6,"size":0,"data_hex":"6869"})",
      &record, &storage, &error));
  CHECK(record.type == qjt::kestrel::RecordType::kAddXid);
  CHECK(record.xid == -3);
  CHECK(record.add_time_ms == 5);
  CHECK(record.expiry_ms == 6);
  CHECK(record.payload.as_chars() == "hi");
  REQUIRE(qjt::kestrel::parse_record_json(R"({"op":"ADD","add_time_ms":null,"expiry_ms":-2000,"data":"x"})", &record,
                                          &storage, &error));
  CHECK(record.type == qjt::kestrel::RecordType::kAdd);
  CHECK_FALSE(record.has_add_time);
  CHECK(record.expiry_ms == -2000);
  CHECK_FALSE(qjt::kestrel::parse_record_json(R"({"op":"ADDX","time_ms":1.5,"expiry_ms":0,"data":""})", &record,
                                              &storage, &error));
  CHECK(error ==
        "ADDX needs \"time_ms\" as an integer (milliseconds) from -9223372036854775808 "
        "to 9223372036854775807: found 1.5");
  // "time_ms" is the add time; "add_time_ms", as older releases wrote it, only when it is absent.
  REQUIRE(qjt::kestrel::parse_record_json(R"({"op":"ADDX","time_ms":7,"add_time_ms":8,"expiry_ms":0,"data":""})",
                                          &record, &storage, &error));
  CHECK(record.add_time_ms == 7);
  CHECK_FALSE(qjt::kestrel::parse_record_json(R"({"op":"ADD","time_ms":5,"expiry_ms":0,"data":"x"})", &record, &storage,
                                              &error));
  CHECK(error.find("\"time_ms\" null or absent") != std::string::npos);
}

TEST_CASE("a parsed line may carry the envelope, of its own family only") {
  qjt::kestrel::JournalRecord record;
  std::string storage, error;
  CHECK(qjt::kestrel::parse_record_json(R"({"format":"kestrel","file":"any","offset":0,"op":"REMOVE"})", &record,
                                        &storage, &error));
  CHECK(record.type == qjt::kestrel::RecordType::kRemove);
  CHECK_FALSE(qjt::kestrel::parse_record_json(R"({"format":"libkestrel","file":"q.1","offset":4,"op":"REMOVE"})",
                                              &record, &storage, &error));
  CHECK(error ==
        "expected \"format\" \"kestrel\" or no \"format\", found \"libkestrel\": the line is not a "
        "kestrel record (give each family's lines to its own conversion)");
  CHECK_FALSE(qjt::kestrel::parse_record_json(R"({"format":7,"op":"REMOVE"})", &record, &storage, &error));
  // "type", when present, must be "record": the other lines qjt prints are refused.
  CHECK(qjt::kestrel::parse_record_json(R"({"type":"record","format":"kestrel","file":"any","offset":0,"op":"REMOVE"})",
                                        &record, &storage, &error));
  for (const char* other : {R"({"type":"finding","severity":"error","code":"broken_record","op":"REMOVE"})",
                            R"({"type":"report","ok":true,"op":"REMOVE"})", R"({"type":7,"op":"REMOVE"})"}) {
    CHECK_FALSE(qjt::kestrel::parse_record_json(other, &record, &storage, &error));
    CHECK_MESSAGE(error.find("expected \"type\" \"record\" or no \"type\"") != std::string::npos, error);
  }
}

TEST_CASE("LegacyUpgrade assigns the xids Kestrel 1.x would") {
  qjt::kestrel::LegacyUpgrade upgrade(77);
  const std::string input =
      Journal().add(1, "a").add(0, "b").remove_tentative().save_xid(0).remove_tentative().remove_tentative().bytes();
  qjt::kestrel::JournalReader reader{qjt::ByteSpan(std::string_view(input))};
  qjt::kestrel::JournalRecord record;
  std::string out;
  while (reader.next(&record)) upgrade.convert(record, &out);
  // RT with the queue empty still takes the next xid (3: 1 and 2 are open).
  CHECK(out == Journal().addx(77, 1000, "a").addx(77, 0, "b").rtx(1).rtx(2).rtx(3).bytes());
  CHECK(upgrade.counts().legacy_adds == 2);
  CHECK(upgrade.counts().legacy_removes == 3);
  CHECK(upgrade.counts().save_xids == 1);
}

// ---- round trips --------------------------------------------------------------

TEST_CASE("the test encoder writes the spec's bytes") {
  CHECK(Journal().add(60, "b").bytes() == unhex("00 05000000 3c000000 62"));
  CHECK(Journal().addx(1000, 0, "c").bytes() == unhex("02 11000000 e803000000000000 0000000000000000 63"));
  CHECK(Journal().add_xid(77, 2000, 5000, "d").bytes() ==
        unhex("07 4d000000 11000000 d007000000000000 8813000000000000 64"));
  CHECK(Journal().remove().remove_tentative().save_xid(-1).rtx(9).bytes() == unhex("01 03 04ffffffff 0909000000"));
}

TEST_CASE("round trip of every journal under testdata/kestrel") {
  TempDir dir;
  const fs::path root = fs::path(QJT_TESTDATA_DIR) / "kestrel";
  if (!fs::exists(root)) return;
  std::size_t files = 0;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == "expected" && it->path().parent_path() == root) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    // dump tells whether the file holds a BROKEN record; convert must agree.
    const Result dump = run_qjt(dir, "dump --json " + quote(it->path().string()));
    REQUIRE((dump.status == 0 || dump.status == 1));
    check_round_trip(dir, it->path(), dump.status, false);
    ++files;
  }
  MESSAGE(files << " journal(s) under testdata/kestrel round-tripped");
}

TEST_CASE("round trip of hand-built journals with every opcode and BROKEN tails") {
  TempDir dir;
  const fs::path clean = dir / "every-opcode";
  write_file(clean, every_opcode().bytes());
  check_round_trip(dir, clean, 0);

  struct Tail {
    const char* name;
    std::string bytes;
  };
  const Tail tails[] = {
      {"invalid-opcode", unhex("0a 00 ff c3")},
      {"opcode-80", unhex("80")},
      {"truncated-xid", unhex("05 01 00")},
      {"truncated-addx", Journal().addx(1, 2, "abcdef").bytes().substr(0, 25)},
      {"negative-size", unhex("02 ffffffff 00")},
      {"short-legacy-block", unhex("00 02000000 0000")},
      {"text-tail", unhex("0b") + "readable text tail"},
  };
  for (const Tail& tail : tails) {
    CAPTURE(tail.name);
    const fs::path broken = dir / (std::string("broken-") + tail.name);
    write_file(broken, every_opcode().raw(tail.bytes).bytes());
    check_round_trip(dir, broken, 1);
  }
  const fs::path empty = dir / "empty";
  write_file(empty, "");
  check_round_trip(dir, empty, 0);
  const fs::path only_broken = dir / "only-broken";
  write_file(only_broken, unhex("ff ff"));
  check_round_trip(dir, only_broken, 1);
}

TEST_CASE("dump --json gives a BROKEN record its raw bytes in each data mode") {
  TempDir dir;
  const fs::path file = dir / "j";
  write_file(file, Journal().remove().raw(unhex("0c 41 42")).bytes());
  const std::string f = quote(file.string());
  Result r = run_qjt(dir, "dump --json --data hex " + f);
  CHECK(r.status == 1);
  CHECK(r.out.find(R"("op":"BROKEN","tail_bytes":3,"data_hex":"0c4142","error":)") != std::string::npos);
  r = run_qjt(dir, "dump --json --data base64 " + f);
  CHECK(r.out.find(R"("tail_bytes":3,"data_b64":"DEFC","error":)") != std::string::npos);
  r = run_qjt(dir, "dump --json " + f);
  CHECK(r.out.find(R"("tail_bytes":3,"data":"\fAB","error":)") != std::string::npos);
  r = run_qjt(dir, "dump --json --data none " + f);
  CHECK(r.out.find(R"("tail_bytes":3,"error":)") != std::string::npos);
}

// ---- surgery ---------------------------------------------------------------------

TEST_CASE("surgery: records deleted and edited in the JSON Lines convert back") {
  TempDir dir;
  const fs::path journal = dir / "orders";
  write_file(journal,
             Journal().addx(100, 0, "first").addx(200, 0, "poison").rtx(1).addx(300, 9000, "third").confirm(1).bytes());
  const fs::path jsonl = dir / "orders.jsonl";
  REQUIRE(run_qjt(dir, "convert --to jsonl " + quote(journal.string()) + " -o " + quote(jsonl.string())).status == 0);

  // Delete the second line (the poison ADDX): every later offset is now stale.
  std::string text = read_file(jsonl);
  const auto first_end = text.find('\n');
  const auto second_end = text.find('\n', first_end + 1);
  REQUIRE(text.substr(first_end + 1, second_end - first_end).find("\"poison\"") != std::string::npos);
  text.erase(first_end + 1, second_end - first_end);
  const fs::path edited = dir / "edited.jsonl";
  write_file(edited, text);
  const fs::path out = dir / "orders.fixed";
  const Result r = run_qjt(dir, "convert --to kestrel " + quote(edited.string()) + " -o " + quote(out.string()));
  CHECK(r.status == 0);
  CHECK(read_file(out) == Journal().addx(100, 0, "first").rtx(1).addx(300, 9000, "third").confirm(1).bytes());

  if (!have_jq()) {
    MESSAGE("jq not installed: the jq variant is skipped");
    return;
  }
  // The same with jq, plus a payload edit and a hex-encoded line.
  const fs::path out2 = dir / "orders.jq";
  const std::string pipeline =
      quote(QJT_BINARY) + " convert --to jsonl " + quote(journal.string()) +
      " | jq -c 'select(.data != \"poison\") | if .data == \"third\" then .data = \"3rd\" else . end'" + " | " +
      quote(QJT_BINARY) + " convert --to kestrel - -o " + quote(out2.string());
  CHECK(shell(pipeline) == 0);
  CHECK(read_file(out2) == Journal().addx(100, 0, "first").rtx(1).addx(300, 9000, "3rd").confirm(1).bytes());
}

// ---- malformed lines -------------------------------------------------------------

TEST_CASE("malformed lines exit 1 with a finding naming the line and write nothing") {
  TempDir dir;
  const std::string good1 = R"({"op":"ADDX","time_ms":1,"expiry_ms":0,"data":"ok"})";
  const std::string good2 = R"({"op":"REMOVE"})";
  struct Case {
    const char* line;
    const char* expected;  // a piece of the message
  };
  const Case cases[] = {
      {R"({"op":"REMOVE")", "invalid JSON"},
      {R"(not json)", "invalid JSON"},
      {R"([1,2])", "expected a JSON object, found [1,2]"},
      {R"({"xid":1})", "expected \"op\" as a string"},
      {R"({"op":5})", "found 5"},
      {R"({"op":"FROB"})", "found \"FROB\""},
      {R"({"op":"UNREMOVE"})",
       "UNREMOVE needs \"xid\" as an integer from -2147483648 to 2147483647: found no such field"},
      {R"({"op":"CONFIRM_REMOVE","xid":"7"})", "found \"7\""},
      {R"({"op":"SAVE_XID","xid":2147483648})", "found 2147483648"},
      {R"({"op":"REMOVE_TENTATIVE_XID","xid":-2147483649})", "found -2147483649"},
      {R"({"op":"CONTINUE","xid":1.5,"time_ms":1,"expiry_ms":0,"data":""})", "found 1.5"},
      {R"({"op":"ADDX","expiry_ms":0,"data":"x"})", "\"time_ms\" as an integer (milliseconds)"},
      {R"({"op":"ADDX","time_ms":null,"expiry_ms":0,"data":"x"})", "found null"},
      {R"({"op":"ADDX","time_ms":0,"expiry_ms":9223372036854775808,"data":"x"})", "found 9223372036854775808"},
      {R"({"op":"ADD_XID","xid":1,"time_ms":0,"expiry_ms":0})", "found none (a dump made with --data=none"},
      {R"({"op":"ADDX","time_ms":0,"expiry_ms":0,"data":"x","data_hex":"78"})", "found both \"data\" and \"data_hex\""},
      {R"({"op":"ADDX","time_ms":0,"expiry_ms":0,"data_b64":"eA==","data_hex":"78"})", "found both"},
      {R"({"op":"ADDX","time_ms":0,"expiry_ms":0,"data":42})", "\"data\" as a string: found 42"},
      {R"({"op":"ADDX","time_ms":0,"expiry_ms":0,"data_b64":"eA="})", "base64"},
      {R"({"op":"ADDX","time_ms":0,"expiry_ms":0,"data_b64":"e!=="})", "found '!' at character 1"},
      {R"({"op":"ADDX","time_ms":0,"expiry_ms":0,"data_hex":"787"})", "odd number of digits"},
      {R"({"op":"BROKEN","tail_bytes":1,"data_hex":"g0","error":"x"})", "found 'g' at character 0"},
      {R"({"op":"BROKEN","tail_bytes":1,"error":"x"})", "found none"},
      {R"({"op":"ADD","time_ms":null,"expiry_ms":1500,"data":"x"})", "multiple of 1000"},
      {R"({"op":"ADD","expiry_ms":2147483648000,"data":"x"})", "found 2147483648000"},
      {R"({"op":"ADD","time_ms":5,"expiry_ms":0,"data":"x"})", "stores no add time"},
  };
  const fs::path out = dir / "out";
  for (const Case& c : cases) {
    CAPTURE(c.line);
    // Line 3 is bad; lines 1, 2 and 4 are good.
    const std::string input = good1 + "\n" + good2 + "\n" + c.line + "\n" + good2 + "\n";
    const fs::path jsonl = dir / "in.jsonl";
    write_file(jsonl, input);
    write_file(out, "OLD");
    Result r = run_qjt(dir, "convert --to kestrel --force " + quote(jsonl.string()) + " -o " + quote(out.string()));
    CHECK(r.status == 1);
    const std::string where =
        jsonl.string() + ":" + std::to_string(good1.size() + good2.size() + 2) + ": error[bad_json_line]: line 3: ";
    CHECK(r.err.find(where) != std::string::npos);
    CHECK(r.err.find(c.expected) != std::string::npos);
    CHECK(read_file(out) == "OLD");  // not replaced
    // To standard output: nothing at all.
    r = run_qjt(dir, "convert --to kestrel -", jsonl.string());
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("-:" + std::to_string(good1.size() + good2.size() + 2) + ": error[bad_json_line]: line 3: ") !=
          std::string::npos);
  }
  // No temporary file is left behind, and a new output is not created.
  for (const auto& entry : fs::directory_iterator(dir.path))
    CHECK(entry.path().filename().string().find("~~qjt-") == std::string::npos);
  const fs::path fresh = dir / "fresh";
  write_file(dir / "bad.jsonl", "{}\n");
  CHECK(run_qjt(dir, "convert --to kestrel " + quote((dir / "bad.jsonl").string()) + " -o " + quote(fresh.string()))
            .status == 1);
  CHECK_FALSE(fs::exists(fresh));
}

TEST_CASE("every bad line is reported and blank lines or CRLF or END_OF_FILE are fine") {
  TempDir dir;
  const fs::path jsonl = dir / "in.jsonl";
  write_file(jsonl,
             "{\"op\":\"REMOVE\"}\r\n\n   \n{\"op\":\"nope\"}\n{\"op\":\"END_OF_FILE\",\"offset\":1}\n{bad\n"
             "{\"op\":\"REMOVE_TENTATIVE\"}");
  Result r = run_qjt(dir, "convert --to kestrel " + quote(jsonl.string()));
  CHECK(r.status == 1);
  CHECK(r.err.find(":22: error[bad_json_line]: line 4: ") != std::string::npos);
  CHECK(r.err.find(":68: error[bad_json_line]: line 6: ") != std::string::npos);
  CHECK(r.err.find("line 7") == std::string::npos);
  CHECK(r.out.empty());

  write_file(jsonl, "{\"op\":\"REMOVE\"}\r\n\n{\"op\":\"END_OF_FILE\"}\n{\"op\":\"REMOVE_TENTATIVE\"}");
  r = run_qjt(dir, "convert --to kestrel " + quote(jsonl.string()));
  CHECK(r.status == 0);
  CHECK(r.out == unhex("01 03"));
  CHECK(r.err.empty());
}

TEST_CASE("a BROKEN line is written with exit 1 and a record after it is a bad line") {
  TempDir dir;
  const fs::path jsonl = dir / "in.jsonl";
  write_file(jsonl, "{\"op\":\"REMOVE\"}\n{\"op\":\"BROKEN\",\"data_hex\":\"0a0b\"}\n{\"op\":\"END_OF_FILE\"}\n");
  Result r = run_qjt(dir, "convert --to kestrel " + quote(jsonl.string()));
  CHECK(r.status == 1);
  CHECK(r.out == unhex("01 0a 0b"));
  CHECK(r.err.find("error[broken_record]: line 2: ") != std::string::npos);

  write_file(jsonl, "{\"op\":\"BROKEN\",\"data_hex\":\"0a\"}\n{\"op\":\"REMOVE\"}\n");
  r = run_qjt(dir, "convert --to kestrel " + quote(jsonl.string()));
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("error[bad_json_line]: line 2: expected END_OF_FILE or nothing after the BROKEN record of line 1") !=
        std::string::npos);
}

// ---- kestrel2 ----------------------------------------------------------------------

namespace {

constexpr std::int64_t kT = 1600000000123;

// A Kestrel 1.x journal: legacy ADDs, several opcode-3 removes open at once,
// SAVE_XID moving the counter (into open xids, and to -1 so the next xid
// wraps past 0), ADD_XID, a tentative remove on an empty queue, and
// UNREMOVE / CONFIRM_REMOVE / CONTINUE naming the xids 1.x assigned.
std::string legacy_input() {
  return Journal()
      .add(0, "a")                   // queue a
      .add(60, "b")                  // a b
      .addx(1000, 0, "c")            // a b c
      .add_xid(77, 2000, 5000, "d")  // a b c d
      .addx(3000, 0, "e")            // a b c d e
      .remove_tentative()            // xid 1 = a
      .remove_tentative()            // xid 2 = b
      .remove_tentative()            // xid 3 = c; queue d e
      .unremove(2)                   // b d e
      .confirm(1)                    // open {3}
      .save_xid(10)
      .remove_tentative()  // xid 11 = b; queue d e
      .remove_tentative()  // xid 12 = d; queue e
      .save_xid(11)
      .remove_tentative()      // 12 is open: xid 13 = e; queue empty
      .remove_tentative()      // xid 14, nothing to take
      .addx(4000, 0, "f")      // f
      .confirm(12)             // open {3, 11, 13}
      .unremove(13)            // e f
      .cont(11, 5000, 0, "g")  // open {3}; e f g
      .remove()                // f g
      .rtx(9)                  // xid 9 = f; g
      .remove_tentative()      // xid 10 = g
      .save_xid(-1)
      .addx(6000, 0, "h")
      .remove_tentative()  // 0 skipped: xid 1 = h; open {1, 3, 9, 10}
      .bytes();
}

// The same journal as Kestrel 2.x should read it, written by hand.
std::string upgraded(std::int64_t t) {
  return Journal()
      .addx(t, 0, "a")
      .addx(t, 60000, "b")
      .addx(1000, 0, "c")
      .addx(2000, 5000, "d")
      .addx(3000, 0, "e")
      .rtx(1)
      .rtx(2)
      .rtx(3)
      .unremove(2)
      .confirm(1)
      .rtx(11)
      .rtx(12)
      .rtx(13)
      .rtx(14)
      .addx(4000, 0, "f")
      .confirm(12)
      .unremove(13)
      .cont(11, 5000, 0, "g")
      .remove()
      .rtx(9)
      .rtx(10)
      .addx(6000, 0, "h")
      .rtx(1)
      .bytes();
}

}  // namespace

TEST_CASE("kestrel2: a 1.x journal upgraded to the bytes written by hand") {
  TempDir dir;
  const fs::path in = dir / "q", out = dir / "q.2x";
  write_file(in, legacy_input());
  Result r = run_qjt(dir, "convert --to kestrel2 --add-time " + std::to_string(kT) + " " + quote(in.string()) + " -o " +
                              quote(out.string()));
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(read_file(out) == upgraded(kT));
  // Standard input and output.
  r = run_qjt(dir, "convert --to kestrel2 --add-time 5 -", in.string());
  CHECK(r.status == 0);
  CHECK(r.out == upgraded(5));
  // 2.x replay of the output raises none of the legacy warnings.
  r = run_qjt(dir, "verify --json " + quote(out.string()));
  CHECK(r.status == 0);
  CHECK(r.out.find("legacy_") == std::string::npos);
  r = run_qjt(dir, "verify --json " + quote(in.string()));
  CHECK(r.out.find("legacy_remove_tentative") != std::string::npos);
}

TEST_CASE("kestrel2: legacy ADDs get the input's modification time") {
  TempDir dir;
  const fs::path in = dir / "q";
  write_file(in, Journal().add(2, "x").bytes());
  const struct timespec times[2] = {{1500000000, 250000000}, {1500000000, 250000000}};
  REQUIRE(::utimensat(AT_FDCWD, in.c_str(), times, 0) == 0);
  Result r = run_qjt(dir, "convert --to kestrel2 " + quote(in.string()));
  CHECK(r.status == 0);
  CHECK(r.out == Journal().addx(1500000000250, 2000, "x").bytes());
  r = run_qjt(dir, "convert --to kestrel2 -", in.string());  // a redirected file is still a file
  CHECK(r.out == Journal().addx(1500000000250, 2000, "x").bytes());
}

TEST_CASE("kestrel2: Kestrel 2.x replay of the output equals 1.x replay of the input") {
  if (!have_jq()) {
    MESSAGE("jq not installed: skipped");
    return;
  }
  TempDir dir;
  const fs::path in = dir / "q", out = dir / "q.2x";
  write_file(in, legacy_input());
  REQUIRE(run_qjt(dir, "convert --to kestrel2 --add-time " + std::to_string(kT) + " " + quote(in.string()) + " -o " +
                           quote(out.string()))
              .status == 0);
  // Queue, open transactions (by xid) and after_restart, without the
  // positions; the legacy ADDs' null add time is the one given.
  const std::string filter =
      " | jq -S --argjson t " + std::to_string(kT) +
      " 'def items: map(del(.file, .offset) | if .time_ms == null then .time_ms = $t else . end);"
      " {queue: (.queue | items), open: (.open_transactions | items), after: (.after_restart | items)}'";
  const fs::path a = dir / "a.json", b = dir / "b.json";
  CHECK(shell(quote(QJT_BINARY) + " replay --legacy-xids --json " + quote(in.string()) + filter + " >" +
              quote(a.string())) == 0);
  CHECK(shell(quote(QJT_BINARY) + " replay --json " + quote(out.string()) + filter + " >" + quote(b.string())) == 0);
  const std::string left = read_file(a), right = read_file(b);
  CHECK(left.find("\"xid\": 10") != std::string::npos);
  CHECK(left == right);
  // And 2.x replay of the input differs (the hazard being fixed).
  const fs::path c = dir / "c.json";
  CHECK(shell(quote(QJT_BINARY) + " replay --json " + quote(in.string()) + filter + " >" + quote(c.string())) == 0);
  CHECK(read_file(c) != left);
}

TEST_CASE("kestrel2: a BROKEN tail is reported and copied") {
  TempDir dir;
  const fs::path in = dir / "q", out = dir / "q.2x";
  write_file(in, Journal().add(0, "a").remove_tentative().raw(unhex("02 30000000 01")).bytes());
  const Result r =
      run_qjt(dir, "convert --to kestrel2 --add-time 9 " + quote(in.string()) + " -o " + quote(out.string()));
  CHECK(r.status == 1);
  CHECK(r.err.find(":11: error[broken_record]: ") != std::string::npos);
  CHECK(read_file(out) == Journal().addx(9, 0, "a").rtx(1).raw(unhex("02 30000000 01")).bytes());
}

// ---- usage and I/O ----------------------------------------------------------------

TEST_CASE("usage and I/O errors") {
  TempDir dir;
  const fs::path in = dir / "q";
  write_file(in, Journal().remove().bytes());
  const std::string q = quote(in.string());
  CHECK(run_qjt(dir, "convert " + q).status == 2);  // no --to
  CHECK(run_qjt(dir, "convert --to xml " + q).status == 2);
  CHECK(run_qjt(dir, "convert --to kestrel --data hex " + q).status == 2);
  CHECK(run_qjt(dir, "convert --to jsonl --add-time 1 " + q).status == 2);
  CHECK(run_qjt(dir, "convert --to jsonl --data utf16 " + q).status == 2);
  // Never over the input, however it is spelled.
  Result r = run_qjt(dir, "convert --to kestrel2 " + q + " -o " + q);
  CHECK(r.status == 2);
  r = run_qjt(dir, "convert --to jsonl " + q + " -o " + quote((dir.path / "." / "q").string()));
  CHECK(r.status == 2);
  CHECK(r.err.find("refusing to write the output over the input") != std::string::npos);
  CHECK(read_file(in) == Journal().remove().bytes());
  // Missing input: 3, and no output appears.
  const fs::path out = dir / "out";
  CHECK(run_qjt(dir, "convert --to jsonl " + quote((dir / "missing").string()) + " -o " + quote(out.string())).status ==
        3);
  CHECK(
      run_qjt(dir, "convert --to kestrel " + quote((dir / "missing").string()) + " -o " + quote(out.string())).status ==
      3);
  CHECK_FALSE(fs::exists(out));
  // An output directory that does not exist: 3.
  CHECK(run_qjt(dir, "convert --to jsonl " + q + " -o " + quote((dir / "no" / "such").string())).status == 3);
  // An existing file output is refused without --force, and replaced with it.
  write_file(out, "OLD");
  r = run_qjt(dir, "convert --to jsonl " + q + " -o " + quote(out.string()));
  CHECK(r.status == 2);
  CHECK(r.err.find("exists") != std::string::npos);
  CHECK(read_file(out) == "OLD");
  CHECK(run_qjt(dir, "convert --to jsonl --force " + q + " -o " + quote(out.string())).status == 0);
  CHECK(read_file(out) == "{\"type\":\"record\",\"format\":\"kestrel\",\"file\":" + std::string("\"") + in.string() +
                              "\",\"offset\":0,\"op\":\"REMOVE\"}\n"
                              "{\"type\":\"record\",\"format\":\"kestrel\",\"file\":\"" +
                              in.string() + "\",\"offset\":1,\"op\":\"END_OF_FILE\"}\n");
}
