#!/usr/bin/env bash
# Usage errors name the word qjt did not understand and suggest the
# closest command, option or value (from the CLI definition itself; a swap
# of neighbours is one typo), every line starts with "qjt", a negative count
# is refused, and `help` takes aliases. Of the options, only those every
# command takes may precede the command. qjt help, --help and qjt alone
# give the overview of the commands; -V and --version the version and
# commit.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3 SOURCE=$(cd "$(dirname "$0")/../.." && pwd -P)
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"
every=$DATA/kestrel/files/every-opcode


run bogus
check "qjt bogus: exit 2" 2 "$rc"
check "qjt bogus: names the word" "qjt: unknown command 'bogus' (see qjt --help)" "$err"
run dmp x
check "qjt dmp x: exit 2" 2 "$rc"
check "qjt dmp x: suggests dump" "qjt: unknown command 'dmp'; did you mean 'dump'?" "$err"
run rol x
check "qjt rol: suggests the alias roll" "qjt: unknown command 'rol'; did you mean 'roll'?" "$err"
run repiar x
check "qjt repiar: a swap is one typo: repair, not replay" "qjt: unknown command 'repiar'; did you mean 'repair'?" "$err"
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
check "qjt -q alone: says a command is expected" "qjt: expected a command" "$(head -n 1 "$WORK/err")"
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
# The overview: qjt help as qjt --help, each command with its purpose,
# the exit statuses, the help topics; qjt alone, the same on stderr.
run --help
overview=$out
check "qjt --help: the usage line" "Usage: qjt [OPTIONS] COMMAND" "$(sed -n 2p "$WORK/out")"
run help
check "qjt help: exit 0" 0 "$rc"
check "qjt help: what qjt --help prints, not help's own help" "$overview" "$out"
for command in dump verify replay stats compact convert repair gen help completion; do
  purpose=$("$QJT" "$command" --help | head -n 1)
  check "qjt help: lists $command with its purpose" yes \
    "$(grep -F -- "$purpose" "$WORK/out" | grep -qE "^  $command[ ,]" && echo yes)"
done
check "qjt help: the exit statuses" "  4  refused: the files are in use by another process" \
  "$(grep '^  4 ' "$WORK/out")"
check "qjt help: the formats topic" yes "$(grep -q '^qjt help formats ' "$WORK/out" && echo yes)"
check "qjt help: -V and --version" yes "$(grep -qE '^ +-V,--version ' "$WORK/out" && echo yes)"
run
check "qjt alone: exit 2" 2 "$rc"
check "qjt alone: nothing on stdout" "" "$out"
check "qjt alone: says a command is expected, then the overview" "qjt: expected a command

$overview" "$err"

# The version: the release on the first line, the commit on the second.
run --version
check "qjt --version: exit 0" 0 "$rc"
check "qjt --version: the release" "qjt $(sed -n 's/^project(qjt VERSION \([0-9.]*\).*/\1/p' "$SOURCE/CMakeLists.txt")" \
  "$(head -n 1 "$WORK/out")"
# (A commit of this checkout: HEAD may have moved on since the build.)
line=$(sed -n 2p "$WORK/out")
commit=${line#commit } commit=${commit%% *}
if [ "$(git -C "$SOURCE" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$SOURCE" && pwd -P)" ]; then
  check "qjt --version: the commit built" yes \
    "$([[ $line =~ ^commit\ [0-9a-f]{12,}(\ with\ changes\ not\ committed)?$ ]] &&
      git -C "$SOURCE" cat-file -e "$commit^{commit}" 2>/dev/null && echo yes)"
else
  check "qjt --version: no git checkout" "commit unknown (not built from a git checkout)" "$(sed -n 2p "$WORK/out")"
fi
version=$out
run -V
check "qjt -V: as --version" "$version" "$out"
# From a tree that is no git checkout of its own (a tarball), the build says so.
mkdir -p "$WORK/tarball"
"${CMAKE:-cmake}" -DSOURCE_DIR="$WORK/tarball" -DOUT="$WORK/tarball/build_commit.cc" -P "$SOURCE/cmake/write_build_commit.cmake"
check "a build outside a git checkout: unknown commit" 'const char* qjt::build_commit() { return "unknown"; }' \
  "$(grep return "$WORK/tarball/build_commit.cc")"

# Values of a fixed set: the closest, or the set.
run gen kestral -o "$WORK/g"
check "gen kestral: exit 2" 2 "$rc"
check "gen kestral: suggests kestrel" "qjt gen: format: unknown value 'kestral'; did you mean 'kestrel'?" "$err"
run dump --format kestral "$every"
check "dump --format kestral: suggests kestrel" \
  "qjt dump: --format: unknown value 'kestral'; did you mean 'kestrel'?" "$err"
run convert --to json "$every"
check "convert --to json: suggests jsonl" "qjt convert: --to: unknown value 'json'; did you mean 'jsonl'?" "$err"
run verify --color yes "$every"
check "verify --color yes: exit 2" 2 "$rc"
check "verify --color yes: the values" "qjt verify: --color: unknown value 'yes' (expected auto, always or never)" "$err"
run --color yes verify "$every"
check "qjt --color yes verify: the values" "qjt: --color: unknown value 'yes' (expected auto, always or never)" "$err"
run dump --op addxx "$every"
check "dump --op addxx: suggests ADDX, in any case" "qjt dump: --op: unknown value 'addxx'; did you mean 'ADDX'?" "$err"
run gen kestrel --corrupt flpi -o "$WORK/g"
check "gen --corrupt flpi: suggests flip" "qjt gen: --corrupt: unknown value 'flpi'; did you mean 'flip'?" "$err"
run completion tcsh
check "completion tcsh: the shells" "qjt completion: shell: unknown value 'tcsh' (expected bash, zsh or fish)" "$err"

# gen --help: the --corrupt modes of each format.
"$QJT" gen --help >"$WORK/out"
check "gen --help: the modes of kestrel" yes \
  "$(grep -A3 -- '--corrupt' "$WORK/out" | tr -s ' \n' ' ' | grep -q 'kestrel: truncate, flip, garbage' && echo yes)"

# help: commands by name or alias, and a suggestion for a typo.
run help roll
check "help roll: exit 0" 0 "$rc"
check "help roll: compact's help" \
  "Rewrite a queue's journal into its minimal equivalent, or a Flume channel's queue into fresh logs (alias: roll)" \
  "$(head -n 1 "$WORK/out")"
run help dmp
check "help dmp: exit 2" 2 "$rc"
check "help dmp: suggests dump" "qjt help: command: unknown value 'dmp'; did you mean 'dump'?" "$err"
run help fromats
check "help fromats: suggests formats" "qjt help: command: unknown value 'fromats'; did you mean 'formats'?" "$err"

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
  "dump --data=utf16 $every" "convert" "dump --op NOT_AN_OP $every" "gen kestral -o $WORK/g" "dump --format x $every"; do
  # shellcheck disable=SC2086
  "$QJT" $args >/dev/null 2>"$WORK/err"
  check "qjt $args: every line starts with qjt" "" "$(grep -v '^qjt' "$WORK/err")"
done
[ $failures -eq 0 ]
