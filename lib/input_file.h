// InputFile: the whole content of one input, read-only.
//
// Regular files are memory-mapped, so decoders see the bytes without a copy
// and the kernel pages them in as they are touched; a decoder that walks a
// large file forward reads it through a ReadWindow instead (read_window.h).
// A file that shrinks while it is read (truncated by another process) does
// not kill qjt with SIGBUS: the mapping is guarded (mapping_guard.h), the
// bytes it lost read as zeros, and the change is a file_changed finding
// (change(), take_changes()).
//
// Anything else is a stream (standard input given as "-", a pipe, a FIFO,
// a character device such as /dev/zero), never more of it read than the
// stream limit (--max-input): an endless stream is a finding, not an
// exhausted memory. That size is the real input, never a field inside it.
// How a stream is read is the opener's choice (StreamReading):
//  - kWhole: to its end when it is opened, for decoders that take the
//    whole input as one span; past the limit, the open fails;
//  - kOnDemand: as far as a ReadWindow asks (read_window.h), so decoding
//    starts at once and stops where the data breaks; bytes() still reads
//    it to its end. Past the limit the bytes end there, and the
//    input_too_large finding is one of take_changes(), as is a read error.
// A stream is opened once per process: opening it again (the same "-", or
// a path naming the same FIFO or device) gives the bytes read the first
// time, since a FIFO opened again would wait for a writer that never comes,
// and standard input read again would be empty; once a window has let go
// of a stream's first bytes (ReadWindow::Lookback::kNone), opening it again
// fails.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "exit_code.h"
#include "finding.h"
#include "mapping_guard.h"

namespace qjt {

class StreamBuffer;

// The io_error finding (no offset) of `path` that cannot be opened for
// `error` (an errno value): "cannot open PATH: REASON". InputFile::open
// fails with it, and so does every caller that finds a path unopenable
// before opening it, so that the words are the same wherever it is told.
Finding open_failure(const std::string& path, int error);

class InputFile {
 public:
  static constexpr std::uint64_t kDefaultStreamLimit = std::uint64_t{4} << 30;
  enum class StreamReading { kWhole, kOnDemand };

  // The most bytes read from one stream: the run's setting (run_context.h),
  // set once by main() (--max-input) before anything is opened.
  static void set_stream_limit(std::uint64_t bytes);
  static std::uint64_t stream_limit();

  // Opens `path` ("-" is standard input). On failure returns nullptr and
  // fills *failure: "io_error" (no offset) with a sentence naming the path
  // and the system's reason, or "input_too_large" at the offset of the
  // stream limit when a stream goes on past it.
  static std::unique_ptr<InputFile> open(const std::string& path, Finding* failure,
                                         StreamReading reading = StreamReading::kWhole);
  // The same, for callers that report the failure in their own words:
  // *error is the failure's message.
  static std::unique_ptr<InputFile> open(const std::string& path, std::string* error);

  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // The name findings and dump records use: the path as given, or "-".
  const std::string& name() const { return name_; }
  // The whole input (a stream read on demand is read to its end first).
  ByteSpan bytes() const { return on_demand_ ? whole_stream() : bytes_; }
  // The stream a ReadWindow reads on demand; nullptr for a file, and once
  // bytes() has read the stream whole.
  StreamBuffer* stream_on_demand() const { return on_demand_ ? stream_.get() : nullptr; }
  // The bytes read so far: a file's size, or a stream's bytes up to where
  // it was read (its size, once read to its end).
  std::uint64_t size() const;

  // A new descriptor (the caller closes it) from which pread(2) gives
  // exactly bytes(): the mapped file opened again, if its path still names
  // it. -1 for streams (never opened again), once preview_write has changed the
  // mapping, and when the file cannot be opened again. Descriptors are not
  // kept open with the mapping, so a run over thousands of files needs no
  // more than the open-file limit allows.
  int open_for_reading() const;

  // Changes this process's view of the bytes at [offset, offset + size),
  // never the file: the mapping is private, so the kernel copies the pages
  // written to. A repair plan uses it to decode the file as it will read
  // once the plan is carried out. False (nothing changed) when the range is
  // not inside the input or the pages cannot be made writable.
  bool preview_write(std::size_t offset, ByteSpan bytes);

  // A file_changed finding once the mapped file has shrunk under a read of
  // bytes(): at the size the file has now, naming the size it had when it
  // was opened. nullopt while every byte read was the file's.
  std::optional<Finding> change() const;

  // The changes of the current run's inputs (run_context.h) closed since
  // the last call, in the order they were closed: what main() reports
  // after a command, so that every command and family reports a file that
  // moved under it. A job's are handed to its run, in input order, when
  // it ends (lib/cli/jobs.h).
  static std::vector<Finding> take_changes();
  // The exit status a change calls for: kIoError for a stream that could
  // not be read to its end (input_too_large, io_error), else kProblems.
  static ExitCode change_status(const Finding& change);

  // For progress (progress.h): this input's bytes up to `end` are read (by
  // a ReadWindow). A byte counts once, however often it is read; whatever
  // was not counted so is counted when the input is closed.
  void count_read_through(std::uint64_t end) const;
  // The same for the open input whose bytes() hold the byte before `end`
  // (what a decoder that walks a span of bytes() knows, read_tally.h);
  // nothing when no open input holds it.
  static void count_mapped_read_through(const std::uint8_t* end);

 private:
  InputFile() = default;
  static std::unique_ptr<InputFile> open_stream(const std::string& path, bool is_stdin, std::uint64_t device,
                                                std::uint64_t inode, StreamReading reading, Finding* failure);
  ByteSpan whole_stream() const;
  void tell_stream_stop() const;
  static std::unique_ptr<InputFile> open_regular(const std::string& path, bool is_stdin, Finding* failure);

  std::string name_;
  mutable ByteSpan bytes_;    // set by whole_stream() for a stream read on demand
  std::uint64_t device_ = 0;  // of a mapped file, to know it again, or of a stream
  std::uint64_t inode_ = 0;
  void* mapping_ = nullptr;
  std::size_t mapping_size_ = 0;
  bool previewed_ = false;                // preview_write changed the mapping
  std::shared_ptr<StreamBuffer> stream_;  // a stream's bytes, shared by its opens
  mutable bool on_demand_ = false;        // stream_ read on demand, not yet whole
  bool read_on_demand_ = false;           // opened so: tells why the stream stopped short
  std::string copy_;                      // a stream's bytes once preview_write changed them
  MappingGuard guard_;                    // of the mapping
  mutable std::uint64_t counted_ = 0;     // bytes [0, counted_) counted as read
};

}  // namespace qjt
