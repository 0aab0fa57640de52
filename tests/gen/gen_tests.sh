#!/usr/bin/env bash
# gen_tests.sh QJT CASE: checks of `qjt gen kestrel` against the reading
# commands. Each CASE is one ctest test (tests/gen/CMakeLists.txt).
#
#   determinism  same seed and options -> identical bytes; another seed differs
#   verify       qjt verify --strict accepts what gen writes; each --corrupt
#                mode makes it fail with status 1
#   replay       qjt replay --json ends with the queue length, open
#                transactions and xid counter the gen report announces
#   targets      --records and --size are met within one record
#   files        refusal to overwrite, --force, exit statuses, no temp left
#   flume_determinism  qjt gen flume: same seed -> identical channel, another seed differs,
#                      and qjt verify --strict accepts each
#   flume_verify       each --corrupt mode makes qjt verify exit 1
#   flume_replay       qjt replay finds the queue length the gen report announces
#   flume_files        refusal to overwrite a channel, --force, usage errors
#   libkestrel         qjt gen libkestrel: determinism, verify --strict, --corrupt,
#                      each reader's pending items in qjt replay
#   canal              qjt gen canal: determinism, verify --strict, --corrupt,
#                      qjt replay's entries and its meta.dat at the last time
set -u
qjt=$1
case_name=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# gen OUT ARGS...: writes OUT with the report in OUT.json; fails the test
# when gen does not exit 0.
gen() {
  local out=$1
  shift
  "$qjt" gen kestrel -o "$out" --json "$@" >"$out.json" || fail "qjt gen kestrel -o $out $*: exit status $?"
}

# The option mixes exercised by verify and replay.
mixes=(
  ""
  "--records 5000 --open 3"
  "--records 3000 --remove-share 1 --transactional 1"
  "--records 3000 --remove-share 0 --open 5"
  "--records 4000 --live 50 --open 2 --transactional 0.8"
  "--records 4000 --live 0 --transactional 0"
  "--size 200K --payload-size 1-2K --remove-share 0.7 --open 1"
  "--records 2000 --payload-size 0-8 --binary --transactional 0.3"
  "--records 6000 --segments 4 --queue orders --live 200 --open 4"
  "--size 300K --segments 3 --remove-share 0.9 --open 2 --add-time 0"
  "--records 500 --segments 8 --transactional 1"
  "--records 10 --segments 5 --open 2"
)

case_determinism() {
  for mix in "${mixes[@]}"; do
    # shellcheck disable=SC2086
    gen "$tmp/a" $mix --seed 42
    # shellcheck disable=SC2086
    gen "$tmp/b" $mix --seed 42
    # shellcheck disable=SC2086
    gen "$tmp/c" $mix --seed 43
    if [ -d "$tmp/a" ]; then
      diff -r "$tmp/a" "$tmp/b" >/dev/null || fail "[$mix] same seed, different directories"
      diff -r "$tmp/a" "$tmp/c" >/dev/null && fail "[$mix] seeds 42 and 43 gave the same directory"
    else
      cmp -s "$tmp/a" "$tmp/b" || fail "[$mix] same seed, different bytes"
      cmp -s "$tmp/a" "$tmp/c" && fail "[$mix] seeds 42 and 43 gave the same bytes"
    fi
    rm -rf "$tmp/a" "$tmp/b" "$tmp/c"
  done
  # Text payloads render as "data" in dump --json, binary ones need not.
  gen "$tmp/text" --records 200
  [ "$("$qjt" dump --json --op ADDX "$tmp/text" | jq -s 'map(select(has("data"))) | length')" = \
    "$(jq '.items_added' "$tmp/text.json")" ] || fail "text payloads are not all shown as data"
}

case_verify() {
  local i=0
  for mix in "${mixes[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    gen "$tmp/v$i" $mix
    "$qjt" verify --strict "$tmp/v$i" >"$tmp/out" 2>&1 || { fail "[$mix] verify --strict failed:"; cat "$tmp/out"; }
  done
  for mode in truncate flip garbage; do
    for seed in 1 2 3 4 5 6 7 8; do
      local args=(--seed "$seed" --corrupt "$mode" --records 400)
      [ $((seed % 2)) = 0 ] && args+=(--segments 3 --open 2)
      gen "$tmp/c-$mode-$seed" "${args[@]}"
      "$qjt" verify "$tmp/c-$mode-$seed" >"$tmp/out" 2>&1
      status=$?
      [ "$status" = 1 ] || { fail "verify on ${args[*]}: exit status $status, expected 1"; cat "$tmp/out"; }
      grep -q 'error\[broken_record\]' "$tmp/out" || fail "verify on ${args[*]}: no broken_record"
      jq -e --arg m "$mode" '.corruption.mode == $m' "$tmp/c-$mode-$seed.json" >/dev/null ||
        fail "${args[*]}: the report does not describe the damage"
    done
  done
  # Both kinds of flip (opcode and size) are reached by some seed.
  for seed in $(seq 1 40); do
    gen "$tmp/f" --records 50 --seed "$seed" --corrupt flip --force
    jq -r '.corruption.description' "$tmp/f.json"
  done >"$tmp/flips"
  grep -q 'the size of' "$tmp/flips" || fail "no seed flipped a size field"
  grep -q 'the opcode of' "$tmp/flips" || fail "no seed flipped an opcode"
}

case_replay() {
  local i=0
  for mix in "${mixes[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    gen "$tmp/r$i" $mix
    "$qjt" replay --json --data=none "$tmp/r$i" >"$tmp/replay.json" || fail "[$mix] replay failed"
    expected=$(jq -c '[.queue_length, .open_transactions, .xid_counter, .records]' "$tmp/r$i.json")
    actual=$(jq -c '[(.queue | length), (.open_transactions | length), .xid_counter,
                     ([.files[].records] | add)]' "$tmp/replay.json")
    [ "$expected" = "$actual" ] || fail "[$mix] gen expects $expected (queue, open, xid, records), replay found $actual"
    jq -e '.findings == [] and .broken == false' "$tmp/replay.json" >/dev/null ||
      fail "[$mix] replay reported findings"
    # File roles and sizes as the report says.
    expected=$(jq -c '[.files[] | [.role, .bytes]]' "$tmp/r$i.json")
    actual=$(jq -c '[.files[] | [.role, .size]]' "$tmp/replay.json")
    [ "$expected" = "$actual" ] || fail "[$mix] files: gen says $expected, replay $actual"
  done
  # --live keeps exactly that many items queued.
  gen "$tmp/live" --records 3001 --live 123 --open 7 --segments 2
  jq -e '.queue_length == 123 and .open_transactions == 7' "$tmp/live.json" >/dev/null ||
    fail "--live 123 --open 7: report $(cat "$tmp/live.json")"
}

# check_target JSON RECORDS|"" SIZE|"" MAX_RECORD: the report meets the target.
case_targets() {
  for n in 1 2 3 17 1000 4321; do
    for extra in "" "--live 5" "--transactional 1" "--segments 3"; do
      # shellcheck disable=SC2086
      gen "$tmp/t" --records "$n" $extra
      records=$(jq '.records' "$tmp/t.json")
      [ "$records" -le "$n" ] && [ "$records" -ge $((n - 1)) ] ||
        fail "--records $n $extra: wrote $records records"
      [ "$(jq '[.files[].records] | add' "$tmp/t.json")" = "$records" ] || fail "--records $n $extra: file counts"
      rm -rf "$tmp/t" "$tmp/t.json"
    done
  done
  for size in 20K 100000 1M 3M; do
    for payload in 100 1K 0-4K; do
      for extra in "" "--live 10" "--segments 4 --open 3"; do
        # shellcheck disable=SC2086
        gen "$tmp/t" --size "$size" --payload-size "$payload" $extra
        target=$(numfmt --from=iec "$size")
        max=$(numfmt --from=iec "${payload#*-}")
        bytes=$(jq '.bytes' "$tmp/t.json")
        on_disk=$(cat "$tmp"/t "$tmp"/t/* 2>/dev/null | wc -c)
        [ "$bytes" = "$on_disk" ] || fail "--size $size: report says $bytes bytes, $on_disk on disk"
        # Short by less than one record: an ADDX of the largest payload is 21 + max bytes.
        [ "$bytes" -le "$target" ] && [ $((target - bytes)) -lt $((21 + max)) ] ||
          fail "--size $size --payload-size $payload $extra: wrote $bytes bytes"
        rm -rf "$tmp/t" "$tmp/t.json"
      done
    done
  done
}

case_files() {
  "$qjt" gen kestrel -o "$tmp/j" --records 10 >/dev/null || fail "first gen failed"
  cp "$tmp/j" "$tmp/j.orig"
  "$qjt" gen kestrel -o "$tmp/j" --records 20 >/dev/null 2>&1
  [ $? = 2 ] || fail "overwriting without --force: expected exit status 2"
  cmp -s "$tmp/j" "$tmp/j.orig" || fail "a refused run changed the file"
  "$qjt" gen kestrel -o "$tmp/j" --records 20 --force >/dev/null || fail "--force failed"
  cmp -s "$tmp/j" "$tmp/j.orig" && fail "--force did not replace the file"

  mkdir "$tmp/dir"
  "$qjt" gen kestrel -o "$tmp/dir" --records 10 >/dev/null 2>&1
  [ $? = 3 ] || fail "a directory as the output file: expected exit status 3"
  # A queue directory: other queues are left alone, the same queue is refused.
  : >"$tmp/dir/other"
  "$qjt" gen kestrel -o "$tmp/dir" --segments 3 --records 300 >/dev/null || fail "gen into an existing directory failed"
  "$qjt" gen kestrel -o "$tmp/dir" --segments 2 --records 300 --seed 2 >/dev/null 2>&1
  [ $? = 3 ] || fail "regenerating queue q without --force: expected exit status 3"
  [ "$(ls "$tmp/dir" | wc -l)" = 4 ] || fail "a refused run changed the directory: $(ls "$tmp/dir")"
  : >"$tmp/dir/q~~1234"
  "$qjt" gen kestrel -o "$tmp/dir" --segments 2 --records 300 --seed 2 --force >/dev/null || fail "--force failed"
  [ "$(ls "$tmp/dir" | grep -c '^q')" = 2 ] || fail "--force left old files of q: $(ls "$tmp/dir")"
  [ -e "$tmp/dir/other" ] || fail "--force removed another queue's file"
  ls "$tmp" "$tmp/dir" | grep -q '~~qjt-gen' && fail "a temporary file was left behind"

  # Usage errors: exit status 2, nothing written.
  for args in "--records 10 --size 1K" "--remove-share 0.5 --live 3" "--queue x" "--size 12Q" \
              "--payload-size 9-3" "--remove-share 1.5" "--records 4 --open 2" "--corrupt melt" \
              "--segments 0" "--segments 2 --queue a.b" "--records 0"; do
    # shellcheck disable=SC2086
    "$qjt" gen kestrel -o "$tmp/u" $args >/dev/null 2>&1
    status=$?
    [ "$status" = 2 ] || fail "gen $args: exit status $status, expected 2"
    [ -e "$tmp/u" ] && fail "gen $args wrote $tmp/u"
  done
  "$qjt" gen nosuch -o "$tmp/u" >/dev/null 2>&1
  [ $? = 2 ] || fail "unknown format: expected exit status 2"
  "$qjt" gen kestrel -o "$tmp/no/such/dir/j" >/dev/null 2>&1
  [ $? = 3 ] || fail "unwritable path: expected exit status 3"
}

# expect_usage FAMILY ARGS...: each ARGS is a usage error (exit 2) that writes nothing.
expect_usage() {
  local family=$1
  shift
  for args in "$@"; do
    # shellcheck disable=SC2086
    "$qjt" gen "$family" -o "$tmp/u" $args >/dev/null 2>&1
    status=$?
    [ "$status" = 2 ] || fail "gen $family $args: exit status $status, expected 2"
    [ -e "$tmp/u" ] && ls -R "$tmp/u" | grep -q . && fail "gen $family $args wrote into $tmp/u"
    rm -rf "$tmp/u"
  done
}

# Flume: the option mixes, and the channel options of verify and replay.
key=k1=000102030405060708090a0b0c0d0e0f
flume_mixes=(
  ""
  "--records 3000 --open 4 --data-dirs 3 --max-log-size 64K"
  "--records 2000 --open 3 --checkpoint-version 2 --data-dirs 2"
  "--records 2000 --open 5 --data-dirs 2 --key $key"
  "--size 300K --payload-size 1K --headers 3 --header-size 40 --take-share 0.9 --rollback-share 0.2 --open 1"
  "--records 1500 --take-share 1 --batch 7 --max-log-size 16K --capacity 5000"
  "--records 500 --take-share 0 --rollback-share 1"
)

# gen_flume DIR ARGS...: qjt gen flume -o DIR --json ARGS > DIR.json.
gen_flume() {
  local out=$1
  shift
  "$qjt" gen flume -o "$out" --json "$@" >"$out.json" || fail "qjt gen flume -o $out $*: exit status $?"
}

# channel DIR: the channel options naming what gen wrote under DIR.
channel() {
  local args=(--checkpoint-dir "$1/checkpoint")
  for d in "$1"/data*; do args+=(--data-dir "$d"); done
  echo "${args[@]}" --key "$key"
}

case_flume_determinism() {
  check_family flume channel "${flume_mixes[@]}"
}

case_flume_verify() {
  for mode in flip checkpoint truncate; do
    for seed in 1 2 3; do
      local args=(--seed "$seed" --records 600 --open 2 --data-dirs "$seed")
      [ "$seed" = 3 ] && args+=(--key "$key" --max-log-size 8K)
      check_corrupt flume channel "$mode" "${args[@]}"
    done
  done
}

case_flume_replay() {
  local i=0
  for mix in "${flume_mixes[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    gen_flume "$tmp/r$i" $mix
    # shellcheck disable=SC2046
    "$qjt" replay --json --data=none $(channel "$tmp/r$i") >"$tmp/replay.json" || fail "[$mix] replay failed"
    expected=$(jq -c '[.queue_length, .checkpoint_write_order_id, .capacity, .in_flight_takes]' "$tmp/r$i.json")
    actual=$(jq -c '[.size, .checkpoint_write_order_id, .capacity, .counts.uncommitted_takes]' "$tmp/replay.json")
    [ "$expected" = "$actual" ] ||
      fail "[$mix] gen expects $expected (queue, write order id, capacity, takes in flight), replay found $actual"
    jq -e '.findings == []' "$tmp/replay.json" >/dev/null || fail "[$mix] replay reported findings"
    # The logs as the report says.
    expected=$(jq -c '[.files[] | [.path, .bytes]]' "$tmp/r$i.json")
    actual=$(for f in $(jq -r '.files[].path' "$tmp/r$i.json"); do printf '%s %s\n' "$f" "$(wc -c <"$f")"; done |
      jq -R -s -c 'split("\n") | map(select(length > 0) | split(" ") | [.[0], (.[1] | tonumber)])')
    [ "$expected" = "$actual" ] || fail "[$mix] files: gen says $expected, on disk $actual"
  done
  gen_flume "$tmp/n" --records 4321 --payload-size 10 --batch 50
  [ "$(jq '.events_put' "$tmp/n.json")" = 4321 ] || fail "--records 4321: $(jq '.events_put' "$tmp/n.json") events put"
}

case_flume_files() {
  gen_flume "$tmp/ch" --records 100
  cp -r "$tmp/ch" "$tmp/ch.orig"
  "$qjt" gen flume -o "$tmp/ch" --records 200 >/dev/null 2>&1
  [ $? = 3 ] || fail "overwriting a channel without --force: expected exit status 3"
  diff -r "$tmp/ch" "$tmp/ch.orig" >/dev/null || fail "a refused run changed the channel"
  gen_flume "$tmp/ch" --records 200 --force --max-log-size 4K
  diff -r "$tmp/ch" "$tmp/ch.orig" >/dev/null && fail "--force did not replace the channel"
  # shellcheck disable=SC2046
  "$qjt" verify --strict $(channel "$tmp/ch") >/dev/null 2>&1 || fail "verify after --force failed"
  ls -R "$tmp/ch" | grep -q '~~qjt-gen' && fail "a temporary file was left behind"
  expect_usage flume "-o -" "--corrupt garbage" "--checkpoint-version 4" "--data-dirs 0" "--batch 0" \
    "--key k1=00" "--key nokey" "--checkpoint-version 2 --key $key" "--capacity 10" \
    "--max-log-size 12" "--segments 2" "--take-share 2" "--headers 4000000000" "--payload-size 2M --max-log-size 1M"
  "$qjt" gen kestrel -o "$tmp/u" --data-dirs 2 >/dev/null 2>&1
  [ $? = 2 ] || fail "a Flume option for kestrel: expected exit status 2"
}

# check_family FAMILY READ_ARGS_FN MIXES...: same seed -> same bytes, another
# seed differs, verify --strict is clean; READ_ARGS_FN DIR names the input.
check_family() {
  local family=$1 args_of=$2
  shift 2
  for mix in "$@"; do
    for seed in 42 42 43; do
      rm -rf "$tmp/$family-$seed.new"
      # shellcheck disable=SC2086
      "$qjt" gen "$family" -o "$tmp/$family-$seed.new" $mix --seed "$seed" --json >"$tmp/report.json" ||
        fail "gen $family $mix --seed $seed: exit status $?"
      if [ -d "$tmp/$family-$seed" ]; then
        diff -r "$tmp/$family-$seed" "$tmp/$family-$seed.new" >/dev/null || fail "[$family $mix] same seed, different files"
      fi
      rm -rf "$tmp/$family-$seed"
      mv "$tmp/$family-$seed.new" "$tmp/$family-$seed"
    done
    diff -r "$tmp/$family-42" "$tmp/$family-43" >/dev/null && fail "[$family $mix] seeds 42 and 43 gave the same files"
    # shellcheck disable=SC2046
    "$qjt" verify --strict $("$args_of" "$tmp/$family-42") >"$tmp/out" 2>&1 ||
      { fail "[$family $mix] verify --strict failed:"; cat "$tmp/out"; }
    rm -rf "$tmp/$family-42" "$tmp/$family-43"
  done
}

# check_corrupt FAMILY READ_ARGS_FN MODE ARGS...: verify exits 1 on the damaged output.
check_corrupt() {
  local family=$1 args_of=$2 mode=$3
  shift 3
  "$qjt" gen "$family" -o "$tmp/bad" --corrupt "$mode" --json "$@" >"$tmp/bad.json" || fail "gen $family --corrupt $mode"
  # shellcheck disable=SC2046
  "$qjt" verify $("$args_of" "$tmp/bad") >"$tmp/out" 2>&1
  status=$?
  [ "$status" = 1 ] || { fail "verify on $family --corrupt $mode $*: exit status $status, expected 1"; cat "$tmp/out"; }
  jq -e --arg m "$mode" '.corruption.mode == $m' "$tmp/bad.json" >/dev/null ||
    fail "$family --corrupt $mode: the report does not describe the damage"
  rm -rf "$tmp/bad" "$tmp/bad.json"
}

queue_dir() { echo "$1"; }

case_libkestrel() {
  check_family libkestrel queue_dir "" "--records 3000 --segments 4 --queue jobs" \
    "--size 200K --payload-size 1K --segments 3 --reader a=100 --reader b=0 --done 20" \
    "--records 500 --reader =250 --done 10 --segments 2"
  for mode in truncate flip; do
    for seed in 1 2 3; do check_corrupt libkestrel queue_dir "$mode" --seed "$seed" --records 300 --segments "$seed"; done
  done
  # Each reader's pending items as the report says.
  "$qjt" gen libkestrel -o "$tmp/q" --records 2000 --segments 3 --reader a=700 --reader b=1999 --reader c=0 \
    --done 50 --json >"$tmp/q.json" || fail "gen libkestrel for replay"
  "$qjt" replay --json --data=none "$tmp/q" >"$tmp/replay.json" || fail "libkestrel replay failed"
  expected=$(jq -c '[.readers[] | [.name, .head, .done, .pending]]' "$tmp/q.json")
  actual=$(jq -c '[.readers[] | [.name, .head, (.done | length), (.pending | length)]]' "$tmp/replay.json")
  [ "$expected" = "$actual" ] || fail "libkestrel readers: gen says $expected, replay $actual"
  jq -e '.findings == [] and .broken == false and .tail_id == 2000' "$tmp/replay.json" >/dev/null ||
    fail "libkestrel replay: $(jq -c '[.tail_id, .broken, .findings]' "$tmp/replay.json")"
  expect_usage libkestrel "--open 1" "--reader x" "--reader a=1 --reader a=2" "--reader a=" "--reader a=-1" \
    "--reader a=18446744073709551616" "--reader a=5x" "--segments 0" "--queue a.b" \
    "--corrupt flip --records 0"
}

canal_files() { echo "$1/conf/example/meta.dat" "$1/logs/example/meta.log"; }

case_canal() {
  export TZ=UTC
  check_family canal canal_files "" "--records 5000 --clients 7" "--records 20 --clients 3"
  for mode in truncate empty; do check_corrupt canal canal_files "$mode" --records 100; done
  "$qjt" gen canal -o "$tmp/c" --records 2500 --clients 4 --json >"$tmp/c.json" || fail "gen canal for replay"
  [ "$("$qjt" replay "$tmp/c/logs/example/meta.log" | wc -l)" = 2500 ] || fail "canal replay: not 2500 entries"
  "$qjt" replay --json --at "$(jq -r '.last_time' "$tmp/c.json")" "$tmp/c/logs/example/meta.log" >"$tmp/at.json" ||
    fail "canal replay --at failed"
  expected=$(jq -c '[.clientDatas[].cursor]' "$tmp/c/conf/example/meta.dat")
  actual=$(jq -r '.meta_dat' "$tmp/at.json" | jq -c '[.clientDatas[].cursor]')
  [ "$expected" = "$actual" ] || fail "canal: meta.dat's cursors $expected, the log's at the end $actual"
  "$qjt" gen canal -o "$tmp/c" --records 10 >/dev/null 2>&1
  [ $? = 3 ] || fail "canal: overwriting without --force: expected exit status 3"
  expect_usage canal "--size 1K" "--payload-size 10" "--records 2 --clients 3" "--destination a/b" "--corrupt flip"
}

"case_$case_name"
[ "$failures" = 0 ] && echo "ok: $case_name"
[ "$failures" = 0 ]
