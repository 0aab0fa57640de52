// ChannelLogs: the data logs of one channel, opened for reading as Flume's
// LogFileFactory opens them (spec §5.2-5.4): each log-N mapped, its version
// decided (a meta file makes it V3), its V2 header or log-N.meta decoded, its
// cipher set up from a key the operator supplied, and a random reader for
// the pointers a queue holds (Flume's RandomReader, used by take).
//
// Findings go to the Reporter given at construction: io_error (a file that
// cannot be read), missing_key (an encrypted log whose key alias was not
// given: none of its records can be read), bad_key, log_file_id_mismatch
// (meta or header names another id than the file name), and those of the
// header and meta decoders. A log that cannot be read is kept with
// readable() false, so callers can say what depends on it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "finding.h"
#include "flume/aes_ctr.h"
#include "flume/channel_layout.h"
#include "flume/event_pointer.h"
#include "flume/log_metadata.h"
#include "flume/log_reader.h"
#include "flume/log_record.h"
#include "input_file.h"

namespace qjt::flume {

// Key alias -> raw key bytes (16, 24 or 32), as --key ALIAS=HEX gives them.
using KeyRing = std::map<std::string, std::string>;

// Whole files as a repair plan will write them, by path: read instead of
// what is on disk, so that the planned state can be replayed before
// anything is written. The contents are the plan's own (a checkpoint is 8
// bytes a slot of its capacity): viewed, never copied; they must outlive
// the overlay.
using FileOverlay = std::map<std::string, const std::string*>;
// The overlay's content for `path`, or nullptr (also for no overlay).
const std::string* planned_content(const FileOverlay* overlay, const std::string& path);

class ChannelLog {
 public:
  const DataLog& layout() const { return layout_; }
  std::int32_t file_id() const { return file_id_; }  // as its meta or header says
  int version() const { return version_; }           // 2 or 3
  bool readable() const { return readable_; }
  ByteSpan bytes() const { return input_ ? input_->bytes() : ByteSpan(); }
  const std::optional<LogMetadata>& metadata() const { return metadata_; }
  const std::optional<V2LogHeader>& v2_header() const { return v2_header_; }
  AesCtr* cipher() const { return cipher_.get(); }
  // Where a sequential read of the whole file starts: 24 for V2, 0 for V3.
  std::uint64_t data_start() const { return version_ == 2 ? kV2LogHeaderSize : 0; }
  // Flume's skipToLastCheckpointPosition(W) (spec §6.2 step 2).
  std::uint64_t replay_start(std::int64_t checkpoint_write_order_id) const;
  // A reader from `start` (data_start() or replay_start()) for a pass over
  // the log: read through a window, not the mapping (LogReader).
  LogReader reader(std::uint64_t start) const {
    return input_ ? LogReader(*input_, version_, start, cipher_.get()) : LogReader(ByteSpan(), version_, start);
  }

 private:
  friend class ChannelLogs;
  DataLog layout_;
  std::int32_t file_id_ = 0;
  int version_ = 3;
  bool readable_ = false;
  std::unique_ptr<InputFile> input_;
  std::optional<LogMetadata> metadata_;
  std::optional<V2LogHeader> v2_header_;
  std::unique_ptr<AesCtr> cipher_;
  // read_pointer's, made at its first pointer into this log: its window
  // serves the next pointers from the same buffer while they go forward.
  mutable std::unique_ptr<LogReader> pointer_reader_;
};

// What a pointer in the queue leads to.
enum class PointerTarget {
  kPut,         // a Put record: *record is filled
  kNoop,        // a record NOOP'd by the integrity tool: take skips it
  kMissingLog,  // no log with that file id
  kUnreadable,  // the log exists but could not be read (I/O, missing key)
  kPastEnd,     // the offset is outside the log's data
  kNotARecord,  // the byte there is not an OP_RECORD
  kNotAPut,     // a record of another type
  kBroken,      // the record there cannot be decoded (or its CRC fails)
};
const char* pointer_target_name(PointerTarget target);

class ChannelLogs {
 public:
  // A log-N.meta found in `overlay` is decoded from there.
  ChannelLogs(const std::vector<DataLog>& logs, const KeyRing& keys, Reporter* reporter,
              const FileOverlay* overlay = nullptr);

  const std::vector<ChannelLog>& logs() const { return logs_; }
  const ChannelLog* find(std::int32_t file_id) const;

  // Flume's RandomReader.get(offset) for `pointer`. *record's views stay
  // valid until the next call; *why says what was found when it is not kPut.
  // Read through a window per log (ReadWindow), never the mapping: a queue
  // walked in order costs a pread per buffer of the log, and none of the
  // log stays resident in this process.
  PointerTarget read_pointer(EventPointer pointer, LogRecord* record, std::string* why) const;

  // Makes the log with `file_id` read as it will once `bytes` are written
  // at `offset`, in this process only (InputFile::preview_write): a repair
  // plan's later steps see the earlier steps' results. False when there is
  // no such readable log or the range is not inside it. A write into a V2
  // log's header (its checkpoint mark) is decoded again.
  bool preview_write(std::int32_t file_id, std::uint64_t offset, ByteSpan bytes);

 private:
  void open(const DataLog& layout, const KeyRing& keys, Reporter* reporter, const FileOverlay* overlay);
  static void open_meta(ChannelLog* log, Reporter* reporter, const FileOverlay* overlay);
  static void set_up_cipher(ChannelLog* log, const KeyRing& keys, Reporter* reporter);

  std::vector<ChannelLog> logs_;
  std::map<std::int32_t, std::size_t> by_id_;
};

}  // namespace qjt::flume
