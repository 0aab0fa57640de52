// ChunkedDeque: a double-ended queue in large fixed chunks, for the one
// container that grows with a journal's live items.
//
// std::deque allocates and frees a 512-byte block every few elements; a
// replay pushing and popping hundreds of millions of items spends more time
// in malloc and free than in decoding. Here a chunk holds kChunk elements,
// the tail chunk is reached without indexing, and the chunk just emptied at
// the head is kept for the next one needed at the tail, so a queue that
// stays about the same size allocates nothing. By default a chunk is one
// 2 MiB huge page (chunk_storage.h).
#pragma once

#include <cstddef>
#include <deque>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>

#include "chunk_storage.h"

namespace qjt {

template <typename T, std::size_t kChunk = kHugePageBytes / sizeof(T)>
class ChunkedDeque {
  // Chunks are raw storage, constructed slot by slot as they are filled.
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    const_iterator(const ChunkedDeque* deque, std::size_t index) : deque_(deque), index_(index) {}
    const T& operator*() const { return (*deque_)[index_]; }
    const T* operator->() const { return &(*deque_)[index_]; }
    const_iterator& operator++() {
      ++index_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++index_;
      return before;
    }
    bool operator==(const const_iterator& other) const { return index_ == other.index_; }
    bool operator!=(const const_iterator& other) const { return index_ != other.index_; }

   private:
    const ChunkedDeque* deque_;
    std::size_t index_;
  };

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return slot(head_ + i); }
  const T& front() const { return slot(head_); }
  const T& back() const { return slot(head_ + size_ - 1); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size_); }

  void push_back(const T& value) {
    if (tail_fill_ == kChunk) {
      chunks_.push_back(take_chunk());
      tail_ = data(chunks_.back());
      tail_fill_ = 0;
    }
    std::construct_at(tail_ + tail_fill_++, value);
    ++size_;
  }

  void push_front(const T& value) {
    if (head_ == 0) {
      chunks_.push_front(take_chunk());
      head_ = kChunk;
      if (chunks_.size() == 1) {  // the new chunk is the tail chunk too
        tail_ = data(chunks_.back());
        tail_fill_ = kChunk;
      }
    }
    std::construct_at(data(chunks_.front()) + --head_, value);
    ++size_;
  }

  void pop_front() {
    ++head_;
    --size_;
    if (size_ == 0) {  // start over at the beginning of one chunk
      while (chunks_.size() > 1) chunks_.pop_back();
      head_ = 0;
      tail_ = data(chunks_.front());
      tail_fill_ = 0;
    } else if (head_ == kChunk) {
      spare_ = std::move(chunks_.front());
      chunks_.pop_front();
      head_ = 0;
    }
  }

 private:
  // Whole huge pages when the chunk fills most of one; exact size otherwise.
  static constexpr std::size_t kChunkBytes =
      kChunk * sizeof(T) * 8 >= kHugePageBytes * 7
          ? (kChunk * sizeof(T) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes
          : kChunk * sizeof(T);
  struct FreeChunk {
    void operator()(std::byte* storage) const { free_chunk_storage(storage, kChunkBytes); }
  };
  using Chunk = std::unique_ptr<std::byte, FreeChunk>;
  static T* data(const Chunk& chunk) { return std::launder(reinterpret_cast<T*>(chunk.get())); }
  const T& slot(std::size_t i) const { return data(chunks_[i / kChunk])[i % kChunk]; }
  Chunk take_chunk() {
    if (spare_) return std::move(spare_);
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    return Chunk(static_cast<std::byte*>(allocate_chunk_storage(kChunkBytes)));
  }

  std::deque<Chunk> chunks_;
  Chunk spare_;
  std::size_t head_ = 0;            // index of the front element in chunks_.front()
  T* tail_ = nullptr;               // data(chunks_.back())
  std::size_t tail_fill_ = kChunk;  // elements used in the tail chunk (kChunk: take a new one)
  std::size_t size_ = 0;
};

}  // namespace qjt
