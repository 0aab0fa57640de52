#include "generated_files.h"

#include <unistd.h>

#include <fmt/format.h>

#include "interrupt.h"

namespace qjt {

std::unique_ptr<FileWriter> create_generated(const std::string& temp, const std::string& final_path,
                                             std::string* error) {
  auto out = FileWriter::create(temp, error);
  if (const std::size_t at = error->find(temp); !out && at != std::string::npos)
    error->replace(at, temp.size(), final_path);
  return out;
}

GeneratedFiles::~GeneratedFiles() {
  for (const File& f : files_)
    if (!f.installed) remove_temp(f.temp);
}

std::unique_ptr<FileWriter> GeneratedFiles::create(const std::string& final_path, std::string* error) {
  File f{fmt::format("{}~~qjt-gen.{}", final_path, ::getpid()), final_path};
  auto out = create_generated(f.temp, final_path, error);
  if (out) files_.push_back(std::move(f));
  return out;
}

bool GeneratedFiles::write_whole(const std::string& final_path, const std::string& bytes, std::string* error) {
  const auto out = create(final_path, error);
  return out && out->append(ByteSpan(bytes), error) && out->sync(error);
}

std::string GeneratedFiles::temp_of(const std::string& final_path) const {
  for (const File& f : files_)
    if (f.final_path == final_path) return f.temp;
  return "";
}

bool GeneratedFiles::install(const std::vector<std::string>& stale, const std::string& what, std::string* error) {
  CommitSection commit;
  for (const std::string& path : stale)
    if (!durable_remove(path, error)) return false;
  for (File& f : files_) {
    if (!durable_rename(f.temp, f.final_path, error)) {
      // Renamed, then the directory's fsync failed: it is in place too.
      if (::access(f.temp.c_str(), F_OK) != 0) f.installed = true;
      take_back();
      return false;
    }
    f.installed = true;
  }
  if (what.empty()) {  // staged: removed by an interrupt until the caller commits
    for (const File& f : files_) track_created(f.final_path);
  } else {
    note_committed(what);
  }
  return true;
}

// A failed install removes what it put in place: the outputs are all
// there, or none is.
void GeneratedFiles::take_back() {
  for (File& f : files_) {
    std::string ignored;
    if (f.installed && durable_remove(f.final_path, &ignored)) f.installed = false;
  }
}

}  // namespace qjt
