// Unit tests for the format layer (lib/cli/dispatch.h, path_family.h):
// dispatch driven through fake drivers, so that the rules hold for any
// family: who claims a PATH, which claim wins, --format, commands a family
// does not support, and options given for another family.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <string>
#include <vector>

#include "dispatch.h"
#include "path_family.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::cli;
using qjt_test::TempDir;

namespace {

// A family told by a magic prefix or by a file name, with one option of
// its own on every command, and the commands it lists.
class FakeDriver final : public Driver {
 public:
  FakeDriver(std::string name, std::string magic, std::vector<Command> commands, bool fallback = false)
      : name_(std::move(name)), magic_(std::move(magic)), commands_(std::move(commands)), fallback_(fallback) {}

  std::string_view name() const override { return name_; }
  std::string_view title() const override { return name_; }
  std::vector<std::string_view> kinds() const override { return {kind_}; }

  std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const override {
    const std::string_view text = bytes.as_chars();
    if (text.rfind(magic_, 0) == 0 || path.ends_with("." + name_)) return Claim{true, "magic " + magic_, name_};
    if (fallback_) return Claim{false, "nothing decodes", name_};
    return std::nullopt;
  }

  std::string_view looks_for() const override { return magic_; }

  std::string_view does(Command command) const override {
    return std::find(commands_.begin(), commands_.end(), command) != commands_.end() ? "reads it" : "";
  }

  void add_options(Command, CLI::App* group) override { group->add_flag("--" + name_ + "-option", flag_, "fake"); }

  ExitCode dump(const ReadRequest&) override { return ExitCode::kOk; }
  std::optional<VerifyTally> verify(const ReadRequest& r) override {
    VerifyTally tally;
    tally.files = r.paths.size();
    return tally;
  }
  ExitCode replay(const ReadRequest&) override { return ExitCode::kOk; }

 private:
  std::string name_, magic_, kind_ = name_ + "-kind";
  std::vector<Command> commands_;
  bool fallback_;
  bool flag_ = false;
};

constexpr std::array kReadCommands{Command::kDump, Command::kVerify, Command::kReplay};

struct Fixture {
  FakeDriver alpha{"alpha", "AL", {Command::kDump, Command::kVerify, Command::kReplay, Command::kCompact}};
  FakeDriver beta{"beta", "BE", {kReadCommands.begin(), kReadCommands.end()}};
  FakeDriver last{"last", "LA", {kReadCommands.begin(), kReadCommands.end()}, true};
  std::array<Driver*, 3> list{&alpha, &beta, &last};
  Registry drivers{list};
  TempDir dir{"dispatch"};

  std::string file(const std::string& name, const std::string& bytes) {
    const std::string path = (dir.path() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  // Parses `args` for `command` and assigns the PATHs.
  std::optional<std::vector<Assignment>> run(Command command, std::vector<std::string> args, FindingList* unclaimed) {
    CLI::App app;
    std::vector<std::string> paths;
    app.add_option("path", paths);
    FamilyOptions options(&app, command, drivers);
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
    return assign(paths, options, unclaimed);
  }
};

Driver* claimed_by(const std::string& path, Registry drivers) {
  const auto claim = claim_path(path, drivers);
  return claim ? claim->driver : nullptr;
}

}  // namespace

TEST_CASE("dispatch: each driver claims on its own evidence, the first claim wins, the last takes the rest") {
  Fixture f;
  CHECK(claimed_by(f.file("a", "AL..."), f.drivers) == &f.alpha);
  CHECK(claimed_by(f.file("b.beta", "xyz"), f.drivers) == &f.beta);
  // Both alpha's magic and beta's name: the registry's order decides.
  CHECK(claimed_by(f.file("c.beta", "AL"), f.drivers) == &f.alpha);
  const auto weak = claim_path(f.file("d", "garbage"), f.drivers);
  REQUIRE(weak);
  CHECK(weak->driver == &f.last);
  CHECK_FALSE(weak->positive);
  CHECK(claimed_by((f.dir.path() / "missing").string(), f.drivers) == nullptr);
}

TEST_CASE("dispatch: a directory belongs to the first family other than the last that claims a file in it") {
  Fixture f;
  std::filesystem::create_directory(f.dir.path() / "q");
  f.file("q/plain", "garbage");
  f.file("q/x.beta", "");
  CHECK(claimed_by((f.dir.path() / "q").string(), f.drivers) == &f.beta);
  std::filesystem::create_directory(f.dir.path() / "empty");
  FindingList unclaimed;
  const auto runs = f.run(Command::kVerify, {(f.dir.path() / "empty").string()}, &unclaimed);
  REQUIRE(runs);
  CHECK(runs->empty());
  CHECK(unclaimed.count(Severity::kError) == 1);
}

TEST_CASE("dispatch: PATHs of several families go to their own drivers whatever the order") {
  Fixture f;
  const std::string a = f.file("a", "AL"), b = f.file("b", "BE"), c = f.file("c", "LA"), a2 = f.file("a2", "AL");
  FindingList unclaimed;
  const auto runs = f.run(Command::kVerify, {b, a, c, a2}, &unclaimed);
  REQUIRE(runs);
  REQUIRE(runs->size() == 3);
  CHECK((*runs)[0].driver == &f.beta);
  CHECK((*runs)[1].driver == &f.alpha);
  CHECK((*runs)[1].paths == std::vector<std::string>{a, a2});
  CHECK((*runs)[2].driver == &f.last);
}

TEST_CASE("dispatch: --format forces the family, by name or by file kind; an unknown one is a usage error") {
  Fixture f;
  const std::string a = f.file("a", "AL");
  FindingList unclaimed;
  auto runs = f.run(Command::kDump, {"--format", "beta", a}, &unclaimed);
  REQUIRE(runs);
  REQUIRE(runs->size() == 1);
  CHECK((*runs)[0].driver == &f.beta);
  runs = f.run(Command::kDump, {"--format", "last-kind", a}, &unclaimed);
  REQUIRE(runs);
  CHECK((*runs)[0].driver == &f.last);
  CHECK_FALSE(f.run(Command::kDump, {"--format", "gamma", a}, &unclaimed));
}

TEST_CASE("dispatch: a command the family does not support is refused, never handed to another family") {
  Fixture f;
  FindingList unclaimed;
  CHECK(f.run(Command::kCompact, {f.file("a", "AL")}, &unclaimed));
  CHECK_FALSE(f.run(Command::kCompact, {f.file("b", "BE")}, &unclaimed));
  CHECK_FALSE(f.run(Command::kRepair, {f.file("c", "AL")}, &unclaimed));
}

TEST_CASE("dispatch: an option of another family than the PATHs' is a usage error") {
  Fixture f;
  FindingList unclaimed;
  const std::string a = f.file("a", "AL");
  CHECK(f.run(Command::kDump, {"--alpha-option", a}, &unclaimed));
  CHECK_FALSE(f.run(Command::kDump, {"--beta-option", a}, &unclaimed));
  CHECK_FALSE(f.run(Command::kDump, {"--format", "beta", "--alpha-option", a}, &unclaimed));
  CHECK_FALSE(f.run(Command::kDump, {}, &unclaimed));  // no input at all
}

TEST_CASE("dispatch: qjt help formats is printed from the registry") {
  Fixture f;
  const std::string help = formats_help(f.drivers);
  for (std::string_view name : {"alpha", "beta", "last", "beta-kind", "compact"})
    CHECK(help.find(name) != std::string::npos);
  CHECK(help.find("  beta        yes      yes      yes      -        -        -\n") != std::string::npos);
}
