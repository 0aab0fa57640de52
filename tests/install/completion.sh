#!/bin/bash
# completion.sh QJT: the completion scripts `qjt completion SHELL` prints.
# The bash one is loaded (`complete -p qjt` names its function) and asked,
# as bash asks it on TAB, what follows `qjt du`, `qjt dump --js`,
# `qjt ro`, `qjt dump --data=`, `qjt roll --ba`, `qjt gen `, `qjt help `,
# `qjt dump --format ke`, `qjt dump --op`, `qjt gen --corrupt` and more; the zsh and
# fish ones must parse (zsh -n, fish -n), each checked only when that shell
# is installed. The scripts the build wrote must be the same as those printed.
set -u
qjt=$1
build_dir=$(dirname "$qjt")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

"$qjt" completion bash >"$tmp/qjt.bash" || fail "qjt completion bash exited $?"
"$qjt" completion zsh >"$tmp/_qjt" || fail "qjt completion zsh exited $?"
"$qjt" completion fish >"$tmp/qjt.fish" || fail "qjt completion fish exited $?"
"$qjt" completion tcsh >/dev/null 2>&1
[ $? -eq 2 ] || fail "qjt completion tcsh: expected exit status 2"

# What the completion function offers for the words of a command line
# (the last word is the one being completed), one a line.
offers() {
  bash -c '
    source "$1" || exit 1
    shift
    spec=$(complete -p qjt) || exit 1
    fn=$(sed -E "s/.*-F ([^ ]+) .*/\1/" <<<"$spec")
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    "$fn" qjt "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}"
  ' offers "$tmp/qjt.bash" "$@"
}

expect() {  # expect WORD WORDS...: WORD is among what `offers WORDS...` prints
  want=$1
  shift
  got=$(offers "$@")
  grep -qxF -- "$want" <<<"$got" || fail "'$*<TAB>' does not offer $want; offers: $(echo $got)"
}

expect_not() {  # expect_not WORD WORDS...
  unwanted=$1
  shift
  ! offers "$@" | grep -qxF -- "$unwanted" || fail "'$*<TAB>' offers $unwanted"
}

expect dump qjt du
expect --json qjt dump --js
expect roll qjt ro
expect compact qjt comp
expect completion qjt compl
expect --version qjt --ver
# bash splits --data=h into --data, = and h (COMP_WORDBREAKS has =)
expect hex qjt dump --data =
expect hex qjt dump --data = h
expect hex qjt dump --data h
expect base64 qjt replay --json --data ""
expect --backup-to qjt roll --ba
expect --if-overflow qjt roll --if
expect --checkpoint-dir qjt verify --checkpoint
expect --set-position qjt repair --set
expect kestrel2 qjt convert --to ke
expect kestrel qjt gen ""
expect fish qjt completion ""
# The topics of help, and the fixed sets of --format, --op and --corrupt.
expect formats qjt help ""
expect dump qjt help d
expect roll qjt help r
expect_not --json qjt help ""
expect kestrel qjt dump --format ke
expect flume-checkpoint qjt verify --format flume-c
expect ADDX qjt dump --op ADD
expect REMOVE_TENTATIVE qjt dump --op = REMOVE_T
expect flip qjt gen kestrel --corrupt fl
expect none qjt gen flume --corrupt ""
expect jsonl qjt convert --to js
# Options before the command: theirs, their values, then the commands.
expect --quiet qjt --qu
expect never qjt --color ""
expect never qjt --color = n
expect_not dump qjt --color ""
expect dump qjt -q du
expect dump qjt --color never du
expect --json qjt --color = never dump --js
expect hex qjt --no-progress dump --data =
expect_not --json qjt gen --size --js  # a value that is not a fixed set: no option names
expect_not dump qjt verify du          # a command's operand is a file, not a command

if command -v zsh >/dev/null 2>&1; then
  zsh -n "$tmp/_qjt" || fail "zsh -n rejects the zsh script"
else
  echo "zsh not installed: the zsh script is not parsed"
fi
if command -v fish >/dev/null 2>&1; then
  fish -n "$tmp/qjt.fish" || fail "fish -n rejects the fish script"
else
  echo "fish not installed: the fish script is not parsed"
fi

# The build's copies (target qjt_completions) match what the binary prints.
for pair in qjt.bash:qjt _qjt:_qjt qjt.fish:qjt.fish; do
  built=$build_dir/completions/${pair#*:}
  if [ -f "$built" ]; then
    cmp -s "$tmp/${pair%%:*}" "$built" || fail "$built differs from qjt completion's output"
  else
    fail "$built not written by the build"
  fi
done
exit $status
