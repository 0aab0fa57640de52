#!/usr/bin/env bash
# Every command that writes, interrupted at each of its failpoints by
# SIGINT, SIGTERM and SIGHUP in turn (QJT_FAILPOINT=N with
# QJT_FAILPOINT_SIGNAL, lib/failpoint.h), N rising from 1 until a run
# completes. Each interrupted run must exit with 128 + the signal's number,
# print exactly one line naming the interruption, leave no "~~" file in the
# scratch tree (backups and $TMPDIR included) and no lock (a re-run
# completes), and leave the state either as it was, every file included,
# when the line says "nothing changed", or as the completed command leaves
# it when the line says what was installed.
#
#   interrupt.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 TD=$2 WORK=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK/inputs"
export QJT_NOW_MS=1800000000000  # the names of new files, the same in every run
S=$WORK/s  # the scratch directory every case writes in; backups go to $WORK/bak
export TMPDIR=$WORK/tmp
# Whatever the test runner ignores, qjt gets the signals' default dispositions.
run() { env --default-signal=INT,TERM,HUP "$@"; }

"$QJT" convert --to jsonl "$TD/kestrel/files/every-opcode" >"$WORK/inputs/kestrel.jsonl" || fail "kestrel jsonl"
"$QJT" convert --to jsonl "$TD/flume/channel/data1/log-1" >"$WORK/inputs/flume.jsonl" || fail "flume jsonl"

# The state of a case: what its target replays to, or the bytes of its files.
replay_kestrel() {
  "$QJT" replay --json "$S/q" 2>/dev/null |
    jq -c '{queue_name, queue: [.queue[] | del(.file, .offset)], open: [.open_transactions[] | del(.file, .offset)]}'
}
replay_libkestrel() {
  "$QJT" replay --json "$S/q" 2>/dev/null | jq -c '[.readers[] | {name, head, done, pending: [.pending[] | del(.file, .offset)]}]'
}
channel() { echo --checkpoint-dir "$S/ch/checkpoint" --data-dir "$S/ch/data1,$S/ch/data2"; }
replay_flume() { "$QJT" replay --json $(channel) 2>/dev/null | jq -c '[.queue[] | [.file_id, .offset, .data]]'; }
bytes() { (cd "$S" && find . -type f -print0 | sort -z | xargs -0r sha1sum); }
# Every path of the scratch tree and every file's bytes: "nothing changed"
# leaves no backup either.
paths() { (cd "$WORK" && find s bak* tmp 2>/dev/null | sort && find s bak* tmp -type f -print0 2>/dev/null | sort -z | xargs -0r sha1sum); }
temps() { (cd "$WORK" && find s bak* tmp -name '*~~*' 2>/dev/null | sort); }

declare -A number=([INT]=2 [TERM]=15 [HUP]=1)
total=0 summary=""
# check_case NAME STATE SETUP -- COMMAND...
check_case() {
  local name=$1 state=$2 setup=$3; shift 4
  local command=$2  # qjt's command word, which the line names
  fresh() { rm -rf "$S" "$WORK/bak"* "$TMPDIR"; mkdir -p "$S" "$TMPDIR"; $setup; }
  fresh
  local before paths_before temps_before after rc_done
  before=$($state) paths_before=$(paths) temps_before=$(temps)
  run "$@" >/dev/null 2>"$WORK/err"
  rc_done=$?
  after=$($state)
  # (A fixture's own stray temp file stays, or goes into the backup.)
  temps_before=$( (echo "$temps_before"; temps) | sort -u)
  local sig n rc line lines stops=0 committed=0
  for sig in INT TERM HUP; do
    for ((n = 1; ; n++)); do
      fresh
      QJT_FAILPOINT=$n QJT_FAILPOINT_SIGNAL=$sig run "$@" >/dev/null 2>"$WORK/err"
      rc=$?
      lines=$(grep -c ': interrupted by SIG' "$WORK/err")
      if [ "$lines" -eq 0 ]; then  # no failpoint N: the run completed
        [ $rc -eq $rc_done ] || fail "$name: run past the last failpoint exited $rc, expected $rc_done"
        break
      fi
      local at="$name: SIG$sig at failpoint $n"
      [ $rc -eq $((128 + number[$sig])) ] || fail "$at: exit $rc, expected $((128 + number[$sig]))"
      [ "$lines" -eq 1 ] || fail "$at: $lines lines about the interruption: $(cat "$WORK/err")"
      line=$(tail -n 1 "$WORK/err")
      [[ $line == "qjt $command: interrupted by SIG$sig"* ]] || fail "$at: the last line is not the interruption's: $line"
      local left; left=$(comm -13 <(echo "$temps_before") <(temps))
      [ -z "$left" ] || fail "$at: temp files left: $left"
      if [[ $line == *"nothing changed" ]]; then
        [ "$($state)" = "$before" ] || fail "$at: \"$line\" but the state changed"
        [ "$(paths)" = "$paths_before" ] || fail "$at: \"$line\" but files changed: $(diff <(echo "$paths_before") <(paths))"
        run "$@" >/dev/null 2>"$WORK/err"
        rc=$?
        [ $rc -eq $rc_done ] || fail "$at: the re-run exited $rc, expected $rc_done (a lock left?): $(cat "$WORK/err")"
        [ "$($state)" = "$after" ] || fail "$at: the re-run's state is not the completed command's"
      else
        [ "$($state)" = "$after" ] || fail "$at: \"$line\" but the state is not the completed command's"
        committed=$((committed + 1))
      fi
      stops=$((stops + 1))
    done
  done
  [ $stops -gt 0 ] || fail "$name: no failpoint reached"
  total=$((total + stops))
  summary+="$name: $stops stops ($committed after the commit); "
}

setup_sample() { cp -a "$TD/kestrel/sample" "$S/q"; }
setup_libkestrel() {  # web's bookmark not canonical (tests/libkestrel/compact_failpoints.sh), so it is rewritten
  cp -a "$TD/libkestrel/queue" "$S/q"
  printf '\x26\x3c\x26\x03\x02\x03\0\0\0\0\0\0\0\x91\x18\0\0\0\x09\0\0\0\0\0\0\0\x05\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0' \
    >"$S/q/jobs.read.web"
}
setup_broken() { mkdir "$S/q" && cp "$TD/kestrel/files/broken-truncated-data" "$S/q/j"; }
setup_torn() { cp -a "$TD/flume/channel" "$S/ch" && truncate -s 201 "$S/ch/data2/log-2"; }  # in foxtrot's put
setup_channel() { cp -a "$TD/flume/channel" "$S/ch"; }
setup_v2() { cp -a "$TD/flume/v2" "$S/ch"; }
setup_canal() { cp -a "$TD/canal/conf" "$S/conf"; }
setup_out() { mkdir "$S/out"; }

check_case compact-kestrel replay_kestrel setup_sample -- "$QJT" compact --backup-to "$WORK/bak" "$S/q"
check_case compact-kestrel-o bytes setup_sample -- "$QJT" compact --queue orders -o "$S/orders.compacted" "$S/q"
check_case compact-libkestrel replay_libkestrel setup_libkestrel -- \
  "$QJT" compact --rewrite-bookmarks --backup-to "$WORK/bak" "$S/q"
check_case repair-kestrel bytes setup_broken -- "$QJT" repair --apply --backup-to "$WORK/bak" "$S/q/j"
check_case repair-flume replay_flume setup_torn -- "$QJT" repair $(channel) --apply --backup-to "$WORK/bak"
check_case rebuild-flume replay_flume setup_channel -- \
  "$QJT" repair $(channel) --rebuild-checkpoint --write-order-id 5000 --apply --backup-to "$WORK/bak"
check_case upgrade-flume replay_flume setup_v2 -- "$QJT" convert --to flume-v3 --apply $(channel)
check_case repair-canal bytes setup_canal -- \
  "$QJT" repair --set-position 1002=mysql-bin.000266:4 --apply --backup-to "$WORK/bak" "$S/conf/example/meta.dat"
check_case convert-kestrel bytes setup_out -- "$QJT" convert --to kestrel -o "$S/out/j" "$WORK/inputs/kestrel.jsonl"
check_case convert-kestrel2 bytes setup_out -- "$QJT" convert --to kestrel2 -o "$S/out/j" "$TD/kestrel/files/every-opcode"
check_case convert-flume-log bytes setup_out -- "$QJT" convert --to flume-log -o "$S/out/log-1" "$WORK/inputs/flume.jsonl"
check_case convert-libkestrel bytes setup_out -- "$QJT" convert --to libkestrel -o "$S/out/lk" "$TD/kestrel/files/every-opcode"
check_case convert-classic bytes setup_out -- \
  "$QJT" convert --to classic -o "$S/out/web" --reader web "$TD/libkestrel/queue"
check_case gen bytes setup_out -- "$QJT" gen kestrel -o "$S/out/g" --records 300 --seed 1
check_case gen-segments bytes setup_out -- "$QJT" gen kestrel -o "$S/out/dir" --segments 3 --records 300 --seed 1
echo "$summary"
echo "every one of $total interrupted runs cleaned up"
