// gen for libkestrel: a queue's segments and reader bookmarks in -o DIR, by
// libkestrel/libkestrel_generator.h.
#include "libkestrel/cli/libkestrel_gen.h"

#include <fmt/format.h>

#include "command_support.h"
#include "gen_report.h"
#include "json_line.h"
#include "libkestrel/libkestrel_generator.h"
#include "whole_number.h"

namespace qjt::cli {
namespace {

bool usage(const std::string& message) {
  usage_error("gen", message);
  return false;
}

bool parse_readers(const std::vector<std::string>& given, std::vector<libkestrel::ReaderPosition>* readers) {
  if (given.empty()) return true;  // the default reader at 0
  readers->clear();
  for (const std::string& text : given) {
    const auto eq = text.rfind('=');
    const auto head =
        eq == std::string::npos ? std::nullopt : whole_number<std::uint64_t>(std::string_view(text).substr(eq + 1));
    if (!head)
      return usage(fmt::format("--reader {}: expected NAME=HEAD (an item id; =HEAD for the default reader)", text));
    libkestrel::ReaderPosition reader;
    reader.name = text.substr(0, eq);
    reader.head = *head;
    readers->push_back(reader);
  }
  return true;
}

bool make_options(const GenRequest& r, const LibkestrelGenOptions& l, libkestrel::QueueGeneratorOptions* o) {
  if (r.output == "-") return usage("-o -: a libkestrel queue is a directory; give -o DIR");
  if (r.open) return usage("--open: libkestrel keeps no transaction on disk");
  if (r.records) o->items = *r.records;
  if (r.size) o->size = *r.size;
  if (r.payload_min) {
    o->payload_min = *r.payload_min;
    o->payload_max = *r.payload_max;
  }
  o->segments = r.segments.value_or(1);
  o->queue = r.queue.value_or("q");
  o->done = l.done;
  o->seed = r.seed;
  o->start_ms = r.add_time;
  o->corrupt = r.corrupt;
  o->force = r.force;
  if (!parse_readers(l.readers, &o->readers)) return false;
  if (auto problem = libkestrel::check_queue_options(*o)) return usage(*problem);
  return true;
}

void append_report_json(std::string* out, const std::string& dir, const libkestrel::QueueGeneratorOptions& o,
                        const libkestrel::QueueGeneratorReport& r) {
  JsonLine line(out, JsonType::kSummary);
  line.str("format", "libkestrel").str("path", dir).unsigned_num("seed", o.seed).str("queue", o.queue);
  line.begin_array("files");
  for (const auto& f : r.files) {
    line.begin_object()
        .str("path", f.path)
        .str("role", f.role)
        .unsigned_num("bytes", f.bytes)
        .unsigned_num("records", f.records)
        .end_object();
  }
  line.end_array().unsigned_num("items", r.items).unsigned_num("bytes", r.bytes).begin_array("readers");
  for (const auto& reader : r.readers) {
    line.begin_object()
        .str("name", reader.name)
        .unsigned_num("head", reader.head)
        .unsigned_num("done", reader.done)
        .unsigned_num("pending", reader.pending)
        .end_object();
  }
  line.end_array();
  add_damage_json(&line, r.corruption);
  line.finish();
}

void append_report_text(std::string* out, const libkestrel::QueueGeneratorReport& r) {
  for (const auto& f : r.files)
    *out += fmt::format("wrote {} ({}, {} bytes, {} records)\n", f.path, f.role, f.bytes, f.records);
  *out += fmt::format("{} item(s), {} bytes of segments\n", r.items, r.bytes);
  for (const auto& reader : r.readers)
    *out += fmt::format("reader '{}': head {}, {} done beyond it; replay expects {} item(s) pending\n", reader.name,
                        reader.head, reader.done, reader.pending);
  *out += damage_text(r.corruption);
}

}  // namespace

void add_libkestrel_gen_options(CLI::App* group, LibkestrelGenOptions* l) {
  group->add_option("--reader", l->readers,
                    "libkestrel: a reader and its head, NAME=HEAD (repeatable; default: the default reader at 0)");
  group->add_option("--done", l->done, "libkestrel: ids done beyond each reader's head (default 0)");
}

ExitCode run_libkestrel_gen(const GenRequest& r, const LibkestrelGenOptions& l) {
  libkestrel::QueueGeneratorOptions o;
  if (!make_options(r, l, &o)) return ExitCode::kUsage;
  libkestrel::QueueGeneratorReport report;
  std::string error;
  const GenerateStatus status = libkestrel::generate_libkestrel_queue(r.output, o, &report, &error);
  return finish_gen(
      status, error, r.json, [&](std::string* out) { append_report_json(out, r.output, o, report); },
      [&](std::string* out) { append_report_text(out, report); });
}

}  // namespace qjt::cli
