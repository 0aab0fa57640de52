// The Canal driver: a consumer's cursors (meta.dat) and their history
// (meta.log, plain or gzip'd), told by name and content, and the cursors
// Canal keeps in ZooKeeper (a node's JSON or zkCli's output around it, and
// trees mirroring the nodes, told by their layout); each kind is read in a
// group of its own.
#include <sys/stat.h>

#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "canal/canal_file_kind.h"
#include "canal/cli/canal_commands.h"
#include "canal/cli/canal_gen.h"
#include "canal/cli/canal_hints.h"
#include "canal/cli/canal_input.h"
#include "canal/cli/canal_repair.h"
#include "canal/cli/canal_zk_convert.h"
#include "canal/cli/canal_zk_repair.h"
#include "canal/deployer_layout.h"
#include "canal/meta_generator.h"
#include "canal/zk_tree.h"
#include "driver.h"
#include "input_file.h"

namespace qjt::cli {
namespace {

class CanalDriver final : public Driver {
 public:
  CanalDriver() {
    dump_.does = "the cursors of a meta.dat or of ZooKeeper nodes; the entries of meta.log files";
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
    replay_.read = [](const ReadRequest& r) {
      const CanalRun canal = run(r);
      // A deployer's meta.dat beside its history: the cursors now, which dump prints.
      if (r.found && canal.kind != canal::FileKind::kMetaLog) return passed_over(r, "replay reads meta.log files");
      return run_canal_replay(canal);
    };

    stats_.does = "per destination and client: cursor, lag, meta.log's update rate; --binlogs: what they are behind";
    stats_.add_options = bind_options<CanalOptions>([](CLI::App* group, CanalOptions* o) {
      add_canal_binlogs_option(group, o, "how far each meta.dat client is behind, what the slowest still needs");
    });
    stats_.stats = [](const ReadRequest& r, StatsModel* model, Reporter* findings) {
      HintingReporter hinted(canal_hint, findings);
      return run_canal_stats(run(r), model, &hinted);
    };

    // No compact: Canal rewrites meta.dat itself each second.
    repair_.does = "rewrites a meta.dat's damaged cursors, with a backup; edits a ZooKeeper cursor node";
    repair_.add_options = bind_options<CanalRepairOptions>(add_canal_repair_options);
    repair_.write = [](const WriteRequest& r) {
      // A destination's history, or a ZooKeeper tree, found beside the meta.dat repair rewrites.
      if (r.found && (r.paths.empty() || r.group == "canal-meta-log"))
        return passed_over(r, "repair rewrites a meta.dat, or one cursor node named as PATH");
      const CanalRepairRun run{
          r.paths, r.group == "canal-meta-log", options_in<CanalRepairOptions>(r.options), r.apply, r.json, r.guard};
      return r.group == "canal-zk-cursor" ? run_zk_cursor_repair(run) : run_canal_repair(run);
    };

    convert_.does = "a meta.dat client to its ZooKeeper cursor node, and cursor nodes back to a meta.dat";
    convert_.targets = {"canal-zk-cursor", "canal-meta-dat"};
    convert_.add_options = bind_options<CanalConvertOptions>(add_canal_convert_options);
    convert_.convert = [](const ConvertRequest& r) {
      return run_canal_convert(r, options_in<CanalConvertOptions>(r.options));
    };

    gen_.does = "a meta.dat and a meta.log history of N updates";
    gen_.corruptions = canal::meta_corruptions();
    gen_.add_options = bind_options<CanalGenOptions>(add_canal_gen_options);
    gen_.gen = [](const GenRequest& r) { return run_canal_gen(r, options_in<CanalGenOptions>(r.options)); };
  }

  std::string_view name() const override { return "canal"; }
  std::string_view title() const override { return "Canal consumer cursors (meta.dat, meta.log, ZooKeeper)"; }
  std::vector<std::string_view> kinds() const override { return canal::format_names(); }

  std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const override {
    const auto kind = canal::detect_file_kind(path, bytes);
    if (!kind) return std::nullopt;
    return Claim{true, evidence(*kind), std::string(canal::format_name(*kind))};
  }

  std::string_view looks_for() const override {
    return "a Canal meta.dat (by name or its JSON), meta.log (by name or a cursor line, plain or gzip'd) or "
           "ZooKeeper cursor node (its JSON, or its place)";
  }

  // meta.log lines; a meta.dat has no records to select.
  FilterFields filter_fields() const override { return {.time = "time (meta.log lines)", .offsets = true}; }
  bool reads_directories() const override { return false; }

  // A deployer root's destinations, or one destination's directory: each
  // destination's meta.dat and meta.log history, read as one.
  std::vector<Site> discover(const std::string& dir) const override {
    if (auto tree = zk_tree_site(dir)) return {std::move(*tree)};
    std::vector<Site> sites;
    for (canal::DestinationFiles& d : canal::find_destinations(dir))
      sites.push_back(Site{.what = "Canal destination " + d.name,
                           .where = std::move(d.dir),
                           .paths = std::move(d.files),
                           .settings = {},
                           .covers = std::move(d.covers)});
    return sites;
  }

  Capability* provides(std::string_view command) override {
    return offered(command, {{"dump", &dump_},
                             {"verify", &verify_},
                             {"replay", &replay_},
                             {"stats", &stats_},
                             {"repair", &repair_},
                             {"convert", &convert_},
                             {"gen", &gen_}});
  }

 private:
  // The group of the claims (canal-meta-dat, canal-meta-log) is the kind,
  // so no file is read twice to tell it; else --format names it. Streams
  // (standard input, a FIFO) are never claimed: under --format canal the
  // first one's bytes tell it, read once (InputFile keeps them for the run).
  static CanalRun run(const ReadRequest& r) {
    auto kind = canal::parse_format(r.group) ? canal::parse_format(r.group) : canal::parse_format(r.format);
    auto paths = r.paths;
    for (const auto& [setting, value] : r.discovered) {
      if (setting != kZkTreeSetting) continue;
      kind = canal::FileKind::kZkTree;
      paths = {value};
    }
    if (!kind && !paths.empty()) kind = stream_kind(paths.front());
    return CanalRun{paths,    kind,    r.json,   r.strict, r.quiet, options_in<CanalOptions>(r.options),
                    r.filter, r.limit, r.printed};
  }

  // What a command found in a walk and does not take: said, not refused.
  template <typename Request>
  static ExitCode passed_over(const Request& r, std::string_view why) {
    const std::string what = r.paths.empty() ? "a Canal ZooKeeper tree" : fmt::format("{}", fmt::join(r.paths, ", "));
    note(r.command, fmt::format("skipped {}: {}", what, why));
    return ExitCode::kOk;
  }

  static std::string evidence(canal::FileKind kind) {
    switch (kind) {
      case canal::FileKind::kMetaDat:
        return "a Canal meta.dat";
      case canal::FileKind::kMetaLog:
        return "a Canal meta.log";
      default:
        return "a Canal ZooKeeper cursor node";
    }
  }

  // A ZooKeeper tree in `dir`: one site, read whole by the tree's reader
  // (the setting names its root), covering the entries it reads.
  static std::optional<Site> zk_tree_site(const std::string& dir) {
    namespace fs = std::filesystem;
    const auto root = canal::zk_tree_root(dir);
    if (!root) return std::nullopt;
    Site site{.what = "Canal ZooKeeper tree " + *root,
              .where = {},
              .paths = {},
              .settings = {{std::string(kZkTreeSetting), *root}},
              .covers = {}};
    std::error_code ec;
    if (!fs::equivalent(*root, dir, ec)) {
      const fs::path below = fs::path(*root).lexically_relative(fs::path(dir).lexically_normal());
      site.covers.push_back((fs::path(dir) / *below.begin()).string());
      return site;
    }
    for (const auto& entry : fs::directory_iterator(dir, ec)) site.covers.push_back(entry.path().string());
    return site;
  }

  static constexpr std::string_view kZkTreeSetting = "canal-zk-tree";

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
  ConvertCapability convert_;
  GenCapability gen_;
};

}  // namespace

Driver& canal_driver() {
  static CanalDriver driver;
  return driver;
}

}  // namespace qjt::cli
