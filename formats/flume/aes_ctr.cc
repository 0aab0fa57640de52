#include "flume/aes_ctr.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <climits>
#include <cstring>

namespace qjt::flume {
namespace {

const EVP_CIPHER* cipher_for_key_size(std::size_t size) {
  switch (size) {
    case 16:
      return EVP_aes_128_ctr();
    case 24:
      return EVP_aes_192_ctr();
    case 32:
      return EVP_aes_256_ctr();
    default:
      return nullptr;
  }
}

}  // namespace

void AesCtr::ContextDeleter::operator()(evp_cipher_ctx_st* context) const { EVP_CIPHER_CTX_free(context); }

AesCtr::AesCtr(std::unique_ptr<evp_cipher_ctx_st, ContextDeleter> context, ByteSpan iv) : context_(std::move(context)) {
  std::memcpy(iv_.data(), iv.data(), kIvSize);
}

std::optional<AesCtr> AesCtr::create(ByteSpan key, ByteSpan iv, std::string* error) {
  const EVP_CIPHER* cipher = cipher_for_key_size(key.size());
  if (cipher == nullptr) {
    *error = fmt::format("expected an AES key of 16, 24 or 32 bytes, found {} bytes", key.size());
    return std::nullopt;
  }
  if (iv.size() != kIvSize) {
    *error = fmt::format("expected a 16-byte AES/CTR IV, found {} bytes", iv.size());
    return std::nullopt;
  }
  std::unique_ptr<evp_cipher_ctx_st, ContextDeleter> context(EVP_CIPHER_CTX_new());
  if (context == nullptr || EVP_EncryptInit_ex(context.get(), cipher, nullptr, key.data(), iv.data()) != 1) {
    *error = "expected OpenSSL to accept the AES/CTR key, found it refused";
    return std::nullopt;
  }
  return AesCtr(std::move(context), iv);
}

bool AesCtr::apply(const std::uint8_t* in, std::size_t length, std::uint8_t* out) {
  // Re-setting only the IV keeps the key schedule and restarts the counter,
  // as Flume's Cipher.doFinal does after each record.
  if (EVP_EncryptInit_ex(context_.get(), nullptr, nullptr, nullptr, iv_.data()) != 1) return false;
  // EVP takes int lengths: feed larger inputs in chunks (CTR carries the
  // counter across updates).
  constexpr std::size_t kChunk = std::size_t{1} << 30;
  while (length > 0) {
    const std::size_t n = length < kChunk ? length : kChunk;
    int written = 0;
    if (EVP_EncryptUpdate(context_.get(), out, &written, in, static_cast<int>(n)) != 1) return false;
    if (static_cast<std::size_t>(written) != n) return false;
    in += n;
    out += n;
    length -= n;
  }
  return true;
}

}  // namespace qjt::flume
