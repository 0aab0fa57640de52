#include "flume/cli/flume_convert.h"

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <iterator>
#include <memory>
#include <system_error>

#include <fmt/format.h>

#include "clock.h"
#include "durable_file.h"
#include "flume/checkpoint_upgrade.h"
#include "flume/cli/flume_commands.h"
#include "flume/file_dump.h"
#include "flume/log_json.h"
#include "flume/log_metadata.h"
#include "guarded_replace.h"
#include "interrupt.h"
#include "json_line.h"
#include "line_input.h"
#include "named_output.h"
#include "output.h"
#include "path_family.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;
using flume::FileKind;

ExitCode io_error(const std::string& file, const std::string& message) {
  StderrReporter().report(Finding{Severity::kError, "io_error", file, std::nullopt, message});
  return ExitCode::kIoError;
}

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

using Emit = std::function<bool(ByteSpan)>;

NamedOutput named_output(const FlumeConvertOptions& o) { return {"convert", o.guard, o.drivers}; }

// The file OUTPUT with what `content` passes to its emit function, in a
// temp file until it is installed; null with *error on a write failure or
// when `content` returns false to abandon the output on purpose
// (*abandoned: nothing is written).
std::unique_ptr<ReplacementFile> prepare_file(const std::string& output,
                                              const std::function<bool(const Emit&)>& content, bool* abandoned,
                                              std::string* error) {
  bool keep = true;
  auto file = ReplacementFile::write(
      output, Ownership::kNewOutput,
      [&](FileWriter* writer, std::string* write_error) {
        bool appended = true;
        keep = content([&](ByteSpan bytes) { return appended = appended && writer->append(bytes, write_error); });
        if (!keep && appended) *write_error = "abandoned";
        return appended && keep;
      },
      error);
  *abandoned = !keep;
  return file;
}

// Writes to -o OUTPUT (atomically, install_outputs) or to standard output
// what `content` passes to its emit function. `content` returns false to
// abandon the output on purpose (*abandoned: nothing is written); a failing
// write is an io_error here.
ExitCode write_output(const FlumeConvertOptions& o, const std::function<bool(const Emit&)>& content, bool* abandoned) {
  const std::string& output = o.output;
  if (output == "-") {
    Output out;
    *abandoned = !content([&out](ByteSpan bytes) {
      out.write(bytes.as_chars());
      return !out.failed();
    });
    out.flush();
    return out.failed() ? io_error("-", "cannot write to standard output") : ExitCode::kOk;
  }
  std::string error;
  auto file = prepare_file(output, content, abandoned, &error);
  if (!file) return *abandoned ? ExitCode::kOk : io_error(output, error);
  std::vector<std::unique_ptr<ReplacementFile>> files;
  files.push_back(std::move(file));
  return install_outputs(named_output(o), std::move(files));
}

// ---------------------------------------------------------------- --to jsonl

// Stderr, remembering whether the log's key was missing or refused.
class KeyWatchingReporter : public Reporter {
 public:
  void report(Finding finding) override {
    if (finding.code == "missing_key" || finding.code == "bad_key") key_problem_ = true;
    inner_.report(std::move(finding));
  }
  bool key_problem() const { return key_problem_; }
  std::size_t errors() const { return inner_.errors(); }

 private:
  StderrReporter inner_;
  bool key_problem_ = false;
};

// The log-N.meta Flume's reader would use beside `log`; "" when none.
std::string log_meta_beside(const std::string& log) {
  const flume::LogMetaChoice choice =
      flume::choose_log_meta(exists(flume::log_meta_file_name(log, flume::LogMetaFile::kMeta)),
                             exists(flume::log_meta_file_name(log, flume::LogMetaFile::kTmp)),
                             exists(flume::log_meta_file_name(log, flume::LogMetaFile::kOld)));
  return flume::log_meta_file_name(log, choice.read);
}

// The log_meta line: what dump --json of the meta prints. Its findings are
// the log's dump's too, so they are said once, there.
void append_meta_line(const std::string& log, const flume::FileDumpOptions& options, std::string* out) {
  const std::string meta = log_meta_beside(log);
  if (meta.empty()) return;
  std::string ignored;
  const auto input = InputFile::open(meta, &ignored);
  FindingList said_by_the_log;
  if (input) flume::dump_file(meta, input->bytes(), FileKind::kLogMeta, options, out, {}, &said_by_the_log);
}

ExitCode log_to_jsonl(const FlumeConvertOptions& o, const flume::KeyRing& keys) {
  std::vector<FlumeFile> files = named_files({o.input}, o.flume.format);
  KeyWatchingReporter reporter;
  if (!open_files(&files, &reporter)) return ExitCode::kIoError;
  const FlumeFile& log = files.front();
  if (log.kind != FileKind::kLogV2 && log.kind != FileKind::kLogV3)
    return usage_error("convert",
                       fmt::format("--to jsonl takes a Flume data log (log-N), found {} ({}): use qjt dump --json for "
                                   "other Flume files",
                                   o.input, flume::file_kind_name(log.kind)));
  flume::FileDumpOptions options;
  options.json = true;
  options.mode = *parse_data_mode(o.data.empty() ? "text" : o.data);
  options.keys = &keys;
  bool abandoned = false;
  const ExitCode written = write_output(
      o,
      [&](const Emit& emit) {
        std::string buffer;
        if (log.kind == FileKind::kLogV3 && log.path != "-") append_meta_line(log.path, options, &buffer);
        // A missing key is reported before any record line, so nothing of
        // a refused log is written.
        const auto flush = [&] {
          if (buffer.size() < LineInput::kChunk || reporter.key_problem()) return;
          emit(ByteSpan(buffer));
          buffer.clear();
        };
        flume::dump_file(log.path, *log.input, log.kind, options, &buffer, flush, &reporter);
        if (reporter.key_problem()) return false;
        emit(ByteSpan(buffer));
        return true;
      },
      &abandoned);
  if (reporter.key_problem())
    return usage_error("convert",
                       fmt::format("{} is encrypted: give its key with --key ALIAS=HEX (nothing written)", o.input));
  if (written != ExitCode::kOk) return written;
  return reporter.errors() > 0 ? ExitCode::kProblems : ExitCode::kOk;
}

// ---------------------------------------------------------------- --to flume-log

constexpr std::size_t kFillChunk = 1 << 16;

bool emit_log(const flume::LogJsonAssembler& log, const Emit& emit) {
  static const std::string kFill(kFillChunk, static_cast<char>(flume::kOpEof));
  if (!emit(ByteSpan(log.records()))) return false;
  for (std::uint64_t left = log.fill(); left > 0;) {
    const std::size_t n = left < kFillChunk ? static_cast<std::size_t>(left) : kFillChunk;
    if (!emit(ByteSpan(std::string_view(kFill).substr(0, n)))) return false;
    left -= n;
  }
  return emit(ByteSpan(log.after_fill()));
}

// Reads every line into *log; prints each bad one. The count of bad lines,
// or nullopt when the input could not be read or the key is missing (then
// *status says which).
std::optional<std::uint64_t> read_lines(const std::string& name, flume::LogJsonAssembler* log, ExitCode* status) {
  std::string error;
  auto input = LineInput::open(name, &error);
  if (!input) {
    *status = io_error(name, error);
    return std::nullopt;
  }
  std::string_view text;
  std::uint64_t offset = 0, number = 0, bad = 0;
  flume::LogJsonLine line;
  while (input->next(&text, &offset)) {
    ++number;
    if (blank(text)) continue;
    if (flume::parse_log_json_line(text, &line, &error) && log->add(line, &error)) continue;
    if (log->refusal() == flume::LogJsonAssembler::Refusal::kMissingKey) {
      *status = usage_error("convert", fmt::format("{}:{}: {}", name, number, error));
      return std::nullopt;
    }
    tell("convert", fmt::format("{}:{}: {}", name, number, error));
    ++bad;
  }
  if (input->failed()) {
    *status = io_error(name, fmt::format("cannot read {}: {}", name, std::strerror(input->error_number())));
    return std::nullopt;
  }
  return bad;
}

// The meta's bytes: the stream's, else Flume's for a new log-N named by
// the output (positions 0). nullopt when the output name says no id.
std::optional<std::string> meta_for(const flume::LogJsonAssembler& log, const std::string& output) {
  if (auto bytes = log.meta_bytes()) return bytes;
  std::optional<std::int32_t> id;
  if (!flume::is_log_name(base_name(output), &id) || !id) return std::nullopt;
  flume::LogMetadata meta;
  meta.log_file_id = *id;
  note("convert", fmt::format("no log_meta line: {}.meta written for file id {}, checkpoint positions 0", output, *id));
  return flume::encode_log_metadata(meta);
}

// A log without its meta is no log to Flume: both are written to temp
// files, then installed in one CommitSection, so that -o leaves the pair
// or neither (a failing fsync of the directory comes after the rename).
ExitCode write_log_and_meta(const FlumeConvertOptions& o, const std::function<bool(const Emit&)>& log_content,
                            const std::string& meta) {
  const std::string& output = o.output;
  bool abandoned = false;
  std::string error;
  auto log_file = prepare_file(output, log_content, &abandoned, &error);
  auto meta_file = log_file ? prepare_file(
                                  output + ".meta",
                                  [&meta](const Emit& emit) {
                                    emit(ByteSpan(meta));
                                    return true;
                                  },
                                  &abandoned, &error)
                            : nullptr;
  if (!meta_file) return io_error(output, error);
  std::vector<std::unique_ptr<ReplacementFile>> files;
  files.push_back(std::move(log_file));
  files.push_back(std::move(meta_file));
  return install_outputs(named_output(o), std::move(files));
}

ExitCode jsonl_to_log(const FlumeConvertOptions& o, const flume::KeyRing& keys) {
  flume::LogJsonAssembler log(&keys);
  ExitCode status = ExitCode::kOk;
  const auto bad = read_lines(o.input, &log, &status);
  if (!bad) return status;
  const std::string where = o.output == "-" ? "standard output" : o.output;
  if (*bad > 0) return usage_error("convert", fmt::format("{}: {} bad line(s); {} not written", o.input, *bad, where));
  std::optional<std::string> meta;
  if (o.output != "-") {
    if (auto refused = refuse_existing_outputs(named_output(o), {o.output + ".meta"})) return *refused;
    meta = meta_for(log, o.output);
    if (!meta)
      return usage_error(
          "convert", fmt::format("cannot tell the log's file id: name the output log-N, or start {} with the log_meta "
                                 "line convert --to jsonl writes",
                                 o.input));
  } else if (log.meta()) {
    note("convert", "the log_meta line is not written: log-N.meta needs -o log-N");
  }
  if (log.upgraded_v2()) note("convert", "version 2 records written as version 3 (an upgrade: not the same bytes)");
  // The log always keeps its output: a failing write ends emit_log early
  // and is an io_error.
  bool abandoned = false;
  const auto log_content = [&](const Emit& emit) {
    emit_log(log, emit);
    return true;
  };
  if (!meta) return write_output(o, log_content, &abandoned);
  return write_log_and_meta(o, log_content, *meta);
}

// ---------------------------------------------------------------- --to flume-v3

void print_plan_json(const flume::UpgradePlan& plan, bool applied, const std::string& backup,
                     const std::optional<FindingList>& verified) {
  std::string out;
  JsonLine line(&out, applied ? JsonType::kReport : JsonType::kPlan);
  line.str("checkpoint", plan.checkpoint_path).str("state", flume::upgrade_state_name(plan.state));
  line.num("version", plan.version).boolean("applied", applied);
  if (backup.empty()) {
    line.null("backup");
  } else {
    line.str("backup", backup);
  }
  line.num("write_order_id", plan.meta.write_order_id).num("queue_size", plan.meta.queue_size);
  line.num("queue_head", plan.meta.queue_head).key("active_logs");
  flume::write_active_logs_json(&line, plan.meta.active_logs);
  write_optional_verify_json(&line.key("verify"), verified);
  line.finish();
  fmt::print("{}", out);
}

void print_plan_text(const flume::UpgradePlan& plan, bool applied, const std::string& backup,
                     const std::optional<FindingList>& verified) {
  if (plan.state == flume::UpgradeState::kV3) {
    fmt::print("{}: already V3 (checkpoint.meta beside it): nothing to do\n", plan.checkpoint_path);
    return;
  }
  const bool half = plan.state == flume::UpgradeState::kHalfDone;
  fmt::print("{}: V2 -> V3{}\n", plan.checkpoint_path,
             half ? " (an interrupted upgrade: checkpoint.meta is written)" : "");
  fmt::print("  backup: {}\n", backup.empty() ? std::string("a copy to checkpoint-backup-<ms>") : backup);
  fmt::print("  checkpoint.meta: woid={} size={} head={} active_logs={}\n", plan.meta.write_order_id,
             plan.meta.queue_size, plan.meta.queue_head, flume::active_logs_text(plan.meta.active_logs));
  fmt::print("  checkpoint: long[0] 2 -> 3, every other byte unchanged\n");
  fmt::print("{}\n{}", applied ? "upgraded" : "dry run: nothing changed (use --apply)", verify_errors_text(verified));
}

// The upgrade through guarded_replace: the channel's guard, then Flume's
// own upgrade protocol, which makes the backup Flume itself knows
// (checkpoint-backup-<now_ms> in the checkpoint directory) and orders its
// renames as Flume's startup expects. qjt places no backup of its own.
// The channel is verified after.
ReplaceRequest upgrade_request(const FlumeOptions& flume, const flume::ChannelLayout& layout,
                               const flume::UpgradePlan& plan, std::int64_t now_ms, std::string* backup) {
  ReplaceRequest request = channel_request(layout, {plan.checkpoint_path, plan.meta_path});
  request.owned = {plan.checkpoint_path, plan.meta_path};
  request.changes.push_back(FileChange::by_own_commit([&plan, now_ms, backup](const std::string&, std::string* error) {
    return flume::apply_checkpoint_upgrade(plan, now_ms, backup, error);
  }));
  // Flume's protocol copies the checkpoint beside it, then writes the new one.
  std::error_code ec;
  const std::uint64_t checkpoint_size = std::filesystem::file_size(plan.checkpoint_path, ec);
  request.room = {SpaceNeed{plan.checkpoint_path, ec ? 0 : 2 * checkpoint_size}};
  request.verify = [&flume] { return verify_channel(flume); };
  // The V2 checkpoint back from Flume's backup copy, and the meta file the
  // whole upgrade added removed (a half-done one found it there).
  request.restore = [&plan, backup](const std::string&) {
    std::string command = fmt::format("cp -a {} {}", shell_word(*backup), shell_word(plan.checkpoint_path));
    if (plan.state == flume::UpgradeState::kV2) command += fmt::format(" && rm -f {}", shell_word(plan.meta_path));
    return command;
  };
  return request;
}

ExitCode upgrade_checkpoint(const FlumeConvertOptions& o, const flume::KeyRing& keys) {
  if (o.flume.checkpoint_dir.empty()) return usage_error("convert", "--to flume-v3 needs --checkpoint-dir DIR");
  if (!o.input.empty())
    return usage_error("convert", "--to flume-v3 takes no INPUT: it upgrades the checkpoint in --checkpoint-dir");
  if (auto refused = refuse_foreign("convert", "flume", named_dirs(o.flume), o.drivers)) return *refused;
  FindingList layout_findings;
  const flume::ChannelLayout layout = flume::discover_channel(channel_dirs(o.flume), &layout_findings);
  StderrReporter reporter;
  if (!layout.checkpoint.exists) {
    for (const Finding& f : layout_findings.findings())
      if (f.severity == Severity::kError) reporter.report(f);
    return ExitCode::kProblems;
  }
  const flume::UpgradePlan plan = flume::plan_checkpoint_upgrade(layout.checkpoint, &reporter);
  if (plan.state == flume::UpgradeState::kRefused) return ExitCode::kProblems;
  std::string backup = plan.existing_backup;
  const bool apply = o.apply && plan.state != flume::UpgradeState::kV3;
  std::optional<FindingList> verified;
  if (apply) {
    if (const std::string missing = missing_for_verify(o.flume, layout, keys); !missing.empty())
      return usage_error("convert", fmt::format("refused: the verify after the upgrade could not check the channel: "
                                                "{}; nothing was changed",
                                                missing));
    WriteGuardOptions guard;
    guard.force = o.guard.force;
    const ReplaceResult result = guarded_replace(upgrade_request(o.flume, layout, plan, now_ms(), &backup), guard);
    if (result.status == ExitCode::kInUse) {
      tell("convert",
           fmt::format("{}: refusing to upgrade: {} (--force overrides)", plan.checkpoint_path, result.reason));
      return ExitCode::kInUse;
    }
    if (result.status == ExitCode::kUsage) {
      report_unchanged("convert", result);
      return ExitCode::kUsage;
    }
    if (!result.changed()) return io_error(plan.checkpoint_path, result.reason);
    report_outcome("convert", result);
    verified = result.verified;
  }
  if (o.json) {
    print_plan_json(plan, apply, backup, verified);
  } else {
    print_plan_text(plan, apply, backup, verified);
  }
  return verified && verified->count(Severity::kError) > 0 ? ExitCode::kProblems : ExitCode::kOk;
}

}  // namespace

void add_flume_convert_options(CLI::App* command, FlumeConvertOptions* o) {
  add_channel_options(command, &o->flume, false);
  command->add_flag("--apply", o->apply, "flume-v3: upgrade the checkpoint (default: print the plan)");
  command->add_flag("--json", o->json, "flume-v3: the plan as one JSON object");
}

ExitCode run_flume_convert(const FlumeConvertOptions& o) {
  if (o.to != "flume-v3" && (o.apply || o.json))
    return usage_error("convert", "--apply and --json apply to --to flume-v3 only");
  std::string error;
  const auto keys = parse_keys(o.flume.keys, &error);
  if (!keys) return usage_error("convert", error);
  if (o.to == "flume-v3") return upgrade_checkpoint(o, *keys);
  if (o.input.empty()) return usage_error("convert", "INPUT is required");
  if (o.to == "flume-log") return jsonl_to_log(o, *keys);
  return log_to_jsonl(o, *keys);
}

}  // namespace qjt::cli
