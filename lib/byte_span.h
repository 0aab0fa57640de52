// ByteSpan: a non-owning view of bytes, and ByteReader: a cursor over one
// with bounds-checked little- and big-endian integer reads.
//
// Contract: nothing here allocates or copies. Every read either succeeds and
// advances the cursor, or fails and leaves the cursor where it was, so a
// decoder can report the exact offset at which the input ran out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace qjt {

class ByteSpan {
 public:
  constexpr ByteSpan() = default;
  constexpr ByteSpan(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  explicit ByteSpan(std::string_view s) : data_(reinterpret_cast<const std::uint8_t*>(s.data())), size_(s.size()) {}

  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::uint8_t operator[](std::size_t i) const { return data_[i]; }

  // Bytes [offset, offset + length), clamped to the span.
  ByteSpan subspan(std::size_t offset, std::size_t length) const {
    if (offset > size_) offset = size_;
    if (length > size_ - offset) length = size_ - offset;
    return ByteSpan(data_ + offset, length);
  }
  ByteSpan subspan(std::size_t offset) const { return subspan(offset, size_); }

  std::string_view as_chars() const { return std::string_view(reinterpret_cast<const char*>(data_), size_); }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

class ByteReader {
 public:
  explicit ByteReader(ByteSpan bytes, std::size_t position = 0)
      : bytes_(bytes), position_(position <= bytes.size() ? position : bytes.size()) {}

  std::size_t position() const { return position_; }
  std::size_t remaining() const { return bytes_.size() - position_; }

  bool read_u8(std::uint8_t* out) {
    if (remaining() < 1) return false;
    *out = bytes_[position_++];
    return true;
  }
  bool read_i32_le(std::int32_t* out) { return read_le(out); }
  bool read_i64_le(std::int64_t* out) { return read_le(out); }
  bool read_u32_le(std::uint32_t* out) { return read_le(out); }
  bool read_i32_be(std::int32_t* out) { return read_be(out); }
  bool read_i64_be(std::int64_t* out) { return read_be(out); }
  bool read_u32_be(std::uint32_t* out) { return read_be(out); }

  // A view of the next `length` bytes; fails when fewer remain.
  bool read_span(std::size_t length, ByteSpan* out) {
    if (remaining() < length) return false;
    *out = bytes_.subspan(position_, length);
    position_ += length;
    return true;
  }

 private:
  template <typename T>
  bool read_le(T* out) {
    using U = std::make_unsigned_t<T>;
    if (remaining() < sizeof(T)) return false;
    U value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      value = static_cast<U>(value | static_cast<U>(static_cast<U>(bytes_[position_ + i]) << (8 * i)));
    position_ += sizeof(T);
    *out = static_cast<T>(value);
    return true;
  }
  template <typename T>
  bool read_be(T* out) {
    using U = std::make_unsigned_t<T>;
    if (remaining() < sizeof(T)) return false;
    U value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      value = static_cast<U>(static_cast<U>(value << 8) | bytes_[position_ + i]);
    position_ += sizeof(T);
    *out = static_cast<T>(value);
    return true;
  }

  ByteSpan bytes_;
  std::size_t position_;
};

}  // namespace qjt
