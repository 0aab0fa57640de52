// InputFile: the whole content of one input, read-only.
//
// Regular files are memory-mapped, so decoders see the bytes without a copy
// and the kernel pages them in as they are touched; a decoder that walks a
// large file forward reads it through a ReadWindow instead (read_window.h).
// Anything that cannot be mapped (standard input given as "-", pipes,
// character devices) is read into memory once; that size is the real
// input, never a field inside it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "byte_span.h"

namespace qjt {

class InputFile {
 public:
  // Opens `path` ("-" is standard input). On failure returns nullptr and
  // sets *error to a sentence naming the path and the system's reason.
  static std::unique_ptr<InputFile> open(const std::string& path, std::string* error);

  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // The name findings and dump records use: the path as given, or "-".
  const std::string& name() const { return name_; }
  ByteSpan bytes() const { return bytes_; }

  // A new descriptor (the caller closes it) from which pread(2) gives
  // exactly bytes(): the mapped file opened again, if its path still names
  // it. -1 for inputs read into memory, once preview_write has changed the
  // mapping, and when the file cannot be opened again. Descriptors are not
  // kept open with the mapping, so a run over thousands of files needs no
  // more than the open-file limit allows.
  int open_for_reading() const;

  // Changes this process's view of the bytes at [offset, offset + size),
  // never the file: the mapping is private, so the kernel copies the pages
  // written to. A repair plan uses it to decode the file as it will read
  // once the plan is carried out. False (nothing changed) when the range is
  // not inside the input or the pages cannot be made writable.
  bool preview_write(std::size_t offset, ByteSpan bytes);

 private:
  InputFile() = default;

  std::string name_;
  ByteSpan bytes_;
  std::uint64_t device_ = 0;  // of a mapped file, to know it again
  std::uint64_t inode_ = 0;
  void* mapping_ = nullptr;
  std::size_t mapping_size_ = 0;
  bool previewed_ = false;  // preview_write changed the mapping
  std::string buffer_;
};

}  // namespace qjt
