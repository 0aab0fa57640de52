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
else
  echo "script(1) not installed: terminal cases skipped"
fi
[ $failures -eq 0 ]
