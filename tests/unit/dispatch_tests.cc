// Unit tests for the format layer (lib/cli/dispatch.h, path_family.h):
// dispatch driven through fake drivers, so that the rules hold for any
// family: who claims a PATH, which claim wins, --format, commands a family
// takes no part in, options given for another family, and a command added
// through the command table (apps/qjt/command_table.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "command_table.h"
#include "dispatch.h"
#include "path_family.h"
#include "path_name.h"
#include "path_walk.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::cli;
using qjt_test::TempDir;

namespace {

// A family told by a magic prefix or by a file name, taking part in the
// commands it lists (a capability each, of the kind the command runs),
// with one option of its own on each; it counts the calls.
class FakeDriver final : public Driver {
 public:
  FakeDriver(std::string name, std::string magic, const std::vector<std::string>& commands, bool fallback = false)
      : name_(std::move(name)), magic_(std::move(magic)), fallback_(fallback) {
    for (const std::string& command : commands) parts_.emplace_back(command, part_of(command));
  }

  std::string_view name() const override { return name_; }
  std::string_view title() const override { return name_; }
  std::vector<std::string_view> kinds() const override { return {kind_}; }

  std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const override {
    const std::string_view text = bytes.as_chars();
    if (text.rfind(magic_, 0) == 0 || path.ends_with("." + name_)) return Claim{true, "magic " + magic_, name_};
    // A .txt file has nothing of the family: of no known format.
    if (fallback_) return Claim{false, "nothing decodes", name_, path.ends_with(".txt")};
    return std::nullopt;
  }

  std::string_view looks_for() const override { return magic_; }

  // A directory holding NAME-site/ is an installation of the family.
  std::vector<Site> discover(const std::string& dir) const override {
    const std::string site = dir + "/" + name_ + "-site";
    if (!is_directory(site)) return {};
    return {Site{name_ + " site", {}, {}, {{"--" + name_ + "-option", site}}, {site}}};
  }

  Capability* provides(std::string_view command) override {
    for (auto& [name, part] : parts_)
      if (name == command) return part.get();
    return nullptr;
  }

  int calls = 0;
  std::vector<std::string> paths_read;

 private:
  std::unique_ptr<Capability> part_of(const std::string& command) {
    std::unique_ptr<Capability> part;
    if (command == "verify") {
      auto verify = std::make_unique<VerifyCapability>();
      verify->verify = [this](const ReadRequest& r) {
        ++calls;
        VerifyTally tally;
        tally.files = r.paths.size();
        return std::optional<VerifyTally>(tally);
      };
      part = std::move(verify);
    } else if (command == "compact" || command == "repair") {
      auto write = std::make_unique<WriteCapability>();
      write->write = [this](const WriteRequest&) { return ++calls, ExitCode::kOk; };
      part = std::move(write);
    } else {
      auto read = std::make_unique<ReadCapability>();
      read->read = [this](const ReadRequest& r) {
        ++calls;
        paths_read.insert(paths_read.end(), r.paths.begin(), r.paths.end());
        return ExitCode::kOk;
      };
      part = std::move(read);
    }
    part->does = "reads it";
    part->add_options = bind_options<bool>(
        [name = name_](CLI::App* group, bool* flag) { group->add_flag("--" + name + "-option", *flag, "fake"); });
    return part;
  }

  std::string name_, magic_, kind_ = name_ + "-kind";
  bool fallback_;
  std::vector<std::pair<std::string, std::unique_ptr<Capability>>> parts_;
};

const std::vector<std::string> kReadCommands{"dump", "verify", "replay"};

struct Fixture {
  FakeDriver alpha{"alpha", "AL", {"dump", "verify", "replay", "compact"}};
  FakeDriver beta{"beta", "BE", kReadCommands};
  FakeDriver last{"last", "LA", kReadCommands, true};
  std::array<Driver*, 3> list{&alpha, &beta, &last};
  Registry drivers{list};
  TempDir dir{"dispatch"};

  std::string file(const std::string& name, const std::string& bytes) {
    const std::string path = (dir.path() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  // Parses `args` for `command` and assigns the PATHs.
  std::optional<std::vector<Assignment>> run(std::string_view command, std::vector<std::string> args,
                                             FindingList* unclaimed) {
    CLI::App app;
    std::vector<std::string> paths;
    app.add_option("path", paths);
    const bool write = command == "compact" || command == "repair";
    FamilyOptions options(&app, command, write ? Inputs::kWrite : Inputs::kRead, drivers);
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
  const auto runs = f.run("verify", {(f.dir.path() / "empty").string()}, &unclaimed);
  REQUIRE(runs);
  CHECK(runs->empty());
  CHECK(unclaimed.count(Severity::kError) == 1);
}

TEST_CASE("dispatch: PATHs of several families go to their own drivers whatever the order") {
  Fixture f;
  const std::string a = f.file("a", "AL"), b = f.file("b", "BE"), c = f.file("c", "LA"), a2 = f.file("a2", "AL");
  FindingList unclaimed;
  const auto runs = f.run("verify", {b, a, c, a2}, &unclaimed);
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
  auto runs = f.run("dump", {"--format", "beta", a}, &unclaimed);
  REQUIRE(runs);
  REQUIRE(runs->size() == 1);
  CHECK((*runs)[0].driver == &f.beta);
  runs = f.run("dump", {"--format", "last-kind", a}, &unclaimed);
  REQUIRE(runs);
  CHECK((*runs)[0].driver == &f.last);
  // Refused as it is parsed, with the closest name or the names --format takes.
  CHECK_THROWS_WITH_AS(f.run("dump", {"--format", "bta", a}, &unclaimed),
                       "--format: unknown value 'bta'; did you mean 'beta'?", CLI::ValidationError);
  CHECK_THROWS_WITH_AS(
      f.run("dump", {"--format", "gamma", a}, &unclaimed),
      "--format: unknown value 'gamma' (expected auto, alpha, alpha-kind, beta, beta-kind, last or last-kind)",
      CLI::ValidationError);
}

TEST_CASE("dispatch: a command the family does not support is refused, never handed to another family") {
  Fixture f;
  FindingList unclaimed;
  CHECK(f.run("compact", {f.file("a", "AL")}, &unclaimed));
  CHECK_FALSE(f.run("compact", {f.file("b", "BE")}, &unclaimed));
  CHECK_FALSE(f.run("repair", {f.file("c", "AL")}, &unclaimed));
}

TEST_CASE("dispatch: an option of another family than the PATHs' is a usage error") {
  Fixture f;
  FindingList unclaimed;
  const std::string a = f.file("a", "AL");
  CHECK(f.run("dump", {"--alpha-option", a}, &unclaimed));
  CHECK_FALSE(f.run("dump", {"--beta-option", a}, &unclaimed));
  CHECK_FALSE(f.run("dump", {"--format", "beta", "--alpha-option", a}, &unclaimed));
  CHECK_FALSE(f.run("dump", {}, &unclaimed));  // no input at all
}

TEST_CASE("dispatch: a family's options are values of one command line, never held by its driver") {
  Fixture f;
  const auto parse = [&f](std::vector<std::string> args, CLI::App* app) {
    auto options = std::make_unique<FamilyOptions>(app, "dump", Inputs::kRead, f.drivers);
    app->parse(args);
    return options;
  };
  CLI::App first_app, second_app;
  const auto first = parse({"--alpha-option"}, &first_app);
  const auto second = parse({}, &second_app);
  CHECK(options_in<bool>(first->values(&f.alpha)));
  CHECK_FALSE(options_in<bool>(second->values(&f.alpha)));  // not what the first command line was given
  CHECK_FALSE(options_in<bool>(first->values(&f.beta)));
  CHECK(options_in<bool>(nullptr) == false);  // a request made without them: the defaults
}

TEST_CASE("dispatch: qjt help formats is printed from the registry") {
  Fixture f;
  const std::vector<std::string_view> commands{"dump", "verify", "replay", "compact", "convert", "repair"};
  const std::string help = formats_help(f.drivers, commands);
  for (std::string_view name : {"alpha", "beta", "last", "beta-kind", "compact"})
    CHECK(help.find(name) != std::string::npos);
  CHECK(help.find("  beta        yes      yes      yes      -        -        -\n") != std::string::npos);
}

namespace {

// The families a census reads; set by the test below.
Registry census_families;

// A command qjt does not have, added as any command is: what its
// cmd_census.cc would hold. The families take part by providing "census".
void add_census_command(CLI::App* app, std::string_view name, ExitCode* status) {
  auto request = std::make_shared<ReadRequest>(ReadRequest{.command = name});
  auto* command = app->add_subcommand(std::string(name), "Count what each PATH holds");
  command->add_option("path", request->paths);
  auto families = std::make_shared<FamilyOptions>(command, name, Inputs::kRead, census_families);
  command->callback([request, families, status] { *status = run_read_command(*request, *families); });
}

// Parses `args` (the command first) and returns the exit status.
ExitCode run_command(const CommandRow& row, std::vector<std::string> args) {
  CLI::App app;
  ExitCode status = ExitCode::kOk;
  row.add(&app, row.name, &status);
  app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  return status;
}

}  // namespace

TEST_CASE("dispatch: a new command is its add function and a row; families that take no part are not edited") {
  Fixture f;
  FakeDriver gamma{"gamma", "GA", {"census"}};
  const std::array<Driver*, 4> list{&gamma, &f.alpha, &f.beta, &f.last};
  census_families = Registry(list);
  const CommandRow row{"census", add_census_command, kReadsInputs | kByFamilies};

  const std::string g = f.file("g", "GA");
  CHECK(run_command(row, {"census", g}) == ExitCode::kOk);
  CHECK(gamma.calls == 1);
  CHECK(gamma.paths_read == std::vector<std::string>{g});
  // alpha provides no census: its input is refused, never handed to gamma.
  CHECK(run_command(row, {"census", f.file("a", "AL")}) == ExitCode::kUsage);
  CHECK(f.alpha.calls == 0);
  CHECK(gamma.calls == 1);
  // gamma's option is its own on the new command; given with alpha's input, refused.
  CHECK(run_command(row, {"census", "--gamma-option", g}) == ExitCode::kOk);
  CHECK(run_command(row, {"census", "--gamma-option", f.file("b", "BE")}) == ExitCode::kUsage);

  const std::vector<std::string_view> columns{row.name};
  const std::string help = formats_help(census_families, columns);
  CHECK(help.find("  gamma       yes\n") != std::string::npos);
  CHECK(help.find("  alpha       -\n") != std::string::npos);
}

TEST_CASE("dispatch: the command table names every command qjt adds, under the name it is added as") {
  for (const CommandRow& row : command_table()) {
    CLI::App app;
    ExitCode status = ExitCode::kOk;
    row.add(&app, row.name, &status);
    REQUIRE(app.get_subcommands({}).size() == 1);
    CHECK(app.get_subcommands({}).front()->get_name() == row.name);
  }
  const auto families = family_commands();
  CHECK(std::find(families.begin(), families.end(), "gen") != families.end());
  CHECK(std::find(families.begin(), families.end(), "help") == families.end());
}

namespace {

// The units' paths, for comparisons.
std::vector<std::vector<std::string>> unit_paths(const Expansion& expansion) {
  std::vector<std::vector<std::string>> paths;
  for (const ReadUnit& unit : expansion.units) paths.push_back(unit.paths);
  return paths;
}

}  // namespace

TEST_CASE("walk: a directory a family claims, and no more, is read as given") {
  Fixture f;
  f.file("a", "AL");
  const std::string root = f.dir.path().string();
  const Expansion expansion = expand_paths({root}, f.drivers, std::nullopt);
  CHECK_FALSE(expansion.found);
  CHECK(unit_paths(expansion) == std::vector<std::vector<std::string>>{{root}});
}

TEST_CASE("walk: subdirectories in name order, hidden and backup entries passed over, the rest skipped") {
  Fixture f;
  const std::string root = f.dir.path().string();
  for (const char* sub : {"b", "a", "a/deep", ".hidden", "q.qjt-backup"})
    std::filesystem::create_directories(f.dir.path() / sub);
  f.file("b/x.beta", "");
  f.file("a/one", "AL");
  f.file("a/deep/two", "BE");
  f.file(".hidden/three", "AL");
  f.file("q.qjt-backup/four", "AL");
  const std::string notes = f.file("notes.txt", "garbage");
  const std::string a = root + "/a", deep = root + "/a/deep", b = root + "/b";
  const Expansion all = expand_paths({root}, f.drivers, std::nullopt);
  CHECK(all.found);
  CHECK(unit_paths(all) == std::vector<std::vector<std::string>>{{a}, {deep}, {b}});
  CHECK(all.skipped == std::vector<std::string>{notes});
  const Expansion shallow = expand_paths({root}, f.drivers, 1U);
  CHECK(unit_paths(shallow) == std::vector<std::vector<std::string>>{{a}, {b}});
  // Nothing found at all: the PATH stays, for the assignment to report.
  const Expansion none = expand_paths({root}, f.drivers, 0U);
  CHECK(unit_paths(none) == std::vector<std::vector<std::string>>{{root}});
}

TEST_CASE("walk: an installation is one unit, its settings kept, what it covers not walked again") {
  Fixture f;
  std::filesystem::create_directories(f.dir.path() / "beta-site");
  std::filesystem::create_directories(f.dir.path() / "other");
  f.file("beta-site/in", "AL");
  f.file("other/x", "AL");
  const std::string other = (f.dir.path() / "other").string();
  const Expansion expansion = expand_paths({f.dir.path().string()}, f.drivers, std::nullopt);
  REQUIRE(expansion.units.size() == 2);
  CHECK(expansion.units[0].site_driver == &f.beta);
  CHECK(expansion.units[0].paths.empty());
  CHECK(expansion.units[0].settings.front().first == "--beta-option");
  CHECK(expansion.units[1].paths == std::vector<std::string>{other});
  // Assigned one by one: the site to its family, with its settings.
  FindingList unclaimed;
  CLI::App app;
  FamilyOptions options(&app, "dump", Inputs::kRead, f.drivers);
  const auto runs = assign({f.dir.path().string()}, options, &unclaimed, &expansion);
  REQUIRE(runs);
  REQUIRE(runs->size() == 2);
  CHECK((*runs)[0].driver == &f.beta);
  CHECK((*runs)[0].settings == expansion.units[0].settings);
  CHECK((*runs)[1].driver == &f.alpha);
  CHECK((*runs)[1].unit == 1);
}
