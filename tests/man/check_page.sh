#!/bin/sh
# check_page.sh PAGE: a manual page (section 1 or 5) renders without a single warning, both
# through groff directly and through man(1) as `man -l` shows it, and has
# the sections every qjt page must have. An alias's page (qjt-roll.1) is a
# symbolic link to its command's page beside it, and must render that page
# wherever man -l is run from (a .so request resolves only once installed).
# Exit 77 (skipped) when groff or man is not installed (.ci/lib.sh installs
# groff-base and man-db).
set -u
name=$(basename "$1")
page=$(cd "$(dirname "$1")" && pwd)/$name  # absolute: man -l runs elsewhere
command -v groff >/dev/null 2>&1 || { echo "groff not installed: skipped"; exit 77; }
command -v man >/dev/null 2>&1 || { echo "man not installed: skipped"; exit 77; }
[ -f "$page" ] || { echo "$page: no such page"; exit 1; }
if [ -L "$page" ]; then
  target=$(readlink "$page")
  case $target in
    */*) echo "$name: links to $target, not to a page beside it"; exit 1 ;;
  esac
  name=$target
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

# 1. groff with every warning enabled.
if ! groff -man -Tutf8 -ww -z "$page" 2>"$tmp/groff.err" || [ -s "$tmp/groff.err" ]; then
  echo "$name: groff -man -ww reports:"
  cat "$tmp/groff.err"
  status=1
fi

# 2. man -l, the way a reader sees the page, with warnings on, run from a
# directory where nothing the page names could be found.
if ! (cd "$tmp" && LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 MANPAGER=cat PAGER=cat \
    man -l --warnings=w "$page" >"$tmp/page.txt" 2>"$tmp/man.err") || [ -s "$tmp/man.err" ]; then
  echo "$name: man -l --warnings=w reports:"
  cat "$tmp/man.err"
  status=1
fi

# 3. The sections every page has: a command's (section 1) all of them, a file
# format's (section 5) has no synopsis, options or exit status.
sections='NAME SYNOPSIS DESCRIPTION OPTIONS EXIT_STATUS SEE_ALSO'
[ "${name##*.}" = 5 ] && sections='NAME DESCRIPTION SEE_ALSO'
for section in $sections; do
  section=$(echo "$section" | tr _ ' ')
  grep -q "^$section\$" "$tmp/page.txt" || { echo "$name: no $section section"; status=1; }
done

# 4. .TH names the page as its file (or the one it links to) does:
# qjt-dump.1 -> .TH QJT\-DUMP 1.
expected=$(echo "${name%.*}" | tr 'a-z' 'A-Z' | sed 's/-/\\\\-/g')
grep -q "^\.TH $expected ${name##*.} " "$page" || {
  echo "$name: expected '.TH $expected ${name##*.} ...'"
  status=1
}
exit $status
