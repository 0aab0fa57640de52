#!/bin/sh
# check_codes.sh SOURCE_DIR MANDIR: every snake_case string literal in the
# sources of qjt (the finding codes and the JSON keys, such as
# "broken_record" or "add_time_ms") appears in a manual page, and every
# finding code appears in qjt.1, which lists them all.
set -u
src=$1
mandir=$2
status=0
literals=$(cat "$src"/apps/*/*.cc "$src"/formats/*/*.cc "$src"/lib/*.cc 2>/dev/null |
  grep -oE '"[a-z][a-z0-9]*(_[a-z0-9]+)+"' | tr -d '"' | sort -u)
[ -n "$literals" ] || { echo "no snake_case literal found under $src: wrong directory?"; exit 1; }
for word in $literals; do
  if ! grep -qw -- "$word" "$mandir"/*.1 "$mandir"/*.5; then
    echo "$word: used in the sources, documented in no page under $mandir"
    status=1
  fi
done
# Finding codes: the literal passed where a Finding is built or reported.
codes=$(cat "$src"/apps/*/*.cc "$src"/formats/*/*.cc "$src"/lib/*.cc 2>/dev/null |
  grep -E 'Finding\{|warn\(|\? "' | grep -oE '"[a-z][a-z0-9]*(_[a-z0-9]+)+"' | tr -d '"' | sort -u)
for code in $codes; do
  grep -q "^\.BR $code \" (\(error\|warning\))\"" "$mandir/qjt.1" || {
    echo "$code: a finding code not in the table of qjt.1 (.BR $code \" (severity)\")"
    status=1
  }
done
exit $status
