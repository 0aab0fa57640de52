#!/usr/bin/env bash
# -o - is standard output for every command that takes -o: the bytes are
# those -o FILE writes, no file named "-" appears, nothing is left in
# $TMPDIR, and where standard output cannot hold the result (a directory,
# a --json report beside the journal) it is a usage error.
#
#   output_dash.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK/run" "$WORK/tmp"
export TMPDIR=$WORK/tmp
cd "$WORK/run" || exit 1
"$QJT" convert --to jsonl "$TD/kestrel/files/every-opcode" >kestrel.jsonl || fail "kestrel jsonl"
"$QJT" convert --to jsonl "$TD/flume/channel/data1/log-1" >flume.jsonl || fail "flume jsonl"
cp -a "$TD/kestrel/sample" q

# same NAME ARGS...: `qjt ARGS -o FILE` and `qjt ARGS -o -` give the same bytes.
same() {
  local name=$1; shift
  "$QJT" "$@" -o "$WORK/$name.file" >/dev/null || fail "$name: -o FILE exited $?"
  "$QJT" "$@" -o - >"$WORK/$name.stdout" || fail "$name: -o - exited $?"
  cmp -s "$WORK/$name.file" "$WORK/$name.stdout" || fail "$name: -o - differs from -o FILE"
  [ ! -e -  ] || fail "$name: a file named - was written"
  [ -z "$(ls -A "$TMPDIR")" ] || fail "$name: left in TMPDIR: $(ls -A "$TMPDIR")"
}
# usage NAME ARGS...: exit 2, nothing on standard output but the error
# (as JSON with --json), no file named "-".
usage() {
  local name=$1; shift
  "$QJT" "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2: $(cat "$WORK/err")"
  if [[ " $* " == *" --json "* ]]; then
    jq -e '.type == "error"' "$WORK/out" >/dev/null || fail "$name: standard output is not the JSON error: $(cat "$WORK/out")"
  else
    [ ! -s "$WORK/out" ] || fail "$name: wrote to standard output"
  fi
  [ ! -e - ] || fail "$name: a file named - was written"
}

same gen gen kestrel --records 300 --payload-size 10-20 --seed 3
same gen-damaged gen kestrel --records 300 --seed 3 --corrupt flip
same compact compact --queue orders q
same convert-kestrel convert --to kestrel kestrel.jsonl
same convert-kestrel2 convert --to kestrel2 "$TD/kestrel/files/legacy-1x"
same convert-flume-log convert --to flume-log flume.jsonl
same convert-classic convert --to classic --reader web "$TD/libkestrel/queue"
"$QJT" replay - <"$WORK/compact.stdout" >/dev/null || fail "compact -o -: the journal does not replay"

usage gen-json gen kestrel --records 10 --json -o -
usage gen-segments gen kestrel --records 10 --segments 2 -o -
usage compact-json compact --queue orders --json -o - q
usage convert-libkestrel convert --to libkestrel -o - "$TD/kestrel/files/every-opcode"
echo "-o - writes standard output for gen, compact and convert"
