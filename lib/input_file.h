// InputFile: the whole content of one input, read-only.
//
// Regular files are memory-mapped, so decoders see the bytes without a copy
// and the kernel pages them in as they are touched. Anything that cannot be
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

 private:
  InputFile() = default;

  std::string name_;
  ByteSpan bytes_;
  void* mapping_ = nullptr;
  std::size_t mapping_size_ = 0;
  std::string buffer_;
};

}  // namespace qjt
