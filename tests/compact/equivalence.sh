#!/usr/bin/env bash
# `qjt compact -o` of every clean Kestrel journal under testdata, and of
# generated ones whose items cross the reader's 256 KiB window and the
# writer's 1 MiB buffer: the output replays to the same queue and open
# transactions (legacy ADD items taking the file's modification time as
# their add time), is exactly `live_bytes` long, and compacts to itself.
QJT=$1 TESTDATA=$2 WORK=$3
source "$(dirname "$0")/lib.sh"
rm -rf "$WORK"; mkdir -p "$WORK/in"
mtime_s=1700000000
mtime_ms=${mtime_s}000

# The queue state with legacy add times filled in as compaction fills them.
expected_state() {
  queue_state "$@" | jq -c --argjson t "$mtime_ms" \
    'walk(if type == "object" and has("time_ms") and .time_ms == null
          then .time_ms = $t else . end)'
}

check_compaction() {  # check_compaction NAME PATH [QUEUE]
  # Named as Kestrel names a journal: an empty file is Kestrel's by its name.
  local name=$1 src=$2 out="$WORK/compacted/$1" again="$WORK/again/$1" live
  mkdir -p "$WORK/compacted" "$WORK/again"
  local select=()
  [ -n "${3:-}" ] && select=(--queue "$3")
  "$QJT" compact -o "$out" "${select[@]}" "$src" >/dev/null 2>&1 || fail "$name: compact -o failed"
  [ "$(queue_state "$out" | jq -c 'del(.queue_name)')" = \
    "$(expected_state "${select[@]}" "$src" | jq -c 'del(.queue_name)')" ] ||
    fail "$name: the output replays differently"
  live=$("$QJT" replay --json "${select[@]}" "$src" 2>/dev/null | jq '.live_bytes')
  [ "$(stat -c %s "$out")" = "$live" ] || fail "$name: output is $(stat -c %s "$out") bytes, expected live_bytes $live"
  "$QJT" compact -o "$again" "$out" >/dev/null || fail "$name: compacting the output failed"
  cmp -s "$out" "$again" || fail "$name: compacting the output changed it"
  checked=$((checked + 1))
}

checked=0
for src in "$TESTDATA"/kestrel/files/* "$TESTDATA"/kestrel/sample "$TESTDATA"/kestrel/dirs/*; do
  name=$(basename "$src")
  "$QJT" verify --quiet "$src" >/dev/null 2>&1 || continue  # compaction refuses BROKEN journals
  cp -a "$src" "$WORK/in/$name"
  find "$WORK/in/$name" -type f -exec touch -d "@$mtime_s" {} +
  if [ -d "$src" ]; then
    for queue in $("$QJT" replay --json "$src" 2>/dev/null | jq -r '.queue_name'); do
      check_compaction "$name-$queue" "$WORK/in/$name" "$queue"
    done
  else
    check_compaction "$name" "$WORK/in/$name"
  fi
done
[ $checked -ge 6 ] || fail "only $checked testdata journals were compacted"

"$QJT" gen kestrel -o "$WORK/in/large" --records 30 --payload-size 200K-1200K --open 3 --seed 5 >/dev/null ||
  fail "gen failed"
"$QJT" gen kestrel -o "$WORK/in/segmented" --records 300 --payload-size 1-40K --open 2 --segments 3 --seed 6 >/dev/null ||
  fail "gen --segments failed"
check_compaction large "$WORK/in/large"
check_compaction segmented "$WORK/in/segmented" q
echo "ok: $checked journals compacted to their replay-equivalent minimum"
