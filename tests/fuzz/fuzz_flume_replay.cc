// flume_replay: the channel replay state machine (ChannelReplay) fed record
// sequences no real agent would write. Every 3 input bytes become one V3
// record in log-1 or log-2 of a channel with no checkpoint, so the whole
// channel is replayed from its logs:
//   byte 0: bits 0-1 the type (put, take, rollback, commit), bit 2 the log,
//           bit 3 the commit type (puts or takes), bit 4 whether the write
//           order id steps back instead of forward;
//   byte 1: bits 0-1 the step, bits 4-7 the transaction id;
//   byte 2: for a take, which earlier put it names (or, with none, a
//           pointer into nothing).
// The channel is written to a scratch directory per process (in /dev/shm). Checks that
// replay, reading the queue and the log retention rule end without a crash
// and that the queue holds no more events than its records can add.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_replay.h"
#include "flume/log_metadata.h"
#include "flume/log_writer.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::flume;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxRecords = 512;

void put_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The scratch channel, made once: checkpoint/ (empty), data1/, data2/; in
// memory (/dev/shm) where there is one, since the files are rewritten for
// every input.
const fs::path& channel_root() {
  static const fs::path root = [] {
    std::error_code ec;
    const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path p = base / ("qjt-fuzz-replay-" + std::to_string(::getpid()));
    for (const char* dir : {"checkpoint", "data1", "data2"}) fs::create_directories(p / dir);
    return p;
  }();
  return root;
}

struct Logs {
  std::string bytes[2];
  std::vector<EventPointer> puts;
};

Logs decode_records(const std::uint8_t* data, std::size_t size) {
  Logs logs;
  V3RecordWriter writer;
  std::int64_t woid = 1;
  for (std::size_t i = 0; i + 3 <= size && i / 3 < kMaxRecords; i += 3) {
    const std::uint8_t op = data[i], step = data[i + 1], pick = data[i + 2];
    const int log = (op >> 2) & 1;
    const std::int64_t txid = step >> 4;
    woid += (op & 0x10) ? -(step & 3) : 1 + (step & 3);
    std::string* out = &logs.bytes[log];
    const auto at = static_cast<std::int32_t>(out->size());
    switch (op & 3) {
      case 0:
        writer.put(out, txid, woid, {}, std::string(pick % 8, 'e'));
        logs.puts.push_back(EventPointer{log + 1, at});
        break;
      case 1:
        writer.take(out, txid, woid,
                    logs.puts.empty() ? EventPointer{1 + (pick & 1), pick} : logs.puts[pick % logs.puts.size()]);
        break;
      case 2:
        writer.rollback(out, txid, woid);
        break;
      default:
        writer.commit(out, txid, woid, static_cast<std::int16_t>(1 + ((op >> 3) & 1)));
    }
  }
  return logs;
}

void write_channel(const Logs& logs) {
  for (int i = 0; i < 2; ++i) {
    const fs::path dir = channel_root() / ("data" + std::to_string(i + 1));
    const std::string name = "log-" + std::to_string(i + 1);
    put_file(dir / name, logs.bytes[i] + std::string(16, '\x80'));
    LogMetadata meta;
    meta.log_file_id = i + 1;
    put_file(dir / (name + ".meta"), encode_log_metadata(meta));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Logs logs = decode_records(data, size);
  write_channel(logs);
  ChannelDirs dirs;
  dirs.checkpoint_dir = (channel_root() / "checkpoint").string();
  dirs.data_dirs = {(channel_root() / "data1").string(), (channel_root() / "data2").string()};
  fuzz::RenderingReporter reporter;
  const ChannelLayout layout = discover_channel(dirs, &reporter, false);
  const ChannelLogs channel_logs(layout.logs, KeyRing{}, &reporter);
  ChannelReplayOptions options;
  options.capacity = 64;
  const ChannelReplay replay = replay_channel(layout, channel_logs, options, &reporter);
  if (!replay.queue) return 0;
  // Each put or take record files one pointer under its transaction, which
  // a put commit adds to the tail whatever the record was (as Flume's
  // ReplayHandler does), and Flume puts an uncommitted take back at the
  // head: nothing else adds to the queue.
  const ReplayCounts& c = replay.counts;
  FUZZ_CHECK(static_cast<std::uint64_t>(replay.queue->size()) <= c.puts + c.takes + c.uncommitted_takes);
  std::uint64_t visited = for_each_queued_event(*replay.queue, channel_logs, "channel", &reporter,
                                                [](std::size_t, EventPointer, const LogRecord&) {});
  FUZZ_CHECK(visited <= static_cast<std::uint64_t>(replay.queue->size()));
  check_log_retention(channel_logs, *replay.queue, &reporter);
  return 0;
}
