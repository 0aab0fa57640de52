// The classic Kestrel driver. Classic journals carry no magic, so this is
// the registry's last driver: it claims every file the others leave, on
// positive evidence only when a record decodes at offset 0 (or the file is
// empty), or when a file named as a queue's journal lies beside another of
// that queue's files that does (its start damaged: Kestrel's startup reads
// it by its name); writing commands refuse its weak claims.
#include <filesystem>

#include <fmt/format.h>

#include "driver.h"
#include "input_file.h"
#include "kestrel/cli/kestrel_commands.h"
#include "kestrel/cli/kestrel_gen.h"
#include "kestrel/cli/kestrel_hints.h"
#include "kestrel/journal_reader.h"
#include "kestrel/journal_selection.h"
#include "kestrel/queue_directory.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

class KestrelDriver final : public Driver {
 public:
  KestrelDriver() {
    dump_.does = "every record with its offset; --op, --xid, --since, --until, --from-offset, --to-offset filter";
    dump_.read = run_kestrel_dump;

    verify_.does = "decodes and replays each queue; every finding";
    verify_.add_options = bind_options<KestrelOptions>(add_legacy_xids);
    verify_.verify = [](const ReadRequest& r) -> std::optional<VerifyTally> {
      VerifyTally tally = check_kestrel(r, options_in<KestrelOptions>(r.options));
      tally.findings.add_hints(kestrel_hint);
      return tally;
    };

    replay_.does = "the queue Kestrel 2.x rebuilds at startup";
    replay_.add_options = bind_options<KestrelOptions>(add_legacy_xids);
    replay_.read = [](const ReadRequest& r) { return run_kestrel_replay(r, options_in<KestrelOptions>(r.options)); };

    stats_.does = "per queue: records per opcode, items, ages, open transactions, space per segment, startup's work";
    stats_.add_options = bind_options<KestrelOptions>(add_legacy_xids);
    stats_.stats = [](const ReadRequest& r, StatsModel* model, Reporter* findings) {
      return run_kestrel_stats(r, options_in<KestrelOptions>(r.options), model, findings);
    };

    compact_.does = "rewrites a queue's journal as its live items (alias roll)";
    compact_.add_options = bind_options<KestrelCompactOptions>(add_kestrel_compact_options);
    compact_.write = [](const WriteRequest& r) {
      return run_kestrel_compact(r, options_in<KestrelCompactOptions>(r.options));
    };

    convert_.does = "to and from JSON Lines (jsonl, kestrel); a 1.x journal to 2.x (kestrel2)";
    convert_.targets = {"jsonl", "kestrel", "kestrel2"};
    convert_.convert = run_kestrel_convert;

    repair_.does = "cuts at the first broken record, or --salvage";
    repair_.add_options = bind_options<bool>([](CLI::App* group, bool* salvage) {
      group->add_flag("--salvage", *salvage, "Keep the records that decode again after each damaged region");
    });
    repair_.takes_unproven_files = true;
    repair_.one_plan = true;
    repair_.write = [](const WriteRequest& r) { return run_kestrel_repair(r, options_in<bool>(r.options)); };

    gen_.does = "a journal file or a queue directory of segments";
    gen_.corruptions = kestrel_corruptions();
    gen_.add_options = bind_options<KestrelGenOptions>(add_kestrel_gen_options);
    gen_.gen = [](const GenRequest& r) { return run_kestrel_gen(r, options_in<KestrelGenOptions>(r.options)); };
  }

  std::string_view name() const override { return "kestrel"; }
  std::string_view title() const override { return "Classic Kestrel journals"; }

  std::optional<Claim> claim(const std::string& path, ByteSpan bytes) const override {
    Claim claim = kestrel_claim(bytes);
    const bool journal_name = kestrel::names_queue_file(base_name(path));
    if (claim.unrecognised && journal_name)
      if (auto sibling = journal_sibling(path)) claim = Claim{true, std::move(*sibling), "kestrel"};
    // Zero bytes are a sign of nothing but under a queue file's name: an
    // empty notes.txt is of no known format, in a queue directory or not.
    if (bytes.empty() && !journal_name)
      claim = Claim{false, "an empty file, not named as a Kestrel queue's file", "kestrel", true};
    // A queue's file makes a queue directory by its name too.
    claim.makes_directory = !claim.unrecognised && journal_name;
    return claim;
  }

  std::string_view looks_for() const override { return "a classic Kestrel record at offset 0"; }

  // A file named alone gets the stray_file warning its directory's
  // listing gives it.
  std::vector<Finding> stray(const std::string& file, Registry drivers) const override {
    const std::string dir = std::filesystem::path(file).parent_path().string();
    FindingList layout;
    std::vector<kestrel::QueueJournal> queues;
    std::string error;
    kestrel::discover_queues(dir.empty() ? "." : dir, &layout, &queues, &error, other_families(drivers));
    std::vector<Finding> found;
    for (Finding f : layout.findings()) {
      if (f.code != "stray_file" || base_name(f.file) != base_name(file)) continue;
      f.file = file;
      found.push_back(std::move(f));
    }
    return found;
  }

  std::vector<std::vector<std::string>> units(const std::vector<std::string>& paths) const override {
    return kestrel::journal_units(paths);
  }

  FilterFields filter_fields() const override {
    return {.ops = {"ADD", "REMOVE", "ADDX", "REMOVE_TENTATIVE", "SAVE_XID", "UNREMOVE", "CONFIRM_REMOVE", "ADD_XID",
                    "CONTINUE", "REMOVE_TENTATIVE_XID", "END_OF_FILE", "BROKEN"},
            .xid = "xid",
            .time = "add time",
            .offsets = true};
  }
  Capability* provides(std::string_view command) override {
    return offered(command, {{"dump", &dump_},
                             {"verify", &verify_},
                             {"replay", &replay_},
                             {"stats", &stats_},
                             {"compact", &compact_},
                             {"convert", &convert_},
                             {"repair", &repair_},
                             {"gen", &gen_}});
  }

 private:
  // "named as queue Q's journal, beside Q.TS that begins as one" when
  // another file of the queue `path` names begins with a Kestrel record
  // (or an opcode); nullopt otherwise.
  static std::optional<std::string> journal_sibling(const std::string& path) {
    namespace fs = std::filesystem;
    const auto queue = kestrel::queue_of_name(base_name(path));
    if (!queue) return std::nullopt;
    const fs::path dir = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      std::error_code type_ec;
      if (name == base_name(path) || kestrel::queue_of_name(name) != queue || !it->is_regular_file(type_ec)) continue;
      std::string error;
      const auto input = InputFile::open(it->path().string(), &error);
      if (input == nullptr || input->bytes().empty() || kestrel_claim(input->bytes()).unrecognised) continue;
      return fmt::format("named as queue {}'s journal, beside {} that begins as one", *queue, name);
    }
    return std::nullopt;
  }

  static void add_legacy_xids(CLI::App* group, KestrelOptions* o) {
    group->add_flag("--legacy-xids", o->legacy_xids, "Replay legacy REMOVE_TENTATIVE by Kestrel 1.x rules");
  }

  ReadCapability dump_, replay_;
  VerifyCapability verify_;
  StatsCapability stats_;
  WriteCapability compact_, repair_;
  ConvertCapability convert_;
  GenCapability gen_;
};

}  // namespace

Claim kestrel_claim(ByteSpan bytes) {
  if (bytes.empty()) return Claim{true, "an empty file", "kestrel"};
  kestrel::JournalReader reader(bytes);
  kestrel::JournalRecord first;
  reader.next(&first);
  if (first.type != kestrel::RecordType::kBroken) return Claim{true, "a classic Kestrel record at offset 0", "kestrel"};
  Claim weak{false, fmt::format("no Kestrel record decodes at offset 0 (byte 0x{:02x}: {})", bytes[0], first.error),
             "kestrel"};
  // An opcode whose record is cut short or damaged is a damaged journal;
  // a byte that is no opcode at all is no sign of one.
  weak.unrecognised = bytes[0] > kestrel::kMaxOpcode;
  return weak;
}

Driver& kestrel_driver() {
  static KestrelDriver driver;
  return driver;
}

}  // namespace qjt::cli
