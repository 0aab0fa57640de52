// FileOwnership: a file replaced in place keeps its mode and extended
// attributes; a new one takes its closest sibling's mode, or its
// directory's; outputs follow the umask. (Owners other than the running
// user: tests/safety/ownership.sh, as root.)
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "durable_file.h"
#include "file_ownership.h"
#include "unit_helpers.h"

namespace fs = std::filesystem;
using qjt::FileOwnership;
using qjt::Ownership;
using qjt_test::read_file;
using qjt_test::text;
using qjt_test::write_file;

namespace {

struct Scratch {
  fs::path dir = fs::temp_directory_path() / fs::path("qjt-ownership-" + std::to_string(::getpid()));
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }

  std::string file(const std::string& name, mode_t mode) const {
    const std::string path = (dir / name).string();
    write_file(path, text("old"));
    ::chmod(path.c_str(), mode);
    return path;
  }
};

mode_t mode_of(const std::string& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return st.st_mode & 07777;
}

bool written(const std::string& path, Ownership ownership) {
  std::string error;
  const bool ok = qjt::write_file_atomically(
      path, ownership,
      [](qjt::FileWriter* w, std::string* e) { return w->append(qjt::ByteSpan(std::string_view("new")), e); }, &error);
  INFO(error);
  return ok;
}

}  // namespace

TEST_CASE("ownership: a file replaced in place keeps its mode and extended attributes") {
  const Scratch s;
  const std::string journal = s.file("q", 0640);
  const std::string label = "queue";
  if (::setxattr(journal.c_str(), "user.qjt_test", label.data(), label.size(), 0) != 0) {
    MESSAGE("no user extended attributes on this file system: the mode alone is checked");
  }
  const bool labelled = ::getxattr(journal.c_str(), "user.qjt_test", nullptr, 0) > 0;
  REQUIRE(written(journal, Ownership::kKept));
  CHECK(read_file(journal) == "new");
  CHECK(mode_of(journal) == 0640);
  if (labelled) {
    char value[16] = {};
    CHECK(::getxattr(journal.c_str(), "user.qjt_test", value, sizeof value) == 5);
    CHECK(std::string(value) == label);
  }
}

TEST_CASE("ownership: a new file takes its closest sibling's mode, else its directory's") {
  const Scratch s;
  s.file("in_use.lock", 0644);
  s.file("log-1", 0600);
  s.file("log-1.meta~~qjt-1", 0666);  // a temp file is no sibling
  const std::string meta = (s.dir / "log-1.meta").string();
  REQUIRE(written(meta, Ownership::kKept));
  CHECK(mode_of(meta) == 0600);  // as log-1, not as in_use.lock

  const fs::path empty = s.dir / "checkpoint";
  fs::create_directory(empty);
  ::chmod(empty.c_str(), 0750);
  const std::string checkpoint = (empty / "checkpoint.meta").string();
  REQUIRE(written(checkpoint, Ownership::kKept));
  CHECK(mode_of(checkpoint) == 0640);  // the directory's, less its execute bits
}

TEST_CASE("ownership: an output follows the umask") {
  const Scratch s;
  const mode_t old = ::umask(002);
  const std::string output = (s.dir / "out.jsonl").string();
  const bool ok = written(output, Ownership::kNewOutput);
  ::umask(old);
  REQUIRE(ok);
  CHECK(mode_of(output) == 0664);
}

TEST_CASE("ownership: the running user can keep its own files' owner") {
  const Scratch s;
  std::string error;
  CHECK(qjt::can_keep_ownership(s.file("q", 0600), &error));
  CHECK(qjt::can_keep_ownership((s.dir / "new").string(), &error));
  const auto kept = FileOwnership::kept_at((s.dir / "new").string(), &error);
  REQUIRE(kept);
  CHECK(kept->uid == ::geteuid());
  CHECK(kept->mode == 0600);
}
