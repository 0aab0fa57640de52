// flume_log_encrypted: an encrypted Flume V3 data log, the whole input,
// under the key and IV testdata/flume/encrypted's log-2 uses (AES-128-CTR,
// key 000102..0f), so the seed corpus starts from a real encrypted log.
// Walks every record through LogReader's decryption (checksums verified),
// looks for the next decodable record after each one as repair's salvage
// does, and checks that the reader never stands still or goes past the end.
#include "flume/aes_ctr.h"
#include "flume/log_reader.h"
#include "fuzz_support.h"

using namespace qjt;
using namespace qjt::flume;

namespace {

const std::string kKey("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f", 16);
const std::string kIv("\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\x00\x00\x00\x01", 16);

AesCtr make_cipher() {
  std::string error;
  auto cipher = AesCtr::create(ByteSpan(kKey), ByteSpan(kIv), &error);
  FUZZ_CHECK(cipher.has_value());
  return std::move(*cipher);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static AesCtr cipher = make_cipher();
  const ByteSpan file = fuzz::bytes(data, size);
  LogReader reader(file, 3, 0, &cipher);
  LogRecord record;
  std::uint64_t last = 0;
  bool first = true;
  while (reader.next(&record)) {
    FUZZ_CHECK(record.offset <= size);
    FUZZ_CHECK(first || record.offset > last);
    first = false;
    last = record.offset;
    if (record.type == LogRecordType::kPut) (void)crc_mismatch_message(record);
    if (const auto next = find_decodable_record(file, record.offset + 1, &cipher)) FUZZ_CHECK(*next < size);
  }
  (void)reader.data_after_end_fill();
  return 0;
}
