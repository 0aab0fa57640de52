#!/bin/bash
# hints.sh QJT SOURCE_DIR CASE: the hint verify gives with a finding (text
# and JSON) is a command that works. On a scratch copy of testdata/, each
# case takes the hint of one finding from `verify --json`, checks that the
# text output shows the same hint, runs it with the built qjt as `qjt`
# (filling in the placeholders the operator would choose), and checks that
# verify no longer reports the finding.
#   kestrel  broken_record        -> qjt repair --apply FILE (the cut keeps the most)
#   flume    crc_mismatch         -> qjt repair --apply --drop-event N:OFFSET CHANNEL
#            checkpoint_unusable  -> qjt repair --apply --restore-backup CHANNEL
#   flume-rebuild, the same without --backup-dir:
#            checkpoint_unusable  -> qjt repair --apply --rebuild-checkpoint CHANNEL
#   canal    canal_journal_purged -> qjt repair --apply --set-position CLIENT=JOURNAL:POS FILE  # JOURNAL:POS: ...
#            canal_empty_file     -> qjt repair --apply --from-log META_LOG FILE
#   every    each hint template of formats/*/cli/*_hints.cc: a case gives it, and
#            the hint, run as printed (capital placeholders filled in), exits 0 or 1
# Needs jq.
set -u
qjt=$1
src=$2
case=$3
command -v jq >/dev/null 2>&1 || { echo "jq not installed: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
ln -s "$(cd "$(dirname "$qjt")" && pwd)/$(basename "$qjt")" "$tmp/bin/qjt"
export PATH="$tmp/bin:$PATH"
cp -r "$src/testdata" "$tmp/testdata"
cd "$tmp" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

# hint_of CODE VERIFY_ARGS...: the hint of the first finding CODE, which
# the text output must show too, under the finding.
hint_of() {
  local code=$1
  shift
  local hint
  hint=$(qjt verify --json "$@" | jq -r --arg c "$code" '[.findings[] | select(.code == $c)][0].hint // empty')
  if [ -z "$hint" ]; then
    fail "verify --json $*: no hint for $code"
    return
  fi
  qjt verify "$@" | grep -A1 "\[$code\]" | grep -qxF "  hint: $hint" || fail "verify $*: text lacks '  hint: $hint'"
  echo "$hint"
}

# gone CODE VERIFY_ARGS...: fails when verify still reports CODE.
gone() {
  local code=$1
  shift
  qjt verify --json "$@" | jq -e --arg c "$code" 'any(.findings[]; .code == $c)' >/dev/null &&
    fail "verify $* still reports $code after the hint"
}

run() {  # run COMMAND [STATUS]: the hint, as a shell would run it; exit STATUS (0)
  echo "+ $1"
  bash -c "$1"
  local got=$?
  [ "$got" -eq "${2:-0}" ] || fail "the hint exited $got, not ${2:-0}: $1"
}

case $case in
kestrel)
  file=testdata/kestrel/files/broken-truncated-data
  hint=$(hint_of broken_record "$file")
  [ "$hint" = "qjt repair --apply $file" ] || fail "unexpected hint: $hint"
  run "$hint --backup-to backups"
  gone broken_record "$file"
  qjt verify "$file" >/dev/null || fail "verify $file after the repair"
  # dump tells it on standard error, with the hint
  qjt dump testdata/kestrel/dirs/broken-archived 2>&1 >/dev/null | grep -q '^  hint: qjt repair --apply ' ||
    fail "dump does not show the hint on standard error"
  ;;
flume)
  d=testdata/flume/damaged
  channel=(--checkpoint-dir $d/checkpoint --data-dir $d/data1,$d/data2 --backup-dir $d/backup)
  hint=$(hint_of crc_mismatch "${channel[@]}")
  [[ $hint == "qjt repair --apply --drop-event "[0-9]*:[0-9]*" --checkpoint-dir $d/checkpoint --data-dir $d/data1,$d/data2 --backup-dir $d/backup" ]] ||
    fail "unexpected hint: $hint"
  run "$hint --backup-to backups" 1  # the log is mended; the checkpoint is still refused: exit 1
  gone crc_mismatch "${channel[@]}"
  hint=$(hint_of checkpoint_unusable "${channel[@]}")
  [[ $hint == "qjt repair --apply --restore-backup "* ]] || fail "unexpected hint: $hint"
  run "$hint --backup-to backups"
  qjt verify "${channel[@]}" >/dev/null || fail "verify of the channel after both hints"
  ;;
flume-rebuild)  # no backup named: the refused checkpoint is rebuilt from the logs
  d=testdata/flume/damaged
  channel=(--checkpoint-dir $d/checkpoint --data-dir $d/data1,$d/data2)
  hint=$(hint_of checkpoint_unusable "${channel[@]}")
  [ "$hint" = "qjt repair --apply --rebuild-checkpoint --checkpoint-dir $d/checkpoint --data-dir $d/data1,$d/data2" ] ||
    fail "unexpected hint: $hint"
  run "$hint --backup-to backups"
  qjt verify "${channel[@]}" >/dev/null || fail "verify of the channel after the rebuild"
  ;;
canal)
  file=testdata/canal/conf/example/meta.dat
  hint=$(hint_of canal_journal_purged --binlogs testdata/canal/binlogs.txt "$file")
  [[ $hint == "qjt repair --apply --set-position "[0-9]*"=JOURNAL:POS $file  # JOURNAL:POS: a binlog the MySQL server still has (SHOW BINARY LOGS)"* ]] ||
    fail "unexpected hint: $hint"
  run "${hint/JOURNAL:POS/mysql-bin.000266:4}"
  gone canal_journal_purged --binlogs testdata/canal/binlogs.txt "$file"
  # an empty meta.dat beside its destination's meta.log
  mkdir -p testdata/canal/conf/example2 testdata/canal/logs/example2
  : >testdata/canal/conf/example2/meta.dat
  cp testdata/canal/logs/example/meta.log testdata/canal/logs/example2/meta.log
  hint=$(hint_of canal_empty_file testdata/canal/conf/example2/meta.dat)
  [ "$hint" = "qjt repair --apply --from-log testdata/canal/logs/example2/meta.log testdata/canal/conf/example2/meta.dat" ] ||
    fail "unexpected hint: $hint"
  run "$hint"
  gone canal_empty_file testdata/canal/conf/example2/meta.dat
  ;;
every)  # every hint template of formats/*/cli/*_hints.cc, produced and run as printed
  # fresh SETUP VERIFY_ARGS...: a new scratch copy of testdata/ as the
  # working directory, SETUP run in it (a shell command), then the hint of
  # every finding verify gives, one a line.
  fresh() {
    local setup=$1
    shift
    rm -rf "$tmp/case" && mkdir "$tmp/case" && cp -r "$src/testdata" "$tmp/case/testdata" && cd "$tmp/case" || exit 1
    bash -c "$setup"
    qjt verify --json "$@" | jq -r '.findings[].hint // empty'
  }
  # The templates, as written in the tables: "qjt ..." string literals.
  mapfile -t templates < <(grep -ho '"qjt [^"]*"' "$src"/formats/*/cli/*_hints.cc | tr -d '"' | sed 's/{}/{file}/g' | sort -u)
  [ "${#templates[@]}" -gt 0 ] || fail "no hint template found in $src/formats/*/cli/*_hints.cc"
  # The findings that give hints: a setup and verify's arguments each.
  flume_d=testdata/flume/damaged
  cases=(
    ":|testdata/kestrel/files/broken-truncated-data"
    "printf '\\002' >events|events"
    "qjt gen kestrel --records 2000 --corrupt flip --seed 3 -o j >/dev/null|j"
    ":|--checkpoint-dir $flume_d/checkpoint --data-dir $flume_d/data1,$flume_d/data2 --backup-dir $flume_d/backup"
    ":|--checkpoint-dir $flume_d/checkpoint --data-dir $flume_d/data1,$flume_d/data2"
    "qjt gen flume --records 50 --corrupt flip -o ch >/dev/null|--checkpoint-dir ch/checkpoint --data-dir ch/data1"
    ":|--binlogs testdata/canal/binlogs.txt testdata/canal/conf/example/meta.dat"
    "mkdir -p testdata/canal/conf/e2 testdata/canal/logs/e2 && : >testdata/canal/conf/e2/meta.dat && cp testdata/canal/logs/example/meta.log testdata/canal/logs/e2/|testdata/canal/conf/e2/meta.dat"
  )
  for v in testdata/canal/variants/*.dat; do cases+=(":|$v"); done
  # A cursor's timestamp in seconds, not milliseconds.
  cases+=("mkdir -p s && sed 's/1610750948000/1610750948/' testdata/canal/variants/timestamp-cursor.dat >s/meta.dat|s/meta.dat")
  declare -A produced=()
  for c in "${cases[@]}"; do
    setup=${c%%|*}
    read -r -a args <<<"${c#*|}"
    while IFS= read -r hint; do
      [ -n "$hint" ] || continue
      # Which template printed it: its {names} match any words.
      for t in "${templates[@]}"; do
        pattern=${t//\{[a-z]*\}/*}
        # shellcheck disable=SC2053  # a pattern: the template's {names} are *
        [[ $hint == $pattern ]] && produced[$t]=1
      done
      # Placeholders in capitals are the operator's to fill in: run with
      # the values an operator would choose.
      runnable=${hint//JOURNAL:POS/mysql-bin.000266:4}
      runnable=${runnable//=TIME /=1700000000000 }
      runnable=${runnable//--from-log META_LOG /--from-log testdata/canal/logs/example/meta.log }
      cd "$tmp/case" || exit 1
      bash -c "$runnable" >/dev/null 2>"$tmp/hint.err"
      got=$?
      echo "+ $runnable: exit $got"
      case $got in
      0 | 1) ;;
      *) fail "the hint exited $got (not 0 or 1): $hint ($(head -n 1 "$tmp/hint.err"))" ;;
      esac
    done < <(fresh "$setup" "${args[@]}")
  done
  # Canal names a client by its index (clientDatas[N]) in the findings on
  # a cursor's values, not by its id, so those give no hint (a hint runs as
  # printed); no finding gives --to-timestamp's.
  unreachable="qjt repair --apply --to-timestamp {client}=TIME {file}{time}"
  for t in "${templates[@]}"; do
    [ -n "${produced[$t]:-}" ] || [ "$t" = "$unreachable" ] || fail "no case produces the hint template: $t"
  done
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
exit $status
