#!/usr/bin/env python3
# Writes testdata/kestrel/expected/spec/*: the `qjt replay` and `qjt verify`
# outputs the CLI tests expect, derived BY HAND from the spec's replay rules
# (kestrel-format.md 2.1-2.4) and entered here as data: which items remain,
# in which order, under which xids, with which findings. Offsets and sizes
# come from the fixtures as make_kestrel_testdata wrote them (see
# expected/dump). Nothing here runs qjt. Finding messages follow qjt's
# wording.
#
# Run it after changing a fixture or an output layout, then review the diff:
#   python3 tests/support/write_spec_expectations.py
# (help-dump.txt, empty.txt and dump-missing-file.json in the same folder
# are maintained by hand.)
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testdata", "kestrel",
                   "expected", "spec")
T = 1700000000000
def js(v): return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
def obj(pairs): return "{" + ",".join(js(k) + ":" + (v if isinstance(v, Raw) else js(v)) for k, v in pairs) + "}"
class Raw(str): pass
def item(file, offset, add, exp, data=None, b64=None, size=None, xid=None):
    p = []
    if xid is not None: p.append(("xid", xid))
    p += [("file", file), ("offset", offset), ("time_ms", add), ("expiry_ms", exp)]
    if b64 is not None:
        p += [("size", size), ("data_b64", b64)]
    else:
        p += [("size", len(data.encode())), ("data", data)]
    return Raw(obj(p))
def arr(xs): return Raw("[" + ",".join(xs) + "]")
def finding(sev, code, file, offset, msg, hint=None):
    pairs = [("type", "finding"), ("severity", sev), ("code", code), ("file", file), ("offset", offset), ("message", msg)]
    return Raw(obj(pairs + ([("hint", hint)] if hint else [])))
# verify gives a broken record the command that repairs it (the hint table
# of formats/kestrel/cli/kestrel_hints.cc); replay does not.
def repair_hint(file): return "qjt repair --apply " + file
def fileinfo(path, role, size, records):
    return Raw(obj([("path", path), ("role", role), ("size", size), ("records", records)]))
def addx_size(n): return 21 + n
def replay(name, files, queue, open_, ctr, jb, lb, broken, findings):
    # open_: list of (xid, itemargs) ascending; after_restart = open then queue
    q = [item(*a) for a in queue]
    o = [item(*a, xid=x) for x, a in open_]
    ar = [item(*a) for _, a in open_] + q
    return obj([("type", "report"), ("queue_name", name), ("files", arr(files)), ("queue", arr(q)),
                ("open_transactions", arr(o)), ("after_restart", arr(ar)), ("xid_counter", ctr),
                ("journal_bytes", jb), ("live_bytes", lb), ("broken", broken),
                ("findings", arr(findings))]) + "\n"
def verify(ok, files, records, errors, warnings, findings):
    return obj([("type", "report"), ("ok", ok), ("files", files), ("records", records), ("errors", errors),
                ("warnings", warnings), ("findings", arr(findings))]) + "\n"
def write(name, text):
    with open(os.path.join(OUT, name), "w") as f: f.write(text)

TD = "testdata/kestrel/"
def superseded(path, pack):
    return finding("warning", "superseded_segment", path, None,
        "covered by the leftover pack %s: Kestrel's startup deletes this segment and qjt leaves it out of the replay" % pack)
def leftover(path, installed, count):
    return finding("warning", "leftover_pack", path, None,
        "unfinished compaction: Kestrel's startup installs it as %s in place of %d older segment(s); qjt replays it in that place" % (installed, count))

# ---------------- sample ----------------
S = TD + "sample/"
e3 = '{"event":"logout","user":"ana"}'
e4 = '{"event":"login","user":"bo"}'
e5 = '{"event":"view","user":"bo","page":"/"}'
o2 = '{"order":1002,"sku":"B-220","qty":1}'
o4 = '{"order":1004,"sku":"A-100","qty":1,"rush":true}'
o5 = '{"order":1005,"sku":"D-045","qty":3}'
temp_finding = finding("warning", "temp_file", S + "orders~~1700000003000", None,
            "stray temporary file from an interrupted rewrite: Kestrel's startup deletes it; qjt ignores it")
# Layout findings belong to their queue (in the order discover_queues
# reports them) and are part of that queue's replay report.
events_findings = [
    finding("warning", "superseded_segment", S + "events.1700000001000", None,
            "covered by the leftover pack events.1700000002000.pack: Kestrel's startup deletes this segment and qjt leaves it out of the replay"),
    finding("warning", "superseded_segment", S + "events.1700000002000", None,
            "covered by the leftover pack events.1700000002000.pack: Kestrel's startup deletes this segment and qjt leaves it out of the replay"),
    finding("warning", "leftover_pack", S + "events.1700000002000.pack", None,
            "unfinished compaction: Kestrel's startup installs it as events.1700000002000 in place of 2 older segment(s); qjt replays it in that place"),
]
events = replay("events",
    [fileinfo(S + "events.1700000002000.pack", "pack", 52, 1), fileinfo(S + "events", "live", 111, 3)],
    [(S + "events", 0, T + 2500, 0, e4), (S + "events", 50, T + 2600, 0, e5)],
    [], 0, 52 + 111, addx_size(len(e4)) + addx_size(len(e5)), False, events_findings)
orders = replay("orders",
    [fileinfo(S + "orders.1700000000000", "archived", 181, 5), fileinfo(S + "orders", "live", 132, 4)],
    [(S + "orders", 0, T + 10000, T + 10000 + 3600000, o4), (S + "orders", 74, T + 20000, 0, o5)],
    [(2, (S + "orders.1700000000000", 57, T - 90000, 0, o2))],
    2, 181 + 132, addx_size(len(o2)) + 5 + addx_size(len(o4)) + addx_size(len(o5)), False, [temp_finding])
sample_findings = events_findings + [temp_finding]
write("replay-sample.json", events + orders)
write("replay-sample.txt",
      "queue events: 2 item(s), %d payload byte(s); 0 open transaction(s); 2 item(s) after restart\n" % (len(e4) + len(e5)) +
      "  %sevents.1700000002000.pack (pack, 52 bytes, 1 records)\n" % S +
      "  %sevents (live, 111 bytes, 3 records)\n" % S +
      "  xid counter 0; journal 163 bytes, live 110 bytes (overflow %.2fx)\n" % (163 / 110) +
      "queue orders: 2 item(s), %d payload byte(s); 1 open transaction(s); 3 item(s) after restart\n" % (len(o4) + len(o5)) +
      "  %sorders.1700000000000 (archived, 181 bytes, 5 records)\n" % S +
      "  %sorders (live, 132 bytes, 4 records)\n" % S +
      "  xid counter 2; journal 313 bytes, live 188 bytes (overflow %.2fx)\n" % (313 / 188))
write("verify-sample.json", verify(True, 4, 13, 0, 4, sample_findings))
# --queue orders: only the orders files, and only the findings about them.
write("verify-sample-orders.json", verify(True, 2, 9, 0, 1, [temp_finding]))
def text_finding(f):
    d = json.loads(f)
    where = d["file"] + ("" if d["offset"] is None else ":%d" % d["offset"])
    return "%s: %s[%s]: %s\n" % (where, d["severity"], d["code"], d["message"])
write("verify-sample-strict.txt", "".join(text_finding(f) for f in sample_findings) +
      "FAILED: 0 error(s), 4 warning(s) in 4 file(s), 13 record(s)\n")

# ---------------- every-opcode ----------------
E = TD + "files/every-opcode"
# A file named directly is a queue of its own, named by the naming rule.
write("replay-every-opcode.json", replay("every-opcode",
    [fileinfo(E, "given", 187, 13)],
    [(E, 105, T + 4, 0, ""), (E, 152, T + 5, T + 120000, "delta")],
    [(4, (E, 80, T + 3, 0, None, "//4AgA==", 4))],
    4, 187, addx_size(4) + 5 + addx_size(0) + addx_size(5), False, []))
write("verify-every-opcode.json", verify(True, 1, 13, 0, 0, []))
write("verify-every-opcode.txt", "OK: 0 error(s), 0 warning(s) in 1 file(s), 13 record(s)\n")
write("verify-empty.json", verify(True, 1, 0, 0, 0, []))

# ---------------- legacy-1x ----------------
L = TD + "files/legacy-1x"
one = (L, 0, None, 0, "one"); two = (L, 12, None, 1700003600000, "two")
three = (L, 24, T + 3, 0, "three"); four = (L, 50, T + 4, 0, "four")
five = (L, 75, T + 5, 0, "five"); six = (L, 118, T + 6, 0, "six")
def desc(it, op): return "the %d-byte item added by %s at %s:%d" % (len(it[4]), op, it[0], it[1])
def collision(off, prev, op):
    return finding("warning", "legacy_xid_collision", L, off,
        "REMOVE_TENTATIVE opens xid 0 while it is already open: expected a free xid; Kestrel 2.x files every legacy tentative remove under 0, so it replaces the open item, and %s is lost" % desc(prev, op))
legacy_findings = [
    finding("warning", "legacy_remove_tentative", L, 105,
        "legacy REMOVE_TENTATIVE (opcode 3): Kestrel 2.x files %s under xid 0, not the xid 1.x assigned, so a later UNREMOVE or CONFIRM_REMOVE naming that xid misses it (use --legacy-xids for 1.x rules)" % desc(one, "ADD")),
    collision(106, one, "ADD"),
    collision(107, two, "ADD"),
    finding("warning", "unknown_xid", L, 108, "CONFIRM_REMOVE of xid 12: expected an open transaction, found none; Kestrel ignores it"),
    finding("warning", "unknown_xid", L, 113, "UNREMOVE of xid 11: expected an open transaction, found none; Kestrel ignores it"),
    collision(146, three, "ADDX"),
]
# 2.x rules: every op-3 is xid 0; final queue [five six], open {0: four}.
write("replay-legacy.json", replay("legacy-1x", [fileinfo(L, "given", 147, 13)], [five, six], [(0, four)], 0, 147,
      addx_size(4) + 5 + addx_size(4) + addx_size(3), False, legacy_findings))
write("verify-legacy.json", verify(True, 1, 13, 0, 6, legacy_findings))
# 1.x rules: xids 11, 12, 13 then 14; final queue [four five six], open {13: three, 14: one}.
write("replay-legacy-xids.json", replay("legacy-1x", [fileinfo(L, "given", 147, 13)], [four, five, six],
      [(13, three), (14, one)], 14, 147,
      addx_size(5) + 5 + addx_size(3) + 5 + addx_size(4) + addx_size(4) + addx_size(3), False, []))
write("verify-legacy-xids.json", verify(True, 1, 13, 0, 0, []))

# ---------------- broken ----------------
B = TD + "files/broken-truncated-data"
write("verify-broken-truncated-data.json", verify(False, 1, 2, 1, 0, [
    finding("error", "broken_record", B, 27,
        "truncated ADDX record: expected 28 bytes after the size field at offset 28, found 21 before end of file; Kestrel stops replaying this file and truncates it to 27 bytes, dropping 26 byte(s)",
        repair_hint(B))]))
BA = TD + "dirs/broken-archived/"
BA_MESSAGE = "truncated ADDX record: expected 46 bytes after the size field at offset 47, found 19 before end of file; Kestrel stops replaying this file and then truncates the live journal, not this file, to 46 bytes (a Kestrel 2.x bug)"
ba_finding = finding("error", "broken_record", BA + "q.100", 46, BA_MESSAGE)
write("replay-broken-archived.json", replay("q",
    [fileinfo(BA + "q.100", "archived", 70, 2), fileinfo(BA + "q.200", "archived", 23, 1), fileinfo(BA + "q", "live", 23, 1)],
    [(BA + "q.100", 0, T + 100, 0, "b1"), (BA + "q.100", 23, T + 110, 0, "b2"),
     (BA + "q.200", 0, T + 200, 0, "b3"), (BA + "q", 0, T + 300, 0, "b4")],
    [], 0, 116, 4 * 23, True, [ba_finding]))
write("verify-broken-archived.json", verify(False, 3, 4, 1, 0, [
    finding("error", "broken_record", BA + "q.100", 46, BA_MESSAGE, repair_hint(BA + "q.100"))]))
BN = TD + "dirs/bad-name/"
write("verify-bad-name.json", verify(False, 2, 2, 1, 0, [
    finding("error", "bad_segment_name", BN + "r.notanumber", None,
        "expected r.<timestamp>[.pack]: Kestrel's startup cannot parse this name and fails; qjt leaves the file out of the replay")]))

# ---------------- dirs ----------------
MP = TD + "dirs/multi-pack/"
write("replay-multi-pack.json", replay("q",
    [fileinfo(MP + "q.4000.pack", "pack", 51, 3), fileinfo(MP + "q.5000", "archived", 28, 2), fileinfo(MP + "q", "live", 24, 2)],
    [(MP + "q.5000", 0, 4500, 0, "m4"), (MP + "q", 0, 5500, 0, "m5")], [], 1, 103, 46, False, [
        # Startup installs q.2000.pack first (lowest), then starts over and
        # installs q.4000.pack, which supersedes the installed q.2000 too.
        superseded(MP + "q.1000", "q.2000.pack"), leftover(MP + "q.2000.pack", "q.2000", 1),
        superseded(MP + "q.2000.pack", "q.4000.pack"), superseded(MP + "q.3000", "q.4000.pack"),
        leftover(MP + "q.4000.pack", "q.4000", 2)]))
NO = TD + "dirs/numeric-order/"
write("replay-numeric-order.json", replay("q",
    [fileinfo(NO + "q.999", "archived", 23, 1), fileinfo(NO + "q.1000", "archived", 28, 2),
     fileinfo(NO + "q.10000", "archived", 6, 2), fileinfo(NO + "q", "live", 23, 1)],
    [(NO + "q.1000", 0, T + 1000, 0, "n2"), (NO + "q", 0, T + 10001, 0, "n3")], [], 5, 80, 46, False, []))
NL = TD + "dirs/no-live/"
write("replay-no-live.json", replay("a",
    [fileinfo(NL + "a.100", "archived", 46, 2), fileinfo(NL + "a.200", "archived", 24, 2)],
    [(NL + "a.100", 23, T + 110, 0, "a2"), (NL + "a.200", 1, T + 200, 0, "a3")], [], 0, 70, 46, False, []))

# ---------------- missing inputs ----------------
write("verify-missing-file.json", verify(False, 1, 0, 1, 0, [
    finding("error", "io_error", TD + "files/no-such-journal", None,
            "cannot open testdata/kestrel/files/no-such-journal: No such file or directory")]))
write("verify-missing-queue.json", verify(False, 0, 0, 1, 0, [
    finding("error", "io_error", TD + "dirs/numeric-order", None,
            "expected a queue named no_such_queue in this directory, found none; its queues: q")]))

# ---------------- ignored records ----------------
I = TD + "files/ignored-records"
late = (I, 16, T + 10, 0, "late"); x = (I, 45, T + 20, 0, "x")
def unknown(off, op, xid):
    return finding("warning", "unknown_xid", I, off,
                   "%s of xid %d: expected an open transaction, found none; Kestrel ignores it" % (op, xid))
ign_findings = [
    finding("warning", "remove_on_empty_queue", I, 0,
            "REMOVE with an empty queue: expected an item to remove, found none; Kestrel ignores it"),
    finding("warning", "remove_on_empty_queue", I, 1,
            "REMOVE_TENTATIVE_XID (xid 7) with an empty queue: expected an item to reserve, found none; Kestrel ignores it but still sets the xid counter to 7"),
    unknown(6, "UNREMOVE", 99), unknown(11, "CONFIRM_REMOVE", 98), unknown(16, "CONTINUE", 42),
]
write("replay-ignored-records.json", replay("ignored-records", [fileinfo(I, "given", 72, 7)], [x], [(3, late)], 3, 72,
      addx_size(4) + 5 + addx_size(1), False, ign_findings))

# ---------------- legacy xid skipping ----------------
K = TD + "files/legacy-xid-skip"
a = (K, 0, T + 1, 0, "a"); b = (K, 22, T + 2, 0, "b"); c = (K, 44, T + 3, 0, "c"); d = (K, 66, T + 4, 0, "d")
# 2.x: b under 0 at @98, c replaces it at @104 (b lost); open {0:c, 2:a}; counter 0.
write("replay-legacy-xid-skip.json", replay("legacy-xid-skip", [fileinfo(K, "given", 105, 9)], [d], [(0, c), (2, a)], 0, 105,
      3 * 22 + 2 * 5, False, [
        finding("warning", "legacy_remove_tentative", K, 98,
            "legacy REMOVE_TENTATIVE (opcode 3): Kestrel 2.x files %s under xid 0, not the xid 1.x assigned, so a later UNREMOVE or CONFIRM_REMOVE naming that xid misses it (use --legacy-xids for 1.x rules)" % desc(b, "ADDX")),
        finding("warning", "legacy_xid_collision", K, 104,
            "REMOVE_TENTATIVE opens xid 0 while it is already open: expected a free xid; Kestrel 2.x files every legacy tentative remove under 0, so it replaces the open item, and %s is lost" % desc(b, "ADDX"))]))
# 1.x: @98 counter 1 -> 2 is open -> 3 (b); @104 counter -1 -> 0 skipped -> 1 (c).
write("replay-legacy-xid-skip.legacy-xids.json", replay("legacy-xid-skip", [fileinfo(K, "given", 105, 9)], [d],
      [(1, c), (2, a), (3, b)], 1, 105, 4 * 22 + 3 * 5, False, []))
