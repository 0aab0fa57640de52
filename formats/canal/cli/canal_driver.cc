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
#include "canal/deployer_layout.h"
#include "canal/meta_generator.h"
#include "driver.h"
#include "input_file.h"

namespace qjt::cli {
namespace {

class CanalDriver final : public Driver {
 public:
  CanalDriver() {
    dump_.does = "the cursors of a meta.dat; the entries of meta.log files";
    dump_.read = [](const ReadRequest& r) { return run_canal_dump(run(r)); };

    verify_.does = "cursors and their order; --binlogs, --metrics check the server's side";
    verify_.add_options = bind_options<CanalOptions>(add_canal_verify_options);
    verify_.options_name_input = [](const OptionValues& v) { return !options_in<CanalOptions>(v).metrics.empty(); };
    verify_.input_options = "Canal's --metrics";
    verify_.verify = [](const ReadRequest& r) {
      auto tally = check_canal(run(r));
      if (tally) tally->findings.add_hints(canal_hint);
      return tally;
    };

    replay_.does = "a meta.log's cursor history; --at: the meta.dat of a moment";
    replay_.add_options = bind_options<CanalOptions>(add_canal_replay_options);
    replay_.read = [](const ReadRequest& r) { return run_canal_replay(run(r)); };

    stats_.does = "per destination and client: cursor, lag, meta.log's update rate; --binlogs: what they are behind";
    stats_.add_options = bind_options<CanalOptions>([](CLI::App* group, CanalOptions* o) {
      add_canal_binlogs_option(group, o, "how far each meta.dat client is behind, what the slowest still needs");
    });
    stats_.stats = [](const ReadRequest& r, StatsModel* model, Reporter* findings) {
      HintingReporter hinted(canal_hint, findings);
      return run_canal_stats(run(r), model, &hinted);
    };

    // No compact: Canal rewrites meta.dat itself each second.
    repair_.does = "rewrites a meta.dat's damaged cursors, with a backup";
    repair_.add_options = bind_options<CanalRepairOptions>(add_canal_repair_options);
    repair_.write = [](const WriteRequest& r) {
      return run_canal_repair(CanalRepairRun{r.paths, r.group == "canal-meta-log",
                                             options_in<CanalRepairOptions>(r.options), r.apply, r.json, r.guard});
    };

    gen_.does = "a meta.dat and a meta.log history of N updates";
    gen_.corruptions = canal::meta_corruptions();
    gen_.add_options = bind_options<CanalGenOptions>(add_canal_gen_options);
    gen_.gen = [](const GenRequest& r) { return run_canal_gen(r, options_in<CanalGenOptions>(r.options)); };
  }

  std::string_view name() const override { return "canal"; }
  std::string_view title() const override { return "Canal consumer cursors (meta.dat, meta.log)"; }
  std::vector<std::string_view> kinds() const override { return canal::format_names(); }

  std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const override {
    const auto kind = canal::detect_file_kind(path, bytes);
    if (!kind) return std::nullopt;
    const bool dat = *kind == canal::FileKind::kMetaDat;
    return Claim{true, dat ? "a Canal meta.dat" : "a Canal meta.log", std::string(canal::format_name(*kind))};
  }

  std::string_view looks_for() const override {
    return "a Canal meta.dat (by name or its JSON) or meta.log (by name or a cursor line, plain or gzip'd)";
  }

  // meta.log lines; a meta.dat has no records to select.
  FilterFields filter_fields() const override { return {.time = "time (meta.log lines)", .offsets = true}; }
  bool reads_directories() const override { return false; }

  // A deployer root's destinations, or one destination's directory: each
  // destination's meta.dat and meta.log history, read as one.
  std::vector<Site> discover(const std::string& dir) const override {
    std::vector<Site> sites;
    for (canal::DestinationFiles& d : canal::find_destinations(dir))
      sites.push_back(Site{"Canal destination " + d.name, std::move(d.files), {}, std::move(d.covers)});
    return sites;
  }

  Capability* provides(std::string_view command) override {
    return offered(command, {{"dump", &dump_},
                             {"verify", &verify_},
                             {"replay", &replay_},
                             {"stats", &stats_},
                             {"repair", &repair_},
                             {"gen", &gen_}});
  }

 private:
  // The group of the claims (canal-meta-dat, canal-meta-log) is the kind,
  // so no file is read twice to tell it; else --format names it. Streams
  // (standard input, a FIFO) are never claimed: under --format canal the
  // first one's bytes tell it, read once (InputFile keeps them for the run).
  static CanalRun run(const ReadRequest& r) {
    auto kind = canal::parse_format(r.group) ? canal::parse_format(r.group) : canal::parse_format(r.format);
    if (!kind && !r.paths.empty()) kind = stream_kind(r.paths.front());
    return CanalRun{r.paths,  kind,    r.json,   r.strict, r.quiet, options_in<CanalOptions>(r.options),
                    r.filter, r.limit, r.printed};
  }

  static std::optional<canal::FileKind> stream_kind(const std::string& path) {
    struct stat st {};
    if (path != "-" && (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
      return std::nullopt;
    std::string error;
    const auto input = InputFile::open(path, &error);
    return input ? canal::detect_file_kind(path, input->bytes()) : std::nullopt;
  }

  ReadCapability dump_, replay_;
  VerifyCapability verify_;
  StatsCapability stats_;
  WriteCapability repair_;
  GenCapability gen_;
};

}  // namespace

Driver& canal_driver() {
  static CanalDriver driver;
  return driver;
}

}  // namespace qjt::cli
