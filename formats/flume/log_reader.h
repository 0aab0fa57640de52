// LogReader: reads a Flume data log (log-N), V2 or V3, record by record,
// exactly as Flume's LogFile.SequentialReader walks it (spec §5.1-5.3).
//
// Contract:
//  - At the current offset one byte decides: 0x7F = a record (decoded by the
//    version's rules), 0x80 = end of data (the preallocated fill), 0x00 = a
//    NOOP (int32 BE length at offset+1, skipped), anything else = kBroken.
//    The physical end of the file is also end of data.
//  - Every file yields its records, then exactly one terminal record:
//    kEndOfData or kBroken. next() returns false after that. Nothing after
//    a kBroken record is decoded, as Flume stops reading the file there.
//  - The same loop serves V2, as in Flume, though a V2 record has no length
//    after its OP byte: a NOOP'd V2 record cannot be skipped correctly.
//  - A V3 put whose stored checksum does not match stays a kPut with
//    crc_ok = false and reading goes on: its framing is intact.
//  - A kBroken record's size is 5 + L when a V3 record's framing was intact
//    (so a repair can NOOP exactly that record), otherwise 0.
//  - Zero-copy: views in the record point into the file bytes (over an
//    InputFile, into the ReadWindow it is read through), or for an
//    encrypted V3 log into this reader's decryption buffer, and stay valid
//    until the next call to next(). Decoding allocates nothing per record in
//    steady state (the header vector and the buffer are reused) and never
//    trusts a length or count beyond checking it against the bytes present.
//  - Over an InputFile the log is read forward with pread(2) into a reused
//    buffer (lib/read_window.h), never walked through the mapping: a pass
//    over a whole log leaves none of it resident in this process. A record
//    longer than the buffer is viewed in the mapping. Over a ByteSpan (a
//    random read of one record, a test) the span is viewed directly.
//  - Progress (progress.h) hears of the records and bytes read in batches
//    (ReadTally, the window), not per record.
//  - Deliberately as lenient as Flume where Flume is: unknown protobuf
//    fields (and known ones of another wire type, which protobuf-java
//    treats as unknown) are skipped, bytes after the V3 footer are ignored,
//    the V2 per-header type bytes are not checked, a negative V2 header
//    count means no headers, duplicate header keys are all kept (Flume's map
//    keeps the last).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "finding.h"
#include "flume/aes_ctr.h"
#include "flume/log_record.h"
#include "input_file.h"
#include "read_tally.h"
#include "read_window.h"

namespace qjt::flume {

inline constexpr std::uint8_t kOpRecord = 0x7F;
inline constexpr std::uint8_t kOpEof = 0x80;
inline constexpr std::uint8_t kOpNoop = 0x00;

// The 24-byte big-endian header of a V2 log (spec §5.2); records follow it.
struct V2LogHeader {
  std::int32_t version = 2;
  std::int32_t file_id = 0;
  std::int64_t checkpoint_position = 0;  // 0 = no checkpoint yet
  std::int64_t checkpoint_write_order_id = 0;
};
inline constexpr std::size_t kV2LogHeaderSize = 24;

// Decodes the V2 header of `file` (named `path` in findings). Reports:
//  - error "log_header_truncated": fewer than 24 bytes (returns nullopt);
//  - error "log_header_version": version is not 2 (returns nullopt: Flume
//    refuses the file);
//  - error "log_file_id_mismatch": expected_file_id (from the name log-N)
//    is given and differs;
//  - error "log_checkpoint_position": a nonzero checkpoint position inside
//    the header or past the end of the file.
std::optional<V2LogHeader> read_v2_log_header(ByteSpan file, const std::string& path,
                                              std::optional<std::int32_t> expected_file_id, Reporter* reporter);

// Hadoop's WritableUtils.readVInt (zero-compressed, big-endian magnitude):
// false, cursor unchanged, when truncated or outside int32.
bool read_hadoop_vint(ByteReader* in, std::int32_t* value);

// The offset of the first byte at or after `from` that is not the 0x80 fill,
// or nullopt when there is none. Word-at-a-time scan.
std::optional<std::size_t> find_first_non_fill(ByteSpan file, std::size_t from);

// The offset of the first V3 record at or after `from` whose framing
// holds, that decodes and whose CRC32 (for a put) matches, or nullopt: where
// reading can pick up again after damage. `decryptor` as for LogReader.
std::optional<std::size_t> find_decodable_record(ByteSpan file, std::size_t from, AesCtr* decryptor = nullptr);

class LogReader {
 public:
  // `version` is 2 or 3 (anything else yields one kBroken record); `start`
  // is the offset of the first record: 24 for a whole V2 file, 0 for V3, or
  // a checkpoint position. `decryptor`, for an encrypted V3 log, must
  // outlive the reader.
  LogReader(ByteSpan file, int version, std::uint64_t start, AesCtr* decryptor = nullptr);
  // The same over `file`, read through a ReadWindow; `window_capacity` is
  // for tests, which shrink it to cross its edges.
  LogReader(const InputFile& file, int version, std::uint64_t start, AesCtr* decryptor = nullptr,
            std::size_t window_capacity = ReadWindow::kDefaultCapacity);

  // Fills *record with the next record; false once the terminal record has
  // been returned.
  bool next(LogRecord* record);

  // Starts reading again at `offset`, as a new reader from there would,
  // keeping the window and its buffer: Flume's RandomReader, which reads
  // the record a queue pointer names, costs no syscall while the pointers
  // stay inside the bytes the window holds.
  void seek(std::uint64_t offset);
  // The byte at `offset` < the file's size, through the window.
  std::uint8_t byte(std::uint64_t offset) { return byte_at(static_cast<std::size_t>(offset)); }

  // Whether puts' stored checksums are checked (the default, as Flume
  // does). The CRC over every body is most of the reading cost, so a
  // caller that only lists records may turn it off: stored_crc is still
  // filled, crc_ok then stays true.
  void set_verify_checksums(bool verify) { verify_checksums_ = verify; }

  // After a kEndOfData at a 0x80 byte: the offset of the first later byte
  // that is not 0x80 ("records after the end-of-data fill"), else nullopt.
  // Scans the rest of the file on each call, so callers ask only when they
  // want to know.
  std::optional<std::uint64_t> data_after_end_fill() const;

 private:
  // next() without the counting; true.
  bool decode_next(LogRecord* record);
  bool end_of_data(LogRecord* record);
  bool broken(LogRecord* record, std::string message);
  bool skip_noop(LogRecord* record);
  bool read_length(LogRecord* record, const char* what, std::size_t* length);
  bool read_v3(LogRecord* record);
  bool read_v2(LogRecord* record);
  bool decrypt(ByteSpan* payload);
  std::uint8_t byte_at(std::size_t offset) { return window_.view(offset, 1)[0]; }

  ByteSpan file_;      // the whole log, for the scans past the end of data
  ReadWindow window_;  // the log, read forward
  std::size_t size_;
  int version_;
  std::uint64_t start_;
  std::size_t position_;
  AesCtr* decryptor_;
  std::vector<std::uint8_t> plaintext_;  // decrypted payload, reused
  bool verify_checksums_ = true;
  bool started_ = false;
  bool done_ = false;
  std::optional<std::size_t> fill_start_;  // offset of the 0x80 that ended the data
  ReadTally tally_;                        // records and bytes, for progress
};

}  // namespace qjt::flume
