#include "flume/inflight_file.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <limits>

namespace qjt::flume {

namespace {

using Md5 = std::array<std::uint8_t, kInflightChecksumSize>;

Md5 md5(ByteSpan bytes) {
  Md5 digest{};
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_md5(), nullptr);
  return digest;
}

std::string hex(ByteSpan bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) out += fmt::format("{:02x}", bytes[i]);
  return out;
}

void report(Reporter* reporter, std::string_view code, std::string_view file, std::uint64_t offset,
            std::string message) {
  if (reporter == nullptr) return;
  reporter->report(Finding{Severity::kError, std::string(code), std::string(file), offset, std::move(message)});
}

bool check_checksum(ByteSpan bytes, std::string_view file, Reporter* reporter) {
  const ByteSpan stored = bytes.subspan(0, kInflightChecksumSize);
  const Md5 computed = md5(bytes.subspan(kInflightChecksumSize));
  if (std::equal(computed.begin(), computed.end(), stored.data())) return true;
  report(reporter, "inflight_checksum", file, 0,
         fmt::format("expected MD5 {} of bytes 16 to the end, found {}",
                     hex(ByteSpan(computed.data(), computed.size())), hex(stored)));
  return false;
}

// Java's (int) cast of the count; anything it changes is worth a finding.
std::int32_t java_int_count(std::int64_t count, std::uint64_t offset, std::string_view file, Reporter* reporter) {
  const auto as_int = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(count)));
  if (count < 0 || count > std::numeric_limits<std::int32_t>::max())
    report(reporter, "inflight_count", file, offset,
           fmt::format("expected an event count from 0 to 2147483647, found {} (Flume reads {} pointers)", count,
                       std::max(as_int, 0)));
  return as_int;
}

void report_short_tail(ByteReader& reader, std::size_t start, std::string_view what, std::string_view file,
                       Reporter* reporter) {
  report(reporter, "inflight_truncated", file, start,
         fmt::format("expected {}, found {} bytes before the end of the file", what, reader.remaining()));
}

// One {txnID, n, pointers} entry; false when the tail is too short for it.
bool read_transaction(ByteReader& reader, std::string_view file, Reporter* reporter, InflightTransaction* out) {
  const std::size_t start = reader.position();
  std::int64_t count = 0;
  if (!reader.read_i64_be(&out->transaction_id) || !reader.read_i64_be(&count)) {
    report_short_tail(reader, start, "a transaction ID and an event count (16 bytes)", file, reporter);
    return false;
  }
  out->offset = start;
  const std::int32_t wanted = java_int_count(count, start + 8, file, reporter);
  const std::size_t available = reader.remaining() / 8;
  const std::size_t n = wanted < 0 ? 0 : static_cast<std::size_t>(wanted);
  out->pointers.reserve(std::min(n, available));
  for (std::int64_t value = 0; out->pointers.size() < n && reader.read_i64_be(&value);)
    out->pointers.push_back(EventPointer::from_long(value));
  if (out->pointers.size() == n) return true;
  report_short_tail(
      reader, reader.position(),
      fmt::format("{} more event pointers of transaction {}", n - out->pointers.size(), out->transaction_id), file,
      reporter);
  return false;
}

void append_be64(std::string* out, std::int64_t value) {
  const auto bits = static_cast<std::uint64_t>(value);
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>((bits >> shift) & 0xFF));
}

}  // namespace

InflightFile decode_inflight(ByteSpan bytes, std::string_view file, Reporter* reporter) {
  InflightFile out;
  if (bytes.empty()) return out;
  if (bytes.size() < kInflightChecksumSize) {
    report(reporter, "inflight_length", file, 0,
           fmt::format("expected an empty file or at least the 16-byte checksum, found {} bytes", bytes.size()));
    out.checksum_ok = false;
    out.complete = false;
    return out;
  }
  out.checksum_ok = check_checksum(bytes, file, reporter);
  ByteReader reader(bytes, kInflightChecksumSize);
  while (reader.remaining() > 0) {
    InflightTransaction transaction;
    const bool whole = read_transaction(reader, file, reporter, &transaction);
    if (!transaction.pointers.empty()) out.transactions.push_back(std::move(transaction));
    if (!whole) {
      out.complete = false;
      break;
    }
  }
  return out;
}

std::string encode_inflight(const std::vector<InflightTransaction>& transactions) {
  std::string payload;
  for (const InflightTransaction& transaction : transactions) {
    append_be64(&payload, transaction.transaction_id);
    append_be64(&payload, static_cast<std::int64_t>(transaction.pointers.size()));
    for (const EventPointer& pointer : transaction.pointers) append_be64(&payload, pointer.to_long());
  }
  payload.append(kInflightChecksumSize, '\0');  // Flume's off-by-16, covered by the checksum
  const Md5 checksum = md5(ByteSpan(payload));
  std::string out(checksum.begin(), checksum.end());
  out += payload;
  return out;
}

}  // namespace qjt::flume
