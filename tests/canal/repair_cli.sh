#!/bin/bash
# qjt repair on copies of testdata/canal. Expectations derived by hand from
# canal-format.md: the exact bytes Canal writes (§1.2: compact, keys sorted
# at every level, no nulls, no trailing newline), a set position that
# changes journal and position only, Canal's search-by-time cursor (§5),
# a backup beside meta.dat named in the output, refusal while the file is
# open, and a kill at every step leaving the old or the new file.
#
#   repair_cli.sh QJT TESTDATA_CANAL_DIR
source "$(dirname "$0")/lib.sh"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
fresh() { rm -rf "$work/c"; cp -r "$td" "$work/c"; }
m=$work/c/conf/example/meta.dat
ident='"identity":{"slaveId":-1,"sourceAddress":{"address":"db1.internal","port":3306}}'
c1='{"clientIdentity":{"clientId":1001,"destination":"example","filter":""},"cursor":{'$ident',"postion":{"gtid":"","included":false,"journalName":"mysql-bin.000266","position":226987109,"serverId":2757725211,"timestamp":1610750948000}}}'
c2_set='{"clientIdentity":{"clientId":1002,"destination":"example","filter":"shop\\..*"},"cursor":{'$ident',"postion":{"gtid":"","included":false,"journalName":"mysql-bin.000266","position":4,"serverId":2757725211,"timestamp":1610740000000}}}'
c1_time='{"clientIdentity":{"clientId":1001,"destination":"example","filter":""},"cursor":{'$ident',"postion":{"gtid":"","included":false,"journalName":"","position":0,"serverId":2757725211,"timestamp":1610000000000}}}'

# ---- plans -------------------------------------------------------------------
fresh
check "canonical file: nothing to do, exit 0" "$m: already in Canal's layout, nothing to do
0" "$("$qjt" repair "$m"; echo $?)"
plan=$("$qjt" repair --json --set-position 1002=mysql-bin.000266:4 "$m"); status=$?
check "plan: exit 1" 1 "$status"
check "plan: the new bytes" '{"clientDatas":['"$c1,$c2_set"'],"destination":"example"}' "$(jq -r .after <<<"$plan")"
check "plan: report" '{"applied":false,"changed":true,"backup":null,"ok":true}' \
  "$(jq -c '{applied, changed, backup, ok: .verify.ok}' <<<"$plan")"
check "plan: nothing changed" same "$(cmp -s "$m" "$td/conf/example/meta.dat" && echo same)"
# What a plan loses (issue 23): the file's records are its 2 clients, its
# items the 2 cursors Canal resumes from; a set position replaces 1002's
# cursor (lost, the client kept); a drop loses both. The backup's place is
# named before --apply.
check "plan: set position loses 1002's cursor" \
  '{"records_now":2,"records_lost":0,"items_now":2,"items_after":2,"items_lost":1,"lost_cursors":[1002],"gentler":null}' \
  "$(jq -c '{records_now, records_lost, items_now, items_after, items_lost, lost_cursors, gentler}' <<<"$plan")"
check "plan: where the backup goes" "$m.qjt-backup-<ms>" "$(jq -r .backup_to <<<"$plan")"
check "plan: set position makes 1002's cursor new" '{"items_new":1,"new_cursors":[1002]}' \
  "$(jq -c '{items_new, new_cursors}' <<<"$plan")"
# Every plan's figures add up (issue 40): now - lost + new = after.
for edit in "--set-position 1002=mysql-bin.000266:4" "--drop-client 1002" "--to-timestamp 1001=1610000000000" \
  "--set-position 1001=mysql-bin.000266:4 --drop-client 1002" ""; do
  # shellcheck disable=SC2086
  check "plan ${edit:-normalise}: the figures add up" true \
    "$("$qjt" repair --json $edit "$m" | jq '.items_now - .items_lost + .items_new == .items_after')"
done
plan=$("$qjt" repair --drop-client 1002 "$m")
check "plan text: drop loses the client and its cursor, keeps one, names the backup" \
"  loses: 1 of 2 client record(s), 1 of 2 cursor(s) Canal resumes from (client 1002)
  keeps: 1 cursor(s) Canal resumes from
  backup: to $m.qjt-backup-<ms> on --apply" "$(grep -e '^  loses: ' -e '^  keeps: ' -e '^  sets: ' -e '^  backup: ' <<<"$plan")"
check "plan text: a set position says which cursor is new" \
  "  sets: 1 new cursor(s) (client 1002), 2 after" \
  "$("$qjt" repair --set-position 1002=mysql-bin.000266:4 "$m" | grep '^  sets: ')"
check "plan: --no-backup names none" null "$("$qjt" repair --json --no-backup --drop-client 1002 "$m" | jq -c .backup_to)"

# ---- apply: backup beside meta.dat, named in the output -----------------------
out=$("$qjt" repair --json --set-position 1002=mysql-bin.000266:4 --apply "$m"); status=$?
check "apply: exit 0" 0 "$status"
check "apply: the file, byte for byte" '{"clientDatas":['"$c1,$c2_set"'],"destination":"example"}' "$(cat "$m")"
backup=$(jq -r .backup <<<"$out")
check "apply: the backup is beside meta.dat" "$work/c/conf/example" "$(dirname "$backup")"
check "apply: the backup is the old file" same "$(cmp -s "$backup" "$td/conf/example/meta.dat" && echo same)"
check "apply: no trailing newline" "}" "$(tail -c 1 "$m")"
"$qjt" repair --to-timestamp 1001=1610000000000 --drop-client 1002 --apply --no-backup "$m" >/dev/null
check "to-timestamp + drop: Canal's search-by-time cursor" '{"clientDatas":['"$c1_time"'],"destination":"example"}' "$(cat "$m")"
check "--no-backup: one backup only" 1 "$(ls "$work/c/conf/example" | grep -c qjt-backup)"

# ---- normalise: round trip --------------------------------------------------
fresh
mkdir -p "$work/c/x/example"
cp "$td/variants/hand-edited.dat" "$work/c/x/example/meta.dat"
check "normalise: the plan loses nothing" '0 0 1 1' \
  "$("$qjt" repair --json "$work/c/x/example/meta.dat" | jq -r '"\(.records_lost) \(.items_lost) \(.items_now) \(.items_after)"')"
"$qjt" repair --apply --no-backup "$work/c/x/example/meta.dat" >/dev/null
check "normalise: the hand-edited file becomes Canal's layout" '{"clientDatas":['"$c1"'],"destination":"example"}' \
  "$(cat "$work/c/x/example/meta.dat")"
cp "$td/variants/zk-type.dat" "$work/c/x/example/meta.dat"
"$qjt" repair --apply --no-backup "$work/c/x/example/meta.dat" >/dev/null
check "normalise: @type stripped" '{"clientDatas":['"$c1"'],"destination":"example"}' "$(cat "$work/c/x/example/meta.dat")"
"$qjt" repair --apply --no-backup "$m" >/dev/null
check "round trip: canonical input is left byte-identical" same "$(cmp -s "$m" "$td/conf/example/meta.dat" && echo same)"
check "round trip: dump --json of the result equals dump --json of the input" \
  "$("$qjt" dump --json "$td/conf/example/meta.dat" | jq -c .clients)" "$("$qjt" dump --json "$m" | jq -c .clients)"

# ---- rebuild from meta.log --------------------------------------------------
fresh
: > "$m"
out=$("$qjt" repair --from-log "$work/c/logs/example/meta.log" --at '2021-01-15 22:49:08.500' --apply "$m" 2>/dev/null); status=$?
check "from-log into an emptied meta.dat: exit 0" 0 "$status"
check "from-log: the cursors of 22:49:08.500, filters lost with the file" \
  "$(jq -c '.clientDatas[1].clientIdentity.filter = ""' "$td/conf/example/meta.dat" | tr -d '\n')" "$(cat "$m")"
cp "$td/conf/example/meta.dat" "$m"
"$qjt" repair --from-log "$work/c/logs/example/meta.log" --at 1610750948500 --apply --no-backup "$m" >/dev/null 2>&1
check "from-log over a readable meta.dat keeps the filters: the original bytes" same \
  "$(cmp -s "$m" "$td/conf/example/meta.dat" && echo same)"
rm "$m"
"$qjt" repair --from-log "$work/c/logs/example/2021-01-14/meta-2021-01-14-1.log.gz" --apply "$m" >/dev/null
check "from-log of a gzip'd rolled log into a missing meta.dat" \
  '{"clientDatas":[{"clientIdentity":{"clientId":1001,"destination":"example","filter":""},"cursor":{'"$ident"',"postion":{"included":false,"journalName":"mysql-bin.000264","position":1200,"timestamp":1610618401000}}}],"destination":"example"}' \
  "$(cat "$m")"

# ---- refusals and usage --------------------------------------------------------
fresh
check "unknown client: usage" 2 "$("$qjt" repair --drop-client 7 "$m" >/dev/null 2>&1; echo $?)"
check "malformed --set-position: usage" 2 "$("$qjt" repair --set-position 1001=x "$m" >/dev/null 2>&1; echo $?)"
check "--at without --from-log: usage" 2 "$("$qjt" repair --at 5 "$m" >/dev/null 2>&1; echo $?)"
check "a truncated meta.dat needs --from-log: exit 1" 1 \
  "$("$qjt" repair --drop-client 1001 "$work/c/variants/truncated.dat" >/dev/null 2>&1; echo $?)"
check "a result with errors is refused" "1 same" \
  "$("$qjt" repair --set-position 1001=mysql-bin.000266:3 --apply "$m" >/dev/null 2>&1; echo $?) $(cmp -s "$m" "$td/conf/example/meta.dat" && echo same)"
exec 3<"$m"
check "open by another process: exit 4" 4 "$("$qjt" repair --drop-client 1002 --apply "$m" >/dev/null 2>&1; echo $?)"
check "--force goes ahead" 0 "$("$qjt" repair --drop-client 1002 --apply --force --no-backup "$m" >/dev/null 2>&1; echo $?)"
exec 3<&-

# ---- a kill at every step ----------------------------------------------------------
fresh
old=$(cat "$td/conf/example/meta.dat")
new='{"clientDatas":['"$c1,$c2_set"'],"destination":"example"}'
steps=0
for n in $(seq 1 20); do
  fresh
  rc=$( { (QJT_FAILPOINT=$n exec "$qjt" repair --set-position 1002=mysql-bin.000266:4 --apply "$m" >/dev/null 2>&1)
          echo $?; } 2>/dev/null)
  now=$(cat "$m")
  [ "$now" == "$old" ] || [ "$now" == "$new" ] || { check "kill at failpoint $n: old or new file" "old or new" "$now"; break; }
  [ "$rc" -ne 137 ] && break
  steps=$n
  "$qjt" repair --set-position 1002=mysql-bin.000266:4 --apply "$m" >/dev/null 2>&1
  check "kill at failpoint $n, then a second run completes" "$new" "$(cat "$m")"
done
check "the repair passes failpoints (backup, temp synced, renamed)" 3 "$steps"

finish
