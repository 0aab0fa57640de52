// convert for classic Kestrel journals:
//
//   --to jsonl     exactly what `qjt dump --json INPUT` prints
//   --to kestrel   JSON Lines (one record per line, as dump writes them)
//                  back to the journal bytes; nothing is written when a
//                  line is bad
//   --to kestrel2  the 1.x journal rewritten for 2.x (legacy_upgrade.h)
//
// A file output is written to OUTPUT~~qjt-<pid>, fsynced and renamed
// into place by install_outputs (named_output.h): OUTPUT is either the old
// file or the whole new one.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "clock.h"
#include "durable_file.h"
#include "input_file.h"
#include "kestrel/cli/kestrel_commands.h"
#include "kestrel/journal_json.h"
#include "kestrel/journal_json_parse.h"
#include "kestrel/journal_reader.h"
#include "kestrel/journal_writer.h"
#include "kestrel/legacy_upgrade.h"
#include "line_input.h"
#include "named_output.h"
#include "output.h"

namespace qjt::cli {
namespace {

constexpr std::size_t kChunk = 1 << 16;

std::string errno_sentence(const std::string& verb, const std::string& path) {
  return fmt::format("cannot {} {}: {}", verb, path, std::strerror(errno));
}

// ---- where the output goes --------------------------------------------------

class Sink {
 public:
  virtual ~Sink() = default;
  virtual bool write(std::string_view bytes, std::string* error) = 0;
  // Makes the whole output visible; false (and *error) on an I/O failure.
  virtual bool commit(std::string* error) = 0;
  // Leaves no output behind, where that is still possible.
  virtual void abandon() = 0;
};

// The temp file of a ReplacementFile (OUTPUT~~qjt-<pid>), which installs
// it once the conversion has committed to it.
class FileSink : public Sink {
 public:
  explicit FileSink(FileWriter* writer) : writer_(writer) {}
  bool write(std::string_view bytes, std::string* error) override { return writer_->append(ByteSpan(bytes), error); }
  bool commit(std::string*) override { return committed_ = true; }
  void abandon() override { committed_ = false; }
  bool committed() const { return committed_; }

 private:
  FileWriter* writer_;
  bool committed_ = false;
};

// Standard output, written as it comes.
class StdoutSink : public Sink {
 public:
  bool write(std::string_view bytes, std::string* error) override {
    out_.write(bytes);
    return !out_.failed() || fail(error);
  }
  bool commit(std::string* error) override {
    out_.flush();
    return !out_.failed() || fail(error);
  }
  void abandon() override {}

 private:
  static bool fail(std::string* error) {
    *error = "cannot write to standard output";
    return false;
  }
  Output out_;
};

// Standard output, but only once the whole output is known to be good: the
// bytes wait in an unlinked temporary file, so memory stays flat.
class SpooledStdoutSink : public Sink {
 public:
  static std::unique_ptr<SpooledStdoutSink> create(std::string* error) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/qjt-convert-XXXXXX", dir != nullptr && *dir != '\0' ? dir : "/tmp");
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
      *error = errno_sentence("create a temporary file like", pattern);
      return nullptr;
    }
    ::unlink(pattern.c_str());
    return std::unique_ptr<SpooledStdoutSink>(new SpooledStdoutSink(fd, pattern));
  }
  ~SpooledStdoutSink() override { ::close(fd_); }

  bool write(std::string_view bytes, std::string* error) override {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        *error = errno_sentence("write the temporary file", path_);
        return false;
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }
  bool commit(std::string* error) override {
    if (::lseek(fd_, 0, SEEK_SET) != 0) {
      *error = errno_sentence("rewind the temporary file", path_);
      return false;
    }
    Output out;
    char chunk[kChunk];
    for (;;) {
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        *error = errno_sentence("read the temporary file", path_);
        return false;
      }
      out.write(std::string_view(chunk, static_cast<std::size_t>(n)));
    }
    out.flush();
    if (out.failed()) *error = "cannot write to standard output";
    return !out.failed();
  }
  void abandon() override {}

 private:
  SpooledStdoutSink(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

// ---- the conversions --------------------------------------------------------

// Collects output bytes and hands them to the sink in chunks.
class ChunkedWriter {
 public:
  explicit ChunkedWriter(Sink* sink) : sink_(sink) { buffer_.reserve(kChunk * 2); }
  std::string* buffer() { return &buffer_; }
  // After appending: passes a full chunk on. False on a write error.
  bool commit() { return buffer_.size() < kChunk || flush(); }
  bool flush() {
    if (failed_) return false;
    if (!buffer_.empty() && !sink_->write(buffer_, &error_)) failed_ = true;
    buffer_.clear();
    return !failed_;
  }
  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }

 private:
  Sink* sink_;
  std::string buffer_;
  std::string error_;
  bool failed_ = false;
};

struct Run {
  const ConvertRequest& o;
  StderrReporter reporter;
  ExitCode status = ExitCode::kOk;

  void io_error(const std::string& file, std::string message) {
    reporter.report(Finding{Severity::kError, "io_error", file, std::nullopt, std::move(message)});
    status = worse(status, ExitCode::kIoError);
  }
  void problem(std::string code, const std::string& file, std::uint64_t offset, std::string message) {
    reporter.report(Finding{Severity::kError, std::move(code), file, offset, std::move(message)});
    status = worse(status, ExitCode::kProblems);
  }
  // Commits the output, or reports why it could not be.
  void finish(Sink* sink, ChunkedWriter* writer) {
    std::string error;
    if (!writer->flush()) {
      io_error(o.output, writer->error());
      sink->abandon();
    } else if (!sink->commit(&error)) {
      io_error(o.output, error);
      sink->abandon();
    }
  }
};

std::unique_ptr<InputFile> open_input(Run* run) {
  Finding failure;
  auto input = InputFile::open(run->o.input, &failure);
  if (!input) {
    run->reporter.report(std::move(failure));
    run->status = worse(run->status, ExitCode::kIoError);
  }
  return input;
}

void to_jsonl(Run* run, Sink* sink) {
  const DataMode mode = *parse_data_mode(run->o.data.empty() ? "text" : run->o.data);
  auto input = open_input(run);
  if (!input) return sink->abandon();
  ChunkedWriter writer(sink);
  kestrel::JournalReader reader(*input);
  kestrel::JournalRecord record;
  while (reader.next(&record)) {
    if (record.type == kestrel::RecordType::kBroken) {
      run->problem("broken_record", input->name(), record.offset, record.error);
    }
    kestrel::append_record_json(writer.buffer(), input->name(), record, mode);
    if (!writer.commit()) break;
  }
  run->finish(sink, &writer);
}

void to_kestrel(Run* run, Sink* sink) {
  const std::string& name = run->o.input;
  std::string error;
  auto input = LineInput::open(name, &error);
  if (!input) {
    run->io_error(name, error);
    return sink->abandon();
  }
  ChunkedWriter writer(sink);
  kestrel::JournalRecord record;
  std::string payload;
  std::string_view line;
  std::uint64_t line_offset = 0, line_number = 0, bad_lines = 0, journal_bytes = 0;
  std::optional<std::uint64_t> broken_line;
  while (input->next(&line, &line_offset)) {
    ++line_number;
    if (blank(line)) continue;
    if (!kestrel::parse_record_json(line, &record, &payload, &error)) {
      ++bad_lines;
      run->problem("bad_json_line", name, line_offset, fmt::format("line {}: {}", line_number, error));
      continue;
    }
    if (broken_line && record.type != kestrel::RecordType::kEndOfFile) {
      ++bad_lines;
      run->problem("bad_json_line", name, line_offset,
                   fmt::format("line {}: expected END_OF_FILE or nothing after the BROKEN record "
                               "of line {} (its raw bytes end the journal; Kestrel reads nothing "
                               "after them), found {}",
                               line_number, *broken_line, kestrel::record_type_name(record.type)));
      continue;
    }
    if (record.type == kestrel::RecordType::kBroken) {
      broken_line = line_number;
      run->problem("broken_record", name, line_offset,
                   fmt::format("line {}: a BROKEN record: its {} raw byte(s) are written back as "
                               "they are, so the journal is broken at offset {} as before",
                               line_number, record.payload.size(), journal_bytes));
    }
    if (bad_lines > 0 || writer.failed()) continue;  // validate the rest, write nothing
    const std::size_t before = writer.buffer()->size();
    kestrel::append_record(writer.buffer(), record);
    journal_bytes += writer.buffer()->size() - before;
    writer.commit();
  }
  if (input->failed()) {
    errno = input->error_number();
    run->io_error(name, errno_sentence("read", name));
    return sink->abandon();
  }
  if (bad_lines > 0) {
    tell("", fmt::format("{}: {} bad line(s); {} not written", name, bad_lines,
                         run->o.output == "-" ? std::string("standard output") : run->o.output));
    return sink->abandon();
  }
  run->finish(sink, &writer);
}

void to_kestrel2(Run* run, Sink* sink) {
  auto input = open_input(run);
  if (!input) return sink->abandon();
  kestrel::LegacyUpgrade upgrade(input_time_ms(run->o.input, run->o.add_time));
  ChunkedWriter writer(sink);
  kestrel::JournalReader reader(*input);
  kestrel::JournalRecord record;
  while (reader.next(&record)) {
    if (record.type == kestrel::RecordType::kBroken) {
      run->problem(
          "broken_record", input->name(), record.offset,
          fmt::format("{}; its {} raw byte(s) are copied to the output unchanged", record.error, record.length));
    }
    upgrade.convert(record, writer.buffer());
    if (!writer.commit()) break;
  }
  run->finish(sink, &writer);
}

// One of the conversions, to `sink`.
void convert_to(Run* run, Sink* sink) {
  if (run->o.to == "jsonl") {
    to_jsonl(run, sink);
  } else if (run->o.to == "kestrel") {
    to_kestrel(run, sink);
  } else {
    to_kestrel2(run, sink);
  }
}

// The conversion to a temp file, installed when the conversion commits to
// it (a bad line abandons it).
void convert_to_file(Run* run) {
  const ConvertRequest& o = run->o;
  bool ran = false, committed = false;
  std::string error;
  auto file = ReplacementFile::write(
      o.output, Ownership::kNewOutput,
      [&](FileWriter* writer, std::string*) {
        ran = true;
        FileSink sink(writer);
        convert_to(run, &sink);
        return committed = sink.committed();
      },
      &error);
  if (file) {
    std::vector<std::unique_ptr<ReplacementFile>> files;
    files.push_back(std::move(file));
    run->status = worse(run->status, install_outputs({"convert", o.guard, o.drivers}, std::move(files)));
  } else if (!ran || committed) {
    run->io_error(o.output, error);  // the temp file's creation or sync; a failing write is reported already
  }
}

}  // namespace

ExitCode run_kestrel_convert(const ConvertRequest& o) {
  if (o.input.empty()) {
    return usage_error("convert", "INPUT is required");
  }
  Run run{o, {}, ExitCode::kOk};
  if (o.output != "-") {
    convert_to_file(&run);
    return run.status;
  }
  std::string error;
  std::unique_ptr<Sink> sink;
  if (o.to == "kestrel") {
    sink = SpooledStdoutSink::create(&error);
  } else {
    sink = std::make_unique<StdoutSink>();
  }
  if (!sink) {
    run.io_error(o.output, error);
    return run.status;
  }
  convert_to(&run, sink.get());
  return run.status;
}

}  // namespace qjt::cli
