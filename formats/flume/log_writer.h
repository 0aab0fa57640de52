// Encoders for Flume data log records: the exact bytes Flume writes, so that
// what they produce can be read by Flume itself (spec §5.2, §5.3, §5.5).
//
// Contract: every function appends one whole record (or header) to *out and
// touches nothing else in it. None of them validates ids or sizes beyond
// what the format can hold (a V3 payload must fit an int32, as in Flume);
// the caller decides what to write. Preallocation (the 0x80 fill) and the
// roll to a new file are the caller's business too.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "flume/aes_ctr.h"
#include "flume/event_pointer.h"
#include "flume/log_reader.h"

namespace qjt::flume {

// One event header to write. A V3 header without a value is written
// without field 2 (Flume's null value); V2 writes it as "".
struct HeaderToWrite {
  std::string_view key;
  std::optional<std::string_view> value;
};

// Whether a V3 put carries Put.checksum: Flume since 1.4 always writes it;
// files from before lack it.
enum class PutChecksum { kPresent, kAbsent };

// V3 records: 0x7F, int32 BE payload length, payload = delimited
// TransactionEventHeader + body message + empty footer. With an encryptor
// the payload is encrypted (counter restarted at the IV for each record, as
// Flume does) and the length is the ciphertext's, which is the same.
class V3RecordWriter {
 public:
  // `encryptor` (optional) must outlive the writer.
  explicit V3RecordWriter(AesCtr* encryptor = nullptr) : encryptor_(encryptor) {}

  // False only when encryption fails (OpenSSL); *out is then as before.
  bool put(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
           std::span<const HeaderToWrite> headers, std::string_view body, PutChecksum checksum = PutChecksum::kPresent);
  bool take(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id, EventPointer taken);
  bool rollback(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id);
  // commit_type: 1 = a put transaction, 2 = a take transaction.
  bool commit(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id, std::int16_t commit_type);

 private:
  std::size_t begin(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id, std::int32_t type);
  bool finish(std::string* out, std::size_t record_start);

  AesCtr* encryptor_;
};

// The 24-byte big-endian V2 file header.
void append_v2_log_header(std::string* out, const V2LogHeader& header);

// V2 records: 0x7F, magic 0xDEADBEEF, int16 type, int64 txid, int64 woid,
// then the body as Flume 1.2/1.3's Writable code writes it. A nullopt body
// is Flume's null body (length -1).
void append_v2_put(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
                   std::span<const HeaderToWrite> headers, std::optional<std::string_view> body);
void append_v2_take(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id, EventPointer taken);
void append_v2_rollback(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id);
void append_v2_commit(std::string* out, std::int64_t transaction_id, std::int64_t write_order_id,
                      std::int16_t commit_type);

// Hadoop's WritableUtils.writeVLong: zero-compressed, big-endian magnitude.
void append_hadoop_vlong(std::string* out, std::int64_t value);

}  // namespace qjt::flume
