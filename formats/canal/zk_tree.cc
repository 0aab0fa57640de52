#include "canal/zk_tree.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "canal/json_value.h"
#include "canal/restart_cursor.h"
#include "input_file.h"
#include "json_writer.h"

namespace qjt::canal {
namespace {

namespace fs = std::filesystem;
using Kind = JsonValue::Kind;

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// A node name of digits only (StringUtils.isNumeric), as a number.
std::optional<std::int64_t> numeric(const std::string& name, std::int64_t max) {
  if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  std::int64_t n = 0;
  const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), n);
  if (error != std::errc{} || end != name.data() + name.size() || n > max) return std::nullopt;
  return n;
}

// The numeric children of `dir` that are directories (clients) or files
// (batches), by number.
std::vector<std::pair<std::int64_t, fs::path>> numeric_children(const fs::path& dir, bool dirs, std::int64_t max) {
  std::vector<std::pair<std::int64_t, fs::path>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto n = numeric(entry.path().filename().string(), max);
    if (n && (dirs ? is_dir(entry.path()) : is_file(entry.path()))) found.emplace_back(*n, entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<fs::path> subdirectories(const fs::path& dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (is_dir(entry.path())) found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  return found;
}

bool holds_clients(const fs::path& destination) { return !numeric_children(destination, true, 32767).empty(); }

bool holds_destinations(const fs::path& destinations) {
  const auto dirs = subdirectories(destinations);
  return std::any_of(dirs.begin(), dirs.end(), holds_clients);
}

// The destination directories of `root`: its children, or `root` itself
// when it is one destination's.
std::vector<fs::path> destination_dirs(const fs::path& root) {
  if (root.filename() != "destinations") return {root};
  return subdirectories(root);
}

bool read_file(const fs::path& path, std::unique_ptr<InputFile>* input, Reporter* reporter) {
  Finding failure;
  *input = InputFile::open(path.string(), &failure);
  if (!*input) reporter->report(std::move(failure));
  return *input != nullptr;
}

std::optional<Cursor> range_member(const JsonValue& range, const char* key, bool required, const std::string& where,
                                   const std::string& file, Reporter* reporter) {
  const JsonValue* v = range.find(key);
  if (v == nullptr || v->kind == Kind::kNull) {
    if (required)
      reporter->report(Finding{Severity::kError, "canal_missing_field", file, range.offset,
                               fmt::format("{} has no \"{}\"", where, key)});
    return std::nullopt;
  }
  if (v->kind != Kind::kObject) {
    reporter->report(Finding{Severity::kError, "canal_field_type", file, v->offset,
                             fmt::format("{}.{}: expected an object, found {}", where, key, kind_name(v->kind))});
    return std::nullopt;
  }
  Cursor c = read_log_position(*v, where + "." + key, file, reporter);
  if (!c.valid) return std::nullopt;
  return c;
}

void read_batches(const fs::path& client_dir, ZkClientNode* client, Reporter* reporter) {
  for (const char* name : {"mark", "batch_mark"}) {
    for (const auto& [id, path] : numeric_children(client_dir / name, false, INT64_MAX)) {
      std::unique_ptr<InputFile> input;
      if (!read_file(path, &input, reporter)) continue;
      if (auto batch = read_zk_batch(input->bytes(), id, path.string(), reporter))
        client->batches.push_back(std::move(*batch));
    }
  }
  std::sort(client->batches.begin(), client->batches.end(),
            [](const ZkBatch& a, const ZkBatch& b) { return a.id < b.id; });
}

}  // namespace

ZkClientNode read_zk_client(const ZkCursorPath& node, const std::string& directory, Reporter* reporter) {
  const fs::path dir(directory);
  ZkClientNode client;
  client.node = node;
  client.dir = directory;
  std::unique_ptr<InputFile> input;
  if (is_file(dir / "cursor")) {
    client.cursor_file = (dir / "cursor").string();
    if (read_file(dir / "cursor", &input, reporter))
      client.cursor = read_zk_cursor(input->bytes(), client.cursor_file, reporter);
  }
  if (is_file(dir / "filter") && read_file(dir / "filter", &input, reporter)) {
    const std::string_view text = input->bytes().as_chars();
    // zkCli prints the data on a line of its own: the newline is not the filter's.
    client.filter = std::string(text.ends_with('\n') ? text.substr(0, text.size() - 1) : text);
  }
  read_batches(dir, &client, reporter);
  return client;
}

namespace {

void report(Reporter* reporter, const std::string& file, const char* code, std::string message) {
  reporter->report(Finding{Severity::kWarning, code, file, std::nullopt, std::move(message)});
}

std::string position_text(const Cursor& c) {
  return c.journal_name && !c.journal_name->empty() ? fmt::format("{}:{}", *c.journal_name, c.position.value_or(0))
                                                    : fmt::format("timestamp {}", c.timestamp.value_or(0));
}

void check_batches(const ZkClientNode& client, Reporter* reporter) {
  for (std::size_t i = 1; i < client.batches.size(); ++i) {
    const ZkBatch& before = client.batches[i - 1];
    const ZkBatch& batch = client.batches[i];
    if (batch.id != before.id + 1)
      report(reporter, batch.file, "canal_zk_batch_gap",
             fmt::format("pending batches {} and {}: the {} between were acked or removed out of order (Canal acks "
                         "only the smallest pending id)",
                         before.id, batch.id, batch.id - before.id - 1));
    if (before.end && batch.start && !cursor_before(*before.end, *batch.start))
      report(reporter, batch.file, "canal_zk_batch_gap",
             fmt::format("batch {} starts at {}, not after batch {}'s end {}", batch.id, position_text(*batch.start),
                         before.id, position_text(*before.end)));
  }
  const ZkBatch* first = client.batches.empty() ? nullptr : &client.batches.front();
  const Cursor* cursor = client.cursor && client.cursor->cursor ? &*client.cursor->cursor : nullptr;
  if (first == nullptr || cursor == nullptr || !cursor->valid || !first->start) return;
  if (cursor_before(*cursor, *first->start))
    report(reporter, client.cursor_file, "canal_zk_cursor_behind_batch",
           fmt::format("the cursor {} is behind pending batch {}'s start {}: acking the batch moves the cursor to "
                       "its ack {} (undoing a rewind made by hand), and a restart before then delivers again what "
                       "lies between",
                       position_text(*cursor), first->id, position_text(*first->start),
                       first->ack ? position_text(*first->ack) : std::string("(none: the cursor stays)")));
}

}  // namespace

std::optional<std::string> zk_tree_root(const std::string& dir) {
  const fs::path d = fs::path(dir).lexically_normal();
  const fs::path named = d.filename().empty() ? d.parent_path() : d;
  for (const fs::path& candidate : {d / "destinations", d / "otter" / "canal" / "destinations"})
    if (is_dir(candidate) && holds_destinations(candidate)) return candidate.string();
  if (named.filename() == "destinations" && holds_destinations(named)) return named.string();
  if (fs::absolute(named).lexically_normal().parent_path().filename() == "destinations" && holds_clients(named))
    return named.string();
  return std::nullopt;
}

std::optional<ZkBatch> read_zk_batch(ByteSpan bytes, std::int64_t id, const std::string& file, Reporter* reporter) {
  if (const std::size_t good = valid_utf8_prefix(bytes.as_chars()); good < bytes.size()) {
    reporter->report(Finding{Severity::kError, "canal_invalid_utf8", file, good,
                             "batch node: expected UTF-8, found a malformed byte sequence"});
    return std::nullopt;
  }
  JsonValue top;
  JsonError error;
  if (!parse_json(bytes, &top, &error) || top.kind != Kind::kObject) {
    reporter->report(Finding{Severity::kError, error.truncated ? "canal_truncated" : "canal_invalid_json", file,
                             error.offset,
                             error.message.empty() ? "batch node: expected a PositionRange object" : error.message});
    return std::nullopt;
  }
  const std::string where = fmt::format("batch {}", id);
  ZkBatch batch;
  batch.id = id;
  batch.file = file;
  batch.start = range_member(top, "start", true, where, file, reporter);
  batch.ack = range_member(top, "ack", false, where, file, reporter);
  batch.end = range_member(top, "end", true, where, file, reporter);
  if (const JsonValue* seq = top.find("endSeq"); seq != nullptr && seq->kind == Kind::kNumber)
    batch.end_seq = seq->as_int();
  return batch;
}

void check_zk_client(const ZkClientNode& client, Reporter* reporter) {
  if (client.cursor_file.empty())
    report(reporter, client.dir, "canal_no_cursor",
           fmt::format("client {} of destination {} has no cursor node: Canal's next start takes instance.properties "
                       "or SHOW MASTER STATUS, and can skip events (canal issue 3689)",
                       client.node.client_id, client.node.destination));
  if (client.cursor && client.cursor->named && *client.cursor->named != client.node)
    reporter->report(Finding{Severity::kError, "canal_destination_mismatch", client.cursor_file, std::nullopt,
                             fmt::format("the file is the cursor of {}, but zkCli's output in it is of {}",
                                         cursor_znode(client.node), cursor_znode(*client.cursor->named))});
  check_batches(client, reporter);
}

ZkTree read_zk_tree(const std::string& root, Reporter* reporter) {
  ZkTree tree;
  tree.root = root;
  for (const fs::path& destination : destination_dirs(fs::path(root).lexically_normal())) {
    const std::string name = fs::absolute(destination).lexically_normal().filename().string();
    for (const auto& [id, dir] : numeric_children(destination, true, 32767)) {
      tree.clients.push_back(read_zk_client(ZkCursorPath{name, id}, dir.string(), reporter));
      check_zk_client(tree.clients.back(), reporter);
    }
  }
  return tree;
}

MetaDat zk_meta_dat(const std::vector<ZkClientNode>& clients, const std::string& destination) {
  MetaDat meta;
  meta.destination = destination;
  for (const ZkClientNode& c : clients) {
    if (c.node.destination != destination) continue;
    ClientData client;
    client.client_id = c.node.client_id;
    client.destination = destination;
    client.filter = c.filter;
    if (c.cursor) client.cursor = c.cursor->cursor;
    meta.clients.push_back(std::move(client));
  }
  return meta;
}

std::vector<std::string> zk_destinations(const std::vector<ZkClientNode>& clients) {
  std::vector<std::string> names;
  for (const ZkClientNode& c : clients)
    if (std::find(names.begin(), names.end(), c.node.destination) == names.end()) names.push_back(c.node.destination);
  return names;
}

}  // namespace qjt::canal
