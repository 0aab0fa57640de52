#include "canal/start_position.h"

#include <fmt/format.h>

namespace qjt::canal {
namespace {

// The configured start in words, as the parser uses it.
std::string master_text(const DestinationConfig& config) {
  const MasterPosition& m = config.master;
  if (!m.journal_name.empty()) {
    if (m.position && *m.position > 0) return fmt::format("{}:{}", m.journal_name, *m.position);
    if (m.timestamp && *m.timestamp > 0)
      return fmt::format("{} searched for timestamp {}", m.journal_name, *m.timestamp);
    return fmt::format("{}:4, its start", m.journal_name);  // Canal's BINLOG_START_OFFEST
  }
  if (m.timestamp && *m.timestamp > 0) return fmt::format("the binlogs searched for timestamp {}", *m.timestamp);
  return fmt::format("gtid {}", m.gtid);
}

std::string cursor_words(const Cursor& c) {
  if (is_timestamp_cursor(c))
    return fmt::format("the binlogs searched for timestamp {} (less the fallback interval)", c.timestamp.value_or(0));
  return fmt::format("{}:{}", c.journal_name.value_or(""), c.position.value_or(0));
}

}  // namespace

const char* start_source_name(StartSource source) {
  switch (source) {
    case StartSource::kMetaDat:
      return "meta.dat";
    case StartSource::kInstanceProperties:
      return "instance.properties";
    case StartSource::kShowMasterStatus:
      return "show master status";
  }
  return "";
}

StartDecision where_canal_starts(const std::optional<MetaDat>& meta, const MetaDatSource& source,
                                 const std::optional<DestinationConfig>& config) {
  StartDecision d;
  if (config && config->master.names_start(config->gtid_mode)) {
    d.configured = true;
    d.configured_text = master_text(*config);
  }
  d.has_meta_dat = meta.has_value();
  if (meta) d.restart = restart_cursor(*meta, source);
  if (d.restart)
    d.source = StartSource::kMetaDat;
  else if (d.configured)
    d.source = StartSource::kInstanceProperties;
  return d;
}

std::string describe_start(const StartDecision& d) {
  const char* no_cursor = d.has_meta_dat ? "no client in meta.dat has a usable cursor" : "no meta.dat";
  switch (d.source) {
    case StartSource::kMetaDat:
      return fmt::format(
          "Canal starts from meta.dat: client {}'s cursor, {}{}", d.restart->client_id, cursor_words(d.restart->cursor),
          d.configured ? fmt::format("; instance.properties' start ({}) is ignored", d.configured_text) : "");
    case StartSource::kInstanceProperties:
      return fmt::format("Canal starts from instance.properties: {} ({})", d.configured_text, no_cursor);
    case StartSource::kShowMasterStatus:
      break;
  }
  return fmt::format(
      "Canal starts from SHOW MASTER STATUS, the master's current end: events before it are skipped ({}, and "
      "instance.properties configures no start)",
      no_cursor);
}

}  // namespace qjt::canal
