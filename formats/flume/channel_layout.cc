#include "flume/channel_layout.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "in_use.h"
#include "path_name.h"
#include "whole_number.h"

namespace qjt::flume {
namespace {

namespace fs = std::filesystem;

struct Entry {
  std::string name;
  bool regular = false;
  bool directory = false;
  std::uint64_t size = 0;
};

using Listing = std::map<std::string, Entry>;  // by name: sorted, and found by name

void report(Reporter* reporter, Severity severity, std::string code, std::string file, std::string message) {
  reporter->report(Finding{severity, std::move(code), std::move(file), std::nullopt, std::move(message)});
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string join(const std::string& dir, std::string_view name) { return (fs::path(dir) / fs::path(name)).string(); }

// The directory's entries, or nullopt (reported) when it is not a directory.
std::optional<Listing> list_dir(const std::string& dir, std::string_view role, Reporter* reporter) {
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (!fs::is_directory(status)) {
    report(reporter, Severity::kError, "missing_directory", dir,
           fmt::format("expected the {} directory, found {}", role,
                       fs::exists(status) ? "something that is not a directory" : "nothing"));
    return std::nullopt;
  }
  Listing listing;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    Entry e;
    e.name = it->path().filename().string();
    std::error_code type_ec;
    e.regular = it->is_regular_file(type_ec);
    e.directory = it->is_directory(type_ec);
    std::error_code size_ec;
    if (e.regular) e.size = it->file_size(size_ec);
    if (size_ec) e.size = 0;
    listing.emplace(e.name, std::move(e));
  }
  if (ec) {
    report(reporter, Severity::kError, "missing_directory", dir,
           fmt::format("expected a readable {} directory, found one that cannot be listed: {}", role, ec.message()));
    return std::nullopt;
  }
  return listing;
}

const Entry* regular_file(const Listing& listing, std::string_view name) {
  const auto it = listing.find(std::string(name));
  return it != listing.end() && it->second.regular ? &it->second : nullptr;
}

std::optional<std::string> path_if_present(const std::string& dir, const Listing& listing, std::string_view name) {
  if (regular_file(listing, name) == nullptr) return std::nullopt;
  return join(dir, name);
}

// The first `n` bytes of a file; fewer when it is shorter or unreadable.
std::string read_prefix(const std::string& path, std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(n, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(n));
  bytes.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return bytes;
}

std::uint64_t big_endian(std::string_view bytes) {
  std::uint64_t value = 0;
  for (const char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
  return value;
}

// Which directories are the same one, by device and inode.
class DirectoryIdentity {
 public:
  // The directory given earlier that `dir` is the same as, if any.
  std::optional<std::string> seen(const std::string& dir) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) return std::nullopt;
    const auto [it, inserted] = seen_.emplace(std::make_pair(st.st_dev, st.st_ino), dir);
    if (inserted) return std::nullopt;
    return it->second;
  }

 private:
  std::map<std::pair<dev_t, ino_t>, std::string> seen_;
};

// ---- data dirs ----

struct MetaFiles {
  bool meta = false, tmp = false, old = false;
  std::uint64_t meta_size = 0;
};

constexpr std::string_view kMetaSuffixes[] = {".meta", ".meta.tmp", ".meta.old"};

// "log-N" when `name` is log-N plus a meta suffix, with the suffix in *suffix.
std::optional<std::string> meta_owner(std::string_view name, std::string_view* suffix) {
  for (const std::string_view s : kMetaSuffixes) {
    if (!ends_with(name, s)) continue;
    const std::string_view owner = name.substr(0, name.size() - s.size());
    std::optional<std::int32_t> ignored;
    if (!is_log_name(owner, &ignored)) continue;
    *suffix = s;
    return std::string(owner);
  }
  return std::nullopt;
}

// Applies the reader's choice of meta file (spec §5.4) and reports the
// leftovers it would rename or delete.
void resolve_meta(const std::string& log_name, const MetaFiles& m, DataLog* log, Reporter* reporter) {
  const std::string base = join(log->dir, log_name);
  const std::string meta = base + ".meta", tmp = meta + ".tmp", old = meta + ".old";
  if (m.meta) {
    log->meta_source = MetaSource::kMeta;
    log->meta_path = meta;
  } else if (m.tmp) {
    log->meta_source = MetaSource::kTmp;
    log->meta_path = tmp;
  } else if (m.old) {
    log->meta_source = MetaSource::kOld;
    log->meta_path = old;
  }
  const auto leftover = [&](const std::string& path, bool used) {
    if (!used) log->meta_leftovers.push_back(path);
    const std::string what = used ? fmt::format("renames it to {}.meta and uses it", log_name)
                                  : fmt::format("uses {} and deletes this file", base_name(log->meta_path));
    report(reporter, Severity::kWarning, "meta_leftover", path,
           fmt::format("expected only {}.meta, found {}: an interrupted meta rewrite; Flume's reader {}", log_name,
                       base_name(path), what));
  };
  if (m.tmp) leftover(tmp, log->meta_source == MetaSource::kTmp);
  if (m.old) leftover(old, log->meta_source == MetaSource::kOld);
}

// V3 iff a meta exists or the log is empty; else Flume reads a V2 version
// int at offset 0 (spec §5.4, LogFileFactory).
void decide_version(const MetaFiles& m, DataLog* log, Reporter* reporter) {
  if (log->meta_source != MetaSource::kNone) {
    log->version = LogVersion::kV3;
    const std::uint64_t meta_size = log->meta_source == MetaSource::kMeta ? m.meta_size : 1;
    if (meta_size == 0 && log->size != 0) {
      report(reporter, Severity::kError, "empty_log_meta", log->meta_path,
             fmt::format("expected a LogFileMetaData message, found an empty file beside a {}-byte "
                         "log: Flume's replay fails (IllegalStateException)",
                         log->size));
    }
    return;
  }
  if (log->size == 0) {
    log->version = LogVersion::kV3;
    return;
  }
  const std::string head = read_prefix(log->path, 4);
  if (head.size() == 4 && big_endian(head) == 2) {
    log->version = LogVersion::kV2;
    return;
  }
  log->version = LogVersion::kUnknown;
  report(reporter, Severity::kError, "missing_log_meta", log->path,
         fmt::format("expected {}.meta (V3) or a V2 header (int32 version 2), found neither: "
                     "Flume's replay fails with 'bad version'",
                     base_name(log->path)));
}

void scan_data_dir(const std::string& dir, const Listing& listing, ChannelLayout* layout, Reporter* reporter) {
  std::map<std::string, MetaFiles> metas;  // by owning log name
  for (const auto& [name, e] : listing) {
    std::string_view suffix;
    if (!e.regular) continue;
    if (const auto owner = meta_owner(name, &suffix)) {
      MetaFiles& m = metas[*owner];
      if (suffix == ".meta") {
        m.meta = true;
        m.meta_size = e.size;
      } else {
        (suffix == ".meta.tmp" ? m.tmp : m.old) = true;
      }
    }
  }
  std::set<std::string> logs_here;
  for (const auto& [name, e] : listing) {
    if (std::optional<std::int32_t> id; !e.regular && is_log_name(name, &id)) {
      // Flume lists log-N by its name alone and fails to open it.
      report(reporter, Severity::kError, "io_error", join(dir, name),
             fmt::format("expected a data log {}, found {}: Flume cannot open it and the channel does not start", name,
                         e.directory ? "a directory" : "something that is not a regular file"));
      continue;
    }
    if (!e.regular || name == kLockFileName || name.rfind("log-", 0) != 0) continue;
    const std::string path = join(dir, name);
    std::optional<std::int32_t> id;
    std::string_view suffix;
    if (is_log_name(name, &id)) {
      logs_here.insert(name);
      if (!id) {
        report(reporter, Severity::kError, "bad_log_id", path,
               fmt::format("expected a file id up to 2147483647 (a Java int), found {}: Flume's "
                           "startup fails parsing it; qjt leaves the file out",
                           name.substr(4)));
        continue;
      }
      DataLog log;
      log.path = path;
      log.dir = dir;
      log.file_id = *id;
      log.size = e.size;
      const MetaFiles m = metas.count(name) ? metas[name] : MetaFiles{};
      resolve_meta(name, m, &log, reporter);
      decide_version(m, &log, reporter);
      layout->logs.push_back(std::move(log));
    } else if (meta_owner(name, &suffix)) {
      continue;  // checked against the logs below
    } else if (std::optional<std::int32_t> ignored;
               ends_with(name, ".bak") && is_log_name(name.substr(0, name.size() - 4), &ignored)) {
      report(reporter, Severity::kWarning, "integrity_tool_backup", path,
             fmt::format("expected no {} in a data dir, found one: the copy FileChannelIntegrityTool "
                         "makes before it changes {}; Flume ignores it",
                         name, name.substr(0, name.size() - 4)));
    } else {
      report(reporter, Severity::kWarning, "bad_log_name", path,
             fmt::format("expected a data log named log-<digits>, found {}: Flume ignores this file", name));
    }
  }
  for (const auto& [owner, m] : metas) {
    if (logs_here.count(owner)) continue;
    for (const auto& [present, suffix] :
         {std::pair{m.meta, ".meta"}, std::pair{m.tmp, ".meta.tmp"}, std::pair{m.old, ".meta.old"}}) {
      if (!present) continue;
      report(reporter, Severity::kWarning, "orphan_log_meta", join(dir, owner + suffix),
             fmt::format("expected {} beside its meta file, found no such log: the data log is "
                         "gone; Flume ignores this file",
                         owner));
    }
  }
}

void report_duplicate_ids(const std::vector<DataLog>& logs, Reporter* reporter) {
  for (std::size_t i = 1; i < logs.size(); ++i) {
    if (logs[i].file_id != logs[i - 1].file_id) continue;
    std::size_t first = i - 1;
    while (first > 0 && logs[first - 1].file_id == logs[i].file_id) --first;
    report(reporter, Severity::kError, "duplicate_log_id", logs[i].path,
           fmt::format("expected file id {} in one data log only, found it also in {}: file ids "
                       "are global across data dirs and Flume's replay cannot tell the two apart",
                       logs[i].file_id, logs[first].path));
  }
}

// ---- checkpoint dir ----

void check_checkpoint_files(const CheckpointFiles& c, const Listing& listing, Reporter* reporter) {
  const Entry* checkpoint = regular_file(listing, "checkpoint");
  if (c.checkpoint_meta && (checkpoint == nullptr || checkpoint->size == 0)) {
    report(reporter, Severity::kError, "missing_checkpoint", join(c.dir, "checkpoint"),
           fmt::format("expected a checkpoint beside checkpoint.meta, found {}: Flume discards "
                       "this checkpoint (BadCheckpointException) and restores the backup or "
                       "replays every log",
                       checkpoint == nullptr ? "none" : "an empty file"));
  } else if (checkpoint == nullptr) {
    report(reporter, Severity::kWarning, "no_checkpoint", join(c.dir, "checkpoint"),
           "expected a checkpoint, found none: Flume starts with a new empty checkpoint and "
           "replays every data log from its start");
    return;
  } else if (!c.checkpoint_meta) {
    // Flume casts long[0] to an int to tell a V2 checkpoint (spec §1.5).
    const std::string head = read_prefix(*c.checkpoint, 8);
    const auto version = static_cast<std::int32_t>(static_cast<std::uint32_t>(big_endian(head)));
    if (head.size() < 8 || version != 2) {
      report(reporter, Severity::kError, "missing_checkpoint_meta", join(c.dir, "checkpoint.meta"),
             fmt::format("expected checkpoint.meta (only a version 2 checkpoint has none), found "
                         "none beside {}: Flume cannot open this checkpoint",
                         head.size() < 8 ? std::string("a checkpoint shorter than 8 bytes")
                                         : fmt::format("a version {} checkpoint", version)));
    }
  }
  if (checkpoint == nullptr) return;
  for (const char* name : {"inflightputs", "inflighttakes"}) {
    if (regular_file(listing, name) != nullptr) continue;
    report(reporter, Severity::kWarning, "missing_inflight", join(c.dir, name),
           fmt::format("expected {} beside the checkpoint, found none: Flume creates it empty, "
                       "so no transaction open at checkpoint time survives",
                       name));
  }
}

CheckpointFiles scan_checkpoint_dir(const std::string& dir, const Listing& listing, Reporter* reporter) {
  CheckpointFiles c;
  c.dir = dir;
  c.exists = true;
  c.checkpoint = path_if_present(dir, listing, "checkpoint");
  c.checkpoint_meta = path_if_present(dir, listing, "checkpoint.meta");
  c.inflight_puts = path_if_present(dir, listing, "inflightputs");
  c.inflight_takes = path_if_present(dir, listing, "inflighttakes");
  c.lock = path_if_present(dir, listing, kLockFileName);
  if (listing.count("queueset")) c.queueset = join(dir, "queueset");
  for (const auto& [name, e] : listing)
    if (e.regular && name.rfind("checkpoint-backup-", 0) == 0) c.upgrade_backups.push_back(join(dir, name));
  check_checkpoint_files(c, listing, reporter);
  return c;
}

// ---- backup dir ----

BackupFiles scan_backup_dir(const std::string& dir, const Listing& listing, Reporter* reporter) {
  BackupFiles b;
  b.dir = dir;
  b.exists = true;
  b.complete = regular_file(listing, "backupComplete") != nullptr;
  b.checkpoint = path_if_present(dir, listing, "checkpoint");
  b.checkpoint_snappy = path_if_present(dir, listing, "checkpoint.snappy");
  b.checkpoint_meta = path_if_present(dir, listing, "checkpoint.meta");
  b.inflight_puts = path_if_present(dir, listing, "inflightputs");
  b.inflight_takes = path_if_present(dir, listing, "inflighttakes");
  b.lock = path_if_present(dir, listing, kLockFileName);
  const bool has_copies =
      b.checkpoint || b.checkpoint_snappy || b.checkpoint_meta || b.inflight_puts || b.inflight_takes;
  if (!b.complete && has_copies) {
    report(reporter, Severity::kWarning, "incomplete_backup", join(dir, "backupComplete"),
           "expected backupComplete beside the copied checkpoint files, found none: the backup "
           "copy was interrupted and Flume will not restore from it");
  }
  if (b.complete && !b.checkpoint && !b.checkpoint_snappy) {
    report(reporter, Severity::kError, "missing_backup_checkpoint", join(dir, "checkpoint"),
           "expected checkpoint or checkpoint.snappy in a complete backup, found neither: a "
           "restore from it cannot open a checkpoint and Flume replays every log");
  }
  if (b.checkpoint && b.checkpoint_snappy) {
    report(reporter, Severity::kWarning, "ambiguous_backup_checkpoint", *b.checkpoint_snappy,
           "expected one of checkpoint and checkpoint.snappy in the backup, found both: a "
           "restore writes both to checkpoint, and which one wins depends on directory order");
  }
  return b;
}

void check_locks(const std::vector<std::string>& lock_files, Reporter* reporter) {
  for (const std::string& lock : lock_files) {
    const auto holder = find_lock_holder(lock);
    if (!holder) continue;
    report(reporter, Severity::kWarning, "channel_in_use", lock,
           fmt::format("expected no process to hold in_use.lock, found pid {} ({}) holding it: a "
                       "Flume agent is probably running on this channel",
                       holder->pid, holder->command));
  }
}

constexpr std::array<std::pair<MetaSource, const char*>, 4> kMetaSourceNames = {{
    {MetaSource::kNone, "none"},
    {MetaSource::kMeta, "meta"},
    {MetaSource::kTmp, "tmp"},
    {MetaSource::kOld, "old"},
}};

}  // namespace

const char* meta_source_name(MetaSource source) {
  for (const auto& [value, text] : kMetaSourceNames)
    if (value == source) return text;
  return "none";
}

namespace {

constexpr std::array<std::pair<LogVersion, const char*>, 3> kLogVersionNames = {{
    {LogVersion::kV2, "v2"},
    {LogVersion::kV3, "v3"},
    {LogVersion::kUnknown, "unknown"},
}};

}  // namespace

const char* log_version_name(LogVersion version) {
  for (const auto& [value, text] : kLogVersionNames)
    if (value == version) return text;
  return "unknown";
}

bool is_log_name(std::string_view name, std::optional<std::int32_t>* file_id) {
  file_id->reset();
  if (name.size() <= 4 || name.substr(0, 4) != "log-") return false;
  const std::string_view digits = name.substr(4);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  *file_id = whole_number<std::int32_t>(digits);
  return true;
}

ChannelLayout discover_channel(const ChannelDirs& dirs, Reporter* reporter, bool check_locks_held) {
  ChannelLayout layout;
  DirectoryIdentity identity;
  layout.checkpoint.dir = dirs.checkpoint_dir;
  if (const auto listing = list_dir(dirs.checkpoint_dir, "checkpoint", reporter)) {
    identity.seen(dirs.checkpoint_dir);
    layout.checkpoint = scan_checkpoint_dir(dirs.checkpoint_dir, *listing, reporter);
    if (layout.checkpoint.lock) layout.lock_files.push_back(*layout.checkpoint.lock);
  }
  DirectoryIdentity data_identity;
  for (const std::string& dir : dirs.data_dirs) {
    const auto listing = list_dir(dir, "data", reporter);
    if (!listing) continue;
    if (const auto earlier = data_identity.seen(dir)) {
      report(reporter, Severity::kError, "duplicate_directory", dir,
             fmt::format("expected each data dir once, found this one also as {}: qjt reads it once", *earlier));
      continue;
    }
    layout.data_dirs.push_back(dir);
    scan_data_dir(dir, *listing, &layout, reporter);
    if (const auto lock = path_if_present(dir, *listing, kLockFileName)) layout.lock_files.push_back(*lock);
  }
  std::stable_sort(layout.logs.begin(), layout.logs.end(),
                   [](const DataLog& a, const DataLog& b) { return a.file_id < b.file_id; });
  report_duplicate_ids(layout.logs, reporter);
  if (dirs.backup_dir) {
    if (const auto listing = list_dir(*dirs.backup_dir, "backup checkpoint", reporter)) {
      if (const auto earlier = identity.seen(*dirs.backup_dir)) {
        report(reporter, Severity::kError, "duplicate_directory", *dirs.backup_dir,
               fmt::format("expected a backup checkpoint dir apart from the checkpoint dir, found "
                           "the same directory as {}: Flume refuses this configuration",
                           *earlier));
      } else {
        layout.backup = scan_backup_dir(*dirs.backup_dir, *listing, reporter);
        if (layout.backup->lock) layout.lock_files.push_back(*layout.backup->lock);
      }
    }
  }
  if (check_locks_held) check_locks(layout.lock_files, reporter);
  return layout;
}

}  // namespace qjt::flume
