#include "generated_files.h"

#include <unistd.h>

#include <fmt/format.h>

#include "interrupt.h"

namespace qjt {

GeneratedFiles::~GeneratedFiles() {
  for (const File& f : files_)
    if (!f.installed) remove_temp(f.temp);
}

std::unique_ptr<FileWriter> GeneratedFiles::create(const std::string& final_path, std::string* error) {
  File f{fmt::format("{}~~qjt-gen.{}", final_path, ::getpid()), final_path};
  auto out = FileWriter::create(f.temp, error);
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
    if (!durable_rename(f.temp, f.final_path, error)) return false;
    f.installed = true;
  }
  note_committed(what);
  return true;
}

}  // namespace qjt
