#include "kestrel/journal_generator.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "durable_file.h"
#include "failpoint.h"
#include "generated_files.h"
#include "interrupt.h"
#include "kestrel/journal_writer.h"
#include "path_name.h"
#include "synthetic_data.h"

namespace qjt::kestrel {
namespace {

namespace fs = std::filesystem;

std::string errno_sentence(const std::string& what, const std::string& path) {
  return fmt::format("cannot {} {}: {}", what, path, std::strerror(errno));
}

// Where a damaging edit goes, found while streaming.
struct RecordPosition {
  std::size_t file = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  RecordType type = RecordType::kAddX;
  bool valid = false;
};

// The files being written: temporaries, rotation, per-file counts, and the
// positions corruption needs.
class Sink {
 public:
  Sink(const GeneratorOptions& o, std::string dir_or_path)
      : o_(o), base_(std::move(dir_or_path)), corrupt_rng_(o.seed ^ 0x436F7272757074ULL) {}
  ~Sink() { discard(); }

  // Starts the next file. As Kestrel rotates, the file before it becomes
  // the archived segment `queue.<timestamp>`; the last one is the live `queue`.
  bool open_next(std::int64_t timestamp, std::string* error) {
    if (!close_current(error)) return false;
    const std::size_t k = files_.size();
    File f;
    if (o_.segments == 0) {
      f.temp = fmt::format("{}~~qjt-gen.{}", base_, ::getpid());
      f.final_path = base_;
      f.role = FileRole::kGiven;
    } else {
      if (k > 0) {
        files_.back().final_path = (fs::path(base_) / fmt::format("{}.{}", o_.queue, timestamp)).string();
        files_.back().role = FileRole::kArchived;
      }
      f.temp = (fs::path(base_) / fmt::format("{}~~qjt-gen.{}.{}", o_.queue, ::getpid(), k)).string();
      f.final_path = (fs::path(base_) / o_.queue).string();
      f.role = FileRole::kLive;
    }
    writer_ = create_generated(f.temp, f.final_path, error);
    if (!writer_) return false;
    files_.push_back(std::move(f));
    return true;
  }

  bool write(const std::string& encoded, RecordType type, std::string* error) {
    File& f = files_.back();
    const std::uint64_t length = encoded.size();
    if (length > 1) last_long_ = RecordPosition{files_.size() - 1, f.bytes, length, type, true};
    ++total_records_;
    // Reservoir sampling: every record is the flip target with equal chance.
    if (o_.corrupt == Corruption::kFlip && corrupt_rng_.below(total_records_) == 0) {
      flip_ = RecordPosition{files_.size() - 1, f.bytes, length, type, true};
    }
    f.bytes += length;
    ++f.records;
    total_bytes_ += length;
    return writer_->append(ByteSpan(encoded), error);
  }

  std::uint64_t total_records() const { return total_records_; }
  std::uint64_t total_bytes() const { return total_bytes_; }
  std::size_t file_count() const { return files_.size(); }

  // Appends garbage to, syncs and closes the last file, applies the other
  // damages to the temporaries.
  bool finish(CorruptionReport* damage, std::string* error) {
    if (o_.corrupt == Corruption::kGarbage) {
      File& f = files_.back();
      std::string garbage;
      garbage.push_back(static_cast<char>(0x0A + corrupt_rng_.below(0x100 - 0x0A)));
      const std::uint64_t extra = corrupt_rng_.below(64);
      for (std::uint64_t i = 0; i < extra; ++i) garbage.push_back(static_cast<char>(corrupt_rng_.below(256)));
      *damage = CorruptionReport{Corruption::kGarbage, f.final_path, f.bytes,
                                 fmt::format("{} byte(s) of garbage appended, starting with the "
                                             "invalid opcode 0x{:02x}",
                                             garbage.size(), static_cast<std::uint8_t>(garbage[0]))};
      f.bytes += garbage.size();
      if (!writer_->append(ByteSpan(garbage), error)) return false;
    }
    if (!close_current(error)) return false;
    if (o_.corrupt == Corruption::kTruncate) return truncate(damage, error);
    if (o_.corrupt == Corruption::kFlip) return flip(damage, error);
    return true;
  }

  // Moves the temporaries to their names, all in one CommitSection. With
  // `force`, `stale` (the old files of the queue) are removed first.
  bool install(const std::vector<std::string>& stale, std::string* error) {
    CommitSection commit;
    for (const auto& path : stale) {
      if (!durable_remove(path, error)) return false;
    }
    for (File& f : files_) {
      if (!durable_rename(f.temp, f.final_path, error)) return false;
      f.installed = true;
      failpoint("gen.file_installed");
    }
    note_committed(fmt::format("the journal {} was written", base_));
    return true;
  }

  void fill_report(GeneratorReport* report) const {
    report->files.clear();
    report->bytes = 0;
    for (const File& f : files_) {
      report->files.push_back(GeneratedFile{f.final_path, f.role, f.bytes, f.records});
      report->bytes += f.bytes;
    }
    report->records = total_records_;
  }

  // Removes every temporary not yet installed.
  void discard() {
    writer_.reset();
    for (const File& f : files_) {
      if (!f.installed) remove_temp(f.temp);
    }
    files_.clear();
  }

 private:
  struct File {
    std::string temp;
    std::string final_path;
    FileRole role = FileRole::kGiven;
    std::uint64_t bytes = 0;
    std::uint64_t records = 0;
    bool installed = false;
  };

  bool close_current(std::string* error) {
    if (!writer_) return true;
    const bool ok = writer_->sync(error);
    writer_.reset();
    failpoint("gen.file_synced");
    return ok;
  }

  bool truncate(CorruptionReport* damage, std::string* error) {
    if (!last_long_.valid) {
      *error = "--corrupt truncate: the journal has no record longer than one byte to cut";
      return false;
    }
    File& f = files_[last_long_.file];
    const std::uint64_t cut = last_long_.offset + last_long_.length / 2;
    if (!damage_file(f.temp, cut, std::nullopt, error)) return false;
    *damage = CorruptionReport{Corruption::kTruncate, f.final_path, last_long_.offset,
                               fmt::format("cut at byte {}, inside the {}-byte {} record at {}", cut, last_long_.length,
                                           record_type_name(last_long_.type), last_long_.offset)};
    f.bytes = cut;
    return true;
  }

  bool flip(CorruptionReport* damage, std::string* error) {
    if (!flip_.valid) {
      *error = "--corrupt flip: the journal has no record to damage";
      return false;
    }
    File& f = files_[flip_.file];
    // The top bit of the opcode (giving 0x80 to 0x89, all invalid), or of
    // the size field's last byte (a negative size).
    const bool size = carries_item(flip_.type) && corrupt_rng_.below(2) == 1;
    const std::uint64_t at = flip_.offset + (size ? 4 : 0);
    if (!damage_file(f.temp, at, std::uint8_t{0x80}, error)) return false;
    *damage = CorruptionReport{Corruption::kFlip, f.final_path, flip_.offset,
                               fmt::format("top bit of byte {} flipped: the {} of the {} record at {}", at,
                                           size ? "size" : "opcode", record_type_name(flip_.type), flip_.offset)};
    return true;
  }

  const GeneratorOptions& o_;
  std::string base_;
  std::vector<File> files_;
  std::unique_ptr<FileWriter> writer_;
  std::uint64_t total_records_ = 0;
  std::uint64_t total_bytes_ = 0;
  Rng corrupt_rng_;
  RecordPosition last_long_;
  RecordPosition flip_;
};

// The record stream (see the header), written to a Sink.
class Generator {
 public:
  Generator(const GeneratorOptions& o, Sink* sink) : o_(o), sink_(sink), rng_(o.seed), payloads_(o.seed, o.binary) {}

  bool run(GeneratorReport* report, std::string* error) {
    if (!sink_->open_next(clock(), error)) return false;
    for (std::uint32_t i = 0; i < o_.open; ++i) {
      if (!add(error)) return false;
    }
    for (std::uint32_t i = 0; i < o_.open; ++i) {
      if (!emit(xid_record(RecordType::kRemoveTentativeXid, next_xid()), error)) return false;
      --queued_;
    }
    for (;;) {
      if (remove_due()) {
        if (!fits(1, 1)) break;
        if (!remove(error)) return false;
      } else {
        const std::uint64_t size = o_.payload_min + rng_.below(std::uint64_t{o_.payload_max} - o_.payload_min + 1);
        const std::uint64_t reserve = o_.live && queued_ + 1 > *o_.live ? 1 : 0;
        if (!fits(1 + reserve, addx_record_size(size) + reserve)) break;
        if (!add(error, size)) return false;
      }
    }
    // Segments the target left no record for are created empty.
    while (o_.segments > 0 && sink_->file_count() < o_.segments) {
      if (!sink_->open_next(next_timestamp(), error)) return false;
    }
    report->items_added = added_;
    report->removes = removed_;
    report->transactional_removes = transactional_;
    report->unremoves = unremoves_;
    report->queue_length = queued_;
    report->open_transactions = o_.open;
    report->xid_counter = xid_counter_;
    return true;
  }

 private:
  std::int64_t clock() const { return o_.add_time_ms + static_cast<std::int64_t>(added_); }

  std::int64_t next_timestamp() {
    last_timestamp_ = std::max(clock(), last_timestamp_ + 1);
    return last_timestamp_;
  }

  bool fits(std::uint64_t records, std::uint64_t bytes) const {
    if (o_.size > 0) return sink_->total_bytes() + bytes <= o_.size;
    return sink_->total_records() + records <= o_.records;
  }

  bool remove_due() const {
    if (queued_ == 0) return false;
    if (o_.live) return queued_ > *o_.live;
    return static_cast<double>(removed_) < std::floor(o_.remove_share * static_cast<double>(added_));
  }

  std::int32_t next_xid() {
    std::int64_t x = std::int64_t{xid_counter_} + 1;
    if (x > std::numeric_limits<std::int32_t>::max()) x = std::int64_t{o_.open} + 1;  // wrap past the open ones
    xid_counter_ = static_cast<std::int32_t>(x);
    return xid_counter_;
  }

  // Rotates before the record when the current segment has its share.
  bool maybe_rotate(std::string* error) {
    if (o_.segments == 0) return true;
    const std::uint64_t k = sink_->file_count();  // segments opened so far
    if (k >= o_.segments) return true;
    const std::uint64_t target = o_.size > 0 ? o_.size : o_.records;
    const std::uint64_t done = o_.size > 0 ? sink_->total_bytes() : sink_->total_records();
    const std::uint64_t boundary = target / o_.segments * k + target % o_.segments * k / o_.segments;
    if (done < boundary) return true;
    return sink_->open_next(next_timestamp(), error);
  }

  bool emit(const JournalRecord& record, std::string* error) {
    if (!maybe_rotate(error)) return false;
    encoded_.clear();
    append_record(&encoded_, record);
    return sink_->write(encoded_, record.type, error);
  }

  bool add(std::string* error, std::optional<std::uint64_t> size = std::nullopt) {
    if (!size) size = o_.payload_min + rng_.below(std::uint64_t{o_.payload_max} - o_.payload_min + 1);
    payloads_.make(added_ + 1, *size, rng_.below(PayloadMaker::kPatternSize), &payload_);
    const std::int64_t add_time = clock();
    ++added_;
    ++queued_;
    return emit(addx_record(ByteSpan(payload_), add_time, 0), error);
  }

  bool remove(std::string* error) {
    enum { kPlain, kConfirmed, kAborted } kind = kPlain;
    if (static_cast<double>(transactional_) < std::floor(o_.transactional * static_cast<double>(removed_ + 1))) {
      kind = rng_.below(8) == 0 ? kAborted : kConfirmed;
    }
    if (kind == kAborted && !fits(4, 4 * kXidRecordSize)) kind = kConfirmed;
    if (kind == kConfirmed && !fits(2, 2 * kXidRecordSize)) kind = kPlain;
    if (kind == kAborted) {
      const std::int32_t xid = next_xid();
      if (!emit(xid_record(RecordType::kRemoveTentativeXid, xid), error) ||
          !emit(xid_record(RecordType::kUnremove, xid), error)) {
        return false;
      }
      ++unremoves_;
    }
    if (kind == kPlain) {
      if (!emit(xid_record(RecordType::kRemove, 0), error)) return false;
    } else {
      const std::int32_t xid = next_xid();
      if (!emit(xid_record(RecordType::kRemoveTentativeXid, xid), error) ||
          !emit(xid_record(RecordType::kConfirmRemove, xid), error)) {
        return false;
      }
      ++transactional_;
    }
    ++removed_;
    --queued_;
    return true;
  }

  const GeneratorOptions& o_;
  Sink* sink_;
  Rng rng_;
  PayloadMaker payloads_;
  std::string payload_;
  std::string encoded_;
  std::uint64_t added_ = 0;
  std::uint64_t removed_ = 0;
  std::uint64_t queued_ = 0;
  std::uint64_t transactional_ = 0;
  std::uint64_t unremoves_ = 0;
  std::int32_t xid_counter_ = 0;
  std::int64_t last_timestamp_ = std::numeric_limits<std::int64_t>::min() + 1;
};

bool valid_queue_name(const std::string& name) {
  return !name.empty() && name.find_first_of("/~+.") == std::string::npos && name != "..";
}

// The files of queue `queue` already in `dir`.
std::vector<std::string> queue_files(const std::string& dir, const std::string& queue, std::string* error, bool* ok) {
  std::vector<std::string> found;
  std::error_code ec;
  *ok = true;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name == queue || name.starts_with(queue + ".") || name.starts_with(queue + "~~")) {
      found.push_back(it->path().string());
    }
  }
  if (ec) {
    *error = fmt::format("cannot list {}: {}", dir, ec.message());
    *ok = false;
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string parent_dir(const std::string& path) {
  const auto parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

constexpr std::array<std::pair<Corruption, const char*>, 4> kCorruptionNames = {{
    {Corruption::kNone, "none"},
    {Corruption::kTruncate, "truncate"},
    {Corruption::kFlip, "flip"},
    {Corruption::kGarbage, "garbage"},
}};

}  // namespace

const char* corruption_name(Corruption mode) {
  for (const auto& [value, text] : kCorruptionNames)
    if (value == mode) return text;
  return "none";
}

std::optional<Corruption> parse_corruption(std::string_view name) {
  for (const auto& [value, text] : kCorruptionNames)
    if (text == name) return value;
  return std::nullopt;
}

std::optional<std::string> check_generator_options(const GeneratorOptions& o) {
  constexpr std::uint64_t kMaxPayload = std::numeric_limits<std::int32_t>::max() - kItemBlockHeader;
  if (o.payload_min > o.payload_max) {
    return fmt::format("payload size {}-{}: the minimum is above the maximum", o.payload_min, o.payload_max);
  }
  if (o.payload_max > kMaxPayload) {
    return fmt::format("payload size {}: Kestrel's size field holds at most {}", o.payload_max, kMaxPayload);
  }
  if (!(o.remove_share >= 0 && o.remove_share <= 1)) return "--remove-share must be between 0 and 1";
  if (!(o.transactional >= 0 && o.transactional <= 1)) return "--transactional must be between 0 and 1";
  if (o.segments > 0 && !valid_queue_name(o.queue)) {
    return fmt::format("queue name '{}': expected a non-empty name without '/', '~', '+' or '.'", o.queue);
  }
  if (o.segments > 100000) return "--segments: at most 100000";
  if (o.size == 0 && o.records == 0) return "the target is 0 records: nothing to write";
  const std::uint64_t open_records = 2 * std::uint64_t{o.open};
  const std::uint64_t open_bytes = o.open * (addx_record_size(o.payload_max) + kXidRecordSize);
  if (o.size == 0 && o.records < open_records + 1) {
    return fmt::format(
        "--records {}: {} open transaction(s) take {} records, and at least one more "
        "is needed",
        o.records, o.open, open_records);
  }
  if (o.size > 0 && o.size < open_bytes + addx_record_size(o.payload_max) + 1) {
    return fmt::format(
        "--size {}: expected at least {} bytes, room for the open transactions and "
        "one item of the largest payload size",
        o.size, open_bytes + addx_record_size(o.payload_max) + 1);
  }
  return std::nullopt;
}

GenerateStatus generate_kestrel_journal(const std::string& path, const GeneratorOptions& o, GeneratorReport* report,
                                        std::string* error) {
  if (auto problem = check_generator_options(o)) {
    *error = *problem;
    return GenerateStatus::kUsage;
  }
  std::error_code ec;
  const auto status = fs::status(path, ec);
  const bool exists = fs::exists(status);
  std::vector<std::string> stale;
  if (o.segments == 0) {
    if (exists && fs::is_directory(status)) {
      *error = fmt::format("cannot write {}: it is a directory (--segments writes a queue directory)", path);
      return GenerateStatus::kIoError;
    }
    if (exists && !o.force) {
      *error = fmt::format("cannot write {}: it exists (--force replaces it)", path);
      return GenerateStatus::kIoError;
    }
  } else if (exists) {
    if (!fs::is_directory(status)) {
      *error = fmt::format("cannot write queue directory {}: it exists and is not a directory", path);
      return GenerateStatus::kIoError;
    }
    bool ok = true;
    stale = queue_files(path, o.queue, error, &ok);
    if (!ok) return GenerateStatus::kIoError;
    if (!stale.empty() && !o.force) {
      *error = fmt::format(
          "cannot write queue {} in {}: it already has {} file(s), such as {} "
          "(--force replaces them)",
          o.queue, path, stale.size(), base_name(stale[0]));
      return GenerateStatus::kIoError;
    }
  } else {
    if (::mkdir(path.c_str(), 0755) != 0) {
      *error = errno_sentence("create directory", path);
      return GenerateStatus::kIoError;
    }
    track_created(path, true);  // an interrupt before the install leaves no directory
    if (!sync_directory(parent_dir(path), error)) return GenerateStatus::kIoError;
  }

  Sink sink(o, path);
  Generator generator(o, &sink);
  *report = GeneratorReport{};
  CorruptionReport damage;
  if (!generator.run(report, error) || !sink.finish(&damage, error) ||
      !sink.install(o.force ? stale : std::vector<std::string>{}, error)) {
    return GenerateStatus::kIoError;
  }
  sink.fill_report(report);
  if (o.corrupt != Corruption::kNone) report->corruption = damage;
  return GenerateStatus::kOk;
}

}  // namespace qjt::kestrel
