#!/usr/bin/env bash
# QJT_NOW_MS (lib/clock.h): set to an integer, it is the stamp of the backup
# directory compact makes; set to anything else, the system clock is.
QJT=$1 SOURCE=$2 WORK=$3
source "$(dirname "$0")/lib.sh"
rm -rf "$WORK"; mkdir -p "$WORK"

cp -a "$SOURCE" "$WORK/fixed"
QJT_NOW_MS=1800000000123 "$QJT" compact --apply --json --queue orders "$WORK/fixed" > "$WORK/fixed.json" 2>/dev/null ||
  fail "compact exited $?"
jq -e --arg dir "$WORK/fixed.qjt-backup/orders.1800000000123" '.backup_dir == $dir' "$WORK/fixed.json" >/dev/null ||
  fail "backup_dir does not carry QJT_NOW_MS: $(cat "$WORK/fixed.json")"
[ -d "$WORK/fixed.qjt-backup/orders.1800000000123" ] || fail "no backup directory stamped 1800000000123"

cp -a "$SOURCE" "$WORK/ignored"
QJT_NOW_MS=12x "$QJT" compact --apply --json --queue orders "$WORK/ignored" > "$WORK/ignored.json" 2>/dev/null ||
  fail "compact with QJT_NOW_MS=12x exited $?"
stamp=$(jq -r '.backup_dir | sub(".*\\."; "")' "$WORK/ignored.json")
[[ $stamp =~ ^[0-9]+$ ]] && [ "$stamp" -gt 1700000000000 ] ||
  fail "QJT_NOW_MS=12x was not ignored: backup stamp $stamp"
echo OK
