#!/usr/bin/env bash
# The writers (compact, repair) take what the readers take, and follow one
# convention (issue 40): a Flume channel root and a Canal deployer root as
# PATH, what was found said once on standard error; a root whose layout
# names no single channel refused with exit 2 and the options of each;
# replay of a Canal deployer root exits by what it read and says what it
# skipped; in place only with --apply (classic Kestrel, libkestrel, Flume),
# -o without it; --if-reclaimable for every family whose reclaimable bytes
# stats reports; -q prints nothing on success for every writer, and stats
# of a root nothing on standard error.
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
enter_workdir "$WORK"
export TZ=UTC

# state DIR: every file under DIR and its checksum, to tell whether a run changed it.
state() { (cd "$1" && find . -type f -exec md5sum {} + | sort -k2); }
has() { grep -qF -- "$1" <<<"$2" && echo yes || echo no; }

"$QJT" gen flume --records 300 --open 2 --seed 3 --data-dirs 2 -o fl >/dev/null
"$QJT" gen canal --records 50 --clients 2 -o cn >/dev/null
fl_options="--checkpoint-dir fl/checkpoint --data-dir fl/data1,fl/data2"
meta_dat=$(find cn -name meta.dat | sort | head -1)

# ---- a Flume channel root ----
for command in compact repair; do
  run $command fl
  check "$command of a Flume channel root: exit 0" 0 "$rc"
  check "$command of a Flume channel root: says once what it found" \
    "qjt $command: found fl: Flume channel ($fl_options)" "$err"
  # shellcheck disable=SC2086
  check "$command of a Flume channel root: the channel's own plan" "$("$QJT" $command $fl_options 2>/dev/null)" "$out"
done
cp -a fl fl-apply
before=$(state fl-apply)
run repair --apply fl-apply
check "repair --apply of a Flume channel root: exit 0" 0 "$rc"
run compact --apply --backup-to fl-bak fl-apply
check "compact --apply of a Flume channel root: exit 0" 0 "$rc"
check "compact --apply of a Flume channel root: compacted in place" yes \
  "$(has "compacted the channel in place" "$out")"
check "compact --apply of a Flume channel root: changed the files" yes \
  "$([ "$before" != "$(state fl-apply)" ] && echo yes || echo no)"

# ---- a root of two channels' checkpoints: refused, with the options of each ----
cp -a fl amb
cp -a amb/checkpoint amb/checkpoint2
before=$(state amb)
for command in "compact --apply" "repair --apply"; do
  # shellcheck disable=SC2086
  run $command amb
  check "$command of an ambiguous root: exit 2" 2 "$rc"
  check "$command of an ambiguous root: names the first channel" yes \
    "$(has "--checkpoint-dir amb/checkpoint --data-dir amb/data1,amb/data2 |" "$err")"
  check "$command of an ambiguous root: names the second channel" yes \
    "$(has "--checkpoint-dir amb/checkpoint2 --data-dir amb/data1,amb/data2;" "$err")"
done
check "an ambiguous root is left as it was" "$before" "$(state amb)"

# ---- a Canal deployer root ----
run repair cn
check "repair of a Canal deployer root: exit 0" 0 "$rc"
check "repair of a Canal deployer root: says what it found" yes "$(has "qjt repair: found cn/conf/" "$err")"
check "repair of a Canal deployer root: passes over the history, saying so" yes \
  "$(has "meta.log: repair rewrites a meta.dat" "$err")"
check "repair of a Canal deployer root: the meta.dat's own plan" "$("$QJT" repair "$meta_dat")" "$out"
check "repair of a Canal deployer root: no 'no journal' error" no "$(has "no journal" "$err")"
run compact cn
check "compact of a Canal deployer root: refused as Canal's (exit 2)" "2 yes" \
  "$rc $(has "does not take canal inputs" "$err")"
run replay cn
check "replay of a Canal deployer root: exit 0" 0 "$rc"
check "replay of a Canal deployer root: says what it skipped" yes \
  "$(has "qjt replay: skipped $meta_dat: replay reads meta.log files" "$err")"
check "replay of a Canal deployer root: the history" yes "$([ -n "$out" ] && echo yes || echo no)"

# ---- classic Kestrel: a plan unless --apply ----
cp -a "$DATA/kestrel/sample" ks
before=$(state ks)
run compact --queue orders ks
check "Kestrel compact without --apply: a plan, exit 0" "0 orders: would compact: 313 -> 188 bytes, 9 -> 4 records, overflow 1.66x" \
  "$rc $out"
check "Kestrel compact without --apply: nothing changed" "$before" "$(state ks)"
run compact --dry-run --queue orders ks
check "--dry-run: still the plan" "0 orders: would compact: 313 -> 188 bytes, 9 -> 4 records, overflow 1.66x" "$rc $out"
run compact --apply --dry-run ks
check "--apply with --dry-run: usage" 2 "$rc"
run compact --apply --queue orders -o orders.out ks
check "--apply with -o: usage" 2 "$rc"
run compact --queue orders -o orders.out ks
check "-o writes without --apply" "0 yes" "$rc $([ -s orders.out ] && echo yes)"
run compact --apply --queue orders ks
check "Kestrel compact --apply: compacted" "0 yes" "$rc $(has "orders: compacted" "$out")"

# ---- libkestrel: compact --apply works ----
cp -a "$DATA/libkestrel/queue" lk
before=$(state lk)
run compact lk
check "libkestrel compact without --apply: a plan" "0 yes" "$rc $(has "would delete" "$out")"
check "libkestrel compact without --apply: nothing changed" "$before" "$(state lk)"
run compact --apply --backup-to lk-bak lk
check "libkestrel compact --apply: compacted" "0 yes" "$rc $(has "compacted" "$out")"

# ---- --if-reclaimable: Kestrel, libkestrel, Flume ----
cp -a "$DATA/kestrel/sample" ks2
cp -a "$DATA/libkestrel/queue" lk2
cp -a fl fl2
for input in ks2 lk2 fl2; do
  before=$(state $input)
  run compact --apply --if-reclaimable 1G $input
  check "$input: --if-reclaimable 1G, a quiet no-op" "0  no" "$rc $out $([ "$before" != "$(state $input)" ] && echo yes || echo no)"
  run compact --json --if-reclaimable 1G $input
  check "$input: --if-reclaimable 1G --json says why" true \
    "$(jq -s 'map(.action == "skipped" and (.reason | contains("less than --if-reclaimable 1073741824"))) | all' out)"
  run compact --apply --if-reclaimable 1 --backup-to $input-bak $input
  check "$input: --if-reclaimable 1, compacted" "0 yes" "$rc $([ "$before" != "$(state $input)" ] && echo yes || echo no)"
done
run compact --if-reclaimable lots ks2
check "--if-reclaimable: a malformed size is usage" 2 "$rc"

# ---- -q: nothing on success, the report on failure ----
cp -a "$DATA/kestrel/sample" ks3
cp -a "$DATA/libkestrel/queue" lk3
cp -a fl fl3
run compact -q --apply --if-overflow 1.5 ks3
check "Kestrel compact -q --apply --if-overflow 1.5: silent" "0||" "$rc|$out|$err"
check "Kestrel compact -q: it did compact" yes "$(has "orders: nothing to do" "$("$QJT" compact --queue orders ks3)")"
run compact -q --apply --backup-to lk3-bak lk3
check "libkestrel compact -q --apply: silent" "0||" "$rc|$out|$err"
run compact -q --apply --backup-to fl3-bak fl3
check "Flume compact -q --apply of a root: silent" "0||" "$rc|$out|$err"
run compact -q fl
check "Flume compact -q (a plan): silent" "0||" "$rc|$out|$err"
run repair -q ks3
check "Kestrel repair -q: silent" "0||" "$rc|$out|$err"
cp "$DATA/kestrel/files/broken-truncated-data" broken
run repair -q --apply broken
check "Kestrel repair -q --apply: silent" "0||" "$rc|$out|$err"
run repair -q fl
check "Flume repair -q of a root: silent" "0||" "$rc|$out|$err"
run repair -q cn
check "Canal repair -q of a deployer root: silent" "0||" "$rc|$out|$err"
run repair -q "$meta_dat"
check "Canal repair -q of a meta.dat: silent" "0||" "$rc|$out|$err"
cp "$DATA/kestrel/files/broken-truncated-data" broken2
run compact -q --dry-run broken2
check "compact -q of a broken journal: exit 1, the report still printed" "1 yes" \
  "$rc $([ -n "$out" ] && echo yes || echo no)"
run repair -q "$DATA/kestrel/files/broken-truncated-data"
check "repair -q with something to repair: exit 1, the plan still printed" "1 yes" \
  "$rc $([ -n "$out" ] && echo yes || echo no)"
run compact -q --json --queue orders "$DATA/kestrel/sample"
check "compact -q --json: the JSON still printed" "0 dry_run" "$rc $(jq -r .action <<<"$out")"
"$QJT" compact -q --queue orders -o - "$DATA/kestrel/sample" >orders.dash 2>/dev/null
check "compact -q -o -: the journal is data, still written" 188 "$(stat -c %s orders.dash)"
for root in fl cn; do
  run stats -q $root
  check "stats -q of a root ($root): nothing on standard error" "" "$err"
done

exit $((failures > 0))
