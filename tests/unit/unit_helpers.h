// Small helpers shared by the unit tests. Byte vectors in the tests are
// written out by hand from the spec; these only make them readable.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "byte_span.h"

namespace qjt_test {

using Bytes = std::vector<std::uint8_t>;

inline qjt::ByteSpan span(const Bytes& b) { return qjt::ByteSpan(b.data(), b.size()); }

// Concatenates byte groups: cat({0x02}, le32(...), ...).
inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

inline Bytes text(std::string_view s) { return Bytes(s.begin(), s.end()); }

inline std::string as_string(qjt::ByteSpan s) { return std::string(s.as_chars()); }

inline bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

// The whole content of `path` ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_file(const std::filesystem::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// The gunzipped content of ../shared/fixtures/<relative> (e.g.
// "flume-v2/fileformat-v2-log-1.gz"), or nullopt when the shared fixtures
// are not on this machine. Tests that use it say so with
// MESSAGE when they have nothing to read; they never copy fixtures into
// the repository.
std::optional<Bytes> read_shared_fixture_gz(std::string_view relative);

// A pipe fed `bytes` by a thread in pieces of random sizes (1 byte to
// 1 MiB, mostly small, from `seed`), so that a reader's reads end anywhere;
// path() names its reading end. The destructor drains what the reader left
// and waits for the writer.
class PipeFeeder {
 public:
  PipeFeeder(const Bytes& bytes, std::uint64_t seed);
  ~PipeFeeder();
  PipeFeeder(const PipeFeeder&) = delete;
  PipeFeeder& operator=(const PipeFeeder&) = delete;
  const std::string& path() const { return path_; }

 private:
  int read_fd_ = -1;
  std::string path_;
  std::thread writer_;
};

// The environment variable `name` set to `value` for the object's life,
// then put back as it was (QJT_NOW_MS, TZ).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A fresh directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  explicit TempDir(std::string_view tag);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace qjt_test
