#include "canal/tsdb_store.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "canal/restart_cursor.h"
#include "input_file.h"
#include "whole_number.h"

namespace qjt::canal {
namespace {

namespace fs = std::filesystem;

// The MVStore writes its header in each of the first two blocks.
constexpr std::size_t kHeaderBlock = 4096;

std::optional<StoreFile> store_file(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return StoreFile{path.string(), static_cast<std::uint64_t>(st.st_size),
                   std::int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1'000'000};
}

std::optional<std::int64_t> read_format(const std::string& path) {
  std::string error;
  const auto input = InputFile::open(path, &error);
  if (!input) return std::nullopt;
  const ByteSpan bytes = input->bytes();
  return mvstore_format(bytes.subspan(0, std::min<std::size_t>(bytes.size(), kHeaderBlock)));
}

// When a cursor's binlog reading starts, for comparing by time.
std::optional<std::int64_t> start_time(const Cursor& c) {
  if (!c.timestamp) return std::nullopt;
  return is_timestamp_cursor(c) ? *c.timestamp - kFallbackIntervalMs : *c.timestamp;
}

}  // namespace

std::uint64_t TsdbStore::size() const {
  std::uint64_t total = 0;
  for (const StoreFile& f : files) total += f.size;
  return total;
}

std::int64_t TsdbStore::newest_modified_ms() const {
  std::int64_t newest = 0;
  for (const StoreFile& f : files) newest = std::max(newest, f.modified_ms);
  return newest;
}

bool is_store_file_name(std::string_view name) {
  return name.starts_with("h2.") && name.find(".qjt-backup-") == std::string_view::npos;
}

TsdbStore find_tsdb_store(const std::string& dir) {
  TsdbStore store;
  std::error_code ec;
  const fs::path base = dir.empty() ? fs::path(".") : fs::path(dir);
  for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_store_file_name(it->path().filename().string())) continue;
    if (auto file = store_file(it->path())) store.files.push_back(std::move(*file));
  }
  // h2.mv.db first, the database itself; then by name.
  std::sort(store.files.begin(), store.files.end(), [](const StoreFile& a, const StoreFile& b) {
    const bool a_db = fs::path(a.path).filename() == "h2.mv.db", b_db = fs::path(b.path).filename() == "h2.mv.db";
    return a_db != b_db ? a_db : a.path < b.path;
  });
  if (store.present() && fs::path(store.files.front().path).filename() == "h2.mv.db")
    store.format = read_format(store.files.front().path);
  return store;
}

std::optional<std::int64_t> mvstore_format(ByteSpan block) {
  std::string_view text = block.subspan(0, kHeaderBlock).as_chars();
  text = text.substr(0, text.find_first_of(std::string_view("\n\0", 2)));
  if (!text.starts_with("H:")) return std::nullopt;
  std::map<std::string_view, std::string_view> fields;
  while (!text.empty()) {
    const std::string_view field = text.substr(0, text.find(','));
    text.remove_prefix(std::min(text.size(), field.size() + 1));
    const std::size_t colon = field.find(':');
    if (colon != std::string_view::npos) fields[field.substr(0, colon)] = field.substr(colon + 1);
  }
  const auto it = fields.find("format");
  if (it == fields.end()) return std::nullopt;
  return whole_number<std::int64_t>(it->second);
}

std::string mvstore_release(std::int64_t format) {
  switch (format) {
    case 1:
      return "H2 1.4 (Canal up to 1.1.6)";
    case 2:
      return "H2 2.0-2.1 (Canal 1.1.7, 1.1.8)";
    case 3:
      return "H2 2.2 (Canal after 1.1.8)";
    default:
      return "";
  }
}

bool is_rewind(const Cursor& before, const Cursor& after) {
  if (!before.valid || !after.valid) return false;
  const bool same_source =
      before.address == after.address && before.port == after.port && before.slave_id == after.slave_id;
  if (same_source && !is_timestamp_cursor(before) && !is_timestamp_cursor(after)) return cursor_before(after, before);
  const auto from = start_time(before), to = start_time(after);
  return from && to && *to < *from;
}

std::vector<std::int64_t> rewound_clients(const MetaDat& before, const MetaDat& after) {
  std::vector<std::int64_t> moved;
  for (const ClientData& c : after.clients) {
    const auto old = std::find_if(before.clients.begin(), before.clients.end(),
                                  [&c](const ClientData& b) { return b.client_id == c.client_id; });
    if (old == before.clients.end() || !old->cursor || !c.cursor) continue;
    if (is_rewind(*old->cursor, *c.cursor)) moved.push_back(c.client_id);
  }
  return moved;
}

}  // namespace qjt::canal
