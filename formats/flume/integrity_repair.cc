#include "flume/integrity_repair.h"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <utility>

#include "flume/log_reader.h"

namespace qjt::flume {
namespace {

constexpr std::size_t kFraming = 5;  // OP byte + int32 length

std::int32_t load_i32_be(ByteSpan file, std::size_t at) {
  const std::uint32_t v = std::uint32_t{file[at]} << 24 | std::uint32_t{file[at + 1]} << 16 |
                          std::uint32_t{file[at + 2]} << 8 | std::uint32_t{file[at + 3]};
  return static_cast<std::int32_t>(v);
}

// Whether the record (0x7F) or NOOP (0x00) at `offset`, whose framing the
// reader could not follow, is a torn tail that Flume reads as the end of
// the file's data (see the header): too short for its length, a length
// past the end, or a negative length with only the 0x80 fill after it;
// and no decodable record after it (a crash leaves none after the record
// it tore, so one there means the damage is in mid-log).
bool is_torn_tail(ByteSpan file, std::size_t offset, AesCtr* cipher) {
  const std::uint8_t op = file[offset];
  if (op != kOpRecord && op != kOpNoop) return false;
  const std::size_t remaining = file.size() - offset;
  if (remaining < kFraming) return true;
  const std::int32_t length = load_i32_be(file, offset + 1);
  if (length >= 0)
    return static_cast<std::size_t>(length) > remaining - kFraming &&
           !find_decodable_record(file, offset + 1, cipher).has_value();
  return !find_first_non_fill(file, offset + 1).has_value();
}

// Whether `at` is where a record, a NOOP or the end of the data begins:
// following the lengths from there meets the end of the data or a record
// that decodes before a byte that is no OP code.
bool on_a_boundary(ByteSpan file, std::size_t at, AesCtr* cipher) {
  LogRecord r;
  for (;;) {
    LogReader reader(file, 3, at, cipher);
    do {
      reader.next(&r);
    } while (r.type == LogRecordType::kNoop);
    if (r.type != LogRecordType::kBroken) return true;
    if (r.size == 0) return false;
    at = static_cast<std::size_t>(r.offset + r.size);
  }
}

class Planner {
 public:
  Planner(const ChannelLog& log, const std::set<std::uint64_t>& drops, Reporter* reporter, IntegrityPlan* plan,
          const LogRecordVisitor& visit)
      : log_(log), file_(log.bytes()), drops_(drops), reporter_(reporter), plan_(plan), visit_(visit) {}

  void run() {
    // A corrupt record ends a LogReader; the tool goes on after it, so a
    // fresh reader resumes there.
    std::optional<std::uint64_t> start = 0;
    while (start) start = walk(*start);
    report_unmet_drops();
    if (log_.cipher() != nullptr && plan_->records == 0 && !plan_->changes.empty()) refuse_suspect_key();
  }

 private:
  void report(Severity severity, const char* code, std::optional<std::uint64_t> offset, std::string message) {
    reporter_->report(Finding{severity, code, plan_->log_path, offset, std::move(message)});
  }

  void change(const LogRecord& r, std::uint8_t new_byte, IntegrityChangeKind kind, std::string reason) {
    plan_->changes.push_back(
        IntegrityChange{r.offset, file_[static_cast<std::size_t>(r.offset)], new_byte, kind, std::move(reason)});
  }

  bool wants_drop(std::uint64_t offset) {
    if (drops_.count(offset) == 0) return false;
    met_drops_.insert(offset);
    return true;
  }

  // One reader from `start`; the offset to resume at after a corrupt
  // record whose length can be skipped, else nullopt (the walk is over).
  std::optional<std::uint64_t> walk(std::uint64_t start) {
    LogReader reader = log_.reader(start);  // through a window, not the mapping
    LogRecord r;
    std::optional<std::uint64_t> resume;
    while (reader.next(&r)) {
      if (visit_) visit_(r);
      // Not the integrity tool's to mend, and Flume reads on: said, so that
      // a plan that changes nothing does not pass for a clean channel.
      if (r.trailing_bytes > 0)
        report(Severity::kError, "trailing_bytes", r.trailing_offset(), trailing_bytes_message(r));
      switch (r.type) {
        case LogRecordType::kPut:
          on_put(r);
          break;
        case LogRecordType::kTake:
        case LogRecordType::kRollback:
        case LogRecordType::kCommit:
          on_other(r);
          break;
        case LogRecordType::kNoop:
          on_noop(r);
          break;
        case LogRecordType::kEndOfData:
          break;
        case LogRecordType::kBroken:
          resume = on_broken(r);
          break;
      }
    }
    return resume;
  }

  void on_put(const LogRecord& r) {
    ++plan_->records;
    ++plan_->puts;
    const bool drop = wants_drop(r.offset);
    if (!r.crc_ok) {
      change(r, kOpNoop, IntegrityChangeKind::kCrcMismatch,
             fmt::format("CRC32 mismatch: stored 0x{:08X}, body's CRC32 is 0x{:08X}", r.stored_crc.value_or(0),
                         r.computed_crc));
    } else if (drop) {
      change(r, kOpNoop, IntegrityChangeKind::kDropped, "dropped by request");
    }
  }

  void on_other(const LogRecord& r) {
    ++plan_->records;
    if (wants_drop(r.offset))
      report(Severity::kError, "integrity_drop_not_a_put", r.offset,
             fmt::format("expected a put record to drop at offset {}, found a {} record; nothing changed there",
                         r.offset, log_record_type_name(r.type)));
  }

  void on_noop(const LogRecord& r) {
    ++plan_->noops;
    if (wants_drop(r.offset))
      report(Severity::kWarning, "integrity_drop_noop", r.offset,
             fmt::format("expected a put record to drop at offset {}, found a NOOP (already neutralised)", r.offset));
  }

  std::optional<std::uint64_t> on_broken(const LogRecord& r) {
    wants_drop(r.offset);  // neutralised or reported below either way
    if (r.size > 0) {
      // Framing intact: the tool's CorruptEventException case.
      const std::uint64_t next = r.offset + r.size;
      if (length_is_suspect(r)) {
        report(Severity::kError, "integrity_unrepairable", r.offset,
               fmt::format("expected a record whose length leads to the next record, found: {}, and its length "
                           "lands inside data at {} while a record decodes further on; a NOOP of that length "
                           "would hide it, so nothing after it was checked",
                           r.error, next));
        return std::nullopt;
      }
      if (find_first_non_fill(file_, static_cast<std::size_t>(next)))
        change(r, kOpNoop, IntegrityChangeKind::kCorrupt, r.error);
      else
        change(r, kOpNoop, IntegrityChangeKind::kTornRecord, "torn record: " + r.error);
      return next;
    }
    const auto at = static_cast<std::size_t>(r.offset);
    if (at < file_.size() && is_torn_tail(file_, at, log_.cipher())) {
      change(r, kOpEof, IntegrityChangeKind::kTornRecord, "torn record: " + r.error);
    } else {
      report(Severity::kError, "integrity_unrepairable", r.offset,
             fmt::format("expected a record whose length can be skipped, found: {}; the integrity tool stops "
                         "here (Flume reads nothing after it), so nothing after it was checked",
                         r.error));
    }
    return std::nullopt;
  }

  // Whether the length of the undecodable record `r` is itself damaged:
  // skipping it does not land where a record, a NOOP or the end of the
  // data begins, yet a record decodes somewhere after it.
  bool length_is_suspect(const LogRecord& r) const {
    const auto next = static_cast<std::size_t>(r.offset + r.size);
    return !on_a_boundary(file_, next, log_.cipher()) &&
           find_decodable_record(file_, static_cast<std::size_t>(r.offset) + 1, log_.cipher()).has_value();
  }

  void report_unmet_drops() {
    for (std::uint64_t offset : drops_)
      if (met_drops_.count(offset) == 0)
        report(Severity::kError, "integrity_drop_not_a_put", offset,
               fmt::format("expected a put record to drop at offset {}, found no record starting there", offset));
  }

  void refuse_suspect_key() {
    report(Severity::kError, "integrity_suspect_key", std::nullopt,
           fmt::format("expected some records of this encrypted log to decode, found none of {} (the key is "
                       "more likely wrong than every record corrupt); nothing planned",
                       plan_->changes.size()));
    plan_->changes.clear();
  }

  const ChannelLog& log_;
  ByteSpan file_;
  const std::set<std::uint64_t>& drops_;
  Reporter* reporter_;
  IntegrityPlan* plan_;
  const LogRecordVisitor& visit_;
  std::set<std::uint64_t> met_drops_;
};

// Whether every record from the start decodes (and every put's CRC, where
// the version has one, matches).
bool reads_cleanly(const ChannelLog& log, const LogRecordVisitor& visit) {
  LogReader reader = log.reader(log.data_start());
  LogRecord record;
  while (reader.next(&record)) {
    if (visit) visit(record);
    if (record.type == LogRecordType::kBroken || (record.type == LogRecordType::kPut && !record.crc_ok)) return false;
  }
  return true;
}

constexpr std::array<std::pair<IntegrityChangeKind, const char*>, 4> kIntegrityChangeKindNames = {{
    {IntegrityChangeKind::kCorrupt, "corrupt"},
    {IntegrityChangeKind::kCrcMismatch, "crc_mismatch"},
    {IntegrityChangeKind::kDropped, "dropped"},
    {IntegrityChangeKind::kTornRecord, "torn_record"},
}};

}  // namespace

const char* integrity_change_kind_name(IntegrityChangeKind kind) {
  for (const auto& [value, text] : kIntegrityChangeKindNames)
    if (value == kind) return text;
  return "unknown";
}

IntegrityPlan plan_integrity_repair(const ChannelLog& log, const std::set<std::uint64_t>& drop_offsets,
                                    Reporter* reporter, const LogRecordVisitor& visit) {
  IntegrityPlan plan;
  plan.log_path = log.layout().path;
  plan.file_id = log.file_id();
  plan.file_size = log.bytes().size();
  auto refuse = [&](const char* code, std::string message) {
    reporter->report(Finding{Severity::kError, code, plan.log_path, std::nullopt, std::move(message)});
    return plan;
  };
  const bool encrypted = log.metadata() && log.metadata()->encryption;
  if (log.version() != 3 && drop_offsets.empty() && log.readable() && reads_cleanly(log, visit)) {
    plan.checked = true;  // nothing to repair, so nothing the tool's V2 limits would stop
    return plan;
  }
  if (log.version() != 3)
    return refuse("integrity_unsupported",
                  "expected a V3 log, found V2: its records have no length, so a NOOP'd one cannot be skipped; "
                  "the integrity tool does not handle V2 logs");
  if (encrypted && log.cipher() == nullptr)
    return refuse("integrity_unsupported",
                  "expected an unencrypted log or its key, found an encrypted log without a key; not checked");
  if (!log.readable()) return refuse("integrity_unreadable", "the log cannot be read; not checked");
  plan.checked = true;
  Planner(log, drop_offsets, reporter, &plan, visit).run();
  return plan;
}

std::vector<BytePatch> integrity_patches(const IntegrityPlan& plan) {
  std::vector<BytePatch> patches;
  for (const IntegrityChange& c : plan.changes)
    patches.push_back(BytePatch{c.offset, std::string(1, static_cast<char>(c.old_byte)),
                                std::string(1, static_cast<char>(c.new_byte))});
  return patches;
}

std::string patched_bytes(ByteSpan original, const IntegrityPlan& plan) {
  return qjt::patched_bytes(original, integrity_patches(plan));
}

bool apply_integrity_plan(const std::string& log_path, const IntegrityPlan& plan, std::string* error) {
  return patch_file_atomically(log_path, plan.file_size, integrity_patches(plan), error);
}

}  // namespace qjt::flume
