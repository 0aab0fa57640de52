// The Canal driver: a consumer's cursors (meta.dat) and their history
// (meta.log, plain or gzip'd), told by name and content; the two kinds are
// read in separate groups.
#include <sys/stat.h>

#include "canal/canal_file_kind.h"
#include "canal/cli/canal_commands.h"
#include "canal/cli/canal_gen.h"
#include "canal/cli/canal_hints.h"
#include "canal/cli/canal_input.h"
#include "canal/cli/canal_repair.h"
#include "canal/meta_generator.h"
#include "driver.h"
#include "input_file.h"

namespace qjt::cli {
namespace {

class CanalDriver final : public Driver {
 public:
  std::string_view name() const override { return "canal"; }
  std::string_view title() const override { return "Canal consumer cursors (meta.dat, meta.log)"; }
  std::vector<std::string_view> kinds() const override { return {"canal-meta-dat", "canal-meta-log"}; }

  std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const override {
    const auto kind = canal::detect_file_kind(path, bytes);
    if (!kind) return std::nullopt;
    const bool dat = *kind == canal::FileKind::kMetaDat;
    return Claim{true, dat ? "a Canal meta.dat" : "a Canal meta.log", dat ? "canal-meta-dat" : "canal-meta-log"};
  }

  std::string_view looks_for() const override {
    return "a Canal meta.dat (by name or its JSON) or meta.log (by name or a cursor line, plain or gzip'd)";
  }

  std::string_view does(Command command) const override {
    switch (command) {
      case Command::kDump:
        return "the cursors of a meta.dat; the entries of meta.log files";
      case Command::kVerify:
        return "cursors and their order; --binlogs, --metrics check the server's side";
      case Command::kReplay:
        return "a meta.log's cursor history; --at: the meta.dat of a moment";
      case Command::kCompact:
        return "";  // Canal rewrites meta.dat itself each second
      case Command::kConvert:
        return "";
      case Command::kRepair:
        return "rewrites a meta.dat's damaged cursors, with a backup";
    }
    return "";
  }

  void add_options(Command command, CLI::App* group) override {
    CanalOptions* o = &options_[command];
    if (command != Command::kConvert && command != Command::kCompact) add_time_zone_option(group);
    if (command == Command::kVerify) add_canal_verify_options(group, o);
    if (command == Command::kReplay) add_canal_replay_options(group, o);
    if (command == Command::kRepair) add_canal_repair_options(group, &repair_);
  }
  // meta.log lines; a meta.dat has no records to select.
  FilterFields filter_fields() const override { return {.time = "time (meta.log lines)", .offsets = true}; }
  bool options_name_input(Command command) const override { return !options_[command].metrics.empty(); }
  std::string_view input_options(Command command) const override {
    return command == Command::kVerify ? "Canal's --metrics" : "";
  }
  bool reads_directories() const override { return false; }

  ExitCode dump(const ReadRequest& r) override { return run_canal_dump(run(r)); }
  std::optional<VerifyTally> verify(const ReadRequest& r) override {
    auto tally = check_canal(run(r));
    if (tally) tally->findings.add_hints(canal_hint);
    return tally;
  }
  ExitCode replay(const ReadRequest& r) override { return run_canal_replay(run(r)); }
  ExitCode repair(const WriteRequest& r) override {
    return run_canal_repair(CanalRepairRun{r.paths, r.group == "canal-meta-log", repair_, r.apply, r.json, r.guard});
  }

  std::string_view generates() const override { return "a meta.dat and a meta.log history of N updates"; }
  std::vector<std::string_view> corruptions() const override { return canal::meta_corruptions(); }
  void add_gen_options(CLI::App* group) override { add_canal_gen_options(group, &gen_); }
  ExitCode gen(const GenRequest& r) override { return run_canal_gen(r, gen_); }

 private:
  // The group of the claims (canal-meta-dat, canal-meta-log) is the kind,
  // so no file is read twice to tell it; else --format names it. Streams
  // (standard input, a FIFO) are never claimed: under --format canal the
  // first one's bytes tell it, read once (InputFile keeps them for the run).
  CanalRun run(const ReadRequest& r) const {
    auto kind = canal::parse_format(r.group) ? canal::parse_format(r.group) : canal::parse_format(r.format);
    if (!kind && !r.paths.empty()) kind = stream_kind(r.paths.front());
    return CanalRun{r.paths, kind, r.json, r.strict, r.quiet, options_[r.command], r.filter, r.limit, r.printed};
  }

  static std::optional<canal::FileKind> stream_kind(const std::string& path) {
    struct stat st {};
    if (path != "-" && (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
      return std::nullopt;
    std::string error;
    const auto input = InputFile::open(path, &error);
    return input ? canal::detect_file_kind(path, input->bytes()) : std::nullopt;
  }

  PerCommand<CanalOptions> options_;
  CanalRepairOptions repair_;
  CanalGenOptions gen_;
};

}  // namespace

Driver& canal_driver() {
  static CanalDriver driver;
  return driver;
}

}  // namespace qjt::cli
