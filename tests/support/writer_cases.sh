# Sourced by the tests that break every writing command at each of its
# steps (tests/faults/failpoints.sh: failing file-system calls;
# tests/signals/interrupt.sh: signals at failpoints). Each defines
# check_case NAME STATE SETUP -- COMMAND..., a `bytes` state (the files'
# bytes, as it counts them), and sets QJT, TD (testdata), WORK and S (the
# scratch directory every case writes in; backups go to $WORK/bak).

# The JSON Lines inputs of the converts back to journals.
make_writer_inputs() {
  mkdir -p "$WORK/inputs"
  "$QJT" convert --to jsonl "$TD/kestrel/files/every-opcode" >"$WORK/inputs/kestrel.jsonl" || fail "kestrel jsonl"
  "$QJT" convert --to jsonl "$TD/flume/channel/data1/log-1" >"$WORK/inputs/flume.jsonl" || fail "flume jsonl"
}

# The state of a case: what its target replays to.
replay_kestrel() {
  "$QJT" replay --json "$S/q" 2>/dev/null |
    jq -c '{queue_name, queue: [.queue[] | del(.file, .offset)], open: [.open_transactions[] | del(.file, .offset)]}'
}
replay_libkestrel() {
  "$QJT" replay --json "$S/q" 2>/dev/null | jq -c '[.readers[] | {name, head, done, pending: [.pending[] | del(.file, .offset)]}]'
}
channel() { echo --checkpoint-dir "$S/ch/checkpoint" --data-dir "$S/ch/data1,$S/ch/data2"; }
replay_flume() { "$QJT" replay --json $(channel) 2>/dev/null | jq -c '[.queue[] | [.file_id, .offset, .data]]'; }
# The events a channel recovers, wherever they are: a compaction moves them.
events_flume() { "$QJT" replay --json $(channel) 2>/dev/null | jq -c '[.queue[] | [.headers, .data]]'; }

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
# An existing output that --force replaces: a journal (backed up first), a text file (just replaced).
setup_journal_out() { mkdir "$S/out" && cp "$TD/kestrel/files/broken-truncated-data" "$S/out/j"; }
setup_text_out() { mkdir "$S/out" && echo "notes" >"$S/out/notes.txt"; }

# Every writing command, in each of its ways of writing.
check_every_writer() {
  check_case compact-kestrel replay_kestrel setup_sample -- "$QJT" compact --apply --backup-to "$WORK/bak" "$S/q"
  check_case compact-libkestrel replay_libkestrel setup_libkestrel -- \
    "$QJT" compact --apply --rewrite-bookmarks --backup-to "$WORK/bak" "$S/q"
  check_case repair-kestrel bytes setup_broken -- "$QJT" repair --apply --backup-to "$WORK/bak" "$S/q/j"
  check_case repair-flume replay_flume setup_torn -- "$QJT" repair $(channel) --apply --backup-to "$WORK/bak"
  check_case rebuild-flume replay_flume setup_channel -- \
    "$QJT" repair $(channel) --rebuild-checkpoint --write-order-id 5000 --apply --backup-to "$WORK/bak"
  check_case upgrade-flume replay_flume setup_v2 -- "$QJT" convert --to flume-v3 --apply $(channel)
  check_case compact-flume bytes setup_channel -- \
    "$QJT" compact $(channel) --to-checkpoint-dir "$S/out/checkpoint" --to-data-dir "$S/out/d1,$S/out/d2"
  check_case compact-flume-apply events_flume setup_channel -- "$QJT" compact $(channel) --apply --backup-to "$WORK/bak"
  check_case repair-canal bytes setup_canal -- \
    "$QJT" repair --set-position 1002=mysql-bin.000266:4 --apply --backup-to "$WORK/bak" "$S/conf/example/meta.dat"
  check_case convert-kestrel bytes setup_out -- "$QJT" convert --to kestrel -o "$S/out/j" "$WORK/inputs/kestrel.jsonl"
  check_case convert-kestrel2 bytes setup_out -- \
    "$QJT" convert --to kestrel2 -o "$S/out/j" "$TD/kestrel/files/every-opcode"
  check_case convert-flume-log bytes setup_out -- \
    "$QJT" convert --to flume-log -o "$S/out/log-1" "$WORK/inputs/flume.jsonl"
  check_case convert-libkestrel bytes setup_out -- \
    "$QJT" convert --to libkestrel -o "$S/out/lk" "$TD/kestrel/files/every-opcode"
  check_case convert-classic bytes setup_out -- \
    "$QJT" convert --to classic -o "$S/out/web" --reader web "$TD/libkestrel/queue"
  check_case convert-force-journal bytes setup_journal_out -- \
    "$QJT" convert --to kestrel2 --force --backup-to "$WORK/bak" -o "$S/out/j" "$TD/kestrel/files/every-opcode"
  check_case convert-force-text bytes setup_text_out -- \
    "$QJT" convert --to jsonl --force -o "$S/out/notes.txt" "$TD/kestrel/files/every-opcode"
  check_case gen bytes setup_out -- "$QJT" gen kestrel -o "$S/out/g" --records 300 --seed 1
}
