#!/bin/bash
# Canal's ZooKeeper cursors: cursor nodes and zkCli output modelled on the
# ones canal's issues quote (4926: a node with "@type"; 1144, 3767: zkCli's
# get; 3689: a client whose cursor node is gone), and a tree mirroring the
# nodes. Expectations derived by hand from canal-format.md §4:
#  - a node is the meta.dat cursor's JSON with "@type" first (fastjson's
#    WriteClassName on the LogPosition, the abstract Position's subclass);
#  - tree/destinations/example: client 1001 with a cursor, a filter and
#    batches 12 and 14 pending (13 missing: a gap); client 1002 with a
#    filter and no cursor (the 3689 state).
#
#   zk_cli.sh QJT TESTDATA_CANAL_DIR WORKDIR
source "$(dirname "$0")/lib.sh"
work=$3
enter_workdir "$work"

type='"@type":"com.alibaba.otter.canal.protocol.position.LogPosition"'
identity='"identity":{"slaveId":-1,"sourceAddress":{"address":"db1.internal","port":3306}}'
postion() {  # JOURNAL POSITION TIMESTAMP
  printf '"postion":{"gtid":"","included":false,"journalName":"%s","position":%s,"serverId":2757725211,"timestamp":%s}' "$@"
}
node() { printf '{%s,%s,%s}' "$type" "$identity" "$(postion "$@")"; }
range() {  # START_POS END_POS
  printf '{"@type":"com.alibaba.otter.canal.protocol.position.PositionRange","ack":%s,"end":%s,"endSeq":512,"start":%s}' \
    "$(node mysql-bin.000266 "$2" 1610750949000)" "$(node mysql-bin.000266 "$2" 1610750949000)" \
    "$(node mysql-bin.000266 "$1" 1610750948000)"
}

mkdir -p tree/destinations/example/1001/mark tree/destinations/example/1002
node mysql-bin.000266 226987109 1610750948000 >tree/destinations/example/1001/cursor
printf '' >tree/destinations/example/1001/filter
range 226987140 226990000 >tree/destinations/example/1001/mark/0000000012
range 226995000 226999000 >tree/destinations/example/1001/mark/0000000014
printf 'shop\\..*' >tree/destinations/example/1002/filter

# zkCli 3.4's get: connection log, the prompt naming the node, the data, the stat.
zkget() {  # NODE DATA
  printf 'Connecting to localhost:2181\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n'
  printf '[zk: localhost:2181(CONNECTED) 0] get %s\n%s\ncZxid = 0x1147fe\nctime = Mon Jul 23 14:34:23 CST 2018\n' "$1" "$2"
  printf 'mZxid = 0x11480a\nmtime = Mon Jul 23 14:40:01 CST 2018\ndataVersion = 7\ndataLength = 230\nnumChildren = 0\n'
}
zkget /otter/canal/destinations/example/1001/cursor "$(node mysql-bin.000266 226987109 1610750948000)" >zkget.txt

# ---- claims and dump -----------------------------------------------------------
check "dump: zkCli output is claimed by its JSON line" \
  "node /otter/canal/destinations/example/1001/cursor: client 1001 destination example: mysql-bin.000266:226987109 timestamp 1610750948000 (2021-01-15T22:49:08.000Z) server_id 2757725211 gtid \"\" included false source db1.internal:3306 slave_id -1" \
  "$("$qjt" dump zkget.txt)"
check "dump: the node alone, from standard input, with --format" "null true mysql-bin.000266" \
  "$(node mysql-bin.000266 226987109 1610750948000 | "$qjt" dump --json --format canal-zk-cursor - |
    jq -r '"\(.node) \(.typed) \(.cursor.journal_name)"')"
check "dump --json: a tree, a record per client" \
  '[1001,"",true,226987109,[12,14],[226987140,226995000]]|[1002,"shop\\..*",null,null,[],[]]' \
  "$("$qjt" dump --json tree | jq -c 'select(.type == "record") |
    [.client_id, .filter, .typed, .cursor.position, [.batches[].id], [.batches[].start.position]]' | paste -sd'|')"
check "dump: the tree's root, by its layout, under --format canal-zk-tree" 2 \
  "$("$qjt" dump --format canal-zk-tree tree/destinations | grep -c '^node ')"
check "dump: one destination's directory" 2 "$("$qjt" dump tree/destinations/example | grep -c '^node ')"

# ---- verify --------------------------------------------------------------------------
codes() { "$qjt" verify --json "$@" | jq -sc '[.. | objects | select(.type? == "finding") | "\(.severity) \(.code)"] | unique'; }
check "verify: the tree's client without a cursor, the batch gap, the cursor behind the batches" \
  '["warning canal_no_cursor","warning canal_zk_batch_gap","warning canal_zk_cursor_behind_batch"]' "$(codes tree)"
check "verify: the tree passes, warnings aside" 0 "$("$qjt" verify -q tree >/dev/null; echo $?)"
check "verify: zkCli's output is clean" "OK: 0 error(s), 0 warning(s) in 1 file(s), 1 record(s)" \
  "$("$qjt" verify zkget.txt)"
printf '{%s,%s}' "$identity" "$(postion mysql-bin.000266 4 1610750948000)" >no-type
check "verify: a node without @type, which Canal cannot read as a Position" '["error canal_zk_type"]' \
  "$(codes --format canal-zk-cursor no-type)"
check "verify: ... exit 1" 1 "$("$qjt" verify -q --format canal-zk-cursor no-type >/dev/null 2>&1; echo $?)"
printf '{%s,%s,%s}' "$type" "$identity" "$(postion mysql-bin.000266 3 1610750948)" >bad-values
check "verify: a node's values as a meta.dat cursor's" '["error canal_position_range","error canal_timestamp_unit"]' \
  "$(codes bad-values)"
mkdir -p moved/destinations/orders/7
cp zkget.txt moved/destinations/orders/7/cursor
check "verify: zkCli output of another node than its place" '["error canal_destination_mismatch"]' "$(codes moved)"
printf '[zk: localhost:2181(CONNECTED) 1] get /otter/canal/destinations/example/1001/cursor\ncZxid = 0x0\n' >nodata
check "verify --format canal-zk-cursor: no data line" '["error canal_zk_no_data"]' \
  "$(codes --format canal-zk-cursor nodata)"
printf '%s' "$(node mysql-bin.000266 22698 1610750948000)" | head -c 120 >cut
check "verify: a node cut short" '["error canal_truncated"]' "$(codes --format canal-zk-cursor cut)"
zkget /otter/canal/destinations/example/1002/cursor "$(node mysql-bin.000265 4 1610740000000)" >purged.txt
check "verify --binlogs: the node's journal is purged" '["error canal_journal_purged"]' \
  "$(codes --binlogs "$td/binlogs.txt" purged.txt)"
check "verify --format canal-zk-tree: a directory with no client" '["error canal_zk_no_tree"]' \
  "$(mkdir -p empty/x && touch empty/x/f && codes --format canal-zk-tree empty)"

# ---- stats ---------------------------------------------------------------------------
check "stats: the tree's clients as a meta.dat's" 2 \
  "$("$qjt" stats --json tree | jq '[.entities[]? | select(.labels.client? != null)] | length')"

# ---- convert, byte for byte ---------------------------------------------------------
"$qjt" convert --to canal-zk-cursor --client 1001 "$td/conf/example/meta.dat" >node.json 2>note.txt
check "convert --to canal-zk-cursor: Canal's bytes" "$(node mysql-bin.000266 226987109 1610750948000)" "$(cat node.json)"
check "convert --to canal-zk-cursor: no newline after the JSON" "}" "$(tail -c 1 node.json)"
check "convert --to canal-zk-cursor: the set command, on standard error" 1 \
  "$(grep -c "zkCli.sh set /otter/canal/destinations/example/1001/cursor '{\"@type\"" note.txt)"
check "convert --to canal-zk-cursor: a file with two clients needs --client" 2 \
  "$("$qjt" convert --to canal-zk-cursor "$td/conf/example/meta.dat" >/dev/null 2>&1; echo $?)"
check "convert: cursor -> meta.dat -> cursor, byte for byte" "$(cat zkget.txt | sed -n 6p)" \
  "$("$qjt" convert --to canal-meta-dat zkget.txt | "$qjt" convert --to canal-zk-cursor --client 1001 - 2>/dev/null)"
# A meta.dat whose filters ZooKeeper can hold (Canal writes no filter node
# for an empty one), to its nodes and back.
mkdir -p rt/conf/example
printf '{"clientDatas":[{"clientIdentity":{"clientId":1001,"destination":"example"},"cursor":{%s,%s}},{"clientIdentity":{"clientId":1002,"destination":"example","filter":"shop\\\\..*"},"cursor":{%s,%s}}],"destination":"example"}' \
  "$identity" "$(postion mysql-bin.000266 226987109 1610750948000)" "$identity" \
  "$(postion mysql-bin.000265 4 1610740000000)" >rt/conf/example/meta.dat
for id in 1001 1002; do
  mkdir -p "rt/zk/destinations/example/$id"
  "$qjt" convert --to canal-zk-cursor --client "$id" -o "rt/zk/destinations/example/$id/cursor" \
    rt/conf/example/meta.dat 2>/dev/null
done
printf 'shop\\..*' >rt/zk/destinations/example/1002/filter
"$qjt" convert --to canal-meta-dat -o rt/meta.dat rt/zk 2>/dev/null
check "convert: meta.dat -> nodes -> meta.dat, byte for byte" 0 "$(cmp rt/meta.dat rt/conf/example/meta.dat; echo $?)"
check "convert: an existing -o is refused" 2 \
  "$("$qjt" convert --to canal-meta-dat -o rt/meta.dat rt/zk >/dev/null 2>&1; echo $?)"
node mysql-bin.000266 4 1610750948000 >plain.json
check "convert --to canal-meta-dat: a node of no known place needs --client and --destination" 2 \
  "$("$qjt" convert --to canal-meta-dat plain.json >/dev/null 2>&1; echo $?)"
check "convert --to canal-meta-dat: ... given them" '1001 example mysql-bin.000266' \
  "$("$qjt" convert --to canal-meta-dat --client 1001 --destination example plain.json |
    jq -r '.clientDatas[0] | "\(.clientIdentity.clientId) \(.clientIdentity.destination) \(.cursor.postion.journalName)"')"
check "convert --to canal-meta-dat: a node with errors is refused, nothing written" "1 no" \
  "$("$qjt" convert --to canal-meta-dat --client 1 --destination d -o out.dat no-type >/dev/null 2>&1; echo $?) $([ -e out.dat ] && echo yes || echo no)"

# ---- repair: the plan, the set command, the file -------------------------------------
cp zkget.txt repair.txt
plan=$("$qjt" repair --json --set-position 1001=mysql-bin.000267:4 repair.txt)
check "repair: plan, exit 1" 1 "$("$qjt" repair --set-position 1001=mysql-bin.000267:4 repair.txt >/dev/null; echo $?)"
check "repair: the plan's node and new bytes" \
  "/otter/canal/destinations/example/1001/cursor|$(node mysql-bin.000267 4 1610750948000)" \
  "$(jq -r '"\(.node)|\(.after)"' <<<"$plan")"
check "repair: the set command" \
  "zkCli.sh set /otter/canal/destinations/example/1001/cursor '$(node mysql-bin.000267 4 1610750948000)'" \
  "$(jq -r .set_command <<<"$plan")"
check "repair: forward, no rewind" false "$(jq -r .rewind <<<"$plan")"
rewind=$("$qjt" repair --set-position 1001=mysql-bin.000200:4 repair.txt)
check "repair: a rewind names the store to reset, and the SQL of a MySQL one" \
  "DELETE FROM meta_snapshot WHERE destination = 'example';|DELETE FROM meta_history WHERE destination = 'example';" \
  "$(grep -A2 'a rewind:' <<<"$rewind" | tail -2 | sed 's/^ *//' | paste -sd'|')"
check "repair: the plan changed nothing" 0 "$(cmp -s repair.txt zkget.txt; echo $?)"
check "repair --apply: exit 0" 0 \
  "$("$qjt" repair --apply --to-timestamp 1001=1610740000000 repair.txt >/dev/null 2>&1; echo $?)"
check "repair --apply: the file holds the node's new bytes" \
  "$(printf '{%s,%s,"postion":{"gtid":"","included":false,"journalName":"","position":0,"serverId":2757725211,"timestamp":1610740000000}}' "$type" "$identity")" \
  "$(cat repair.txt)"
check "repair --apply: the old file in the backup" 0 "$(cmp -s repair.txt.qjt-backup-* zkget.txt; echo $?)"
check "repair: another client's cursor is refused" 2 \
  "$("$qjt" repair --set-position 7=mysql-bin.000267:4 zkget.txt >/dev/null 2>&1; echo $?)"
check "repair: a node has no clients to drop" 2 \
  "$("$qjt" repair --drop-client 1001 zkget.txt >/dev/null 2>&1; echo $?)"

finish
