#!/usr/bin/env bash
# A file that cannot be opened makes dump, verify and replay of every
# family exit 3 and say so on standard error, with --json as without
# (qjt(1), OUTPUT CONVENTIONS: an io_error is always told there); under
# --json standard output still holds JSON and nothing else. The file is
# chmod 000; as root (CI), qjt runs without the capabilities that let root
# read it anyway (setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH).
# On a terminal that shows both streams, the report's io_error is told once.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
enter_workdir "$WORK"
reader=()
[ "$(id -u)" -eq 0 ] && reader=(setpriv --bounding-set=-dac_override,-dac_read_search --)
unreadable() {
  touch "$1"
  chmod 000 "$1"
}

cp -r "$DATA/kestrel/sample" kestrel
unreadable kestrel/orders
cp -r "$DATA/libkestrel/queue" libkestrel
unreadable libkestrel/jobs.1700000001000
cp -r "$DATA/flume/channel" flume
unreadable flume/data1/log-1
mkdir -p canal/conf/example canal/logs/example
unreadable canal/conf/example/meta.dat
unreadable canal/logs/example/meta.log

# outcome COMMAND ARG...: "exit N, io_error on stderr: yes|no, stdout JSON:
# yes|no|-" for qjt COMMAND ARG... (the last only with --json).
outcome() {
  local status told json=-
  "${reader[@]}" "$QJT" "$@" >out 2>err
  status=$?
  told=$(grep -q 'error\[io_error\]' err && echo yes || echo no)
  if [[ " $* " == *" --json "* ]]; then json=$(jq -e -s 'length >= 0' out >/dev/null 2>&1 && echo yes || echo no); fi
  echo "exit $status, io_error on stderr: $told, stdout JSON: $json"
}

channel=(--checkpoint-dir flume/checkpoint --data-dir flume/data1,flume/data2)
for command in dump verify replay; do
  for json in "" --json; do
    expected="exit 3, io_error on stderr: yes, stdout JSON: $([ -n "$json" ] && echo yes || echo -)"
    check "kestrel $command $json" "$expected" "$(outcome $command $json kestrel)"
    check "libkestrel $command $json" "$expected" "$(outcome $command $json libkestrel)"
    check "flume $command $json" "$expected" "$(outcome $command $json "${channel[@]}")"
    check "canal meta.log $command $json" "$expected" "$(outcome $command $json canal/logs/example/meta.log)"
    check "canal meta.log, --format forced, $command $json" "$expected" \
      "$(outcome $command $json --format canal-meta-log canal/logs/example/meta.log)"
    if [ $command != replay ]; then
      check "canal meta.dat $command $json" "$expected" "$(outcome $command $json canal/conf/example/meta.dat)"
      check "flume log-1 named $command $json" "$expected" "$(outcome $command $json flume/data1/log-1)"
      check "flume data directory named $command $json" "$expected" "$(outcome $command $json flume/data1)"
    fi
  done
done
# repair plans, and refuses to apply, without a file's bytes: exit 3 in
# every family, the io_error on stderr, and JSON on stdout under --json.
for json in "" --json; do
  expected="exit 3, io_error on stderr: yes, stdout JSON: $([ -n "$json" ] && echo yes || echo -)"
  check "flume repair $json" "$expected" "$(outcome repair $json "${channel[@]}")"
  check "flume repair --apply $json" "$expected" "$(outcome repair --apply --rebuild-checkpoint $json "${channel[@]}")"
  check "kestrel repair $json" "$expected" "$(outcome repair $json kestrel)"
  check "canal meta.dat repair $json" "$expected" "$(outcome repair $json canal/conf/example/meta.dat)"
done
check "flume repair --apply: nothing changed" "" "$(find flume -newer flume/data1/log-1 -type f)"
check "verify --json: the io_error in the report too" 1 \
  "$("${reader[@]}" "$QJT" verify --json "${channel[@]}" 2>/dev/null | jq '[.findings[] | select(.code == "io_error")] | length')"
check "flume replay --json: no report of a queue not read, an error object instead" "error 3" \
  "$("${reader[@]}" "$QJT" replay --json "${channel[@]}" 2>/dev/null | jq -r '"\(.type) \(.exit_status)"')"

# On a terminal, where standard output and standard error are one screen,
# an io_error that the report on standard output holds is not told a
# second time on standard error; with standard output redirected to a
# file, standard error still tells it, and the file holds it too.
if command -v script >/dev/null 2>&1; then
  on_terminal() {  # on_terminal WORDS: what a terminal shows of `qjt WORDS` (a shell line)
    script -qec "$(printf '%q ' "${reader[@]}" "$QJT") $1" /dev/null </dev/null | tr -d '\r'
  }
  for words in "verify kestrel" "verify -q kestrel" "verify --json kestrel" "verify libkestrel" \
    "verify ${channel[*]}" "replay --json ${channel[*]}" "repair --json ${channel[*]}" "dump kestrel" \
    "replay kestrel" "verify kestrel/no-such-file" "dump kestrel/no-such-file"; do
    check "on a terminal, qjt $words: the io_error once" 1 "$(on_terminal "$words" | grep -c 'io_error')"
  done
  check "on a terminal, qjt verify kestrel >file: the io_error on the terminal" 1 \
    "$(on_terminal "verify kestrel >verify.out" | grep -c 'io_error')"
  check "on a terminal, qjt verify kestrel >file: the io_error in the file" 1 "$(grep -c 'io_error' verify.out)"
else
  echo "script (util-linux) not installed: the terminal is not checked"
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
