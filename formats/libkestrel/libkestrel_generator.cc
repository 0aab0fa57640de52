#include "libkestrel/libkestrel_generator.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "generated_files.h"
#include "libkestrel/libkestrel_format.h"
#include "libkestrel/libkestrel_writer.h"
#include "synthetic_data.h"

namespace qjt::libkestrel {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kPutHeaderSize = 1 + 4 * kPutWords;  // command byte and six words
constexpr std::uint64_t kMagicSize = 4;

// The files of `queue` already in `dir`: its segments, bookmarks and temps.
std::vector<std::string> existing_queue_files(const std::string& dir, const std::string& queue) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(queue + ".") || name.starts_with(queue + "~~")) found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// Where a damaging edit goes, found while streaming.
struct PutPosition {
  std::size_t file = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

class QueueWriter {
 public:
  QueueWriter(const QueueGeneratorOptions& o, std::string dir)
      : o_(o),
        dir_(std::move(dir)),
        rng_(o.seed),
        payloads_(o.seed, false),
        damage_rng_(o.seed ^ 0x436F7272757074ULL) {}

  bool run(QueueGeneratorReport* r, std::string* error) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) {
      *error = fmt::format("cannot create directory {}: {}", dir_, ec.message());
      return false;
    }
    stale_ = existing_queue_files(dir_, o_.queue);
    if (!stale_.empty() && !o_.force) {
      *error = fmt::format("{} exists (queue {} is there already): give --force to replace its files", stale_.front(),
                           o_.queue);
      return false;
    }
    const std::uint64_t budget = o_.size > 0 ? o_.size : 0;
    for (std::uint32_t s = 0; s < o_.segments && !done_; ++s) {
      if (!open_segment(error)) return false;
      const bool last = s + 1 == o_.segments;
      while (!due_to_roll(s, last)) {
        const std::uint64_t length = o_.payload_min + rng_.below(std::uint64_t{o_.payload_max} - o_.payload_min + 1);
        if (budget > 0 && bytes_ + kPutHeaderSize + length > budget) {
          done_ = true;
          break;
        }
        if (!put(length, error)) return false;
      }
      if (!out_->sync(error)) return false;
      out_.reset();
    }
    r->items = items_;
    r->bytes = bytes_;
    r->files = files_;
    return bookmarks(r, error);
  }

  bool damage(QueueGeneratorReport* r, std::string* error) {
    if (o_.corrupt == "none") return true;
    if (!last_put_.length) {
      *error = fmt::format("--corrupt {}: the queue has no item to damage", o_.corrupt);
      return false;
    }
    const PutPosition at = o_.corrupt == "flip" ? flip_ : last_put_;
    GeneratedQueueFile& f = r->files[at.file];
    const std::string temp = files_out_.temp_of(f.path);
    if (o_.corrupt == "flip") {
      // The size word is little-endian: its last byte holds the sign.
      const std::uint64_t byte = at.offset + 4;
      r->corruption = GeneratedDamage{
          o_.corrupt, f.path, at.offset,
          fmt::format("top bit of byte {} flipped: the data size of the PUT at {} is negative", byte, at.offset)};
      return damage_file(temp, byte, std::uint8_t{0x80}, error);
    }
    const std::uint64_t cut = at.offset + at.length / 2;
    r->corruption =
        GeneratedDamage{o_.corrupt, f.path, at.offset,
                        fmt::format("cut at byte {}, inside the {}-byte PUT at {}", cut, at.length, at.offset)};
    f.bytes = cut;
    r->bytes -= at.offset + at.length - cut;
    return damage_file(temp, cut, std::nullopt, error);
  }

  bool install(std::string* error) {
    return files_out_.install(stale_, fmt::format("the queue {} was written in {}", o_.queue, dir_), error);
  }

 private:
  bool due_to_roll(std::uint32_t s, bool last) const {
    if (done_) return true;
    if (o_.size > 0) return !last && bytes_ >= o_.size * (s + 1) / o_.segments;
    if (items_ >= o_.items) return true;
    return !last && items_ >= o_.items * (s + 1) / o_.segments;
  }

  bool open_segment(std::string* error) {
    // Named by the clock when it is made: the next item's add time, made
    // strictly increasing.
    const std::int64_t ms = std::max(o_.start_ms + static_cast<std::int64_t>(items_), last_name_ + 1);
    last_name_ = ms;
    const std::string path = (fs::path(dir_) / fmt::format("{}.{}", o_.queue, ms)).string();
    out_ = files_out_.create(path, error);
    if (!out_) return false;
    files_.push_back(GeneratedQueueFile{path, "segment", kMagicSize, 0});
    std::string magic;
    append_magic(&magic, FileKind::kSegment);
    bytes_ += kMagicSize;
    return out_->append(ByteSpan(magic), error);
  }

  bool put(std::uint64_t length, std::string* error) {
    const auto id = static_cast<std::int64_t>(items_ + 1);
    payloads_.make(items_ + 1, length, rng_.below(PayloadMaker::kPatternSize), &payload_);
    record_.clear();
    append_put(&record_, PutFields{id, 0, o_.start_ms + id - 1, std::nullopt}, ByteSpan(payload_));
    GeneratedQueueFile& f = files_.back();
    last_put_ = PutPosition{files_.size() - 1, f.bytes, record_.size()};
    ++items_;
    if (damage_rng_.below(items_) == 0) flip_ = last_put_;  // reservoir: every PUT equally likely
    f.bytes += record_.size();
    ++f.records;
    bytes_ += record_.size();
    return out_->append(ByteSpan(record_), error);
  }

  // Each reader's bookmark: its head (clamped to the items) and `done` ids
  // above it, chosen by the seed.
  bool bookmarks(QueueGeneratorReport* r, std::string* error) {
    for (const ReaderPosition& reader : o_.readers) {
      const std::uint64_t head = std::min(reader.head, items_);
      std::set<std::int64_t> done;
      const std::uint64_t above = items_ - head;
      const std::uint64_t want = std::min(o_.done, above);
      while (done.size() < want) done.insert(static_cast<std::int64_t>(head + 1 + rng_.below(above)));
      const std::string bytes = bookmark_bytes(static_cast<std::int64_t>(head), {done.begin(), done.end()});
      const std::string path = (fs::path(dir_) / fmt::format("{}.read.{}", o_.queue, reader.name)).string();
      if (!files_out_.write_whole(path, bytes, error)) return false;
      r->files.push_back(GeneratedQueueFile{path, "bookmark", bytes.size(), 2});
      r->readers.push_back(GeneratedReader{reader.name, head, done.size(), above - done.size()});
    }
    return true;
  }

  const QueueGeneratorOptions& o_;
  std::string dir_;
  Rng rng_;
  PayloadMaker payloads_;
  Rng damage_rng_;
  GeneratedFiles files_out_;
  std::unique_ptr<FileWriter> out_;
  std::vector<GeneratedQueueFile> files_;
  std::vector<std::string> stale_;
  std::uint64_t items_ = 0, bytes_ = 0;
  std::int64_t last_name_ = std::numeric_limits<std::int64_t>::min();
  bool done_ = false;
  std::string payload_, record_;
  PutPosition last_put_, flip_;
};

bool valid_queue_name(const std::string& name) {
  return !name.empty() && name.find_first_of("/~+.") == std::string::npos;
}

}  // namespace

std::vector<std::string_view> queue_corruptions() { return {"truncate", "flip"}; }

std::optional<std::string> check_queue_options(const QueueGeneratorOptions& o) {
  if (o.size == 0 && o.items == 0) return "--records: expected at least 1";
  if (o.payload_min > o.payload_max) return fmt::format("--payload-size: {} is above {}", o.payload_min, o.payload_max);
  if (o.payload_max > static_cast<std::uint32_t>(kLargestData))
    return fmt::format("--payload-size: libkestrel refuses items over {} bytes", kLargestData);
  if (o.segments == 0) return "--segments: expected at least 1";
  if (!valid_queue_name(o.queue))
    return fmt::format("queue name '{}': expected a non-empty name without '/', '~', '+' or '.'", o.queue);
  std::set<std::string> names;
  for (const ReaderPosition& r : o.readers) {
    if (r.name.find_first_of("/~") != std::string::npos)
      return fmt::format("--reader {}: a reader's name holds no '/' or '~'", r.name);
    if (!names.insert(r.name).second) return fmt::format("--reader {}: given twice", r.name);
  }
  return std::nullopt;
}

GenerateStatus generate_libkestrel_queue(const std::string& dir, const QueueGeneratorOptions& options,
                                         QueueGeneratorReport* report, std::string* error) {
  if (auto problem = check_queue_options(options)) {
    *error = *problem;
    return GenerateStatus::kUsage;
  }
  QueueWriter writer(options, dir);
  if (!writer.run(report, error) || !writer.damage(report, error) || !writer.install(error))
    return GenerateStatus::kIoError;
  return GenerateStatus::kOk;
}

}  // namespace qjt::libkestrel
