// guarded_replace's last step: the verify runs once every change is made,
// under the locks; its errors give kProblems and name the backup.
#include <doctest/doctest.h>

#include <filesystem>

#include "guarded_replace.h"
#include "unit_helpers.h"

namespace fs = std::filesystem;
using qjt::ExitCode;
using qjt::FileChange;
using qjt::Finding;
using qjt::FindingList;
using qjt::ReplaceRequest;
using qjt::Severity;
using qjt::WriteGuardOptions;
using qjt_test::read_file;
using qjt_test::text;
using qjt_test::write_file;

namespace {

struct Scratch {
  fs::path root = fs::temp_directory_path() / fs::path("qjt-guarded-" + std::to_string(::getpid()));
  fs::path dir = root / "queue";
  fs::path file = dir / "journal";
  Scratch() {
    fs::remove_all(root);
    fs::create_directories(dir);
    write_file(file, text("old"));
  }
  ~Scratch() { fs::remove_all(root); }

  ReplaceRequest request(bool content_ok) const {
    ReplaceRequest r;
    r.lock_dirs = {dir.string()};
    r.backup.name = "queue";
    r.backup.files = {file.string()};
    r.changes.push_back(FileChange::replace(file.string(), [content_ok](qjt::FileWriter* w, std::string* e) {
      if (!content_ok) *e = "no content";
      return content_ok && w->append(qjt::ByteSpan(std::string_view("new")), e);
    }));
    return r;
  }
};

FindingList one_error() {
  FindingList findings;
  findings.report(Finding{Severity::kError, "result_differs", "journal", std::nullopt, "expected 3 items, found 2"});
  return findings;
}

}  // namespace

TEST_CASE("guarded_replace: a clean verify leaves kOk and its findings") {
  Scratch s;
  ReplaceRequest r = s.request(true);
  bool verified_after_change = false;
  r.verify = [&] {
    verified_after_change = read_file(s.file) == "new";
    return FindingList{};
  };
  const auto result = qjt::guarded_replace(r, WriteGuardOptions{(s.root / "backups").string(), false, false});
  CHECK(result.status == ExitCode::kOk);
  CHECK(verified_after_change);
  REQUIRE(result.verified.has_value());
  CHECK(result.verified->findings().empty());
  CHECK(result.changed());
}

TEST_CASE("guarded_replace: verify errors give kProblems, the change stays and the backup is named") {
  Scratch s;
  ReplaceRequest r = s.request(true);
  r.verify = one_error;
  const auto result = qjt::guarded_replace(r, WriteGuardOptions{(s.root / "backups").string(), false, false});
  CHECK(result.status == ExitCode::kProblems);
  CHECK(result.changed());
  CHECK(read_file(s.file) == "new");
  REQUIRE(!result.backup.empty());
  CHECK(read_file(fs::path(result.backup) / "journal") == "old");
  CHECK(qjt_test::contains(result.reason, result.backup));
  CHECK(result.verified->count(Severity::kError) == 1);
}

TEST_CASE("guarded_replace: no verify when a change fails") {
  Scratch s;
  ReplaceRequest r = s.request(false);
  bool ran = false;
  r.verify = [&ran] {
    ran = true;
    return FindingList{};
  };
  const auto result = qjt::guarded_replace(r, WriteGuardOptions{(s.root / "backups").string(), false, false});
  CHECK(result.status == ExitCode::kIoError);
  CHECK(!result.changed());
  CHECK(!ran);
  CHECK(!result.verified.has_value());
  CHECK(read_file(s.file) == "old");
}

TEST_CASE("guarded_replace: two backups of one name in one millisecond get two directories") {
  // As two jobs of one run (-j) compacting queues of one name into one
  // --backup-to do: the second takes the next millisecond's name.
  Scratch s;
  const fs::path other = s.root / "elsewhere" / "queue";
  fs::create_directories(other);
  write_file(other / "journal", text("old"));
  ReplaceRequest second = s.request(true);
  second.lock_dirs = {other.string()};
  second.backup.files = {(other / "journal").string()};
  second.changes = {FileChange::replace((other / "journal").string(), [](qjt::FileWriter* w, std::string* e) {
    return w->append(qjt::ByteSpan(std::string_view("new")), e);
  })};
  const WriteGuardOptions options{(s.root / "backups").string(), false, false};
  qjt_test::ScopedEnv now("QJT_NOW_MS", "1700000000000");
  const auto first_result = qjt::guarded_replace(s.request(true), options);
  const auto second_result = qjt::guarded_replace(second, options);
  CHECK(first_result.status == ExitCode::kOk);
  CHECK(second_result.status == ExitCode::kOk);
  CHECK(fs::path(first_result.backup).filename() == "queue.1700000000000");
  CHECK(fs::path(second_result.backup).filename() == "queue.1700000000001");
  CHECK(read_file(fs::path(second_result.backup) / "journal") == "old");
}
