#include "canal/cli/canal_destination_checks.h"

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>

#include <fmt/format.h>

#include "canal/canal_stats.h"
#include "json_writer.h"
#include "time_value.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

std::string directory_of(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return dir.empty() ? "." : dir.string();
}

bool uses_h2(const std::optional<canal::DestinationConfig>& config) {
  return !config || config->tsdb == canal::TsdbKind::kH2;
}

// The H2 store was written after the binlog time Canal restarts from: it
// may hold DDL from after that point, which a rewind there would apply to
// events from before it. The mtime is only an upper bound of its newest
// write; qjt cannot see what was written.
void check_tsdb_newer(const DestinationReport& r, Reporter* reporter) {
  if (!r.store.present() || !uses_h2(r.config) || !r.start.restart) return;
  const auto& cursor = r.start.restart->cursor;
  if (!cursor.timestamp || r.store.newest_modified_ms() <= *cursor.timestamp) return;
  reporter->report(Finding{
      Severity::kWarning, "canal_tsdb_newer", r.store.files.front().path, std::nullopt,
      fmt::format("expected the table-meta store to be no newer than the restart cursor (client {}, binlog time {}), "
                  "found it written at {}: it may hold DDL from after the cursor, so moving the position back below "
                  "that DDL needs the store reset (qjt repair --reset-tsdb)",
                  r.start.restart->client_id, format_time(*cursor.timestamp),
                  format_time(r.store.newest_modified_ms()))});
}

void check_start_ignored(const DestinationReport& r, Reporter* reporter) {
  if (r.start.source != canal::StartSource::kMetaDat || !r.start.configured) return;
  const auto& restart = *r.start.restart;
  reporter->report(Finding{
      Severity::kWarning, "canal_start_ignored", r.config->files.back(), std::nullopt,
      fmt::format("{} configures a start ({}), but Canal starts from meta.dat's cursor of client {} "
                  "({}:{}): the configured start is used only when no client has a cursor",
                  fs::path(r.config->files.back()).filename().string(), r.start.configured_text, restart.client_id,
                  restart.cursor.journal_name.value_or(""), restart.cursor.position.value_or(0))});
}

const char* tsdb_kind_name(const std::optional<canal::DestinationConfig>& config) {
  if (!config) return "h2";
  switch (config->tsdb) {
    case canal::TsdbKind::kH2:
      return "h2";
    case canal::TsdbKind::kMySql:
      return "mysql";
    case canal::TsdbKind::kDisabled:
      return "disabled";
  }
  return "h2";
}

void write_report_json(JsonWriter* json, const DestinationReport& r) {
  json->begin_object().str("destination", r.destination).str("meta_dat", r.meta_dat).begin_array("properties");
  if (r.config)
    for (const std::string& f : r.config->files) json->string(f);
  json->end_array().begin_object("start").str("source", canal::start_source_name(r.start.source));
  r.start.restart ? json->num("client_id", r.start.restart->client_id) : json->null("client_id");
  r.start.configured ? json->str("configured", r.start.configured_text) : json->null("configured");
  json->str("text", canal::describe_start(r.start)).end_object();
  json->begin_object("tsdb").str("kind", tsdb_kind_name(r.config)).begin_array("files");
  for (const canal::StoreFile& f : r.store.files)
    json->begin_object()
        .str("path", f.path)
        .unsigned_num("size", f.size)
        .num("modified_ms", f.modified_ms)
        .end_object();
  json->end_array();
  r.store.format ? json->num("format", *r.store.format) : json->null("format");
  json->end_object().end_object();
}

}  // namespace

std::optional<DestinationReport> check_destination(const canal::MetaDatSource& source,
                                                   const std::optional<canal::MetaDat>& meta, Reporter* reporter) {
  if (source.directory_destination.empty()) return std::nullopt;
  DestinationReport r;
  r.meta_dat = source.file;
  r.destination = source.directory_destination;
  const std::string dir = directory_of(source.file);
  r.config = canal::load_destination_config(dir, reporter);
  r.store = canal::find_tsdb_store(dir);
  r.start = canal::where_canal_starts(meta, source, r.config);
  check_tsdb_newer(r, reporter);
  check_start_ignored(r, reporter);
  return r;
}

bool absent_meta_dat(const std::string& path) {
  struct stat st {};
  if (fs::path(path).filename() != "meta.dat" || ::lstat(path.c_str(), &st) == 0 || errno != ENOENT) return false;
  std::error_code ec;
  return fs::is_regular_file(fs::path(directory_of(path)) / "instance.properties", ec);
}

std::string tsdb_text(const std::optional<canal::DestinationConfig>& config, const canal::TsdbStore& store) {
  std::string text;
  if (config && config->tsdb == canal::TsdbKind::kMySql)
    text = fmt::format("in MySQL, tables meta_snapshot and meta_history ({})", config->tsdb_because);
  else if (config && config->tsdb == canal::TsdbKind::kDisabled)
    text = fmt::format("disabled ({})", config->tsdb_because);
  if (!store.present()) return text.empty() ? "none beside meta.dat" : text;
  if (!text.empty()) text += "; ";
  const canal::StoreFile& first = store.files.front();
  text += fmt::format("{} ({} file(s), {} bytes, last written {}", first.path, store.files.size(), store.size(),
                      format_time(store.newest_modified_ms()));
  if (store.format) {
    const std::string release = canal::mvstore_release(*store.format);
    text += fmt::format(", MVStore format {}{}", *store.format, release.empty() ? "" : ": " + release);
  }
  return text + ")";
}

void add_destinations(VerifyTally* tally, const std::vector<DestinationReport>& reports, bool quiet) {
  if (reports.empty()) return;
  std::string array;
  JsonWriter json(&array);
  json.begin_array();
  for (const DestinationReport& r : reports) {
    write_report_json(&json, r);
    if (quiet) continue;
    tally->text_lines += fmt::format("destination {}: {}\n", r.destination, canal::describe_start(r.start));
    // The store only when there is one to speak of: the JSON always says.
    if (r.store.present() || (r.config && r.config->tsdb != canal::TsdbKind::kH2))
      tally->text_lines +=
          fmt::format("destination {}: table-meta store: {}\n", r.destination, tsdb_text(r.config, r.store));
  }
  json.end_array();
  tally->json_members.emplace_back("destinations", std::move(array));
}

void add_destination_stats(const DestinationReport& report, const canal::MetaDat& meta, StatsModel* model) {
  canal::add_tsdb_stats(report.store, meta, canal::MetaDatSource{report.meta_dat, report.destination}, model);
}

}  // namespace qjt::cli
