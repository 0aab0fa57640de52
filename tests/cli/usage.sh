#!/usr/bin/env bash
# Usage errors name the word qjt did not understand and suggest the
# closest command or option (from the CLI definition itself), every line
# starts with "qjt", a negative count is refused, and `help` takes aliases.
# Of the options, only those every command takes may precede the command.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
every=$DATA/kestrel/files/every-opcode

# run ARGS...: sets $out, $err and $rc.
run() {
  "$QJT" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  out=$(cat "$WORK/out") err=$(cat "$WORK/err")
}

run bogus
check "qjt bogus: exit 2" 2 "$rc"
check "qjt bogus: names the word" "qjt: unknown command 'bogus' (see qjt --help)" "$err"
run dmp x
check "qjt dmp x: exit 2" 2 "$rc"
check "qjt dmp x: suggests dump" "qjt: unknown command 'dmp'; did you mean 'dump'?" "$err"
run rol x
check "qjt rol: suggests the alias roll" "qjt: unknown command 'rol'; did you mean 'roll'?" "$err"
run --bogus
check "qjt --bogus: exit 2" 2 "$rc"
check "qjt --bogus: names the option" \
  "qjt: unknown option '--bogus' (see qjt --help; a command's options follow the command)" "$err"
run --verion
check "qjt --verion: suggests --version" "qjt: unknown option '--verion'; did you mean '--version'?" "$err"
# Before the command: the options every command takes (-q, --no-progress,
# --color; see quiet.sh, colour.sh), --help and --version; any other
# option there is refused, with the closest one qjt has.
run --json dump "$every"
check "qjt --json dump: exit 2" 2 "$rc"
check "qjt --json dump: options of a command follow it" \
  "qjt: unknown option '--json' (see qjt --help; a command's options follow the command)" "$err"
check "qjt --json dump: nothing but the error object on stdout" \
  '{"type":"error","command":"","exit_status":2,"message":"unknown option '"'"'--json'"'"' (see qjt --help; a command'"'"'s options follow the command)"}' \
  "$out"
run --qiet verify "$every"
check "qjt --qiet verify: suggests --quiet" "qjt: unknown option '--qiet'; did you mean '--quiet'?" "$err"
run -q --no-progress --color never verify "$every"
check "qjt -q --no-progress --color never verify: exit 0" 0 "$rc"
check "qjt -q --no-progress --color never verify: verify's quiet answer" "" "$out$err"
run --color=never bogus
check "qjt --color=never bogus: names the command" "qjt: unknown command 'bogus' (see qjt --help)" "$err"
run --color sometimes verify "$every"
check "qjt --color sometimes verify: exit 2" 2 "$rc"
run -q
check "qjt -q alone: exit 2" 2 "$rc"
check "qjt -q alone: says a command is expected" "qjt: expected a command (see qjt --help)" "$err"
run --quiet --help
check "qjt --quiet --help: exit 0" 0 "$rc"
check "qjt --quiet --help: the help" yes "$(grep -q '^Usage: qjt' "$WORK/out" && echo yes)"
run -q --version
check "qjt -q --version: the version" yes "$([[ $out == "qjt "* ]] && echo yes)"

run dump --jsn "$every"
check "dump --jsn: exit 2" 2 "$rc"
check "dump --jsn: suggests --json" "qjt dump: unknown option '--jsn'; did you mean '--json'?" "$err"
check "dump --jsn: nothing on stdout" "" "$out"
run verify --strikt "$every"
check "verify --strikt: suggests --strict" "qjt verify: unknown option '--strikt'; did you mean '--strict'?" "$err"
run compact --dry-rn "$every"
check "compact --dry-rn: suggests --dry-run" "qjt compact: unknown option '--dry-rn'; did you mean '--dry-run'?" "$err"
run gen kestrel -o "$WORK/g" extra
check "gen: an extra argument is named" "qjt gen: unexpected argument 'extra' (see qjt gen --help)" "$err"
run dump --json --jsn "$every"
check "dump --json --jsn: a JSON error object on stdout" \
  '{"type":"error","command":"dump","exit_status":2,"message":"unknown option '"'"'--jsn'"'"'; did you mean '"'"'--json'"'"'?"}' \
  "$out"
run
check "qjt alone: exit 2" 2 "$rc"
check "qjt alone: says a command is expected" "qjt: expected a command (see qjt --help)" "$err"

# help: commands by name or alias, and a suggestion for a typo.
run help roll
check "help roll: exit 0" 0 "$rc"
check "help roll: compact's help" "Rewrite a queue's journal into its minimal equivalent (alias: roll)" \
  "$(head -n 1 "$WORK/out")"
run help dmp
check "help dmp: exit 2" 2 "$rc"
check "help dmp: suggests dump" "qjt help: unknown command 'dmp'; did you mean 'dump'?" "$err"

# Negative counts are usage errors, whatever the option.
run dump --limit -1 "$every"
check "dump --limit -1: exit 2" 2 "$rc"
check "dump --limit -1: nothing on stdout" "" "$out"
check "dump --limit -1: the error" "qjt dump: --limit: expected 0 or more, found -1" "$err"
run gen kestrel --records -5 -o "$WORK/neg"
check "gen --records -5: exit 2" 2 "$rc"
check "gen --records -5: no file" "no" "$([ -e "$WORK/neg" ] && echo yes || echo no)"
run dump --limit 0 "$every"
check "dump --limit 0: still fine" 0 "$rc"

# Every line of every usage error above starts with "qjt".
for args in "bogus" "dmp x" "--bogus" "--json dump $every" "-q bogus" "dump --jsn $every" "dump --limit -1 $every" "help dmp" \
  "dump --data=utf16 $every" "convert" "dump --op NOT_AN_OP $every"; do
  # shellcheck disable=SC2086
  "$QJT" $args >/dev/null 2>"$WORK/err"
  check "qjt $args: every line starts with qjt" "" "$(grep -v '^qjt' "$WORK/err")"
done
[ $failures -eq 0 ]
