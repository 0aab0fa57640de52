#!/usr/bin/env bash
# Runs every command line of the README's Examples blocks, in a scratch
# directory holding a copy of testdata/ (so examples that write cannot touch
# the repository), with the built qjt first on the PATH. Each must print
# something and exit 0, or the status its "# exit N" comment names.
set -uo pipefail
qjt_dir=$(cd "$1" && pwd)
root=$2
export PATH="$qjt_dir:$PATH"
# Every ```sh block of the "## Examples" section, its subsections included
# (console transcripts are not run).
examples=$(awk '/^## /{s=/^## Examples/} s&&/^```sh/{f=1;next} f&&/^```/{f=0;next} s&&f{print}' "$root/README.md")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$root/testdata" "$scratch/" && cd "$scratch" || exit 1
[ -n "$examples" ] || { echo "no examples found in README.md"; exit 1; }
failed=0 count=0
while IFS= read -r line; do
  [ -z "$line" ] && continue
  count=$((count + 1))
  expected=0
  [[ "$line" =~ \#\ exit\ ([0-9]+)$ ]] && expected=${BASH_REMATCH[1]}
  out=$(bash -o pipefail -c "$line" 2>&1)
  rc=$?
  if [ $rc -ne "$expected" ] || [ -z "$out" ]; then
    echo "FAILED (exit $rc): $line"
    echo "$out" | head -20
    failed=$((failed + 1))
  fi
done <<< "$examples"
echo "$count README example(s), $failed failed"
[ $failed -eq 0 ]
