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

  // Tells the kernel that bytes [0, up_to) were consumed, so that the pages
  // of a mapped file stop counting in this process's resident memory
  // (madvise MADV_DONTNEED on the whole pages below up_to). The bytes stay
  // valid: the mapping is private, read-only and file-backed, so a later
  // access (an item's payload view) faults the page back in from the page
  // cache. A later pass over the file may call it again from a lower
  // offset. No effect on inputs read into memory.
  void release(std::size_t up_to) const;

  // Changes this process's view of the bytes at [offset, offset + size),
  // never the file: the mapping is private, so the kernel copies the pages
  // written to. A repair plan uses it to decode the file as it will read
  // once the plan is carried out. False (nothing changed) when the range is
  // not inside the input or the pages cannot be made writable. From then
  // on release() does nothing, since dropping a page would undo the change.
  bool preview_write(std::size_t offset, ByteSpan bytes);

 private:
  InputFile() = default;

  std::string name_;
  ByteSpan bytes_;
  void* mapping_ = nullptr;
  std::size_t mapping_size_ = 0;
  mutable std::size_t released_ = 0;  // bytes of the mapping already released
  bool previewed_ = false;             // preview_write changed the mapping
  std::string buffer_;
};

}  // namespace qjt
