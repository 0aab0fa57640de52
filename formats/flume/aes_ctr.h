// AesCtr: Flume's only built-in log cipher, AES/CTR/NoPadding (spec §5.3),
// over OpenSSL's EVP interface.
//
// Contract: Flume's writer reuses one Cipher whose doFinal resets it, so
// every record payload of a file is encrypted from the same 16-byte IV with
// the counter restarting there. apply() therefore restarts the counter at
// the IV on every call: one call = one record payload. CTR encryption and
// decryption are the same operation, so one object serves both the reader
// and the writer. The key length picks the variant: 16, 24 or 32 bytes =
// AES-128, -192 or -256. Not thread-safe (one OpenSSL context per object).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "byte_span.h"

struct evp_cipher_ctx_st;  // OpenSSL's EVP_CIPHER_CTX, kept out of this header

namespace qjt::flume {

class AesCtr {
 public:
  static constexpr std::size_t kIvSize = 16;

  // nullopt, with *error saying why, when the key is not 16, 24 or 32
  // bytes, the IV is not 16 bytes, or OpenSSL refuses the key.
  static std::optional<AesCtr> create(ByteSpan key, ByteSpan iv, std::string* error);

  // Writes `length` bytes of in XOR key stream (counter restarted at the IV)
  // to out. in and out may be the same buffer, not otherwise overlapping.
  // False only if OpenSSL fails.
  bool apply(const std::uint8_t* in, std::size_t length, std::uint8_t* out);

  AesCtr(AesCtr&&) noexcept = default;
  AesCtr& operator=(AesCtr&&) noexcept = default;

 private:
  struct ContextDeleter {
    void operator()(evp_cipher_ctx_st* context) const;
  };
  AesCtr(std::unique_ptr<evp_cipher_ctx_st, ContextDeleter> context, ByteSpan iv);

  std::unique_ptr<evp_cipher_ctx_st, ContextDeleter> context_;
  std::array<std::uint8_t, kIvSize> iv_{};
};

}  // namespace qjt::flume
