#!/usr/bin/env bash
# Runs every command line of the README's Examples block, from the
# repository root, with the built qjt first on the PATH. Each must exit 0
# and print something.
set -uo pipefail
qjt_dir=$1
root=$2
export PATH="$qjt_dir:$PATH"
cd "$root" || exit 1
examples=$(awk '/^## Examples/{s=1} s&&/^```sh/{f=1;next} f&&/^```/{exit} f{print}' README.md)
[ -n "$examples" ] || { echo "no examples found in README.md"; exit 1; }
failed=0 count=0
while IFS= read -r line; do
  [ -z "$line" ] && continue
  count=$((count + 1))
  out=$(bash -o pipefail -c "$line" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] || [ -z "$out" ]; then
    echo "FAILED (exit $rc): $line"
    echo "$out" | head -20
    failed=$((failed + 1))
  fi
done <<< "$examples"
echo "$count README example(s), $failed failed"
[ $failed -eq 0 ]
