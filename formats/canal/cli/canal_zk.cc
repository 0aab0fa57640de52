#include "canal/cli/canal_zk.h"

#include <filesystem>

#include <fmt/format.h>

#include "canal/binlog_list.h"
#include "canal/cli/canal_cursor_output.h"
#include "canal/cli/canal_hints.h"
#include "command_support.h"
#include "input_file.h"
#include "json_line.h"
#include "output.h"
#include "record_format.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;
using canal::ZkClientNode;

// A cursor file alone: its place from its path, else from zkCli's output.
bool read_cursor_file(const std::string& path, Reporter* reporter, std::vector<ZkClientNode>* out) {
  if (const auto node = canal::parse_cursor_path(fs::absolute(path).lexically_normal().string())) {
    out->push_back(canal::read_zk_client(*node, fs::path(path).parent_path().string(), reporter));
    return true;
  }
  Finding failure;
  const auto input = InputFile::open(path, &failure);
  if (!input) {
    reporter->report(std::move(failure));
    return false;
  }
  out->push_back(zk_cursor_node(path, input->bytes(), reporter));
  return true;
}

const std::string& node_file(const ZkClientNode& node) {
  return node.cursor_file.empty() ? node.dir : node.cursor_file;
}

void append_batch_json(JsonWriter* line, const canal::ZkBatch& b) {
  line->begin_object().num("id", b.id).str("file", b.file);
  for (const auto& [key, cursor] : {std::pair{"start", &b.start}, {"ack", &b.ack}, {"end", &b.end}}) {
    if (!*cursor) {
      line->null(key);
      continue;
    }
    line->begin_object(key);
    cursor_fields(line, **cursor);
    line->end_object();
  }
  optional_num(line, "end_seq", b.end_seq);
  line->end_object();
}

void append_node_json(std::string* out, const ZkClientNode& node) {
  JsonLine line(out, JsonType::kRecord);
  line.envelope(record_format::kCanal, node_file(node));
  if (placed(node)) {
    line.str("node", canal::cursor_znode(node.node)).str("destination", node.node.destination);
    line.num("client_id", node.node.client_id);
  } else {
    line.null("node").null("destination").null("client_id");
  }
  optional_str(&line, "filter", node.filter);
  const canal::Cursor* cursor = node.cursor && node.cursor->cursor ? &*node.cursor->cursor : nullptr;
  node.cursor ? line.boolean("typed", node.cursor->typed) : line.null("typed");
  if (cursor != nullptr) {
    line.begin_object("cursor");
    cursor_fields(&line, *cursor);
    line.end_object();
  } else {
    line.null("cursor");
  }
  line.begin_array("batches");
  for (const canal::ZkBatch& b : node.batches) append_batch_json(&line, b);
  line.end_array().finish();
}

std::string bound_text(const std::optional<canal::Cursor>& c) {
  return c ? fmt::format("{}:{}", c->journal_name.value_or(""), c->position.value_or(0)) : "none";
}

std::string node_text(const ZkClientNode& node) {
  std::string text = placed(node) ? fmt::format("node {}: client {} destination {}", canal::cursor_znode(node.node),
                                                node.node.client_id, node.node.destination)
                                  : fmt::format("{}: a cursor node of no known place", node.cursor_file);
  text += node.filter ? fmt::format(" filter \"{}\": ", *node.filter) : ": ";
  if (node.cursor_file.empty()) {
    text += "no cursor node\n";
  } else if (node.cursor && node.cursor->cursor) {
    text += cursor_text(*node.cursor->cursor) + (node.cursor->typed ? "\n" : " (no @type)\n");
  } else {
    text += node.cursor ? "empty cursor node\n" : "unreadable cursor node\n";
  }
  for (const canal::ZkBatch& b : node.batches)
    text += fmt::format("  pending batch {}: start {}, ack {}, end {}{}\n", b.id, bound_text(b.start),
                        bound_text(b.ack), bound_text(b.end), b.end_seq ? fmt::format(", end_seq {}", *b.end_seq) : "");
  return text;
}

}  // namespace

bool placed(const ZkClientNode& node) { return !node.node.destination.empty(); }

ZkClientNode zk_cursor_node(const std::string& path, ByteSpan bytes, Reporter* reporter) {
  ZkClientNode node;
  node.node = canal::ZkCursorPath{"", -1};
  node.cursor_file = path;
  node.cursor = canal::read_zk_cursor(bytes, path, reporter);
  if (const auto place = canal::parse_cursor_path(fs::absolute(path).lexically_normal().string())) {
    node.node = *place;
  } else if (node.cursor && node.cursor->named) {
    node.node = *node.cursor->named;
  }
  return node;
}

bool read_zk_nodes(const std::vector<std::string>& paths, canal::FileKind kind, Reporter* reporter,
                   std::vector<ZkClientNode>* out) {
  bool read_all = true;
  for (const std::string& path : paths) {
    if (kind == canal::FileKind::kZkCursor) {
      read_all = read_cursor_file(path, reporter, out) && read_all;
      continue;
    }
    const auto root = canal::zk_tree_root(path);
    if (!root) {
      reporter->report(Finding{Severity::kError, "canal_zk_no_tree", path, std::nullopt,
                               "expected a ZooKeeper tree (destinations/<destination>/<clientId>/cursor), found no "
                               "client's directory"});
      continue;
    }
    auto tree = canal::read_zk_tree(*root, reporter);
    out->insert(out->end(), std::make_move_iterator(tree.clients.begin()), std::make_move_iterator(tree.clients.end()));
  }
  return read_all;
}

ExitCode run_zk_dump(const CanalRun& run) {
  if (const auto refusal = check_filter_fields(run.filter, "canal ZooKeeper cursor", {})) {
    usage_error("dump", *refusal + " (the filters select meta.log lines)");
    return ExitCode::kUsage;
  }
  StderrReporter printed;
  HintingReporter reporter(canal_hint, &printed);
  std::vector<ZkClientNode> nodes;
  const bool read_all = read_zk_nodes(run.paths, *run.kind, &reporter, &nodes);
  Output out;
  std::uint64_t shown = 0;
  for (const ZkClientNode& node : nodes) {
    if (run.limit && shown == *run.limit) break;
    run.json ? append_node_json(out.buffer(), node) : out.write(node_text(node));
    ++shown;
  }
  if (run.printed != nullptr) *run.printed += shown;
  const ExitCode status =
      worse(read_all ? ExitCode::kOk : ExitCode::kIoError, printed.errors() > 0 ? ExitCode::kProblems : ExitCode::kOk);
  return finish_output(&out, status);
}

bool verify_zk(const CanalRun& run, const canal::BinlogSizes* binlogs, Reporter* findings, std::uint64_t* records) {
  std::vector<ZkClientNode> nodes;
  const bool read_all = read_zk_nodes(run.paths, *run.kind, findings, &nodes);
  *records += nodes.size();
  if (binlogs != nullptr)
    for (const ZkClientNode& node : nodes)
      if (node.cursor && node.cursor->cursor && node.cursor->cursor->valid)
        canal::check_against_binlogs(canal::zk_meta_dat({node}, node.node.destination), *binlogs, node_file(node),
                                     findings);
  return read_all;
}

bool zk_stats(const CanalRun& run, const canal::BinlogSizes* binlogs, std::int64_t now_ms, StatsModel* model,
              Reporter* findings) {
  bool read_all = true;
  const auto add = [&](const canal::MetaDat& meta, const std::string& path) {
    if (binlogs != nullptr) canal::check_against_binlogs(meta, *binlogs, path, findings);
    canal::add_meta_dat_stats(meta, canal::MetaDatSource{path, ""}, binlogs, now_ms, model);
  };
  // A cursor file is its own entity, placed or not; a tree's are its destinations.
  for (const std::string& path : run.paths) {
    std::vector<ZkClientNode> nodes;
    read_all = read_zk_nodes({path}, *run.kind, findings, &nodes) && read_all;
    if (*run.kind == canal::FileKind::kZkCursor) {
      for (const ZkClientNode& node : nodes) add(canal::zk_meta_dat({node}, node.node.destination), path);
      continue;
    }
    for (const std::string& destination : canal::zk_destinations(nodes))
      add(canal::zk_meta_dat(nodes, destination), path);
  }
  return read_all;
}

}  // namespace qjt::cli
