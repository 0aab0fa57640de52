#!/bin/bash
# The table-meta store and the start position, on scratch destinations
# built from testdata/canal's meta.dat. Expectations derived by hand from
# canal-format.md §1.3, §5 and §6 and issue 29: a rewind with an H2 store
# (h2.mv.db, an MVStore-like header) is refused unless --reset-tsdb or
# --keep-tsdb; --reset-tsdb moves the store's files beside meta.dat's
# backup with its stamp, and the restore command puts them all back; a
# MySQL store gets its two statements printed; verify reports the store
# and where Canal starts: meta.dat over instance.properties over SHOW
# MASTER STATUS.
#
#   tsdb_cli.sh QJT TESTDATA_CANAL_DIR
source "$(dirname "$0")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
d=$work/conf/example
m=$d/meta.dat

# A destination: meta.dat (clients 1001 at mysql-bin.000266:226987109 and
# 1002 at mysql-bin.000265:4, the restart cursor, 2021-01-15) and an H2
# store written now.
fresh() {
  rm -rf "$work/conf" "$work/backups"
  mkdir -p "$d"
  cp "$td/conf/example/meta.dat" "$m"
  { printf 'H:2,block:2,blockSize:1000,chunk:1,created:18c5a6f3b2e,format:2,version:1,fletcher:1a2b3c4d\n'
    head -c 8000 /dev/zero; } >"$d/h2.mv.db"
  printf 'trace\n' >"$d/h2.trace.db"
}
entries() { ls "$d" | sed 's/qjt-backup-[0-9]*$/qjt-backup-MS/' | paste -sd' '; }
rewind=(--set-position 1001=mysql-bin.000265:100)

# ---- repair: a rewind with an H2 store ---------------------------------------------
fresh
before=$(entries)
err=$("$qjt" repair --apply "${rewind[@]}" "$m" 2>&1 >/dev/null); status=$?
check "rewind with an H2 store: refused, exit 1" 1 "$status"
check "the refusal names both options" yes "$(grep -q -- '--reset-tsdb' <<<"$err" && grep -q -- '--keep-tsdb' <<<"$err" && echo yes)"
check "refused: nothing changed" "same $before" \
  "$(cmp -s "$m" "$td/conf/example/meta.dat" && echo same) $(entries)"
plan=$("$qjt" repair --json "${rewind[@]}" "$m" 2>/dev/null)
check "the plan says the store blocks the rewind" '{"action":"refused","rewound_clients":[1001],"files":2}' \
  "$(jq -c '.tsdb | {action, rewound_clients, files: (.files | length)}' <<<"$plan")"
check "the plan text says what happens to the store" \
  "  table-meta store: present: a rewind needs --reset-tsdb or --keep-tsdb
  moves back: client(s) 1001" "$("$qjt" repair "${rewind[@]}" "$m" 2>/dev/null | grep -e '^  table-meta' -e '^  moves back')"
check "--to-timestamp earlier: also a rewind" 1 \
  "$("$qjt" repair --apply --to-timestamp 1002=1610000000000 "$m" >/dev/null 2>&1; echo $?)"
check "--from-log to an earlier entry: also a rewind" 1 \
  "$("$qjt" repair --apply --from-log "$td/logs/example/meta.log" --at '2021-01-15 22:49:07.500' "$m" >/dev/null 2>&1; echo $?)"

# ---- --reset-tsdb: the store goes with the backup -----------------------------------
out=$("$qjt" repair --json --apply --reset-tsdb "${rewind[@]}" "$m"); status=$?
check "--reset-tsdb: exit 0" 0 "$status"
check "--reset-tsdb: meta.dat rewritten" "mysql-bin.000265 100" \
  "$(jq -r '.clientDatas[0].cursor.postion | "\(.journalName) \(.position)"' "$m")"
check "--reset-tsdb: the store is out of Canal's reach, beside meta.dat's backup" \
  "h2.mv.db.qjt-backup-MS h2.trace.db.qjt-backup-MS meta.dat meta.dat.qjt-backup-MS" "$(entries)"
stamp=${out##*meta.dat.qjt-backup-}
stamp=${stamp%%\"*}
check "--reset-tsdb: one stamp for all the backups" "$d/h2.mv.db.qjt-backup-$stamp $d/h2.trace.db.qjt-backup-$stamp" \
  "$(jq -r '[.tsdb.files[].moved_to] | join(" ")' <<<"$out")"
check "--reset-tsdb: the store moved whole" 8092 "$(stat -c %s "$d/h2.mv.db.qjt-backup-$stamp")"
check "--reset-tsdb: the report" '"reset"' "$(jq -c .tsdb.action <<<"$out")"
check "after the reset, verify finds no store" "[]" \
  "$("$qjt" verify --json "$m" | jq -c '.destinations[0].tsdb.files')"

# The restore command (shown when the verify after the change fails) puts
# meta.dat and the store back.
fresh
err=$(QJT_FAILPOINT_ERROR=verify "$qjt" repair --apply --reset-tsdb "${rewind[@]}" "$m" 2>&1 >/dev/null)
restore=${err##*to restore them: }
check "restore command: names the store" yes "$(grep -q 'mv -n' <<<"$restore" && echo yes)"
(cd / && eval "$restore")
check "restore command: meta.dat and the store back" "same h2.mv.db h2.trace.db meta.dat meta.dat.qjt-backup-MS" \
  "$(cmp -s "$m" "$td/conf/example/meta.dat" && echo same) $(entries)"

# --backup-to: the store is renamed into it with meta.dat's backup.
fresh
"$qjt" repair --apply --reset-tsdb --backup-to "$work/backups" "${rewind[@]}" "$m" >/dev/null
check "--backup-to: the store renamed into it" "h2.mv.db.qjt-backup-MS h2.trace.db.qjt-backup-MS meta.dat.qjt-backup-MS" \
  "$(ls "$work/backups" | sed 's/qjt-backup-[0-9]*$/qjt-backup-MS/' | paste -sd' ')"
check "--backup-to: the destination keeps meta.dat only" "meta.dat" "$(entries)"

# A kill at every step: never the new position with the old store; a
# second run completes.
old=$(cat "$td/conf/example/meta.dat")
steps=0
for n in $(seq 1 20); do
  fresh
  rc=$( { (QJT_FAILPOINT=$n exec "$qjt" repair --apply --reset-tsdb "${rewind[@]}" "$m" >/dev/null 2>&1)
          echo $?; } 2>/dev/null)
  if [ "$(cat "$m")" != "$old" ] && [ -e "$d/h2.mv.db" ]; then
    check "kill at failpoint $n: never the new position with the old store" "" "$(entries)"
    break
  fi
  [ "$rc" -ne 137 ] && break
  steps=$n
  "$qjt" repair --apply --reset-tsdb "${rewind[@]}" "$m" >/dev/null 2>&1
  check "kill at failpoint $n, then a second run completes" "mysql-bin.000265 100 no store" \
    "$(jq -r '.clientDatas[0].cursor.postion | "\(.journalName) \(.position)"' "$m") $([ -e "$d/h2.mv.db" ] || echo no store)"
done
check "the reset passes failpoints (backup, temp synced, store moved, renamed)" 4 "$steps"

# ---- --keep-tsdb, both, --no-backup, a forward move ---------------------------------
fresh
out=$("$qjt" repair --json --apply --keep-tsdb "${rewind[@]}" "$m"); status=$?
check "--keep-tsdb: exit 0, the store left" "0 h2.mv.db h2.trace.db meta.dat meta.dat.qjt-backup-MS" "$status $(entries)"
check "--keep-tsdb: the report" '"kept (--keep-tsdb)"' "$(jq -c .tsdb.text <<<"$out")"
fresh
check "--reset-tsdb with --keep-tsdb: usage" 2 \
  "$("$qjt" repair --apply --reset-tsdb --keep-tsdb "${rewind[@]}" "$m" >/dev/null 2>&1; echo $?)"
check "--reset-tsdb with --no-backup: usage (a store is never deleted)" "2 h2.mv.db h2.trace.db meta.dat" \
  "$("$qjt" repair --apply --reset-tsdb --no-backup "${rewind[@]}" "$m" >/dev/null 2>&1; echo $?) $(entries)"
out=$("$qjt" repair --json --apply --no-backup --set-position 1002=mysql-bin.000266:4 "$m"); status=$?
check "a forward move needs neither option" "0 kept" "$status $(jq -r .tsdb.action <<<"$out")"
check "a forward move: the store left" "h2.mv.db h2.trace.db meta.dat" "$(entries)"
exec 3<"$d/h2.mv.db"
check "the store open by another process (Canal's H2): exit 4" 4 \
  "$("$qjt" repair --apply --keep-tsdb "${rewind[@]}" "$m" >/dev/null 2>&1; echo $?)"
exec 3<&-

# ---- a MySQL store: the statements, never run ----------------------------------------
fresh
rm "$d"/h2.*
printf 'canal.instance.tsdb.enable=true\ncanal.instance.tsdb.spring.xml=classpath:spring/tsdb/mysql-tsdb.xml\n' \
  >"$d/instance.properties"
check "MySQL store: the plan prints the two statements" \
  "  table-meta store: in MySQL: reset it with the statements below (qjt never runs them)
  moves back: client(s) 1001
    DELETE FROM meta_snapshot WHERE destination = 'example';
    DELETE FROM meta_history WHERE destination = 'example';" \
  "$("$qjt" repair "${rewind[@]}" "$m" 2>/dev/null | sed -n '/^  table-meta/,$p' | grep -v '^plan only')"
check "MySQL store with --keep-tsdb: no statements" "kept 0" \
  "$("$qjt" repair --json --keep-tsdb "${rewind[@]}" "$m" | jq -r '"\(.tsdb.action) \(.tsdb.sql | length)"')"
out=$("$qjt" repair --json --apply "${rewind[@]}" "$m"); status=$?
check "MySQL store: the rewind goes ahead, the statements in the report" "0 sql 2" \
  "$status $(jq -r '"\(.tsdb.action) \(.tsdb.sql | length)"' <<<"$out")"
mkdir -p "$work/conf/it's"
cp "$td/conf/example/meta.dat" "$work/conf/it's/meta.dat"
printf 'canal.instance.tsdb.url=jdbc:mysql://127.0.0.1:3306/canal_tsdb\n' >"$work/conf/it's/instance.properties"
check "MySQL store by its URL: the destination quoted" "DELETE FROM meta_snapshot WHERE destination = 'it''s';" \
  "$("$qjt" repair --json "${rewind[@]}" "$work/conf/it's/meta.dat" 2>/dev/null | jq -r '.tsdb.sql[0]')"

# ---- verify and stats: the store ------------------------------------------------------
fresh
report=$("$qjt" verify --json "$m"); status=$?
check "verify: a store written after the restart cursor is a warning, exit 0" '0 ["canal_tsdb_newer"]' \
  "$status $(jq -c '[.findings[].code]' <<<"$report")"
check "verify: the store" '{"kind":"h2","files":["h2.mv.db","h2.trace.db"],"format":2}' \
  "$(jq -c '.destinations[0].tsdb | {kind, files: [.files[].path | split("/") | last], format}' <<<"$report")"
check "verify text: the store's line" yes \
  "$("$qjt" verify "$m" | grep -q "^destination example: table-meta store: $d/h2.mv.db (2 file(s), 8098 bytes, last written .*, MVStore format 2: H2 2.0-2.1 (Canal 1.1.7, 1.1.8))$" && echo yes)"
touch -d '2020-01-01 00:00:00' "$d"/h2.*
check "verify: a store older than the cursor, no warning" "[]" "$("$qjt" verify --json "$m" | jq -c '[.findings[].code]')"
cp "$td/logs/example/meta.log" "$d/"
printf 'canal.instance.tsdb.enable=true\n' >"$d/instance.properties"
check "a destination's directory: its store and instance.properties are its own, not skipped" "" \
  "$("$qjt" verify "$d" 2>/dev/null | grep -e 'skipped [0-9]' -e 'no known format')"
rm "$d/meta.log" "$d/instance.properties"
check "stats: the store's size and time" "8098 1577836800000" \
  "$("$qjt" stats --json "$m" 2>/dev/null | jq -r '.entities[0].gauges | "\(.tsdb_bytes) \(.tsdb_written_time_ms)"')"

# ---- where Canal starts ------------------------------------------------------------------
start() { "$qjt" verify --json "$1" | jq -c '.destinations[0].start | {source, client_id, configured}'; }
codes() { "$qjt" verify --json "$1" | jq -c '[.findings[].code]'; }
fresh
rm "$d"/h2.*
check "meta.dat with a cursor, no instance.properties: meta.dat" \
  '{"source":"meta.dat","client_id":1002,"configured":null}' "$(start "$m")"
printf '%s\n' '# the start of a fresh destination' 'canal.instance.master.address=127.0.0.1:3306' \
  'canal.instance.master.journal.name = mysql-bin.000007' 'canal.instance.master.position=154' \
  'canal.instance.master.timestamp=' >"$d/instance.properties"
check "meta.dat with a cursor and a configured start: meta.dat wins" \
  '{"source":"meta.dat","client_id":1002,"configured":"mysql-bin.000007:154"}' "$(start "$m")"
check "... and the configured start is reported ignored" '["canal_start_ignored"]' "$(codes "$m")"
check "... in text" "destination example: Canal starts from meta.dat: client 1002's cursor, mysql-bin.000265:4; instance.properties' start (mysql-bin.000007:154) is ignored" \
  "$("$qjt" verify "$m" | grep '^destination example: Canal')"
check "--quiet: no report lines (the JSON still has them)" "" "$("$qjt" verify -q "$m" 2>/dev/null)"
cp "$td/variants/no-cursor.dat" "$m"
check "meta.dat without a cursor and a configured start: instance.properties" \
  '{"source":"instance.properties","client_id":null,"configured":"mysql-bin.000007:154"}' "$(start "$m")"
check "... nothing ignored" '["canal_no_cursor"]' "$(codes "$m")"
rm "$d/instance.properties"
check "meta.dat without a cursor, nothing configured: SHOW MASTER STATUS" \
  '{"source":"show master status","client_id":null,"configured":null}' "$(start "$m")"
printf 'canal.instance.master.timestamp=1610000000000\n' >"$work/conf/canal.properties"
check "canal.properties counts too (instance.properties overrides it)" \
  '{"source":"instance.properties","client_id":null,"configured":"the binlogs searched for timestamp 1610000000000"}' \
  "$(start "$m")"
printf 'canal.instance.master.timestamp=\n' >"$d/instance.properties"
check "instance.properties overrides canal.properties" \
  '{"source":"show master status","client_id":null,"configured":null}' "$(start "$m")"
# A destination not started yet: no meta.dat, its directory holding
# instance.properties (named with --format, as no file tells the kind).
rm "$m" "$work/conf/canal.properties"
printf 'canal.instance.master.journal.name=mysql-bin.000007\ncanal.instance.master.position=154\n' \
  >"$d/instance.properties"
nometa() { "$qjt" verify --json --format canal-meta-dat "$m" | jq -c '.destinations[0].start | {source, text}'; }
check "no meta.dat, a configured start: instance.properties" \
  '{"source":"instance.properties","text":"Canal starts from instance.properties: mysql-bin.000007:154 (no meta.dat)"}' \
  "$(nometa)"
check "no meta.dat: no error, exit 0" "0 []" \
  "$("$qjt" verify --json --format canal-meta-dat "$m" >"$work/r"; echo $?) $(jq -c '[.findings[].code]' "$work/r")"
printf 'canal.instance.master.journal.name=\n' >"$d/instance.properties"
check "no meta.dat, nothing configured: SHOW MASTER STATUS" \
  '{"source":"show master status","text":"Canal starts from SHOW MASTER STATUS, the master'"'"'s current end: events before it are skipped (no meta.dat, and instance.properties configures no start)"}' \
  "$(nometa)"
cp "$td/variants/no-cursor.dat" "$m"
printf 'bad=\\u12G4\n' >"$d/instance.properties"
check "a malformed \\u escape: an error, as Java refuses the file" '1 ["canal_no_cursor","canal_properties"]' \
  "$("$qjt" verify --json "$m" >"$work/r"; echo $?) $(jq -c '[.findings[].code]' "$work/r")"

finish
