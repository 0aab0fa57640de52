// Integrity repair: what Flume's FileChannelIntegrityTool (spec §7.2) would
// change in one V3 data log, as a plan of single-byte changes, and the
// atomic application of that plan.
//
// Contract of plan_integrity_repair (reads only, changes nothing):
//  - The log is walked as the tool walks it: LogFileV3.SequentialReader
//    from offset 0, checkpoint marks ignored (FileChannelIntegrityTool.run
//    opens `new LogFileV3.SequentialReader(dataFile, null, true)` and never
//    seeks). NOOP records are stepped over by their length (LogFile.
//    SequentialReader.next, skipRecord); 0x80 or the end of the file ends
//    the walk.
//  - A record that cannot be decoded, or a put whose CRC32 does not match,
//    gets 0x00 over its OP byte and nothing else, as the tool's
//    OperationRecordUpdater.markRecordAsNoop writes it. The walk then goes
//    on after the record, 5 + L bytes on: readDelimitedBuffer has read the
//    whole payload (readInt, readFully) before fromByteArray or Put's CRC
//    check throws CorruptEventException, and the tool's loop simply calls
//    next() again from there.
//  - A put whose offset is in `drop_offsets` (the operator's --drop-event
//    FILE_ID:OFFSET, as the tool's EventValidator returning false) is
//    neutralised the same way. An offset there that the walk does not meet
//    as a put is an error finding (integrity_drop_not_a_put), no change.
//  - A torn record at the end (a crash cut it short) is made to read as
//    Flume reads it. Flume's reader (LogFile.SequentialReader.next) turns
//    an EOFException into "no more records", and the tool's NOOP over a
//    record whose length runs past the end makes skipRecord's skipBytes
//    stop at the end, so next() returns null there too: for Flume such a
//    file ends at the torn record either way. So:
//      * length inside the file (its payload runs into the 0x80 fill): the
//        record is corrupt like any other: 0x00, exactly as the tool;
//      * fewer than 4 length bytes, a length past the end of the file, or a
//        negative length with nothing but 0x80 fill after the OP byte (the
//        crash left only the OP byte; the tool would NOOP it and read on at
//        offset + 5, in the fill): 0x80 over the OP byte, end of data. The
//        tool writes 0x00 (or, for fewer than 4 length bytes, nothing), but
//        a NOOP whose length cannot be skipped is broken to qjt's reader,
//        while 0x80 reads as the end of the data to both, as Flume already
//        reads it. The same rule turns a NOOP such a tool run left into
//        0x80.
//    A record is torn only when nothing decodable follows it: a crash
//    leaves no record after the one it cut short, so a length past the end
//    with a record further on that decodes (framing, protobuf and CRC32
//    intact) is a damaged length in mid-log, below. Taking it for a torn
//    tail would end the log there and lose every record after it.
//  - Where the framing is lost in mid-file (an OP byte that is none of
//    0x7F, 0x00, 0x80; a negative length followed by data; a length past
//    the end with a decodable record after it; a record that does not
//    decode and whose length, skipped, lands inside data rather than where
//    a record, a NOOP or the 0x80 fill begins, with a decodable record
//    after it: its length is the damage) the tool cannot
//    skip past it safely: error finding integrity_unrepairable, the walk
//    stops there, nothing is planned for that spot.
//  - Deviations from the tool, each for a file Flume reads better: a
//    corrupt record right after an existing NOOP is neutralised itself (the
//    tool takes the position before next() skips the NOOP and writes 0x00
//    over the NOOP's own byte again, leaving the corrupt record); an unknown
//    record type or a missing header/footer is neutralised (the tool dies on
//    a NullPointerException there, and so would replay).
//  - V2 logs are not handled (no length field: a NOOP'd V2 record cannot be
//    skipped): a V2 log whose records all decode is checked and needs
//    nothing; one with a broken record, or one asked to drop an event,
//    gets finding integrity_unsupported, no changes. Encrypted logs:
//    the tool opens them with no key and dies; qjt plans them when the
//    ChannelLog has the key's cipher (OP bytes and lengths are clear, each
//    record decrypts on its own), else integrity_unsupported. If no record
//    of an encrypted log decodes at all, the key is more likely wrong than
//    every record corrupt: integrity_suspect_key, no changes.
//
// apply_integrity_plan replaces the file whole (write_file_atomically:
// temp, fsync, rename, directory fsync) instead of writing in place, so a
// backup the caller made as a hard link (durable_copy) keeps the old bytes.
// Backups and locks are the caller's business.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "byte_patch.h"
#include "byte_span.h"
#include "finding.h"
#include "flume/channel_logs.h"

namespace qjt::flume {

enum class IntegrityChangeKind {
  kCorrupt,      // the record cannot be decoded
  kCrcMismatch,  // a put whose stored CRC32 does not match its body
  kDropped,      // a put the operator asked to drop
  kTornRecord,   // the last record, cut short by a crash
};
// "corrupt", "crc_mismatch", "dropped", "torn_record"
const char* integrity_change_kind_name(IntegrityChangeKind kind);

struct IntegrityChange {
  std::uint64_t offset = 0;  // of the record's OP byte
  std::uint8_t old_byte = 0x7F;
  std::uint8_t new_byte = 0x00;
  IntegrityChangeKind kind = IntegrityChangeKind::kCorrupt;
  std::string reason;  // the decode error, "CRC32 mismatch ...", "dropped by request", "torn record: ..."
};

struct IntegrityPlan {
  std::string log_path;
  std::int32_t file_id = 0;
  std::uint64_t file_size = 0;           // of the file planned; apply refuses another size
  bool checked = false;                  // false: the log was not walked (unsupported, unreadable)
  std::vector<IntegrityChange> changes;  // ascending offsets, at most one per offset
  // What the walk met (the tool's summary counts, in qjt's terms).
  std::uint64_t records = 0;  // records decoded (puts included)
  std::uint64_t puts = 0;     // puts decoded, CRC-failing ones included
  std::uint64_t noops = 0;    // NOOPs already present, stepped over
};

// Plans the repair of `log` (see the contract above). Findings go to
// `reporter`: integrity_unsupported, integrity_unreadable,
// integrity_suspect_key, integrity_unrepairable, integrity_drop_not_a_put
// (errors) and integrity_drop_noop (warning: already a NOOP).
// `visit`, when given, sees every record the walk reads, in order: another
// reader of the same records (a rebuild, a history) can ride on this walk
// instead of reading the log again.
using LogRecordVisitor = std::function<void(const LogRecord&)>;
IntegrityPlan plan_integrity_repair(const ChannelLog& log, const std::set<std::uint64_t>& drop_offsets,
                                    Reporter* reporter, const LogRecordVisitor& visit = nullptr);

// The plan's changes as byte patches (one byte each, ascending offsets).
std::vector<BytePatch> integrity_patches(const IntegrityPlan& plan);

// `original` with every planned change made; a change whose offset lies
// outside `original` is ignored (apply checks before it gets here).
std::string patched_bytes(ByteSpan original, const IntegrityPlan& plan);

// Rewrites `log_path` with the plan's changes, atomically. Refuses (false,
// *error says why, the file untouched) when the file cannot be read, its
// size is not the plan's, or any planned offset does not hold its old
// byte. An empty plan writes nothing and succeeds.
bool apply_integrity_plan(const std::string& log_path, const IntegrityPlan& plan, std::string* error);

}  // namespace qjt::flume
