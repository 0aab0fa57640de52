// InputFile: the whole content of one input, read-only.
//
// Regular files are memory-mapped, so decoders see the bytes without a copy
// and the kernel pages them in as they are touched; a decoder that walks a
// large file forward reads it through a ReadWindow instead (read_window.h). Anything that cannot be
// mapped (standard input given as "-", pipes, character devices) is read
// into memory once; that size is the real input, never a field inside it.
#pragma once

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

  // A descriptor from which pread(2) gives exactly bytes(): the mapped
  // file's, kept open for ReadWindow. -1 for inputs read into memory and
  // once preview_write has changed the mapping (windows made earlier keep
  // reading the file, so make them after previewing).
  int read_fd() const { return mapping_ != nullptr && !previewed_ ? fd_ : -1; }

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
  int fd_ = -1;  // of a mapped file, else -1
  void* mapping_ = nullptr;
  std::size_t mapping_size_ = 0;
  bool previewed_ = false;             // preview_write changed the mapping
  std::string buffer_;
};

}  // namespace qjt
