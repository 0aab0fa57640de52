#include "canal/store_metrics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>

#include <fmt/format.h>

#include "whole_number.h"

namespace qjt::canal {
namespace {

struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

bool parse_labels(std::string_view* s, std::map<std::string, std::string>* labels) {
  s->remove_prefix(1);  // '{'
  while (!s->empty() && s->front() != '}') {
    const auto eq = s->find('=');
    if (eq == std::string_view::npos || eq + 1 >= s->size() || (*s)[eq + 1] != '"') return false;
    std::string key(s->substr(0, eq)), value;
    std::size_t i = eq + 2;
    for (; i < s->size() && (*s)[i] != '"'; ++i) {
      if ((*s)[i] == '\\' && i + 1 < s->size()) ++i;
      value.push_back((*s)[i]);
    }
    if (i >= s->size()) return false;
    (*labels)[key] = value;
    s->remove_prefix(i + 1);
    if (!s->empty() && s->front() == ',') s->remove_prefix(1);
  }
  if (s->empty()) return false;
  s->remove_prefix(1);
  return true;
}

bool parse_sample(std::string_view line, Sample* out) {
  const auto name_end = line.find_first_of("{ \t");
  if (name_end == std::string_view::npos || name_end == 0) return false;
  out->name = std::string(line.substr(0, name_end));
  line.remove_prefix(name_end);
  if (line.front() == '{' && !parse_labels(&line, &out->labels)) return false;
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) return false;
  line.remove_prefix(start);
  const std::string_view value = line.substr(0, line.find_first_of(" \t\r"));
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out->value);
  return ec == std::errc() && end == value.data() + value.size() && std::isfinite(out->value);
}

// A metric's name without the "_total" that simpleclient 0.10 and later add
// to the exporter's counters: its family.
std::string metric_family(std::string name) {
  if (name.ends_with("_total")) name.resize(name.size() - 6);
  return name;
}

std::optional<std::int64_t> whole(double v) {
  if (v < -9.0e15 || v > 9.0e15) return std::nullopt;  // beyond a double's exact integers
  return static_cast<std::int64_t>(v);
}

void store_sample(const Sample& s, StoreMetrics* m) {
  const std::string name = metric_family(s.name);
  if (name == "canal_instance_store_produce_seq") m->produce_seq = whole(s.value);
  if (name == "canal_instance_store_consume_seq") m->consume_seq = whole(s.value);
  if (name == "canal_instance_store_produce_mem") m->produce_mem = whole(s.value);
  if (name == "canal_instance_store_consume_mem") m->consume_mem = whole(s.value);
  if (name != "canal_instance_store") return;
  if (auto mode = s.labels.find("batchMode"); mode != s.labels.end()) m->batch_mode = mode->second;
  if (auto size = s.labels.find("size"); size != s.labels.end()) {
    if (const auto n = whole_number<std::int64_t>(size->second)) m->buffer_size = n;
  }
}

bool is_store_metric(const std::string& name) { return metric_family(name).rfind("canal_instance_store", 0) == 0; }

}  // namespace

std::optional<std::int64_t> StoreMetrics::in_flight_events() const {
  if (!produce_seq || !consume_seq) return std::nullopt;
  return *produce_seq - *consume_seq;
}

std::optional<std::int64_t> StoreMetrics::in_flight_bytes() const {
  if (!produce_mem || !consume_mem) return std::nullopt;
  return *produce_mem - *consume_mem;
}

std::vector<StoreMetrics> read_store_metrics(std::string_view text, const std::string& file, Reporter* reporter) {
  std::vector<StoreMetrics> stores;
  for (std::size_t start = 0; start < text.size();) {
    const auto newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
    const std::string_view line = text.substr(start, end - start);
    Sample s;
    const bool comment =
        line.empty() || line.front() == '#' || line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (!comment && !parse_sample(line, &s)) {
      reporter->report(Finding{Severity::kWarning, "canal_metrics_line", file, start,
                               "not a Prometheus sample line (NAME{LABELS} VALUE); skipped"});
    } else if (!comment && is_store_metric(s.name) && s.labels.count("destination")) {
      const std::string& dest = s.labels["destination"];
      auto it =
          std::find_if(stores.begin(), stores.end(), [&](const StoreMetrics& m) { return m.destination == dest; });
      if (it == stores.end()) {
        stores.push_back(StoreMetrics{dest, start, {}, {}, {}, {}, {}, {}});
        it = stores.end() - 1;
      }
      store_sample(s, &*it);
    }
    start = end + 1;
  }
  return stores;
}

void check_store(const StoreMetrics& m, std::int64_t memunit, const std::string& file, Reporter* reporter) {
  auto report = [&](Severity severity, const char* code, std::string message) {
    reporter->report(
        Finding{severity, code, file, m.offset, fmt::format("destination {}: {}", m.destination, message)});
  };
  const auto events = m.in_flight_events();
  if (!events || !m.buffer_size) {
    report(Severity::kWarning, "canal_metrics_incomplete",
           "the scrape lacks canal_instance_store_produce_seq, _consume_seq or canal_instance_store{size}: "
           "the ring buffer cannot be checked");
    return;
  }
  const std::int64_t size = *m.buffer_size;
  if (size <= 0 || (size & (size - 1)) != 0)
    report(Severity::kError, "canal_store_size", fmt::format("buffer size {} is not a power of two (S1)", size));
  if (*events < 0)
    report(Severity::kError, "canal_store_order",
           fmt::format("consume sequence {} is ahead of produce sequence {}: events acked that were never put",
                       *m.consume_seq, *m.produce_seq));
  else if (*events > size)
    report(Severity::kError, "canal_store_overflow",
           fmt::format("{} events in flight, more than the buffer's {} slots (S3)", *events, size));
  const auto bytes = m.in_flight_bytes();
  if (m.batch_mode != "MEMSIZE" || !bytes) return;
  if (*bytes < 0)
    report(Severity::kError, "canal_store_order",
           fmt::format("consumed memory {} is ahead of produced memory {}", *m.consume_mem, *m.produce_mem));
  else if (size > 0 && size <= INT64_MAX / memunit && *bytes > size * memunit)
    report(Severity::kWarning, "canal_store_mem_overflow",
           fmt::format("{} bytes in flight, more than buffer size x memunit = {} (S4; one large put may overshoot)",
                       *bytes, size * memunit));
}

}  // namespace qjt::canal
