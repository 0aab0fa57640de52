#!/usr/bin/env bash
# Installations and trees as PATHs (lib/cli/path_walk.h): a Flume channel
# root and a Canal deployer root read as what they hold, the options given
# winning over what was found; a tree walked, one verdict per unit and the
# total, hidden and backup entries passed over, files of no known format
# skipped and counted (errors with --strict), --max-depth; JSON: a report
# per unit with its "unit", then the summary; "unit" lines in streams.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
enter_workdir "$WORK"
export TZ=UTC


"$QJT" gen flume --records 300 --open 2 --seed 3 --data-dirs 2 -o tree/flume/ch >/dev/null
"$QJT" gen flume --records 100 --seed 4 --data-dirs 1 -o tree/flume/ch2 >/dev/null
"$QJT" gen canal --records 50 --clients 2 -o tree/canal >/dev/null
"$QJT" gen libkestrel --records 100 --segments 2 -o tree/k3 >/dev/null
"$QJT" gen kestrel --records 100 --segments 2 --queue jobs -o tree/kestrel >/dev/null
mkdir -p tree/.git tree/jobs.qjt-backup
echo "not a journal" >tree/.git/HEAD
cp -r tree/kestrel/. tree/jobs.qjt-backup/
echo "# fixtures" >tree/README.md

# ---- a Flume channel root ----
flume_options="--checkpoint-dir tree/flume/ch/checkpoint --data-dir tree/flume/ch/data1,tree/flume/ch/data2"
run replay tree/flume/ch
check "replay of a Flume channel root: exit 0" 0 "$rc"
check "replay of a Flume channel root: says what it read, once" "# tree/flume/ch: Flume channel ($flume_options)" \
  "$(head -1 out)"
# shellcheck disable=SC2086
check "replay of a Flume channel root: the channel's replay" "$("$QJT" replay $flume_options)" "$(tail -n +2 out)"
run replay tree/flume/ch --data-dir tree/flume/ch/data1
check "an option given wins over the root's" \
  "$("$QJT" replay --checkpoint-dir tree/flume/ch/checkpoint --data-dir tree/flume/ch/data1)" "$(tail -n +2 out)"
run verify tree/flume
check "a root of two channels: exit 0" 0 "$rc"
check "a root of two channels: each named" 2 "$(grep -c '^OK tree/flume/ch2\?: Flume channel' out)"
run stats --json tree/flume/ch
check "stats --json of a channel root: the unit" '"Flume channel"' "$(jq -c '.units[0].what' out)"
run stats tree/flume/ch
check "stats of a channel root: exit 0" 0 "$rc"
check "stats of a channel root: the channel found, on stderr" "qjt stats: found tree/flume/ch: Flume channel ($flume_options)" "$err"

# ---- a Canal deployer root ----
run verify tree/canal
check "verify of a Canal deployer root: exit 0" 0 "$rc"
check "verify of a Canal deployer root: the destination's verdict" "yes" \
  "$(grep -q '^OK tree/canal/conf/example: Canal destination example: 0 error(s), 0 warning(s) in 2 file(s)' out && echo yes)"
run dump --json tree/canal
check "dump --json of a Canal root: a unit line first" \
  '{"type":"unit","unit":{"path":"tree/canal/conf/example","what":"Canal destination example","options":[],"files":["tree/canal/conf/example/meta.dat","tree/canal/logs/example/meta.log"]}}' \
  "$(head -1 out)"

# ---- a tree ----
run verify tree
check "verify of a tree: exit 0" 0 "$rc"
check "verify of a tree: a verdict per unit" \
  "OK tree/canal/conf/example: Canal destination example
OK tree/flume/ch: Flume channel
OK tree/flume/ch2: Flume channel
OK tree/k3
OK tree/kestrel" "$(grep '^OK tree' out | sed 's/: [0-9].*//; s/ (--.*//')"
check "verify of a tree: the total, with what was skipped" "yes" \
  "$(tail -1 out | grep -q '^OK: 0 of 5 unit(s) failed; .*; skipped 1 file(s) of no known format$' && echo yes)"
run verify --strict tree
check "verify --strict of a tree: a skipped file fails" 1 "$rc"
check "verify --strict of a tree: named" "yes" \
  "$(grep -q '^tree/README.md: error\[unknown_format\]' out && echo yes)"
run verify --max-depth 1 tree
check "--max-depth 1: only what one level down holds" \
  "OK tree/canal/conf/example: Canal destination example
OK tree/k3
OK tree/kestrel" "$(grep '^OK tree' out | sed 's/: [0-9].*//')"
run verify --max-depth 0 tree
check "--max-depth 0: nothing found below the PATH, which is read as given (no walk's total)" 0 \
  "$(grep -c 'unit(s) failed' out)"

"$QJT" gen libkestrel --records 100 --segments 2 --corrupt truncate-segment -o tree/k3-bad >/dev/null 2>&1 ||
  "$QJT" gen libkestrel --records 100 --segments 2 -o tree/k3-bad >/dev/null
printf 'garbage' >>"$(ls tree/k3-bad/* | head -1)"
run verify tree
check "a damaged unit: exit 1" 1 "$rc"
check "a damaged unit: its verdict" "yes" "$(grep -q '^FAILED tree/k3-bad: [1-9]' out && echo yes)"
check "a damaged unit: the total" "yes" "$(tail -1 out | grep -q '^FAILED: 1 of 6 unit(s) failed' && echo yes)"
run verify --quiet tree
check "verify --quiet of a tree: the failed unit and the total only" "yes" \
  "$(grep -v '^OK' out | grep -q FAILED && ! grep -q '^OK' out && echo yes)"

# ---- JSON ----
run verify --json tree
check "verify --json of a tree: a report per unit" 6 "$(jq -s 'map(select(.type == "report")) | length' out)"
check "verify --json of a tree: each says its unit" \
  '["Canal destination example","Flume channel","Flume channel","directory","directory","directory"]' \
  "$(jq -sc 'map(select(.type == "report") | .unit.what)' out)"
check "verify --json of a tree: the summary" \
  '{"command":"verify","ok":false,"units":6,"failed":1,"skipped":["tree/README.md"]}' \
  "$(jq -c 'select(.type == "summary") | {command, ok, units, failed, skipped}' out)"
check "verify --json of a tree: the failed unit" '"tree/k3-bad"' \
  "$(jq -c 'select(.type == "report" and (.ok | not)) | .unit.path' out)"
run replay --json tree/flume/ch
check "replay --json of a channel root: the unit line names its options" \
  '["--checkpoint-dir","tree/flume/ch/checkpoint","--data-dir","tree/flume/ch/data1,tree/flume/ch/data2"]' \
  "$(head -1 out | jq -c .unit.options)"

# ---- qjt's own testdata: every fixture in one command ----
run verify "$DATA"
check "verify of testdata: the damaged fixtures fail it" 1 "$rc"
check "verify of testdata: the Canal deployer root is found" "yes" \
  "$(grep -q "^OK $DATA/canal/conf/example: Canal destination example" out && echo yes)"

exit $((failures > 0))
