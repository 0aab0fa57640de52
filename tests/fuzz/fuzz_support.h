// Shared by every fuzz_<target>.cc: the input as a span or text, a check
// that traps on a broken property, and a reporter that renders each
// finding as JSON (so formatting runs on every message a decoder builds).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "byte_span.h"
#include "finding.h"
#include "json_writer.h"

namespace qjt::fuzz {

inline ByteSpan bytes(const std::uint8_t* data, std::size_t size) { return ByteSpan(data, size); }
inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A property that must hold for every input: abort (a crash libFuzzer keeps).
[[noreturn]] inline void property_failed(const char* what, const char* file, int line) {
  std::fprintf(stderr, "fuzz property failed at %s:%d: %s\n", file, line, what);
  __builtin_trap();
}
#define FUZZ_CHECK(cond) ((cond) ? (void)0 : ::qjt::fuzz::property_failed(#cond, __FILE__, __LINE__))

// Counts findings and renders each one, keeping no more than a few in memory.
class RenderingReporter : public Reporter {
 public:
  void report(Finding finding) override {
    ++count_;
    json_.clear();
    JsonWriter writer(&json_);
    write_finding_json(&writer, finding);
    FUZZ_CHECK(!json_.empty());
  }
  std::size_t count() const { return count_; }

 private:
  std::size_t count_ = 0;
  std::string json_;
};

}  // namespace qjt::fuzz
