#include "kestrel/queue_rewrite.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "clock.h"
#include "failpoint.h"
#include "interrupt.h"
#include "path_name.h"

namespace qjt::kestrel {
namespace {

namespace fs = std::filesystem;

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// A timestamp no file of the queue uses yet, in any of the three forms.
std::int64_t pick_stamp(const RewriteRequest& r) {
  std::int64_t stamp = std::max(now_ms(), r.min_stamp_ms);
  for (;; ++stamp) {
    const std::string base = fmt::format("{}/{}", r.dir, r.queue);
    if (!exists(fmt::format("{}.{}", base, stamp)) && !exists(fmt::format("{}.{}.pack", base, stamp)) &&
        !exists(fmt::format("{}~~{}", base, stamp)))
      return stamp;
  }
}

}  // namespace

bool rewrite_queue(const RewriteRequest& r, const JournalContent& content, std::string* error) {
  const std::int64_t stamp = pick_stamp(r);
  const std::string live = fmt::format("{}/{}", r.dir, r.queue);
  const std::string temp = fmt::format("{}~~{}", live, stamp);
  const std::string archived = fmt::format("{}.{}", live, stamp);
  const std::string pack = archived + ".pack";

  {
    // The compacted journal is the queue's, as the one it replaces: Kestrel
    // appends to it next.
    const auto kept = FileOwnership::kept_at(live, error);
    if (!kept) return false;
    auto writer = FileWriter::create(temp, error, &*kept);
    if (!writer) return false;
    if (!content(writer.get(), error) || !writer->sync(error) || !sync_directory(r.dir, error)) {
      remove_temp(temp);
      return false;
    }
  }
  failpoint("rewrite.temp_written");
  // Until step 4 installs it, the temp file is only ours: a failure removes it.
  const auto abandon = [&temp] {
    remove_temp(temp);
    return false;
  };
  if (!r.backup_dir.empty() && !back_up_files(r.backup_dir, r.replaced, "rewrite.backup_file", error)) return abandon();
  failpoint("rewrite.backed_up");
  // Steps 3 to 6 are the commit: an interrupt waits for its end.
  CommitSection commit;
  std::vector<std::string> doomed;
  for (const std::string& path : r.replaced) {
    if (path == live) {
      if (!durable_rename(live, archived, error)) return abandon();
      failpoint("rewrite.live_archived");
      doomed.push_back(archived);
    } else {
      doomed.push_back(path);
    }
  }
  if (!durable_rename(temp, pack, error)) return abandon();
  note_committed(fmt::format("the compacted journal {} was installed{}", live,
                             r.backup_dir.empty() ? "" : fmt::format(" (backup in {})", r.backup_dir)));
  failpoint("rewrite.pack_installed");
  for (const std::string& path : doomed) {
    if (!durable_remove(path, error)) return false;
    failpoint("rewrite.replaced_file_removed");
  }
  if (!durable_rename(pack, live, error)) return false;
  failpoint("rewrite.done");
  return true;
}

std::int64_t highest_segment_stamp(const std::string& queue, const std::vector<std::string>& paths) {
  std::int64_t highest = 0;
  for (const std::string& path : paths) {
    const std::string name = base_name(path);
    if (name.rfind(queue + ".", 0) != 0) continue;
    const std::string rest = name.substr(queue.size() + 1);
    const std::string digits = rest.substr(0, rest.find('.'));
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 18) continue;
    highest = std::max<std::int64_t>(highest, std::stoll(digits));
  }
  return highest;
}

}  // namespace qjt::kestrel
