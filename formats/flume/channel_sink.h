// ChannelSink: a Flume file channel written whole, as `qjt gen flume` and
// compaction write one: data logs streamed per data dir, then the
// checkpoint's files and every log's meta.
//
// Contract:
//  - Logs are V3, named log-<id> with ids rising from first_file_id in the
//    order the logs are opened; a data dir rolls to a new log (Flume's
//    roll) when a record would take its log past max_log_size.
//  - With a key, each log is encrypted with AES-CTR under its own IV:
//    make_iv's 12 bytes and the int32 1, as Flume makes them. Records are
//    appended in clear and encrypted here (the 5 framing bytes stay clear).
//  - Every file is written under a GeneratedFiles temp name, synced, and
//    renamed into place by install(); until then the final names are
//    untouched and a failed run leaves nothing behind. Channel files
//    already in the directories are refused unless `force`, which removes
//    them at install.
//  - Memory: one writer per data dir and one entry per log.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flume/aes_ctr.h"
#include "flume/event_pointer.h"
#include "flume/inflight_file.h"
#include "flume/log_metadata.h"
#include "generated_files.h"

namespace qjt::flume {

// Flume's default maxFileSize, and its cap.
constexpr std::uint64_t kFlumeMaxLogSize = 1623195647;

struct ChannelSinkOptions {
  std::string checkpoint_dir;
  std::vector<std::string> data_dirs;
  std::int32_t first_file_id = 1;
  std::uint64_t max_log_size = kFlumeMaxLogSize;
  std::optional<std::string> key_alias;  // encrypt under this alias with `key`
  std::string key;                       // 16, 24 or 32 raw bytes
  // The 12 leading bytes of a log's IV; false with *error when none can be made.
  std::function<bool(std::string* iv12, std::string* error)> make_iv;
  bool force = false;  // replace the channel files already there
};

// Whether a record of `record_size` bytes rolls a log of `log_bytes` over
// to a new log (Flume's roll: never an empty log).
inline bool rolls_over(std::uint64_t log_bytes, std::size_t record_size, std::uint64_t max_log_size) {
  return log_bytes > 0 && log_bytes + record_size > max_log_size;
}

// The meta a log gets with a checkpoint (spec §5.4): the current log of
// its data dir marked at its end, another log the queue or an open
// transaction `needed` with the checkpoint's write order id, else none.
LogMetadata marked_log_meta(std::int32_t file_id, std::uint64_t bytes, const std::optional<std::string>& key_alias,
                            const std::string& iv, bool current, bool needed, std::int64_t checkpoint_write_order_id);

// One data log written.
struct SinkLog {
  std::string path;
  std::int32_t id = 0;
  std::size_t dir = 0;
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
  std::string iv;  // 16 bytes when encrypted
};

class ChannelSink {
 public:
  explicit ChannelSink(ChannelSinkOptions options);

  const ChannelSinkOptions& options() const { return o_; }
  const std::vector<SinkLog>& logs() const { return logs_; }
  std::uint64_t total_bytes() const { return total_bytes_; }
  // Whether logs()[log] is the log its data dir writes now.
  bool is_current(std::size_t log) const;

  // Creates the directories and each data dir's first log.
  bool open(std::string* error);
  // Appends one record, encoded in clear, to data dir `d`'s log (rolling
  // first when needed); returns where it went. *record is encrypted in place.
  std::optional<EventPointer> append(std::size_t d, std::string* record, std::string* error);
  // Syncs and closes every log.
  bool close_logs(std::string* error);
  // A whole file of the checkpoint dir, or a log's meta.
  bool write_whole(const std::string& path, const std::string& bytes, std::string* error);
  // The temp name of a file written before (gen's --corrupt damages it).
  std::string temp_of(const std::string& path) const { return files_.temp_of(path); }
  // Removes the old channel's files (force), renames the new ones into
  // place, and says `what` was written.
  bool install(const std::string& what, std::string* error);

 private:
  struct DirWriter {
    std::size_t log = 0;
    std::unique_ptr<FileWriter> out;
    std::unique_ptr<AesCtr> cipher;
  };
  bool roll(std::size_t d, std::string* error);

  ChannelSinkOptions o_;
  GeneratedFiles files_;
  std::vector<SinkLog> logs_;
  std::vector<DirWriter> writers_;
  std::vector<std::string> stale_;
  std::uint64_t total_bytes_ = 0;
};

// The checkpoint Flume writes after the last record (spec §1.5): the queue
// in its ring, the in-flight files, checkpoint.meta (V3) with each log's
// count in Flume's HashMap order, and each log's meta marked (§5.4): the
// current logs at their end, the other logs the queue or an open
// transaction needs with the checkpoint's write order id.
struct CheckpointToWrite {
  int version = 3;
  std::int64_t write_order_id = 0;  // above every record's
  std::int64_t capacity = 0;
  std::size_t head = 0;                    // the ring slot of the queue's head
  std::vector<EventPointer> queue;         // head to tail
  std::vector<InflightTransaction> puts;   // open put transactions
  std::vector<InflightTransaction> takes;  // open take transactions
};

// Writes it into the sink's checkpoint dir; false with *error on failure
// (a V2 checkpoint whose queue spans more logs than it can count, or I/O).
bool write_checkpoint(const CheckpointToWrite& checkpoint, ChannelSink* sink, std::string* error);

}  // namespace qjt::flume
