// Robustness of JournalReader on real and damaged journals: every prefix of
// every journal, and deterministic pseudo-random mutations of it, decodes to
// records that tile the input plus exactly one terminal record, and a prefix
// decodes exactly like the full file up to where it was cut (Kestrel reads a
// journal front to back, spec 1.4).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "input_file.h"
#include "kestrel/journal_reader.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::kestrel;
using qjt_test::Bytes;
using qjt_test::cat;
using qjt_test::span;

namespace fs = std::filesystem;

namespace {

// Encoded length the spec's opcode table gives a decoded record.
std::uint64_t spec_length(const JournalRecord& r) {
  const std::uint64_t n = r.payload.size();
  switch (r.type) {
    case RecordType::kAdd:
      return 9 + n;
    case RecordType::kAddX:
      return 21 + n;
    case RecordType::kAddXid:
    case RecordType::kContinue:
      return 25 + n;
    case RecordType::kRemove:
    case RecordType::kRemoveTentative:
      return 1;
    default:
      return 5;
  }
}

struct Decoded {
  std::vector<JournalRecord> records;  // non-terminal
  JournalRecord terminal;
};

// Decodes `bytes` and checks the structural invariants; returns the records.
Decoded decode_checked(qjt::ByteSpan bytes) {
  Decoded out;
  JournalReader reader(bytes);
  JournalRecord r;
  std::uint64_t expected_offset = 0;
  std::size_t terminals = 0;
  while (reader.next(&r)) {
    REQUIRE(out.records.size() <= bytes.size());  // each record consumes at least one byte
    REQUIRE(r.offset == expected_offset);
    if (r.type == RecordType::kEndOfFile || r.type == RecordType::kBroken) {
      ++terminals;
      out.terminal = r;
      REQUIRE(terminals == 1);
      if (r.type == RecordType::kEndOfFile) {
        REQUIRE(r.offset == bytes.size());
        REQUIRE(r.length == 0);
      } else {
        REQUIRE(r.length > 0);
        REQUIRE(r.offset + r.length == bytes.size());
        REQUIRE_FALSE(r.error.empty());
        // A BROKEN record carries the raw tail it could not decode.
        REQUIRE(r.payload.data() == bytes.data() + r.offset);
        REQUIRE(r.payload.size() == r.length);
      }
      continue;
    }
    REQUIRE(terminals == 0);
    REQUIRE(static_cast<std::uint8_t>(r.type) <= 0x09);
    REQUIRE(r.length == spec_length(r));
    REQUIRE(r.offset + r.length <= bytes.size());
    if (r.payload.size() > 0) {
      // The payload is the tail of the record, inside the input.
      REQUIRE(r.payload.data() + r.payload.size() == bytes.data() + r.offset + r.length);
    }
    expected_offset = r.offset + r.length;
    out.records.push_back(r);
  }
  REQUIRE(terminals == 1);
  return out;
}

bool same_record(const JournalRecord& a, const JournalRecord& b) {
  return a.type == b.type && a.offset == b.offset && a.length == b.length && a.xid == b.xid &&
         a.add_time_ms == b.add_time_ms && a.has_add_time == b.has_add_time && a.expiry_ms == b.expiry_ms &&
         a.payload.data() == b.payload.data() && a.payload.size() == b.payload.size();
}

// A prefix of length `cut` must decode as the full file's records that end
// at or before `cut`, then END_OF_FILE if `cut` is a record boundary or
// BROKEN at the start of the record `cut` falls into.
void check_prefix(const Bytes& whole, const Decoded& full, std::size_t cut) {
  // A view of the same buffer, so payload pointers compare equal.
  const Decoded got = decode_checked(qjt::ByteSpan(whole.data(), cut));

  std::size_t fitting = 0;
  while (fitting < full.records.size() && full.records[fitting].offset + full.records[fitting].length <= cut) ++fitting;
  CAPTURE(cut);
  REQUIRE(got.records.size() == fitting);
  for (std::size_t i = 0; i < fitting; ++i) REQUIRE(same_record(got.records[i], full.records[i]));
  const std::uint64_t boundary = fitting == 0 ? 0 : full.records[fitting - 1].offset + full.records[fitting - 1].length;
  REQUIRE(got.terminal.offset == boundary);
  if (boundary == cut) {
    REQUIRE(got.terminal.type == RecordType::kEndOfFile);
  } else {
    REQUIRE(got.terminal.type == RecordType::kBroken);
    REQUIRE(got.terminal.length == cut - boundary);
  }
}

// splitmix64: a fixed, portable sequence so failures reproduce everywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

Bytes mutate(const Bytes& in, Rng* rng) {
  static const Bytes kSizes[] = {
      {0xFF, 0xFF, 0xFF, 0x7F},                            // 0x7fffffff
      {0x00, 0x00, 0x00, 0x80},                            // 0x80000000
      {0xFF, 0xFF, 0xFF, 0xFF},                            // -1
      {0x00, 0x00, 0x00, 0x00}, {0x0F, 0x00, 0x00, 0x00},  // 15, one short of an item block
      {0x10, 0x00, 0x00, 0x00},                            // 16
  };
  Bytes out = in;
  const std::size_t edits = 1 + rng->below(3);
  for (std::size_t e = 0; e < edits; ++e) {
    const std::size_t at = rng->below(out.size() + 1);
    switch (rng->below(6)) {
      case 0:  // flip some bits of one byte
        if (!out.empty()) out[rng->below(out.size())] ^= static_cast<std::uint8_t>(1 + rng->below(255));
        break;
      case 1:  // set a byte to an opcode, valid or not
        if (!out.empty())
          out[rng->below(out.size())] = static_cast<std::uint8_t>(rng->below(12) == 11 ? 0x80 : rng->below(11));
        break;
      case 2: {  // overwrite 4 bytes with a size value
        const Bytes& v = kSizes[rng->below(std::size(kSizes))];
        for (std::size_t k = 0; k < 4 && at + k < out.size(); ++k) out[at + k] = v[k];
        break;
      }
      case 3: {  // insert a size value
        const Bytes& v = kSizes[rng->below(std::size(kSizes))];
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), v.begin(), v.end());
        break;
      }
      case 4:  // delete a short run
        if (at < out.size())
          out.erase(out.begin() + static_cast<std::ptrdiff_t>(at),
                    out.begin() + static_cast<std::ptrdiff_t>(std::min(out.size(), at + 1 + rng->below(8))));
        break;
      default:  // truncate
        out.resize(at);
        break;
    }
  }
  return out;
}

// Journals written in the test itself, so the checks run even with no fixtures.
std::vector<std::pair<std::string, Bytes>> builtin_journals() {
  const Bytes addx_a = cat({{0x02, 0x11, 0x00, 0x00, 0x00},
                            {0x00, 0x68, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00},
                            {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
                            {'a'}});
  const Bytes addx_bc = cat({{0x02, 0x12, 0x00, 0x00, 0x00},
                             {0x01, 0x68, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00},
                             {0xE8, 0xA0, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00},
                             {'b', 'c'}});
  const Bytes modern = cat({addx_a,
                            addx_bc,
                            addx_a,
                            {0x09, 0x01, 0x00, 0x00, 0x00},                          // RTX 1
                            {0x09, 0x02, 0x00, 0x00, 0x00},                          // RTX 2
                            {0x06, 0x01, 0x00, 0x00, 0x00},                          // CONFIRM 1
                            {0x05, 0x02, 0x00, 0x00, 0x00},                          // UNREMOVE 2
                            {0x08, 0x03, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00},  // CONTINUE 3
                            {0x02, 0x68, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00},
                            {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
                            {'x', 'y', 'z'},
                            {0x01}});
  const Bytes legacy_1x = cat({{0x07, 0x05, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00},  // ADD_XID 5
                               {0x00, 0x68, 0xE5, 0xCF, 0x8B, 0x01, 0x00, 0x00},
                               {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
                               {'q'},
                               {0x03},                          // REMOVE_TENTATIVE
                               {0x04, 0x07, 0x00, 0x00, 0x00},  // SAVE_XID 7
                               addx_bc});
  const Bytes starling = {0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0xF1, 0x53, 0x65, 'o', 'k',  // ADD
                          0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,            // ADD ""
                          0x01};
  return {{"builtin:modern", modern}, {"builtin:legacy_1x", legacy_1x}, {"builtin:starling", starling}};
}

Bytes read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every regular file under testdata/kestrel except the expected/ subtree.
std::vector<fs::path> fixture_journals() {
  const fs::path root = fs::path(QJT_TESTDATA_DIR) / "kestrel";
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return files;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path rel = it->path().lexically_relative(root);
    if (it->is_directory() && rel == "expected") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every prefix of small journals; for big ones, the cuts around each record
// boundary plus a deterministic sample, to stay fast under sanitizers.
std::vector<std::size_t> cuts_for(const Bytes& bytes, const Decoded& full) {
  std::vector<std::size_t> cuts;
  if (bytes.size() <= 2048) {
    for (std::size_t c = 0; c <= bytes.size(); ++c) cuts.push_back(c);
    return cuts;
  }
  for (std::size_t i = 0; i < full.records.size() && i < 40; ++i) {
    const std::size_t b = full.records[i].offset;
    for (std::size_t c : {b, b + 1, b + 4, b + 5, b + 9, b + full.records[i].length - 1})
      if (c <= bytes.size()) cuts.push_back(c);
  }
  Rng rng(bytes.size());
  for (int i = 0; i < 100; ++i) cuts.push_back(rng.below(bytes.size() + 1));
  cuts.push_back(bytes.size());
  return cuts;
}

// The records of `reader` are those of `expected`; with `whole_tail`
// false, a BROKEN record may span fewer bytes (its first ones).
void require_same_records(JournalReader* reader, const Decoded& expected, bool whole_tail = true) {
  JournalRecord r;
  std::size_t i = 0;
  while (reader->next(&r)) {
    const bool terminal = i == expected.records.size();
    REQUIRE(i <= expected.records.size());
    const JournalRecord& want = terminal ? expected.terminal : expected.records[i];
    REQUIRE(r.type == want.type);
    REQUIRE(r.offset == want.offset);
    REQUIRE(r.xid == want.xid);
    REQUIRE(r.add_time_ms == want.add_time_ms);
    REQUIRE(r.has_add_time == want.has_add_time);
    REQUIRE(r.expiry_ms == want.expiry_ms);
    REQUIRE(r.error == want.error);
    REQUIRE(r.kestrel_cannot_start == want.kestrel_cannot_start);
    if (whole_tail || r.type != RecordType::kBroken) {
      REQUIRE(r.length == want.length);
      REQUIRE(r.payload.as_chars() == want.payload.as_chars());  // `want` views the bytes
    } else {
      REQUIRE(r.length <= want.length);
      REQUIRE(r.payload.as_chars() == want.payload.as_chars().substr(0, r.length));
    }
    ++i;
  }
  REQUIRE(i == expected.records.size() + 1);
}

// Read from a file through windows of several sizes (one smaller than any
// header, one just a header, larger ones), the journal must decode exactly
// as from memory: same records, same payload bytes, same errors.
void check_streamed(const Bytes& bytes) {
  const Decoded expected = decode_checked(span(bytes));
  qjt_test::TempDir dir("streamed");
  const auto path = (dir.path() / "journal").string();
  qjt_test::write_file(path, bytes);
  std::string error;
  const auto file = InputFile::open(path, &error);
  REQUIRE(file != nullptr);
  for (std::size_t capacity : {1u, 7u, 25u, 64u, 4096u}) {
    CAPTURE(capacity);
    JournalReader reader(*file, ReadWindow::Lookback::kKept, capacity);
    require_same_records(&reader, expected);
  }
}

// Written into a pipe in random-sized pieces (1 byte to 1 MiB), so that
// reads end inside fields and records, the journal must decode as the
// stream arrives exactly as from memory, whether the reader keeps what it
// passed or not; a reader that does not want a broken tail gets the same
// records but stops at the broken record's first bytes.
void check_chunked_stream(const Bytes& bytes, std::uint64_t seed) {
  const Decoded expected = decode_checked(span(bytes));
  for (const auto lookback : {ReadWindow::Lookback::kKept, ReadWindow::Lookback::kNone}) {
    for (const bool broken_tail : {true, false}) {
      qjt_test::PipeFeeder feeder(bytes, seed);
      Finding failure;
      const auto stream = InputFile::open(feeder.path(), &failure, InputFile::StreamReading::kOnDemand);
      REQUIRE(stream != nullptr);
      JournalReader reader(*stream, lookback);
      reader.set_broken_tail(broken_tail);
      require_same_records(&reader, expected, broken_tail);
    }
  }
}

void check_journal(const std::string& name, const Bytes& bytes, std::uint64_t seed) {
  CAPTURE(name);
  const Decoded full = decode_checked(span(bytes));
  for (std::size_t cut : cuts_for(bytes, full)) check_prefix(bytes, full, cut);
  check_streamed(bytes);
  check_chunked_stream(bytes, seed);
  Rng rng(seed);
  const int mutations = bytes.size() <= 4096 ? 300 : bytes.size() <= (1u << 20) ? 40 : 8;
  for (int i = 0; i < mutations; ++i) {
    CAPTURE(i);
    const Bytes mutated = mutate(bytes, &rng);
    decode_checked(span(mutated));
    if (i % 10 == 0) check_streamed(mutated);
    if (i % 20 == 0)
      check_chunked_stream(mutated, seed + static_cast<std::uint64_t>(i));  // streams are held per process: a few
  }
}

}  // namespace

TEST_CASE("robustness: built-in journals decode cleanly") {
  for (const auto& journal : builtin_journals()) {
    // Not a structured binding: clang 14 cannot capture one in doctest's lambdas.
    const auto& bytes = journal.second;
    CAPTURE(journal.first);
    const Decoded d = decode_checked(span(bytes));
    CHECK(d.terminal.type == RecordType::kEndOfFile);
    CHECK(d.terminal.offset == bytes.size());
  }
}

TEST_CASE("robustness: prefixes and mutations of built-in journals") {
  std::uint64_t seed = 1;
  for (const auto& [name, bytes] : builtin_journals()) check_journal(name, bytes, seed++);
}

TEST_CASE("robustness: prefixes and mutations of testdata journals") {
  const auto files = fixture_journals();
  // The fixtures are part of the repository; an empty walk means the path
  // or the layout is wrong, not that there is nothing to test.
  REQUIRE(fs::is_directory(fs::path(QJT_TESTDATA_DIR) / "kestrel"));
  REQUIRE(files.size() > 0);
  for (const fs::path& file : files) {
    CAPTURE(file.string());
    REQUIRE(file.string().find("/kestrel/expected/") == std::string::npos);
  }
  std::uint64_t seed = 1000;
  for (const fs::path& file : files) check_journal(file.string(), read_bytes(file), seed++);
}

TEST_CASE("robustness: huge size fields at every record of a journal") {
  // Overwrite the size field of the ADDX at offset 0 and of the CONTINUE
  // with each extreme value: always exactly one BROKEN at that record.
  const Bytes journal = builtin_journals()[0].second;
  const Decoded full = decode_checked(span(journal));
  for (const JournalRecord& r : full.records) {
    if (r.type != RecordType::kAddX && r.type != RecordType::kContinue) continue;
    const std::size_t size_at = r.offset + (r.type == RecordType::kAddX ? 1 : 5);
    for (const Bytes& v :
         {Bytes{0xFF, 0xFF, 0xFF, 0x7F}, Bytes{0x00, 0x00, 0x00, 0x80}, Bytes{0xFF, 0xFF, 0xFF, 0xFF}}) {
      Bytes bad = journal;
      std::copy(v.begin(), v.end(), bad.begin() + static_cast<std::ptrdiff_t>(size_at));
      const Decoded d = decode_checked(span(bad));
      CHECK(d.terminal.type == RecordType::kBroken);
      CHECK(d.terminal.offset == r.offset);
      CHECK(d.terminal.length == journal.size() - r.offset);
    }
  }
}
