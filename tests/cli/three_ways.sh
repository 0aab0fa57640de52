#!/usr/bin/env bash
# One verdict per file, however it is named (issue 40): the same files
# named one by one, through their directory and through the tree get the
# same finding codes under --strict, where a skipped file is an error in
# every way. A file of no known format neither makes nor unmakes a Kestrel
# queue directory; in one, it is skipped and counted, with a stray_file
# warning where Kestrel's startup would read it; but a live journal whose
# first byte is damaged is the queue's, by its name beside its segments. --exclude passes over
# what a CI job leaves out, and qjt's own testdata passes with the line the
# README gives.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
enter_workdir "$WORK"
export TZ=UTC

mkdir -p fixtures/kestrel
"$QJT" gen kestrel --records 60 --segments 2 --queue jobs -o fixtures/kestrel/spool >/dev/null
printf '{"note": "rotate on Friday"}\n' >fixtures/kestrel/spool/notes.json
printf '\377not a journal\n' >fixtures/kestrel/spool/random
mkdir -p fixtures/docs fixtures/lonely/spool
: >fixtures/docs/empty.txt
printf 'expected output\n' >fixtures/docs/readme.txt
printf '{"only": true}\n' >fixtures/lonely/spool/notes.json

# codes JSON-LINES FILE: the "severity code" of each finding on FILE, sorted.
codes() {
  jq -r --arg f "$2" '(.findings // [])[] | select(.file == $f) | "\(.severity) \(.code)"' "$1" | sort | paste -sd,
}

# verdicts FILE...: each FILE's codes in out.json.
verdicts() {
  for f in "$@"; do echo "$f: $(codes out.json "$f")"; done
}

spool_files=(fixtures/kestrel/spool/*)
doc_files=(fixtures/docs/*)
all_files=("${spool_files[@]}" "${doc_files[@]}")

"$QJT" verify --json --strict fixtures >out.json
tree=$(verdicts "${all_files[@]}")
"$QJT" verify --json --strict fixtures/kestrel/spool >out.json
by_dir=$(verdicts "${spool_files[@]}")
"$QJT" verify --json --strict "${spool_files[@]}" >out.json
named=$(verdicts "${spool_files[@]}")
"$QJT" verify --json --strict "${doc_files[@]}" >out.json
named+=$'\n'$(verdicts "${doc_files[@]}")
one_by_one=""
for f in fixtures/kestrel/spool/notes.json fixtures/kestrel/spool/random "${doc_files[@]}"; do
  "$QJT" verify --json --strict "$f" >out.json
  one_by_one+="$(verdicts "$f")"$'\n'
done

expected=""
for f in "${all_files[@]}"; do
  case $f in
    *spool/notes.json | *spool/random) expected+="$f: error unknown_format,warning stray_file"$'\n' ;;
    *docs/*) expected+="$f: error unknown_format"$'\n' ;;
    *) expected+="$f: "$'\n' ;;
  esac
done
check "the tree: each file's codes (none on the queue's journals)" "${expected%$'\n'}" "$tree"
check "the queue directory: the tree's codes" "$(grep spool/ <<<"$tree")" "$by_dir"
check "the files named together: the tree's codes" "$tree" "$named"
check "each stray file named alone: the tree's codes" \
  "$(grep -E 'notes|random|docs' <<<"$tree")" "$(sed '/^$/d' <<<"$one_by_one")"
# A directory of stray files alone, and the tree above a lone one: under
# --strict the same codes, not "nothing found".
"$QJT" verify --json --strict fixtures/docs >out.json
check "a directory of files of no known format, under --strict: exit 1" 1 $?
check "a directory of files of no known format: the tree's codes" "$(grep docs/ <<<"$tree")" \
  "$(verdicts "${doc_files[@]}")"
lonely=fixtures/lonely/spool/notes.json
"$QJT" verify --json --strict "$lonely" >out.json
lonely_named=$(codes out.json "$lonely")
for path in fixtures/lonely/spool fixtures/lonely; do
  "$QJT" verify --json --strict "$path" >out.json
  check "notes.json alone, through $path under --strict: exit 1, as named" "1 $lonely_named" "$? $(codes out.json "$lonely")"
done

# ---- without --strict: skipped and counted, the warning said ----------------
"$QJT" verify fixtures/kestrel/spool >out 2>err
check "a queue directory with stray files: exit 0" 0 $?
check "a queue directory with stray files: the warnings" 2 "$(grep -c 'warning\[stray_file\]' out)"
check "a queue directory with stray files: notes.json fails Kestrel's startup" "yes" \
  "$(grep -q 'notes.json: warning\[stray_file\]: .*cannot parse this name as notes.<timestamp> and fails' out && echo yes)"
check "a queue directory with stray files: random would be truncated" "yes" \
  "$(grep -q 'random: warning\[stray_file\]: .*truncates the live journal random there' out && echo yes)"
check "a queue directory with stray files: counted" "yes" \
  "$(tail -1 out | grep -q '^OK: 0 of 1 unit(s) failed; .*skipped 2 file(s) of no known format$' && echo yes)"
check "a queue directory with stray files: no bad_segment_name" 0 "$(grep -c bad_segment_name out)"
"$QJT" verify fixtures/docs >out 2>err
check "a 0-byte file makes no queue directory: nothing found, exit 3, the files counted" \
  "3 qjt verify: no journal, channel or checkpoint found in fixtures/docs; skipped 2 file(s) of no known format (qjt verify --strict names them)" \
  "$? $(cat err)"
"$QJT" verify fixtures/lonely/spool >out 2>err
dir_status=$? dir_err=$(cat err)
"$QJT" verify fixtures/lonely >out 2>err
check "a directory holding only notes.json, and its parent: one answer" "$dir_status ${dir_err//\/spool/}" "$? $(cat err)"
check "a directory holding only notes.json: nothing found, exit 3" 3 "$dir_status"

# ---- a live journal damaged at its first byte ----------------------------------
# No record decodes at offset 0, but the name and the segment beside it say
# what it is: Kestrel's startup reads it as queue jobs's journal and
# truncates it to 0 bytes. An error, one verdict three ways, never a
# stray file skipped.
mkdir -p damaged
"$QJT" gen kestrel --records 60 --segments 2 --queue jobs -o damaged/spool >/dev/null
printf '\377' | dd of=damaged/spool/jobs bs=1 conv=notrunc status=none
for path in damaged/spool/jobs damaged/spool damaged; do
  "$QJT" verify --json "$path" >out.json
  check "a live journal damaged at byte 0, through $path: exit 1, broken_record at 0" "1 error broken_record 0" \
    "$? $(jq -r '(.findings // [])[] | select(.file == "damaged/spool/jobs") | "\(.severity) \(.code) \(.offset)"' out.json)"
done

# ---- a libkestrel segment cut inside its magic, beside installations --------------
# Too short to prove a queue directory: the tree's units are still read,
# and the file gets the verdict it gets when named.
mkdir -p cut
"$QJT" gen kestrel --records 20 --segments 2 --queue jobs -o cut/spool >/dev/null
printf "'d" >cut/segment
"$QJT" verify --json cut/segment >out.json
named=$(codes out.json cut/segment)
"$QJT" verify --json cut >out.json
check "a cut segment beside a queue directory: exit 1, the named file's codes, the queue read" \
  "1 $named true" "$? $(codes out.json cut/segment) $(jq -s 'any(.[]; .type == "report" and .unit.path == "cut/spool" and .ok)' out.json)"

# ---- --exclude ----------------------------------------------------------------
"$QJT" verify --exclude docs --exclude 'kestrel/*' fixtures >out 2>err
check "--exclude: a directory by name, one by its path below the PATH" "3 no journal, channel or checkpoint" \
  "$? $(grep -o 'no journal, channel or checkpoint' err)"
"$QJT" verify --strict --exclude '*.txt' fixtures >out 2>err
check "--exclude '*.txt': those files neither read nor skipped" 0 "$(grep -c 'docs/' out)"
"$QJT" verify --json --exclude lonely --exclude docs fixtures >out.json
check "--exclude: the summary skips no file of the excluded directories" \
  '["fixtures/kestrel/spool/notes.json","fixtures/kestrel/spool/random"]' \
  "$(jq -c 'select(.type == "summary") | .skipped' out.json)"

# ---- qjt's own testdata: the README's line for a CI job ----------------------
cd "$DATA/.." || exit 1
ci_line=$(sed -n 's/^    \(qjt verify --exclude .* testdata\)$/\1/p' README.md)
check "the README gives the CI line" "yes" "$([[ -n $ci_line ]] && echo yes)"
# shellcheck disable=SC2086
eval "\"$QJT\" ${ci_line#qjt }" >"$WORK/ci.out" 2>&1
check "the README's CI line passes on testdata" 0 $?
check "no bad_segment_name in testdata/kestrel/expected" 0 \
  "$("$QJT" verify testdata/kestrel/expected 2>&1 | grep -c bad_segment_name)"

exit $((failures > 0))
