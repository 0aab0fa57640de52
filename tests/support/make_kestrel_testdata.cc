// make_kestrel_testdata OUTDIR: writes every Kestrel test fixture and the
// expected `qjt dump` outputs into OUTDIR, deterministically. The committed
// copy lives in testdata/kestrel; the ctest `testdata_reproducible` checks
// that this program still produces exactly that tree.
//
// Every regular file outside OUTDIR/expected is a classic Kestrel journal.
// OUTDIR/expected/dump holds what `qjt dump` must print for them, computed
// by the test-only encoder from its own inputs (see kestrel_encoder.h). The
// expected replay and verify outputs in testdata/kestrel/expected/spec are
// written by hand from the spec and are not produced here.
//
// File paths in expected outputs are as the CLI tests name them: relative
// to the repository root, e.g. testdata/kestrel/files/every-opcode.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kestrel_encoder.h"

namespace {

namespace fs = std::filesystem;
using qjt_test::kestrel::DataMode;
using qjt_test::kestrel::ExpectedRecord;
using qjt_test::kestrel::JournalBuilder;
namespace op = qjt_test::kestrel;

constexpr std::int64_t T = 1700000000000;  // 2023-11-14T22:13:20Z, every fixture's time base
constexpr const char* kLabelRoot = "testdata/kestrel/";

fs::path g_out;

void write_file(const std::string& rel, const std::string& content) {
  const fs::path path = g_out / rel;
  fs::create_directories(path.parent_path());
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

struct Filter {
  std::set<std::string> ops;  // empty: all
  std::optional<std::int32_t> xid;
  std::uint64_t from_offset = 0;
  std::optional<std::size_t> limit;
};

// A file of the journal, as the CLI names it, and its builder.
struct Part {
  std::string label;
  const JournalBuilder* journal;
};

// What `qjt dump [--json]` prints for `parts` in order: the filters select
// records (the terminal record included), --limit counts printed lines
// across files, and text output names each file ("# path") when there are
// several.
std::string dump(const std::vector<Part>& parts, bool json, DataMode mode, const Filter& filter = {}) {
  std::string out;
  std::size_t printed = 0;
  for (const Part& part : parts) {
    if (!json && parts.size() > 1) out += "# " + part.label + "\n";
    for (const ExpectedRecord& r : part.journal->records()) {
      if (r.offset < filter.from_offset) continue;
      if (!filter.ops.empty() && filter.ops.count(r.op) == 0) continue;
      if (filter.xid && (!r.xid || *r.xid != *filter.xid)) continue;
      if (filter.limit && printed == *filter.limit) break;
      ++printed;
      out += json ? qjt_test::kestrel::dump_json_line(part.label, r, mode) : qjt_test::kestrel::dump_text_line(r, mode);
    }
  }
  return out;
}

// Writes a journal file and its expected `qjt dump --json` output.
void journal(const std::string& rel, const JournalBuilder& j) {
  write_file(rel, j.bytes());
  std::string name = rel;
  for (char& c : name)
    if (c == '/') c = '_';
  write_file("expected/dump/" + name + ".jsonl", dump({{kLabelRoot + rel, &j}}, true, DataMode::kText));
}

std::string label(const std::string& rel) { return kLabelRoot + rel; }

// ---- sample/: the Quick-start queue directory ------------------------------

void make_sample() {
  const std::string o1 = R"({"order":1001,"sku":"A-100","qty":2})";
  const std::string o2 = R"({"order":1002,"sku":"B-220","qty":1})";
  const std::string o3 = R"({"order":1003,"sku":"C-310","qty":5})";
  const std::string o4 = R"({"order":1004,"sku":"A-100","qty":1,"rush":true})";
  const std::string o5 = R"({"order":1005,"sku":"D-045","qty":3})";

  // orders: archived segment, rotated at T.
  JournalBuilder orders_1;
  orders_1
      .addx(T - 100000, 0, o1)  // queue [o1]
      .addx(T - 90000, 0, o2)   // [o1 o2]
      .remove_tentative_xid(1)  // open {1:o1}, queue [o2]
      .confirm_remove(1)        // open {}
      .addx(T - 80000, 0, o3);  // [o2 o3]
  // orders: live.
  JournalBuilder orders;
  orders
      .addx(T + 10000, T + 10000 + 3600000, o4)  // [o2 o3 o4], o4 expires after an hour
      .remove_tentative_xid(2)                   // open {2:o2}, [o3 o4]
      .addx(T + 20000, 0, o5)                    // [o3 o4 o5]
      .remove();                                 // [o4 o5]
  // Final: queue [o4 o5], open {2:o2}, xid counter 2, after restart [o2 o4 o5].

  // A rewrite interrupted before its rename: what it was writing is the
  // compacted state (spec 3.2: ADDX + REMOVE_TENTATIVE_XID per open
  // transaction, then ADDX per queued item). Startup deletes it.
  JournalBuilder orders_tmp;
  orders_tmp.addx(T - 90000, 0, o2)
      .remove_tentative_xid(2)
      .addx(T + 10000, T + 10000 + 3600000, o4)
      .addx(T + 20000, 0, o5);

  const std::string e1 = R"({"event":"login","user":"ana"})";
  const std::string e2 = R"({"event":"view","user":"ana","page":"/cart"})";
  const std::string e3 = R"({"event":"logout","user":"ana"})";
  const std::string e4 = R"({"event":"login","user":"bo"})";
  const std::string e5 = R"({"event":"view","user":"bo","page":"/"})";

  JournalBuilder events_1;                                      // events.1700000001000
  events_1.addx(T + 500, 0, e1).addx(T + 600, 0, e2).remove();  // [e2]
  JournalBuilder events_2;                                      // events.1700000002000
  events_2
      .addx(T + 1500, 0, e3)    // [e2 e3]
      .remove_tentative_xid(1)  // open {1:e2}, [e3]
      .confirm_remove(1);       // open {}, [e3]
  // The pack covering both segments: their compacted equivalent (no open
  // transaction, one queued item).
  JournalBuilder events_pack;
  events_pack.addx(T + 1500, 0, e3);
  JournalBuilder events;  // live
  events.addx(T + 2500, 0, e4).addx(T + 2600, 0, e5).remove();
  // Replay: pack [e3], live -> [e3 e4 e5] then REMOVE -> [e4 e5]; the
  // pack carries no xid, so the xid counter ends at 0.

  journal("sample/orders.1700000000000", orders_1);
  journal("sample/orders", orders);
  journal("sample/orders~~1700000003000", orders_tmp);
  journal("sample/events.1700000001000", events_1);
  journal("sample/events.1700000002000", events_2);
  journal("sample/events.1700000002000.pack", events_pack);
  journal("sample/events", events);

  write_file("expected/dump/sample.queue-orders.jsonl",
             dump({{label("sample/orders.1700000000000"), &orders_1}, {label("sample/orders"), &orders}}, true,
                  DataMode::kText));
  write_file("expected/dump/sample.queue-orders.txt",
             dump({{label("sample/orders.1700000000000"), &orders_1}, {label("sample/orders"), &orders}}, false,
                  DataMode::kNone));
  write_file("expected/dump/sample.queue-events.jsonl",
             dump({{label("sample/events.1700000002000.pack"), &events_pack}, {label("sample/events"), &events}}, true,
                  DataMode::kText));
  // Whole directory: queues sorted by name, files in replay order.
  write_file("expected/dump/sample.all.jsonl", dump({{label("sample/events.1700000002000.pack"), &events_pack},
                                                     {label("sample/events"), &events},
                                                     {label("sample/orders.1700000000000"), &orders_1},
                                                     {label("sample/orders"), &orders}},
                                                    true, DataMode::kText));
}

// ---- files/: single journals -------------------------------------------------
// Named like live journals (no dot), as a queue's journal file is.

void make_every_opcode() {
  JournalBuilder j;
  j.addx(T, 0, "alpha")                                    // [alpha]
      .addx(T + 1, T + 60000, "bravo")                     // [alpha bravo]
      .addx(T + 2, 0, "charlie")                           // [alpha bravo charlie]
      .addx(T + 3, 0, std::string("\xff\xfe\x00\x80", 4))  // + bin (not UTF-8)
      .addx(T + 4, 0, "")                                  // + empty
      .remove_tentative_xid(1)                             // open {1:alpha}; [bravo charlie bin empty]
      .remove_tentative_xid(2)                             // open {1:alpha 2:bravo}; [charlie bin empty]
      .unremove(1)                                         // open {2:bravo}; [alpha charlie bin empty]
      .confirm_remove(2)                                   // open {}
      .remove()                                            // [charlie bin empty]
      .remove_tentative_xid(3)                             // open {3:charlie}; [bin empty]
      .continue_(3, T + 5, T + 120000, "delta")            // open {}; [bin empty delta]
      .remove_tentative_xid(4);                            // open {4:bin}; [empty delta]
  // Final: queue [empty delta], open {4:bin}, xid counter 4,
  // after restart [bin empty delta].
  journal("files/every-opcode", j);

  const Part part{label("files/every-opcode"), &j};
  write_file("expected/dump/every-opcode.txt", dump({part}, false, DataMode::kNone));
  write_file("expected/dump/every-opcode.data-text.txt", dump({part}, false, DataMode::kText));
  write_file("expected/dump/every-opcode.data-hex.jsonl", dump({part}, true, DataMode::kHex));
  write_file("expected/dump/every-opcode.data-base64.jsonl", dump({part}, true, DataMode::kBase64));
  write_file("expected/dump/every-opcode.data-none.jsonl", dump({part}, true, DataMode::kNone));
  write_file("expected/dump/every-opcode.op-rtx.jsonl",
             dump({part}, true, DataMode::kText, Filter{{"REMOVE_TENTATIVE_XID"}, {}, 0, {}}));
  write_file("expected/dump/every-opcode.op-addx-continue.jsonl",
             dump({part}, true, DataMode::kText, Filter{{"ADDX", "CONTINUE"}, {}, 0, {}}));
  write_file("expected/dump/every-opcode.xid-3.jsonl", dump({part}, true, DataMode::kText, Filter{{}, 3, 0, {}}));
  // From the middle of the first REMOVE_TENTATIVE_XID (offset 126 + 1):
  // records starting at or after 127, at most 3.
  write_file("expected/dump/every-opcode.from-127-limit-3.jsonl",
             dump({part}, true, DataMode::kText, Filter{{}, {}, 127, 3}));
  write_file("expected/dump/every-opcode.stdin.jsonl", dump({{"-", &j}}, true, DataMode::kText));
}

void make_legacy() {
  // A Kestrel 1.x journal: starling ADDs, xid-less REMOVE_TENTATIVE (3),
  // SAVE_XID, ADD_XID, and UNREMOVE/CONFIRM_REMOVE naming the xids 1.x
  // assigned implicitly. Hand replay under both rules is in
  // expected/spec/replay-legacy*.json.
  JournalBuilder j;
  j.add_legacy(0, "one")              // @0
      .add_legacy(1700003600, "two")  // @12, expiry in seconds
      .addx(T + 3, 0, "three")        // @24
      .addx(T + 4, 0, "four")         // @50
      .addx(T + 5, 0, "five")         // @75
      .save_xid(10)                   // @100
      .remove_tentative()             // @105 1.x: xid 11 (one)
      .remove_tentative()             // @106 1.x: xid 12 (two)
      .remove_tentative()             // @107 1.x: xid 13 (three)
      .confirm_remove(12)             // @108
      .unremove(11)                   // @113
      .add_xid(7, T + 6, 0, "six")    // @118
      .remove_tentative();            // @146
  journal("files/legacy-1x", j);
}

// Records Kestrel's replay accepts but ignores (spec 2.2): REMOVE and
// REMOVE_TENTATIVE_XID on an empty queue (the latter still sets the xid
// counter), UNREMOVE / CONFIRM_REMOVE / CONTINUE of unknown xids (CONTINUE
// still appends), and an xid counter that goes backwards.
void make_ignored_records() {
  JournalBuilder j;
  j.remove()                             // @0  empty: ignored
      .remove_tentative_xid(7)           // @1  empty: ignored, xid counter 7
      .unremove(99)                      // @6  unknown xid
      .confirm_remove(98)                // @11 unknown xid
      .continue_(42, T + 10, 0, "late")  // @16 unknown xid, still appends: [late]
      .addx(T + 20, 0, "x")              // @45 [late x]
      .remove_tentative_xid(3);          // @67 open {3:late}, [x], counter back to 3
  journal("files/ignored-records", j);
}

// Legacy REMOVE_TENTATIVE after SAVE_XID: 1.x rules skip open xids and 0
// (spec 2.4); 2.x files both under xid 0.
void make_legacy_xid_skip() {
  JournalBuilder j;
  j.addx(T + 1, 0, "a")         // @0
      .addx(T + 2, 0, "b")      // @22
      .addx(T + 3, 0, "c")      // @44
      .addx(T + 4, 0, "d")      // @66
      .remove_tentative_xid(2)  // @88  open {2:a}
      .save_xid(1)              // @93  counter 1
      .remove_tentative()       // @98  1.x: 2 is open, so xid 3 (b); 2.x: xid 0
      .save_xid(-1)             // @99  counter -1
      .remove_tentative();      // @104 1.x: 0 is skipped, so xid 1 (c); 2.x: xid 0 again
  journal("files/legacy-xid-skip", j);
}

void make_broken() {
  JournalBuilder empty;
  journal("files/empty", empty);

  const std::string first = "first";
  JournalBuilder b;

  b = JournalBuilder();
  b.addx(T, 0, first).truncated_xid(op::kRemoveTentativeXid, 2);
  journal("files/broken-truncated-xid", b);

  b = JournalBuilder();
  b.addx(T, 0, first).truncated_size(op::kAddX, 3);
  journal("files/broken-truncated-size", b);

  // A crash in the middle of an append: the size says 16+12 bytes, only
  // the times and 5 payload bytes made it.
  b = JournalBuilder();
  b.addx(T, 0, first).remove().bad_block(op::kAddX, 16 + 12, 16 + 5);
  journal("files/broken-truncated-data", b);

  b = JournalBuilder();
  b.addx(T, 0, first).bad_block(op::kAddX, 10, 10);
  journal("files/broken-short-item-block", b);

  b = JournalBuilder();
  b.add_legacy(0, first).bad_block(op::kAdd, 2, 2);
  journal("files/broken-short-legacy-block", b);

  b = JournalBuilder();
  b.addx(T, 0, first).bad_block(op::kContinue, 0, 0);
  journal("files/broken-empty-continue-block", b);

  b = JournalBuilder();
  b.addx(T, 0, first).invalid_opcode(0x0a, std::string("\x00\x00\x00\x00", 4));
  journal("files/broken-opcode-0a", b);

  b = JournalBuilder();
  b.addx(T, 0, first).remove().invalid_opcode(0x80, "garbage");
  journal("files/broken-opcode-80", b);

  b = JournalBuilder();
  b.addx(T, 0, first).bad_block(op::kAddX, -1, 20);
  journal("files/broken-negative-size", b);

  b = JournalBuilder();
  b.addx(T, 0, first).bad_block(op::kAddXid, 0x7fffffff, 20);
  journal("files/broken-oversized", b);
}

// ---- dirs/: queue directory layouts ----------------------------------------

void make_dirs() {
  {
    // Two leftover packs. Startup installs q.2000.pack (dropping q.1000),
    // starts over, then installs q.4000.pack (dropping q.2000 and q.3000):
    // replay = q.4000 (from the pack), q.5000, q.
    JournalBuilder q1000, p2000, q3000, p4000, q5000, live;
    q1000.addx(900, 0, "m1").addx(950, 0, "m2").remove();                  // [m2]
    p2000.addx(950, 0, "m2");                                              // compacted <= 2000
    q3000.addx(2500, 0, "m3").remove_tentative_xid(1);                     // open {1:m2}, [m3]
    p4000.addx(950, 0, "m2").remove_tentative_xid(1).addx(2500, 0, "m3");  // compacted <= 4000
    q5000.addx(4500, 0, "m4").confirm_remove(1);                           // open {}, [m3 m4]
    live.addx(5500, 0, "m5").remove();                                     // [m4 m5]
    journal("dirs/multi-pack/q.1000", q1000);
    journal("dirs/multi-pack/q.2000.pack", p2000);
    journal("dirs/multi-pack/q.3000", q3000);
    journal("dirs/multi-pack/q.4000.pack", p4000);
    journal("dirs/multi-pack/q.5000", q5000);
    journal("dirs/multi-pack/q", live);
    write_file("expected/dump/multi-pack.jsonl", dump({{label("dirs/multi-pack/q.4000.pack"), &p4000},
                                                       {label("dirs/multi-pack/q.5000"), &q5000},
                                                       {label("dirs/multi-pack/q"), &live}},
                                                      true, DataMode::kText));
  }
  {
    // Numeric order 999 < 1000 < 10000 differs from name order
    // (q.1000 < q.10000 < q.999). In numeric order: [n1] -> [n1 n2] ->
    // RTX 5 takes n1 -> UNREMOVE 5 puts n1 back at the head -> REMOVE takes
    // n1 -> live adds n3: [n2 n3], xid counter 5.
    JournalBuilder q999, q1000, q10000, live;
    q999.addx(T + 999, 0, "n1");
    q1000.addx(T + 1000, 0, "n2").remove_tentative_xid(5);
    q10000.unremove(5).remove();
    live.addx(T + 10001, 0, "n3");
    journal("dirs/numeric-order/q.999", q999);
    journal("dirs/numeric-order/q.1000", q1000);
    journal("dirs/numeric-order/q.10000", q10000);
    journal("dirs/numeric-order/q", live);
    write_file("expected/dump/numeric-order.jsonl", dump({{label("dirs/numeric-order/q.999"), &q999},
                                                          {label("dirs/numeric-order/q.1000"), &q1000},
                                                          {label("dirs/numeric-order/q.10000"), &q10000},
                                                          {label("dirs/numeric-order/q"), &live}},
                                                         true, DataMode::kText));
  }
  {
    // A segment name Kestrel cannot parse (r.notanumber): startup fails.
    JournalBuilder bad, r100, live;
    bad.addx(T, 0, "lost");
    r100.addx(T + 100, 0, "r1");
    live.addx(T + 200, 0, "r2");
    journal("dirs/bad-name/r.notanumber", bad);
    journal("dirs/bad-name/r.100", r100);
    journal("dirs/bad-name/r", live);
  }
  {
    // Only archived segments, no live file: Kestrel starts with them and
    // creates an empty live file.
    JournalBuilder a100, a200;
    a100.addx(T + 100, 0, "a1").addx(T + 110, 0, "a2");
    a200.remove().addx(T + 200, 0, "a3");  // [a2 a3]
    journal("dirs/no-live/a.100", a100);
    journal("dirs/no-live/a.200", a200);
    write_file(
        "expected/dump/no-live.jsonl",
        dump({{label("dirs/no-live/a.100"), &a100}, {label("dirs/no-live/a.200"), &a200}}, true, DataMode::kText));
  }
  {
    // A broken record in an archived segment. Kestrel 2.x stops replaying
    // q.100 at the broken record (offset 46) and truncates the LIVE file q
    // to 46 bytes instead of q.100; then it replays q.200 and q. The live
    // file is kept shorter than 46 bytes, so that truncation changes
    // nothing here and the replayed queue is unambiguous: [b1 b2 b3 b4].
    JournalBuilder q100, q200, live;
    q100.addx(T + 100, 0, "b1").addx(T + 110, 0, "b2").bad_block(op::kAddX, 16 + 30, 16 + 3);
    q200.addx(T + 200, 0, "b3");
    live.addx(T + 300, 0, "b4");
    journal("dirs/broken-archived/q.100", q100);
    journal("dirs/broken-archived/q.200", q200);
    journal("dirs/broken-archived/q", live);
    write_file("expected/dump/broken-archived.jsonl", dump({{label("dirs/broken-archived/q.100"), &q100},
                                                            {label("dirs/broken-archived/q.200"), &q200},
                                                            {label("dirs/broken-archived/q"), &live}},
                                                           true, DataMode::kText));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_kestrel_testdata OUTDIR\n";
    return 2;
  }
  g_out = argv[1];
  try {
    make_sample();
    make_every_opcode();
    make_legacy();
    make_ignored_records();
    make_legacy_xid_skip();
    make_broken();
    make_dirs();
  } catch (const std::exception& e) {
    std::cerr << "make_kestrel_testdata: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
