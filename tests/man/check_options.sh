#!/bin/sh
# check_options.sh QJT MANDIR [COMMAND...]: every long option that
# `qjt COMMAND --help` prints appears in man/qjt-COMMAND.1 (and those of
# `qjt --help` in man/qjt.1), so the pages cannot fall behind the CLI.
# With no COMMAND, checks qjt itself and every subcommand `qjt --help`
# lists, which must each have a page and be listed in qjt.1.
set -u
qjt=$1
mandir=$2
shift 2
command -v groff >/dev/null 2>&1 || { echo "groff not installed: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

subcommands() {
  "$qjt" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { split($1, names, ","); print names[1] }'
}

# The page as plain text on very long lines, so no option is split.
render() {
  groff -man -Tascii -rLL=400n -P-c -P-b -P-o -P-u "$1" 2>/dev/null
}

check() {  # check COMMAND|"" PAGE
  cmd=$1
  page=$2
  if [ ! -f "$page" ]; then
    echo "qjt $cmd: no manual page $page"
    status=1
    return
  fi
  # shellcheck disable=SC2086
  if ! "$qjt" $cmd --help >"$tmp/help" 2>&1; then
    echo "qjt $cmd --help failed:"
    cat "$tmp/help"
    status=1
    return
  fi
  render "$page" >"$tmp/page"
  options=$(grep -oE -- '--[a-z][a-z0-9-]*' "$tmp/help" | sort -u)
  [ -n "$options" ] || { echo "qjt $cmd --help printed no long option"; status=1; }
  for option in $options; do
    if ! grep -qE -- "${option}([^a-z0-9-]|\$)" "$tmp/page"; then
      echo "$(basename "$page"): does not document $option (printed by qjt${cmd:+ $cmd} --help)"
      status=1
    fi
  done
}

if [ $# -eq 0 ]; then
  check "" "$mandir/qjt.1"
  render "$mandir/qjt.1" >"$tmp/overview"
  for cmd in $(subcommands); do
    check "$cmd" "$mandir/qjt-$cmd.1"
    grep -q "qjt-$cmd(1)" "$tmp/overview" || { echo "qjt.1: does not refer to qjt-$cmd(1)"; status=1; }
  done
  [ -n "$(subcommands)" ] || { echo "qjt --help lists no subcommand"; status=1; }
else
  for cmd in "$@"; do
    if [ "$cmd" = qjt ]; then check "" "$mandir/qjt.1"; else check "$cmd" "$mandir/qjt-$cmd.1"; fi
  done
fi
exit $status
