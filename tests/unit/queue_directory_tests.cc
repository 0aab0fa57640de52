// discover_queues against kestrel-format.md section 2.1, on directories the
// tests create under the system temp dir.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "finding.h"
#include "kestrel/queue_directory.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::kestrel;
using qjt_test::Bytes;
using qjt_test::contains;

namespace fs = std::filesystem;

namespace {

struct Discovery {
  explicit Discovery(const fs::path& dir) { ok = discover_queues(dir.string(), &findings, &queues, &error); }
  const QueueJournal* queue(const std::string& name) const {
    for (const QueueJournal& q : queues)
      if (q.name == name) return &q;
    return nullptr;
  }
  std::vector<std::string> queue_names() const {
    std::vector<std::string> out;
    for (const QueueJournal& q : queues) out.push_back(q.name);
    return out;
  }
  // "code:basename" for each finding, in order.
  std::vector<std::string> finding_keys() const {
    std::vector<std::string> out;
    for (const Finding& f : findings.findings()) out.push_back(f.code + ":" + fs::path(f.file).filename().string());
    return out;
  }
  std::size_t count(const std::string& code) const {
    std::size_t n = 0;
    for (const Finding& f : findings.findings()) n += f.code == code;
    return n;
  }

  bool ok = false;
  std::string error;
  FindingList findings;
  std::vector<QueueJournal> queues;
};

std::vector<std::string> file_names(const QueueJournal& q) {
  std::vector<std::string> out;
  for (const JournalFile& f : q.files) out.push_back(f.name);
  return out;
}

std::vector<FileRole> roles(const QueueJournal& q) {
  std::vector<FileRole> out;
  for (const JournalFile& f : q.files) out.push_back(f.role);
  return out;
}

void touch(const fs::path& dir, const std::string& name, std::size_t size = 1) {
  qjt_test::write_file(dir / name, Bytes(size, 0x01));
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x == s) return true;
  return false;
}

using Names = std::vector<std::string>;
using Roles = std::vector<FileRole>;

}  // namespace

TEST_CASE("discover: queue names are the text before the first dot") {
  qjt_test::TempDir tmp("discover");
  const fs::path d = tmp.path();
  touch(d, "alpha", 3);
  touch(d, "alpha.1000", 5);
  touch(d, "beta");
  touch(d, "gamma.42");               // archived only, no live file
  touch(d, "fan+out");                // fanout queue names keep the '+'
  touch(d, "beta~~1700000000000");    // temp file
  touch(d, "zeta~~5");                // a temp file alone makes no queue
  fs::create_directory(d / "delta");  // directories are ignored
  fs::create_directory(d / "epsilon.7");

  Discovery found(d);
  REQUIRE(found.ok);
  CHECK(found.error.empty());
  CHECK(found.queue_names() == Names{"alpha", "beta", "fan+out", "gamma"});

  const QueueJournal* alpha = found.queue("alpha");
  REQUIRE(alpha != nullptr);
  CHECK(file_names(*alpha) == Names{"alpha.1000", "alpha"});
  CHECK(roles(*alpha) == Roles{FileRole::kArchived, FileRole::kLive});
  CHECK(alpha->files[0].size == 5);
  CHECK(alpha->files[1].size == 3);
  CHECK(fs::equivalent(alpha->files[0].path, d / "alpha.1000"));
  CHECK(fs::equivalent(alpha->files[1].path, d / "alpha"));

  const QueueJournal* gamma = found.queue("gamma");
  REQUIRE(gamma != nullptr);
  CHECK(file_names(*gamma) == Names{"gamma.42"});
  CHECK(roles(*gamma) == Roles{FileRole::kArchived});
  CHECK(file_names(*found.queue("beta")) == Names{"beta"});

  CHECK(found.count("temp_file") == 2);
  CHECK(has(found.finding_keys(), "temp_file:beta~~1700000000000"));
  CHECK(has(found.finding_keys(), "temp_file:zeta~~5"));
  CHECK(found.findings.count(Severity::kError) == 0);
  for (const Finding& f : found.findings.findings()) CHECK(f.severity == Severity::kWarning);
}

TEST_CASE("discover: segments sort numerically and the live file comes last") {
  qjt_test::TempDir tmp("discover");
  const fs::path d = tmp.path();
  for (const char* name : {"q", "q.1000", "q.999", "q.20000", "q.3", "q.1001"}) touch(d, name);
  Discovery found(d);
  REQUIRE(found.ok);
  REQUIRE(found.queues.size() == 1);
  const QueueJournal& q = found.queues[0];
  CHECK(q.name == "q");
  CHECK(file_names(q) == Names{"q.3", "q.999", "q.1000", "q.1001", "q.20000", "q"});
  CHECK(q.files.back().role == FileRole::kLive);
  CHECK(found.findings.findings().empty());
}

TEST_CASE("discover: a leftover pack supersedes segments up to its timestamp") {
  qjt_test::TempDir tmp("discover");
  const fs::path d = tmp.path();
  for (const char* name : {"q", "q.100", "q.150", "q.150.pack", "q.200", "q.99"}) touch(d, name);
  Discovery found(d);
  REQUIRE(found.ok);
  REQUIRE(found.queues.size() == 1);
  const QueueJournal& q = found.queues[0];
  // q.99, q.100 and q.150 (equal timestamp) are deleted by Kestrel's startup;
  // the pack is installed as q.150 and replays in that place.
  CHECK(file_names(q) == Names{"q.150.pack", "q.200", "q"});
  CHECK(roles(q) == Roles{FileRole::kPack, FileRole::kArchived, FileRole::kLive});
  CHECK(found.count("superseded_segment") == 3);
  CHECK(found.count("leftover_pack") == 1);
  const auto keys = found.finding_keys();
  CHECK(has(keys, "superseded_segment:q.99"));
  CHECK(has(keys, "superseded_segment:q.100"));
  CHECK(has(keys, "superseded_segment:q.150"));
  CHECK(has(keys, "leftover_pack:q.150.pack"));
  CHECK(found.findings.count(Severity::kError) == 0);
}

TEST_CASE("discover: two packs are installed lowest first") {
  qjt_test::TempDir tmp("discover");
  const fs::path d = tmp.path();
  for (const char* name : {"q", "q.1", "q.3.pack", "q.5", "q.7.pack", "q.9"}) touch(d, name);
  Discovery found(d);
  REQUIRE(found.ok);
  REQUIRE(found.queues.size() == 1);
  const QueueJournal& q = found.queues[0];
  // q.3.pack supersedes q.1 and becomes q.3; then q.7.pack supersedes q.3
  // (the installed lower pack) and q.5.
  CHECK(file_names(q) == Names{"q.7.pack", "q.9", "q"});
  CHECK(roles(q) == Roles{FileRole::kPack, FileRole::kArchived, FileRole::kLive});
  CHECK(found.count("leftover_pack") == 2);
  CHECK(found.count("superseded_segment") == 3);
  const auto keys = found.finding_keys();
  CHECK(has(keys, "superseded_segment:q.1"));
  CHECK(has(keys, "superseded_segment:q.3.pack"));
  CHECK(has(keys, "superseded_segment:q.5"));
  CHECK(has(keys, "leftover_pack:q.3.pack"));
  CHECK(has(keys, "leftover_pack:q.7.pack"));
  // The lower pack is reported before the higher one supersedes it.
  Names order;
  for (const auto& k : keys)
    if (k == "leftover_pack:q.3.pack" || k == "superseded_segment:q.3.pack") order.push_back(k);
  CHECK(order == Names{"leftover_pack:q.3.pack", "superseded_segment:q.3.pack"});
}

TEST_CASE("discover: a pack newer than every segment") {
  qjt_test::TempDir tmp("discover");
  const fs::path d = tmp.path();
  for (const char* name : {"q.10", "q.20", "q.30.pack"}) touch(d, name);
  Discovery found(d);
  REQUIRE(found.ok);
  REQUIRE(found.queues.size() == 1);
  CHECK(file_names(found.queues[0]) == Names{"q.30.pack"});
  CHECK(found.count("superseded_segment") == 2);
}

TEST_CASE("discover: an unparsable segment name is an error and left out") {
  qjt_test::TempDir tmp("discover");
  const fs::path d = tmp.path();
  for (const char* name : {"q", "q.abc", "q.12", "q.12x", "other"}) touch(d, name);
  Discovery found(d);
  REQUIRE(found.ok);
  CHECK(found.queue_names() == Names{"other", "q"});
  const QueueJournal* q = found.queue("q");
  REQUIRE(q != nullptr);
  CHECK(file_names(*q) == Names{"q.12", "q"});
  CHECK(found.count("bad_segment_name") == 2);
  CHECK(has(found.finding_keys(), "bad_segment_name:q.abc"));
  CHECK(has(found.finding_keys(), "bad_segment_name:q.12x"));
  for (const Finding& f : found.findings.findings()) {
    if (f.code == "bad_segment_name") CHECK(f.severity == Severity::kError);
  }
  CHECK(file_names(*found.queue("other")) == Names{"other"});
}

TEST_CASE("discover: an empty directory has no queues") {
  qjt_test::TempDir tmp("discover");
  Discovery found(tmp.path());
  CHECK(found.ok);
  CHECK(found.queues.empty());
  CHECK(found.findings.findings().empty());
}

TEST_CASE("discover: an unlistable directory returns false with an error") {
  qjt_test::TempDir tmp("discover");
  const fs::path missing = tmp.path() / "no-such-dir";
  Discovery gone(missing);
  CHECK_FALSE(gone.ok);
  CHECK(contains(gone.error, missing.string()));
  CHECK(gone.queues.empty());

  const fs::path file = tmp.path() / "plain-file";
  touch(tmp.path(), "plain-file");
  Discovery not_dir(file);
  CHECK_FALSE(not_dir.ok);
  CHECK(contains(not_dir.error, file.string()));
  CHECK(not_dir.queues.empty());
}

TEST_CASE("discover: timestamps parse like Java's Long") {
  // name.split('.')(1).toLong: a sign is accepted, two signs, an empty or
  // out-of-range number are not.
  qjt_test::TempDir tmp("discover");
  const fs::path d = tmp.path();
  for (const char* name : {"q", "q.+7", "q.-3", "q.5", "q.", "q.99999999999999999999", "q.+-2"}) touch(d, name);
  Discovery found(d);
  REQUIRE(found.ok);
  REQUIRE(found.queues.size() == 1);
  CHECK(file_names(found.queues[0]) == Names{"q.-3", "q.5", "q.+7", "q"});
  CHECK(found.count("bad_segment_name") == 3);
  CHECK(has(found.finding_keys(), "bad_segment_name:q.+-2"));
  CHECK(has(found.finding_keys(), "bad_segment_name:q."));
  CHECK(has(found.finding_keys(), "bad_segment_name:q.99999999999999999999"));
}

TEST_CASE("queue_of_name: the names Kestrel's rule places, and those it cannot") {
  CHECK(queue_of_name("orders") == std::optional<std::string>("orders"));
  CHECK(queue_of_name("orders.1700000000000") == std::optional<std::string>("orders"));
  CHECK(queue_of_name("orders.2000.pack") == std::optional<std::string>("orders"));
  CHECK(queue_of_name("orders.+5") == std::optional<std::string>("orders"));
  CHECK_FALSE(queue_of_name("orders~~1700000003000"));
  CHECK_FALSE(queue_of_name(".hidden"));
  CHECK_FALSE(queue_of_name("orders.notanumber"));
  CHECK_FALSE(queue_of_name("orders."));
  CHECK_FALSE(queue_of_name("orders.+-5"));  // parseLong takes one sign
}

TEST_CASE("group_queues: files named by path, in any order, group as their directory does") {
  // Not listed from disk: paths are kept as given, sizes as passed.
  std::vector<NamedFile> files{{"q", "x/q", 3},           {"a.200", "x/a.200", 1}, {"q.2000.pack", "x/q.2000.pack", 2},
                               {"q.1000", "x/q.1000", 4}, {"a.100", "x/a.100", 5}, {"q.3000", "x/q.3000", 6}};
  FindingList findings;
  const auto queues = group_queues(files, &findings);
  REQUIRE(queues.size() == 2);
  CHECK(queues[0].name == "a");
  CHECK(queues[1].name == "q");
  std::vector<std::string> a, q;
  for (const auto& f : queues[0].files) a.push_back(f.path);
  for (const auto& f : queues[1].files) q.push_back(f.path);
  CHECK(a == std::vector<std::string>{"x/a.100", "x/a.200"});
  CHECK(q == std::vector<std::string>{"x/q.2000.pack", "x/q.3000", "x/q"});
  CHECK(queues[1].leftovers == std::vector<std::string>{"x/q.1000"});
  CHECK(queues[1].files.back().role == FileRole::kLive);
  CHECK(findings.count(Severity::kWarning) == 2);  // superseded_segment, leftover_pack
}
