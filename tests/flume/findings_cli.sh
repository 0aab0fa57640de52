#!/bin/bash
# One cause, one finding (issue 23), on channels from qjt gen:
#  - 2,000 events put in one log, log-1, 1,048 still queued (gen's report):
#    with log-1 removed, every queued pointer dangles for one cause, told
#    once with its count; --all-findings lists each one.
#  - log-1 replaced by a directory: an io_error that says so, in verify and
#    in repair (exit 3, no longer "nothing to change", exit 0).
#  - a commit's length made to take in the whole record after it (as a
#    flipped length bit can): trailing_bytes in verify and in the repair
#    plan, where nothing was seen before.
#
#   findings_cli.sh QJT
set -uo pipefail
qjt=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../check.sh"
chan() { echo --checkpoint-dir "$work/$1/checkpoint" --data-dir "$work/$1/data1"; }

"$qjt" gen flume -o "$work/gone" --records 2000 >/dev/null 2>&1
rm "$work/gone/data1/log-1"
out=$("$qjt" verify $(chan gone) --json 2>/dev/null); status=$?
check "log-1 gone: exit 1" 1 "$status"
check "log-1 gone: one dangling_pointer finding counting the 1048 queued events" \
  '[[1048,"1048 queue elements point into log-1, which is in no data directory"]]' \
  "$(jq -c '[.findings[] | select(.code == "dangling_pointer") | [.count, .message]]' <<<"$out")"
check "log-1 gone: the errors count every one" 1048 "$(jq .errors <<<"$out")"
check "log-1 gone: the text line says the count" 1 \
  "$("$qjt" verify $(chan gone) 2>/dev/null | grep -c 'error\[dangling_pointer\]: 1048 queue elements point into log-1')"
check "log-1 gone: --all-findings lists each" 1048 \
  "$("$qjt" verify $(chan gone) --all-findings --json 2>/dev/null | jq '[.findings[] | select(.code == "dangling_pointer")] | length')"

"$qjt" gen flume -o "$work/dir" --records 2000 >/dev/null 2>&1
rm "$work/dir/data1/log-1"; mkdir "$work/dir/data1/log-1"
out=$("$qjt" verify $(chan dir) --json 2>/dev/null)
check "log-1 a directory: verify says so" '["io_error"]' \
  "$(jq -c '[.findings[] | select(.message | test("found a directory")) | .code]' <<<"$out")"
"$qjt" repair $(chan dir) >/dev/null 2>"$work/err"; status=$?
check "log-1 a directory: repair exits 3" 3 "$status"
check "log-1 a directory: repair says why" 1 "$(grep -c 'log-1: error\[io_error\]: expected a data log log-1, found a directory' "$work/err")"

# log-2 of this channel: a put commit at 4600 (36 bytes), then a record the
# damaged length takes in whole.
"$qjt" gen flume -o "$work/trail" --records 200 --max-log-size 8K >/dev/null 2>&1
log=$work/trail/data1/log-2
next=$("$qjt" dump --json "$log" | jq -s '[.[] | select(.offset > 4600)][0].offset')
size=$(("$next" - 4600))
check "clean: the commit at 4600 is 36 bytes" 36 "$size"
second=$("$qjt" dump --json "$log" | jq -s "[.[] | select(.offset > $next)][0].offset")
swallowed=$((second - next))
"$qjt" verify $(chan trail) >/dev/null 2>&1; check "clean: verify exit 0" 0 $?
printf "$(printf '\\%03o' $((31 + swallowed)))" | dd of="$log" bs=1 seek=4604 conv=notrunc status=none
out=$("$qjt" verify $(chan trail) --json 2>/dev/null); status=$?
check "trailing: verify exit 1" 1 "$status"
check "trailing: the commit's bytes after its footer" "[[\"trailing_bytes\",4636]]" \
  "$(jq -c '[.findings[] | [.code, .offset]]' <<<"$out")"
out=$("$qjt" repair $(chan trail) --json 2>/dev/null); status=$?
check "trailing: repair exit 1, the loss in its findings" "1 [\"trailing_bytes\"]" \
  "$status $(jq -c '[.findings[].code]' <<<"$out")"
# A put swallowed by the length of the put before it, in a channel replayed
# from its logs (no checkpoint holds it): lost to the damage already, which
# the rebuild's plan says, apart from what it loses.
"$qjt" gen flume -o "$work/hide" --records 200 --max-log-size 8K >/dev/null 2>&1
rm -f "$work/hide/checkpoint/"*
log=$work/hide/data1/log-3
hidden=$("$qjt" dump --json "$log" | jq -s '[.[] | select(.op == "PUT")][-2].offset')
before=$("$qjt" dump --json "$log" | jq -s "[.[] | select(.offset < $hidden)][-1].offset")
after=$("$qjt" dump --json "$log" | jq -s "[.[] | select(.offset > $hidden)][0].offset")
length=$(od -An -tu1 -j $((before + 1)) -N 4 "$log" | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}')
length=$((length + after - hidden))
printf "$(printf '\\%03o\\%03o' $((length / 256)) $((length % 256)))" |
  dd of="$log" bs=1 seek=$((before + 3)) conv=notrunc status=none
plan=$("$qjt" repair --json --rebuild-checkpoint --capacity 200 $(chan hide) 2>/dev/null)
check "swallowed put: lost to the damage already" "[{\"file_id\":3,\"offset\":$hidden}]" \
  "$(jq -c .recovery.hidden_by_damage <<<"$plan")"
check "swallowed put: not among what the rebuild loses" "0 0" "$(jq -r '.recovery | "\(.lost | length) \(.revived | length)"' <<<"$plan")"
check "swallowed put: the text says so" 1 \
  "$("$qjt" repair --rebuild-checkpoint --capacity 200 $(chan hide) 2>/dev/null |
    grep -c "^  lost to the damage already: log-3 offset $hidden (a committed put inside the record before it")"
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
