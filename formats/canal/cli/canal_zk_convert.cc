#include "canal/cli/canal_zk_convert.h"

#include <algorithm>

#include <fmt/format.h>

#include "canal/cli/canal_input.h"
#include "canal/cli/canal_zk.h"
#include "canal/zk_cursor.h"
#include "command_support.h"
#include "named_output.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

constexpr std::string_view kCommand = "convert";

// Single quotes for the shell: a quote inside closes, escapes and reopens.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

ExitCode refuse_errors(const FindingList& findings, const std::string& input) {
  StderrReporter printed;
  for (const Finding& f : findings.findings()) printed.report(f);
  if (findings.count(Severity::kError) == 0) return ExitCode::kOk;
  return report_error(kCommand, ExitCode::kProblems,
                      fmt::format("refused: {} has errors (above); nothing was written", input));
}

ExitCode write_output(const ConvertRequest& r, std::string bytes) {
  if (auto refused = refuse_existing_outputs({kCommand, r.guard, r.drivers}, {r.output})) return *refused;
  return write_named_output(
      {kCommand, r.guard, r.drivers}, r.output,
      [bytes = std::move(bytes)](FileWriter* w, std::string* e) { return w->append(ByteSpan(bytes), e); });
}

ExitCode to_cursor(const ConvertRequest& r, const CanalConvertOptions& o) {
  MetaDatFile file;
  FindingList findings;
  const bool read = load_meta_dat(r.input, &file, &findings);
  if (!read || !file.meta) return worse(refuse_errors(findings, r.input), read ? ExitCode::kOk : ExitCode::kIoError);
  const auto& clients = file.meta->clients;
  if (!o.client && clients.size() != 1)
    return usage_error(kCommand, fmt::format("{} has {} clients: name one with --client", r.input, clients.size()));
  const std::int64_t id = o.client.value_or(clients.empty() ? 0 : clients.front().client_id);
  const auto client = std::find_if(clients.begin(), clients.end(), [id](const auto& c) { return c.client_id == id; });
  if (client == clients.end()) return usage_error(kCommand, fmt::format("{} has no client {}", r.input, id));
  if (!client->cursor)
    return report_error(
        kCommand, ExitCode::kProblems,
        fmt::format("client {} has no cursor: there is nothing to set (an empty node is no cursor)", id));
  if (!client->cursor->valid) return refuse_errors(findings, r.input);
  const std::string json = canal::write_zk_cursor(*client->cursor);
  const ExitCode status = write_output(r, json);
  if (status == ExitCode::kOk) {
    const std::string node = canal::cursor_znode({client->destination, id});
    note(kCommand, fmt::format("the node is {}; to set it: {}", node, zkcli_set_command(node, json)));
    // Canal writes a filter node only for a filter that is not empty (ClientIdentity.hasFilter).
    if (client->filter && !client->filter->empty())
      note(kCommand, fmt::format("and its filter: {}",
                                 zkcli_set_command(canal::filter_znode({client->destination, id}), *client->filter)));
  }
  return status;
}

// The nodes placed: --client and --destination name a node that neither
// its path nor zkCli's output places; for a tree they select.
bool place_nodes(const CanalConvertOptions& o, std::vector<canal::ZkClientNode>* nodes) {
  for (canal::ZkClientNode& n : *nodes) {
    if (placed(n)) continue;
    if (!o.client || o.destination.empty()) {
      usage_error(kCommand, fmt::format("{} does not say which client's cursor it is: give --client and --destination",
                                        n.cursor_file));
      return false;
    }
    n.node = canal::ZkCursorPath{o.destination, *o.client};
  }
  std::erase_if(*nodes, [&o](const canal::ZkClientNode& n) {
    return (o.client && n.node.client_id != *o.client) ||
           (!o.destination.empty() && n.node.destination != o.destination);
  });
  return true;
}

ExitCode to_meta_dat(const ConvertRequest& r, const CanalConvertOptions& o) {
  FindingList findings;
  std::vector<canal::ZkClientNode> nodes;
  const auto kind = is_directory(r.input) ? canal::FileKind::kZkTree : canal::FileKind::kZkCursor;
  const bool read_all = read_zk_nodes({r.input}, kind, &findings, &nodes);
  const ExitCode refused = worse(refuse_errors(findings, r.input), read_all ? ExitCode::kOk : ExitCode::kIoError);
  if (refused != ExitCode::kOk) return refused;
  if (!place_nodes(o, &nodes)) return ExitCode::kUsage;
  const auto destinations = canal::zk_destinations(nodes);
  if (destinations.size() != 1)
    return usage_error(kCommand, destinations.empty()
                                     ? fmt::format("{} holds no client's cursor to convert", r.input)
                                     : fmt::format("{} holds destinations {}: a meta.dat is one's; name it with "
                                                   "--destination",
                                                   r.input, fmt::join(destinations, ", ")));
  return write_output(r, canal::write_meta_dat(canal::zk_meta_dat(nodes, destinations.front())));
}

}  // namespace

void add_canal_convert_options(CLI::App* command, CanalConvertOptions* o) {
  command->add_option("--client", o->client,
                      "the client: whose meta.dat cursor (--to canal-zk-cursor); whose cursor node, or which of a "
                      "tree's (--to canal-meta-dat)");
  command->add_option("--destination", o->destination,
                      "--to canal-meta-dat: the destination of a cursor node that does not say, or which of a tree's");
}

ExitCode run_canal_convert(const ConvertRequest& r, const CanalConvertOptions& o) {
  if (r.input.empty()) return usage_error(kCommand, fmt::format("--to {} needs an INPUT", r.to));
  return r.to == "canal-zk-cursor" ? to_cursor(r, o) : to_meta_dat(r, o);
}

std::string zkcli_set_command(const std::string& znode, const std::string& json) {
  return fmt::format("zkCli.sh set {} {}", znode, shell_quoted(json));
}

}  // namespace qjt::cli
