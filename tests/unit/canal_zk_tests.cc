// Canal's ZooKeeper cursor nodes (formats/canal/zk_cursor.h, zk_tree.h):
// the node's exact bytes, reading a node alone or amid zkCli's output, the
// node's place from a path, and a tree's checks.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "canal/canal_file_kind.h"
#include "canal/zk_cursor.h"
#include "canal/zk_tree.h"
#include "unit_helpers.h"

using namespace qjt;
using namespace qjt::canal;
using namespace qjt_test;

namespace {

// The node of canal issue 4926's shape, as ZooKeeperMetaManager writes it.
constexpr std::string_view kNode =
    R"({"@type":"com.alibaba.otter.canal.protocol.position.LogPosition","identity":{"slaveId":-1,)"
    R"("sourceAddress":{"address":"db1.internal","port":3306}},"postion":{"gtid":"","included":false,)"
    R"("journalName":"mysql-bin.000266","position":226987109,"serverId":2757725211,"timestamp":1610750948000}})";

std::optional<ZkCursor> read(std::string_view text, FindingList* findings) {
  return read_zk_cursor(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), "node", findings);
}

std::vector<std::string> codes(const FindingList& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings.findings()) out.push_back(f.code);
  return out;
}

}  // namespace

TEST_CASE("zk cursor: read and written back byte for byte") {
  FindingList findings;
  const auto node = read(kNode, &findings);
  REQUIRE(node);
  CHECK(findings.findings().empty());
  CHECK(node->typed);
  REQUIRE(node->cursor);
  CHECK(node->cursor->position == 226987109);
  CHECK(node->cursor->server_id == 2757725211);
  CHECK(write_zk_cursor(*node->cursor) == kNode);
}

TEST_CASE("zk cursor: zkCli's output around the node, and the node it names") {
  const std::string text =
      "Connecting to localhost:2181\nWATCHER::\n\n"
      "[zk: localhost:2181(CONNECTED) 3] get /otter/canal/destinations/example/1001/cursor\n" +
      std::string(kNode) + "\ncZxid = 0x1147fe\ndataLength = 230\nnumChildren = 0\n";
  FindingList findings;
  const auto node = read(text, &findings);
  REQUIRE(node);
  CHECK(findings.findings().empty());
  CHECK(node->named == ZkCursorPath{"example", 1001});
  CHECK(node->offset == text.find('{'));
  CHECK(looks_like_zk_cursor(text));
  CHECK(detect_file_kind("out.txt", ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())) ==
        FileKind::kZkCursor);
}

TEST_CASE("zk cursor: findings at the file's offsets") {
  FindingList findings;
  const std::string text =
      "prompt\n{\"identity\":{\"slaveId\":-1,\"sourceAddress\":{\"address\":\"h\",\"port\":3306}},"
      "\"postion\":{\"journalName\":\"mysql-bin.000001\",\"position\":3,\"timestamp\":1610750948000}}";
  const auto node = read(text, &findings);
  REQUIRE(node);
  CHECK(codes(findings) == std::vector<std::string>{"canal_zk_type", "canal_position_range"});
  CHECK(findings.findings()[0].offset == 7);
  CHECK(findings.findings()[1].offset == 7);
}

TEST_CASE("zk cursor: no data, an empty node, a cut node") {
  FindingList none;
  CHECK_FALSE(read("[zk: x] get /a\ncZxid = 0x0\n", &none));
  CHECK(codes(none) == std::vector<std::string>{"canal_zk_no_data"});
  FindingList empty;
  const auto node = read("[zk: x] get /otter/canal/destinations/d/1/cursor\nnull\ncZxid = 0x0\n", &empty);
  REQUIRE(node);
  CHECK_FALSE(node->cursor);
  CHECK(node->named == ZkCursorPath{"d", 1});
  FindingList cut;
  CHECK_FALSE(read(kNode.substr(0, 100), &cut));
  CHECK(codes(cut) == std::vector<std::string>{"canal_truncated"});
}

TEST_CASE("zk cursor: a node's place") {
  CHECK(parse_cursor_path("/otter/canal/destinations/example/1001/cursor") == ZkCursorPath{"example", 1001});
  CHECK(parse_cursor_path("backup/destinations/orders/7/cursor") == ZkCursorPath{"orders", 7});
  CHECK(parse_cursor_path("destinations/orders/7/cursor") == ZkCursorPath{"orders", 7});
  CHECK_FALSE(parse_cursor_path("/otter/canal/destinations/example/10x1/cursor"));
  CHECK_FALSE(parse_cursor_path("/otter/canal/destinations/example/40000/cursor"));  // beyond Java's short
  CHECK_FALSE(parse_cursor_path("/otter/canal/example/1001/cursor"));
  CHECK_FALSE(parse_cursor_path("/otter/canal/destinations/example/1001/filter"));
  CHECK(cursor_znode({"example", 1001}) == "/otter/canal/destinations/example/1001/cursor");
}

TEST_CASE("zk tree: clients, filters, batches and their checks") {
  TempDir dir("canal-zk");
  const auto client = dir.path() / "destinations" / "example" / "1001";
  std::filesystem::create_directories(client / "mark");
  std::filesystem::create_directories(dir.path() / "destinations" / "example" / "1002");
  write_file(client / "cursor", text(kNode));
  write_file(dir.path() / "destinations" / "example" / "1002" / "filter", text("shop\\..*"));
  const std::string start = std::string(kNode).replace(std::string(kNode).find("226987109"), 9, "226987140");
  write_file(client / "mark" / "0000000003",
             text(R"({"@type":"com.alibaba.otter.canal.protocol.position.PositionRange","end":)" + start +
                  R"(,"endSeq":9,"start":)" + start + "}"));
  REQUIRE(zk_tree_root(dir.path().string()) == (dir.path() / "destinations").string());
  FindingList findings;
  const ZkTree tree = read_zk_tree(*zk_tree_root(dir.path().string()), &findings);
  REQUIRE(tree.clients.size() == 2);
  CHECK(tree.clients[0].batches.size() == 1);
  CHECK(tree.clients[0].batches[0].id == 3);
  CHECK_FALSE(tree.clients[0].batches[0].ack);
  CHECK(tree.clients[1].filter == "shop\\..*");
  CHECK(codes(findings) == std::vector<std::string>{"canal_zk_cursor_behind_batch", "canal_no_cursor"});
  const MetaDat meta = zk_meta_dat(tree.clients, "example");
  REQUIRE(meta.clients.size() == 2);
  CHECK(meta.clients[0].cursor == tree.clients[0].cursor->cursor);
  CHECK_FALSE(meta.clients[1].cursor);
}
