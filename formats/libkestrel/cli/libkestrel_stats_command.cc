// qjt stats for libkestrel (Kestrel 3) queues: each queue replayed once,
// its items tallied in that pass (libkestrel_stats.h).
#include <filesystem>

#include "clock.h"
#include "libkestrel/cli/libkestrel_commands.h"
#include "libkestrel/cli/libkestrel_input.h"
#include "libkestrel/libkestrel_stats.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

// The queue of files named directly, as their names give it: Q of Q.<n>
// and of Q.read.<reader>. So a queue is the same series however its files
// were named.
std::string queue_named_by(const std::string& path) {
  const std::string name = base_name(path);
  const auto reader = name.find(".read.");
  return name.substr(0, reader != std::string::npos ? reader : name.rfind('.'));
}

libkestrel::QueueStatsSource source_of(const LkQueue& q) {
  libkestrel::QueueStatsSource source{q.directory, q.name, 0};
  for (const LkFile& f : q.files)
    if (f.input && f.kind == libkestrel::FileKind::kBookmark) source.bookmark_bytes += f.input->bytes().size();
  if (!q.directory.empty() || q.files.empty()) return source;
  const std::string parent = std::filesystem::path(q.files.front().path).parent_path().string();
  source.path = parent.empty() ? "." : parent;
  source.queue = queue_named_by(q.files.front().path);
  return source;
}

}  // namespace

ExitCode run_libkestrel_stats(const LibkestrelRun& run, StatsModel* model, Reporter* findings) {
  LkSelection selection = open_libkestrel(run.paths, run.queue, findings);
  const std::int64_t now = now_ms();
  for (const LkQueue& q : selection.queues) {
    libkestrel::QueueStats stats(now);
    const ReplayedQueue replayed(q, [&stats](const libkestrel::Record& put) { stats.add_put(put); });
    for (const Finding& f : replayed.findings.findings()) findings->report(f);
    stats.add_to(replayed.replay, source_of(q), model);
  }
  return selection.status;
}

}  // namespace qjt::cli
