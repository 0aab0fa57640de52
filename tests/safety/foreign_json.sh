#!/usr/bin/env bash
# A refused write under --json: a writing command pointed at another
# family's input, or at one that only the fallback family (classic Kestrel,
# which claims what no one else does) takes without evidence, prints one
# JSON error object on standard output ({"type":"error","command",
# "exit_status","message"}, qjt-json(5)) with the exit status it ends with
# (2), the same message on standard error after "qjt COMMAND: ", and writes
# nothing. Flume's writers refuse a foreign channel directory themselves
# (refuse_foreign); the others are refused by the dispatch: both ways give
# the same answer.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
cp -a "$DATA" "$WORK/td"
td=$WORK/td
mkdir -p "$WORK/text"
printf 'hello\nworld\n' > "$WORK/text/notes.txt"

# The inputs' state (the scratch files beside them are not inputs).
tree_state() {
  (cd "$WORK" && find td text -printf '%p %s\n' | sort && find td text -type f -print0 | sort -z | xargs -0 cksum) | cksum
}

# expect_json_refusal NAME COMMAND ARGS...: COMMAND (qjt's subcommand) run
# with ARGS under --json.
expect_json_refusal() {
  local name=$1 command=$2; shift 2
  local before after out err rc lines message
  before=$(tree_state)
  out=$("$QJT" "$command" --json "$@" 2>"$WORK/stderr"); rc=$?
  err=$(cat "$WORK/stderr")
  after=$(tree_state)
  check "$name: exit status" 2 "$rc"
  check "$name: nothing written" "$before" "$after"
  lines=$(printf '%s' "$out" | grep -c '')
  check "$name: one line on standard output" 1 "$lines"
  check "$name: one JSON error object" true \
    "$(jq -c --arg c "$command" --argjson s "$rc" \
      '.type == "error" and .command == $c and .exit_status == $s and (.message | startswith("refused: "))
       and (keys == ["command", "exit_status", "message", "type"])' <<< "$out" 2>&1)"
  message=$(jq -r .message <<< "$out" 2>/dev/null)
  check "$name: the same message on standard error" yes \
    "$(grep -qxF "qjt $command: $message" <<< "$err" && echo yes || echo "no: $err")"
}

# Flume's writers, a channel directory of another family's.
expect_json_refusal "flume repair, a classic Kestrel queue as checkpoint dir" repair --apply \
  --checkpoint-dir "$td/kestrel/sample" --data-dir "$td/flume/channel/data1"
expect_json_refusal "flume repair, a libkestrel queue as data dir" repair --apply \
  --checkpoint-dir "$td/flume/channel/checkpoint" --data-dir "$td/libkestrel/queue"
expect_json_refusal "flume convert, a Canal destination as checkpoint dir" convert --to flume-v3 --apply \
  --checkpoint-dir "$td/canal/conf/example" --data-dir "$td/flume/v2/data1"
# ... and one that only the fallback claims, without evidence.
expect_json_refusal "flume repair, text files as checkpoint dir" repair --apply \
  --checkpoint-dir "$WORK/text" --data-dir "$td/flume/channel/data1"
expect_json_refusal "flume convert, text files as checkpoint dir" convert --to flume-v3 --apply \
  --checkpoint-dir "$WORK/text" --data-dir "$td/flume/v2/data1"

# The dispatch's refusals: another family's file, and the fallback's.
expect_json_refusal "repair, a Flume log" repair --apply "$td/flume/channel/data1/log-1"
expect_json_refusal "compact, a Flume log" compact "$td/flume/channel/data1/log-1"
expect_json_refusal "compact, a text file" compact "$WORK/text/notes.txt"
# A directory of text files is no family's: nothing found there, exit 3,
# as an empty directory (tests/cli/three_ways.sh).
out=$("$QJT" repair --apply --json "$WORK/text" 2>/dev/null)
check "repair, a text directory: nothing found, one JSON error object" \
  "3 no journal, channel or checkpoint found in $WORK/text" "$(jq -r '"\(.exit_status) \(.message)"' <<<"$out")"

[ $failures -eq 0 ]
