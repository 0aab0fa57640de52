// Shared by the Flume fuzz targets: `qjt dump --json` of one file in memory.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "flume/file_dump.h"
#include "fuzz_support.h"

namespace qjt::fuzz {

// The JSON lines dump_file prints for `bytes` read as `kind`, one per entry.
inline std::vector<std::string> flume_dump(std::string_view path, ByteSpan bytes, flume::FileKind kind,
                                           Reporter* reporter) {
  flume::FileDumpOptions options;
  options.json = true;
  options.mode = DataMode::kBase64;
  std::string out;
  std::vector<std::string> lines;
  auto flush = [&] {
    std::string_view rest = out;
    for (std::size_t nl; (nl = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(nl + 1)) {
      lines.emplace_back(rest.substr(0, nl));
    }
    out.erase(0, out.size() - rest.size());
  };
  flume::dump_file(std::string(path), bytes, kind, options, &out, flush, reporter);
  flush();
  return lines;
}

}  // namespace qjt::fuzz
