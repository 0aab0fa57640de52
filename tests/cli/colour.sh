#!/usr/bin/env bash
# Severities in colour (error red, warning yellow) when their stream is a
# terminal, or with --color=always; never with --color=never, on a pipe,
# or under a non-empty NO_COLOR (unless --color=always says so).
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
sample=$DATA/kestrel/sample  # warnings
broken=$DATA/kestrel/files/broken-truncated-data  # an error
yellow=$'\e[33mwarning\e[0m' red=$'\e[31merror\e[0m'

has() { [[ "$1" == *"$2"* ]] && echo yes || echo no; }

check "verify --color=always: warnings yellow" yes "$(has "$("$QJT" verify --color=always "$sample")" "$yellow")"
check "verify --color=always: errors red" yes "$(has "$("$QJT" verify --color=always "$broken")" "$red")"
check "dump --color=always: warnings on stderr yellow" yes \
  "$(has "$("$QJT" dump --color=always "$sample" 2>&1 >/dev/null)" "$yellow")"
check "verify on a pipe: no colour" no "$(has "$("$QJT" verify "$sample")" $'\e[')"
check "verify --color=never: no colour" no "$(has "$("$QJT" verify --color=never "$sample")" $'\e[')"
# Before the command, as after it; given in both places, the one after the
# command wins.
check "qjt --color=always verify: colour" yes "$(has "$("$QJT" --color=always verify "$sample")" "$yellow")"
check "qjt --color always dump: warnings on stderr yellow" yes \
  "$(has "$("$QJT" --color always dump "$sample" 2>&1 >/dev/null)" "$yellow")"
check "qjt --color=never verify --color=always: colour" yes \
  "$(has "$("$QJT" --color=never verify --color=always "$sample")" "$yellow")"
check "qjt --color=always verify --color=never: no colour" no \
  "$(has "$("$QJT" --color=always verify --color=never "$sample")" $'\e[')"
check "NO_COLOR with --color=always: colour" yes \
  "$(has "$(NO_COLOR=1 "$QJT" verify --color=always "$sample")" "$yellow")"
check "--json is never coloured" no "$(has "$("$QJT" verify --json --color=always "$sample")" $'\e[')"
"$QJT" verify --color=sometimes "$sample" >/dev/null 2>&1
check "--color=sometimes: exit 2" 2 $?

# The families' repair reports: the severities of their findings, and the
# words that name data a repair loses (Kestrel's drop, Flume's lost and
# revived) red, as errors are.
red_word() { printf '\e[31m%s\e[0m' "$1"; }
kestrel_plan() { "$QJT" repair "$@" "$broken"; }
check "kestrel repair --color=always: the dropped region red" yes \
  "$(has "$(kestrel_plan --color=always)" "  $(red_word drop) 26 byte(s)")"
check "kestrel repair --color=never: no colour" no "$(has "$(kestrel_plan --color=never)" $'\e[')"
check "kestrel repair, NO_COLOR: no colour" no "$(has "$(NO_COLOR=1 kestrel_plan)" $'\e[')"
flume_apply() {  # on a fresh copy of the damaged channel each time
  rm -rf "$WORK/damaged" && cp -r "$DATA/flume/damaged" "$WORK/damaged"
  "$QJT" repair --apply --no-backup "$@" --checkpoint-dir "$WORK/damaged/checkpoint" \
    --data-dir "$WORK/damaged/data1,$WORK/damaged/data2" 2>/dev/null
}
check "flume repair --color=always: the verify's errors red" yes \
  "$(has "$(flume_apply --color=always)" "$red[checkpoint_incomplete]")"
check "flume repair --color=never: no colour" no "$(has "$(flume_apply --color=never)" $'\e[')"
check "flume repair, NO_COLOR: no colour" no "$(has "$(NO_COLOR=1 flume_apply)" $'\e[')"
# log-1's first record with byte 2 of its length XOR 0xff: a rebuild loses
# bravo (log-1 @64) and revives charlie (log-2 @0); see tests/flume/repair_cli.sh.
cp -r "$DATA/flume/channel" "$WORK/mid"
printf "\\$(printf %03o $(($(od -An -tu1 -j2 -N1 "$WORK/mid/data1/log-1") ^ 255)))" |
  dd of="$WORK/mid/data1/log-1" bs=1 seek=2 conv=notrunc status=none
flume_rebuild() {
  "$QJT" repair --rebuild-checkpoint "$@" --checkpoint-dir "$WORK/mid/checkpoint" \
    --data-dir "$WORK/mid/data1,$WORK/mid/data2" 2>/dev/null
}
out=$(flume_rebuild --color=always)
check "flume repair --color=always: lost and revived red" "yes yes" \
  "$(has "$out" "  $(red_word lost): log-1 offset 64") $(has "$out" "  $(red_word revived): log-2 offset 0")"
check "flume repair --color=never: no colour" no "$(has "$(flume_rebuild --color=never)" $'\e[')"
canal_plan() { "$QJT" repair "$@" --set-position 1001=x:0 "$DATA/canal/conf/example/meta.dat"; }
check "canal repair --color=always: the plan's errors red" yes \
  "$(has "$(canal_plan --color=always)" "$red[canal_journal_name]")"
check "canal repair --color=never: no colour" no "$(has "$(canal_plan --color=never)" $'\e[')"
check "canal repair, NO_COLOR: no colour" no "$(has "$(NO_COLOR=1 canal_plan)" $'\e[')"
check "repair --json is never coloured" no "$(has "$(canal_plan --json --color=always)" $'\e[')"

# On a terminal (script(1) gives one): colour, unless NO_COLOR is set.
if command -v script >/dev/null 2>&1; then
  tty_run() { script -qec "$*" /dev/null </dev/null; }
  check "a terminal: colour" yes "$(has "$(tty_run "'$QJT' verify --no-progress '$sample'")" "$yellow")"
  check "a terminal, NO_COLOR=1: no colour" no \
    "$(has "$(NO_COLOR=1 tty_run "'$QJT' verify --no-progress '$sample'")" $'\e[')"
  check "a terminal, NO_COLOR empty: colour" yes \
    "$(has "$(NO_COLOR='' tty_run "'$QJT' verify --no-progress '$sample'")" "$yellow")"
  check "a terminal, qjt --color=never verify: no colour" no \
    "$(has "$(tty_run "'$QJT' --color=never verify --no-progress '$sample'")" $'\e[')"
  check "a terminal, --color=never: no colour" no \
    "$(has "$(tty_run "'$QJT' verify --no-progress --color=never '$sample'")" $'\e[')"
  check "a terminal: repair's plan in colour" yes \
    "$(has "$(tty_run "'$QJT' repair --no-progress '$broken'")" "$(red_word drop)")"
  check "a terminal, NO_COLOR=1: repair's plan without colour" no \
    "$(has "$(NO_COLOR=1 tty_run "'$QJT' repair --no-progress '$broken'")" $'\e[')"
else
  echo "script(1) not installed: terminal cases skipped"
fi
[ $failures -eq 0 ]
