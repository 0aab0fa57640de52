// The classic Kestrel driver. Classic journals carry no magic, so this is
// the registry's last driver: it claims every file the others leave, on
// positive evidence only when a record decodes at offset 0 (or the file is
// empty), and writing commands refuse its weak claims.
#include <fmt/format.h>

#include "driver.h"
#include "kestrel/cli/kestrel_commands.h"
#include "kestrel/cli/kestrel_gen.h"
#include "kestrel/cli/kestrel_hints.h"
#include "kestrel/journal_reader.h"

namespace qjt::cli {
namespace {

class KestrelDriver final : public Driver {
 public:
  std::string_view name() const override { return "kestrel"; }
  std::string_view title() const override { return "Classic Kestrel journals"; }

  std::optional<Claim> claim(const std::string&, ByteSpan bytes) const override { return kestrel_claim(bytes); }

  std::string_view looks_for() const override { return "a classic Kestrel record at offset 0"; }

  std::string_view does(Command command) const override {
    switch (command) {
      case Command::kDump:
        return "every record with its offset; --op, --xid, --since, --until, --from-offset, --to-offset filter";
      case Command::kVerify:
        return "decodes and replays each queue; every finding";
      case Command::kReplay:
        return "the queue Kestrel 2.x rebuilds at startup";
      case Command::kCompact:
        return "rewrites a queue's journal as its live items (alias roll)";
      case Command::kConvert:
        return "to and from JSON Lines (jsonl, kestrel); a 1.x journal to 2.x (kestrel2)";
      case Command::kRepair:
        return "cuts at the first broken record, or --salvage";
    }
    return "";
  }

  void add_options(Command command, CLI::App* group) override {
    KestrelOptions& o = options_[command];
    if (command == Command::kVerify || command == Command::kReplay)
      group->add_flag("--legacy-xids", o.legacy_xids, "Replay legacy REMOVE_TENTATIVE by Kestrel 1.x rules");
    if (command == Command::kCompact) add_kestrel_compact_options(group, &compact_);
    if (command == Command::kRepair)
      group->add_flag("--salvage", salvage_, "Keep the records that decode again after each damaged region");
  }
  FilterFields filter_fields() const override {
    return {.ops = {"ADD", "REMOVE", "ADDX", "REMOVE_TENTATIVE", "SAVE_XID", "UNREMOVE", "CONFIRM_REMOVE", "ADD_XID",
                    "CONTINUE", "REMOVE_TENTATIVE_XID", "END_OF_FILE", "BROKEN"},
            .xid = "xid",
            .time = "add time",
            .offsets = true};
  }
  bool takes_unproven_files(Command command) const override { return command == Command::kRepair; }

  ExitCode dump(const ReadRequest& r) override { return run_kestrel_dump(r); }
  std::optional<VerifyTally> verify(const ReadRequest& r) override {
    VerifyTally tally = check_kestrel(r, options(r));
    tally.findings.add_hints(kestrel_hint);
    return tally;
  }
  ExitCode replay(const ReadRequest& r) override { return run_kestrel_replay(r, options(r)); }
  ExitCode compact(const WriteRequest& r) override { return run_kestrel_compact(r, compact_); }
  ExitCode repair(const WriteRequest& r) override { return run_kestrel_repair(r, salvage_); }
  std::vector<std::string_view> converts_to() const override { return {"jsonl", "kestrel", "kestrel2"}; }
  ExitCode convert(const ConvertRequest& r) override { return run_kestrel_convert(r); }

  std::string_view generates() const override { return "a journal file or a queue directory of segments"; }
  std::vector<std::string_view> corruptions() const override { return kestrel_corruptions(); }
  void add_gen_options(CLI::App* group) override { add_kestrel_gen_options(group, &gen_); }
  ExitCode gen(const GenRequest& r) override { return run_kestrel_gen(r, gen_); }

 private:
  const KestrelOptions& options(const ReadRequest& r) const { return options_[r.command]; }
  PerCommand<KestrelOptions> options_;
  KestrelCompactOptions compact_;
  bool salvage_ = false;
  KestrelGenOptions gen_;
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
