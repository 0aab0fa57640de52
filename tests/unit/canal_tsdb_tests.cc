// formats/canal's destination files against expectations written by hand:
// java.util.Properties.load's rules (its Javadoc), the keys Canal's
// instance.properties and canal.properties use, the MVStore header
// (canal-format.md §6), Canal's cursor order for a rewind (§1.3, §5) and
// its start precedence (§5, issue 785).
#include <doctest/doctest.h>

#include "canal/destination_config.h"
#include "canal/start_position.h"
#include "canal/tsdb_store.h"

using namespace qjt;
using namespace qjt::canal;

namespace {

Properties parse(std::string_view text, std::size_t* problems = nullptr) {
  Properties p;
  std::vector<PropertiesProblem> found;
  read_properties(text, &p, &found);
  if (problems) *problems = found.size();
  return p;
}

Cursor at(const char* journal, std::int64_t position, std::int64_t timestamp) {
  Cursor c;
  c.address = "db1.internal";
  c.port = 3306;
  c.journal_name = journal;
  c.position = position;
  c.timestamp = timestamp;
  return c;
}

MetaDat one_client(std::optional<Cursor> cursor) {
  MetaDat meta;
  meta.destination = "example";
  meta.clients.push_back(ClientData{1001, "example", "", std::move(cursor), 0});
  return meta;
}

const MetaDatSource kSource{"conf/example/meta.dat", "example"};

}  // namespace

TEST_CASE("properties: separators, blanks and comments") {
  const auto p = parse(
      "# comment\n"
      "! also a comment\n"
      "   \n"
      "a=1\n"
      "b : 2\n"
      "c 3\n"
      "  d\t=  four  \n"
      "e\n"
      "f==5\n"
      "g=\n"
      "a=last\n");
  CHECK(p.at("a") == "last");
  CHECK(p.at("b") == "2");
  CHECK(p.at("c") == "3");
  CHECK(p.at("d") == "four  ");  // trailing blanks are the value's
  CHECK(p.at("e").empty());
  CHECK(p.at("f") == "=5");  // one separator only
  CHECK(p.at("g").empty());
  CHECK(p.size() == 7);
}

TEST_CASE("properties: continuations and line ends") {
  const auto p = parse("k = one, \\\n     two\\\r\n three\rx=\\\\\ny=odd\\\\\\\n  end\nz=eof\\");
  CHECK(p.at("k") == "one, twothree");
  CHECK(p.at("x") == "\\");  // an even run of backslashes continues nothing
  CHECK(p.at("y") == "odd\\end");
  CHECK(p.at("z") == "eof");
  // A comment is not continued; a continued line is no comment.
  const auto q = parse("# c \\\nk=v\nm=\\\n# not a comment\n");
  CHECK(q.at("k") == "v");
  CHECK(q.at("m") == "# not a comment");
}

TEST_CASE("properties: escapes, ISO-8859-1 and malformed \\u") {
  std::size_t problems = 0;
  const auto p = parse("a\\=b\\ c=\\t\\n\\u0041\\z\nlatin=\xe9\nsmile=\\ud83d\\ude00\nlone=\\ud83d!\n", &problems);
  CHECK(problems == 0);
  CHECK(p.at("a=b c") == "\t\nAz");
  CHECK(p.at("latin") == "\xc3\xa9");
  CHECK(p.at("smile") == "\xf0\x9f\x98\x80");
  CHECK(p.at("lone") == "\xef\xbf\xbd!");
  const auto bad = parse("ok=1\nbad=\\u12G4\nshort=\\u12\nafter=2\n", &problems);
  CHECK(problems == 2);
  CHECK(bad.at("ok") == "1");
  CHECK(bad.at("after") == "2");
  CHECK(bad.count("bad") == 0);
}

TEST_CASE("destination config: master position, gtid mode and the store") {
  auto config =
      destination_config(parse("canal.instance.master.address=127.0.0.1:3306\n"
                               "canal.instance.master.journal.name=mysql-bin.000007\n"
                               "canal.instance.master.position=154\n"
                               "canal.instance.master.timestamp=\n"
                               "canal.instance.tsdb.enable=true\n"));
  CHECK(config.master.journal_name == "mysql-bin.000007");
  CHECK(config.master.position == 154);
  CHECK(!config.master.timestamp);
  CHECK(config.master.names_start(false));
  CHECK(config.tsdb == TsdbKind::kH2);

  config = destination_config(parse("canal.instance.master.journal.name=\ncanal.instance.master.gtid=u:1-5\n"));
  CHECK(!config.master.names_start(false));
  config = destination_config(parse("canal.instance.gtidon=true\ncanal.instance.master.gtid=u:1-5\n"));
  CHECK(config.master.names_start(true));

  CHECK(destination_config(parse("canal.instance.tsdb.spring.xml=classpath:spring/tsdb/mysql-tsdb.xml\n")).tsdb ==
        TsdbKind::kMySql);
  CHECK(destination_config(parse("canal.instance.tsdb.url=jdbc:mysql://127.0.0.1:3306/canal_tsdb\n")).tsdb ==
        TsdbKind::kMySql);
  CHECK(destination_config(parse("canal.instance.tsdb.spring.xml=classpath:spring/tsdb/h2-tsdb.xml\n"
                                 "canal.instance.tsdb.url=jdbc:mysql://x/y\n"))
            .tsdb == TsdbKind::kH2);
  CHECK(destination_config(parse("canal.instance.tsdb.enable = false\n")).tsdb == TsdbKind::kDisabled);
}

TEST_CASE("MVStore header: the format and its release") {
  std::string block = "H:2,block:2,blockSize:1000,chunk:1,created:16a0,format:2,version:3,fletcher:1a2b3c4d\n";
  block.resize(4096, '\0');
  CHECK(mvstore_format(ByteSpan(block)) == 2);
  CHECK(mvstore_format(ByteSpan(std::string_view("H:2,format:1"))) == 1);
  CHECK(!mvstore_format(ByteSpan(std::string_view("-- H2 0.5/B --"))));
  CHECK(!mvstore_format(ByteSpan(std::string_view("H:2,format:x"))));
  CHECK(!mvstore_format(ByteSpan(std::string_view("H:2,chunk:1\nformat:2"))));
  CHECK(mvstore_release(1) == "H2 1.4 (Canal up to 1.1.6)");
  CHECK(mvstore_release(9).empty());
}

TEST_CASE("rewind: Canal's cursor order") {
  const Cursor now = at("mysql-bin.000266", 1000, 1610750948000);
  CHECK(is_rewind(now, at("mysql-bin.000266", 999, 1610750948000)));
  CHECK(is_rewind(now, at("mysql-bin.000265", 5000, 1610750948000)));  // the timestamp kept by --set-position
  CHECK(!is_rewind(now, at("mysql-bin.000266", 1000, 1)));
  CHECK(!is_rewind(now, at("mysql-bin.000267", 4, 1)));
  // Journal names compare as strings, as Canal compares them.
  CHECK(is_rewind(at("mysql-bin.999999", 4, 2), at("mysql-bin.1000000", 4, 3)));
  // Another source: by timestamp.
  Cursor other = at("mysql-bin.000001", 4, 1610750947000);
  other.address = "db2.internal";
  CHECK(is_rewind(now, other));
  other.timestamp = 1610750949000;
  CHECK(!is_rewind(now, other));
  // A search-by-time cursor starts a fallback interval before its time.
  Cursor by_time = now;
  by_time.journal_name = "";
  by_time.position = 0;
  by_time.timestamp = 1610750948000 + kFallbackIntervalMs;
  CHECK(!is_rewind(now, by_time));
  by_time.timestamp = 1610750948000 + kFallbackIntervalMs - 1000;
  CHECK(is_rewind(now, by_time));
  // An unusable cursor tells nothing.
  Cursor broken = at("mysql-bin.000001", 4, 1);
  broken.valid = false;
  CHECK(!is_rewind(now, broken));

  const MetaDat before = one_client(now);
  CHECK(rewound_clients(before, one_client(at("mysql-bin.000265", 4, 1))) == std::vector<std::int64_t>{1001});
  CHECK(rewound_clients(before, one_client(at("mysql-bin.000267", 4, 1))).empty());
  CHECK(rewound_clients(one_client(std::nullopt), one_client(now)).empty());
}

TEST_CASE("start precedence: meta.dat, instance.properties, SHOW MASTER STATUS") {
  DestinationConfig configured;
  configured.master.journal_name = "mysql-bin.000007";
  configured.master.position = 154;
  const auto meta = one_client(at("mysql-bin.000266", 1000, 1610750948000));

  auto d = where_canal_starts(meta, kSource, configured);
  CHECK(d.source == StartSource::kMetaDat);
  CHECK(d.configured);
  CHECK(describe_start(d) ==
        "Canal starts from meta.dat: client 1001's cursor, mysql-bin.000266:1000; instance.properties' start "
        "(mysql-bin.000007:154) is ignored");

  d = where_canal_starts(one_client(std::nullopt), kSource, configured);
  CHECK(d.source == StartSource::kInstanceProperties);
  CHECK(describe_start(d) ==
        "Canal starts from instance.properties: mysql-bin.000007:154 (no client in meta.dat has a usable cursor)");

  d = where_canal_starts(std::nullopt, kSource, configured);
  CHECK(d.source == StartSource::kInstanceProperties);
  CHECK(describe_start(d) == "Canal starts from instance.properties: mysql-bin.000007:154 (no meta.dat)");

  d = where_canal_starts(meta, kSource, std::nullopt);
  CHECK(d.source == StartSource::kMetaDat);
  CHECK(!d.configured);

  d = where_canal_starts(std::nullopt, kSource, DestinationConfig{});
  CHECK(d.source == StartSource::kShowMasterStatus);
  CHECK(std::string(start_source_name(d.source)) == "show master status");
  configured.master = MasterPosition{};
  configured.master.timestamp = 1610750948000;
  d = where_canal_starts(one_client(std::nullopt), kSource, configured);
  CHECK(d.configured_text == "the binlogs searched for timestamp 1610750948000");
  configured.master.journal_name = "mysql-bin.000007";
  CHECK(where_canal_starts(std::nullopt, kSource, configured).configured_text ==
        "mysql-bin.000007 searched for timestamp 1610750948000");
  configured.master.timestamp.reset();
  CHECK(where_canal_starts(std::nullopt, kSource, configured).configured_text == "mysql-bin.000007:4, its start");
}
