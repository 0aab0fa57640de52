#!/usr/bin/env bash
# A repair sees what verify sees (issue 40): every `qjt gen --corrupt` mode
# of every family, taken as a "plan, apply, done" script would take it.
#  1. verify finds errors (exit 1);
#  2. repair without a mode never says "nothing to change" and never exits
#     0: its plan changes something, or its report names in "needs" the
#     command that fixes each error (or, for a family without a repair, the
#     refusal says why: libkestrel cuts a damaged segment at its own
#     startup);
#  3. that command (the plan's repair with --apply, or the command named)
#     runs;
#  4. verify then finds no error, and every warning left is one the plan
#     named beforehand (a Flume queue element pointing at the NOOP'd record).
# Every Flume plan's figures add up: now - lost - dropped - consumed +
# revived + reached = after; every Kestrel queue's: now - lost - taken +
# revived = after; every Canal meta.dat's cursors: now - lost + new =
# after.
#
#   corrupt_modes.sh QJT TESTDATA_DIR WORK
set -uo pipefail
QJT=$1 DATA=$2 WORK=$3
source "$(dirname "$0")/../check.sh"
rm -rf "$WORK"; mkdir -p "$WORK"

flume_figures='.recovery | select(. != null)
  | .events_now - (.lost | length) - (.dropped | length) - (.consumed | length) + (.revived | length)
    + (.reached | length) == .events_after'
kestrel_figures='all(.queues[]; .items_now - .items_lost - .items_taken + .items_revived == .items_after)'
canal_figures='.items_now - .items_lost + .items_new == .items_after'

# inputs FAMILY DIR: the PATHs or options that name what gen wrote.
inputs() {
  case $1 in
    kestrel) echo "$2" ;;
    libkestrel) echo "$2" ;;
    flume) echo --checkpoint-dir "$2/checkpoint" --data-dir "$(ls -d "$2"/data* | paste -sd,)" ;;
    canal) echo "$2/conf/example/meta.dat" ;;
  esac
}

# run_words COMMAND: COMMAND (a hint, qjt first) run with $QJT.
run_words() {
  local words line=${1%%  # *}  # the comment after a hint says what to fill in
  line=${line//CAPACITY/1000}   # gen's channels hold 1000 events
  read -ra words <<<"$line"
  words[0]=$QJT
  "${words[@]}"
}

# check_verified NAME ARGS...: verify of ARGS finds no error, and no warning
# but those of $expected_warnings ("CODE FILE_NAME OFFSET").
check_verified() {
  local name=$1
  shift
  local out
  # shellcheck disable=SC2068
  out=$("$QJT" verify --json $@ 2>/dev/null)
  check "$name: verify after the repair finds no error" 0 "$(jq '.errors' <<<"$out")"
  check "$name: each warning left was named by the plan" "" \
    "$(jq -r --argjson named "$expected_warnings" \
      '.findings[] | select(.severity == "warning") | "\(.code) \(.file | split("/") | last) \(.offset)"
       | select(. as $w | $named | index($w) | not)' <<<"$out")"
}

for family in kestrel libkestrel flume canal; do
  # Every mode gen knows, as its refusal of an unknown one lists them; those
  # of another family are refused below (exit 2).
  modes=$("$QJT" gen "$family" -o "$WORK/none" --corrupt melt 2>&1 | sed -n 's/.*(expected none, //p' |
    tr -d ',)' | sed 's/ or / /')
  check "$family: some --corrupt modes" yes "$([ -n "$modes" ] && echo yes)"
  for mode in $modes; do
    name="$family --corrupt $mode"
    dir=$WORK/$family-$mode
    "$QJT" gen "$family" -o "$dir" --corrupt "$mode" --records 300 >/dev/null 2>&1
    gen_status=$?
    [ "$gen_status" = 2 ] && continue  # another family's mode
    check "$name: gen" 0 "$gen_status"
    # shellcheck disable=SC2046
    "$QJT" verify $(inputs $family "$dir") >/dev/null 2>&1
    check "$name: verify finds errors" 1 $?
    # shellcheck disable=SC2046
    text=$("$QJT" repair $(inputs $family "$dir") 2>&1)
    text_status=$?
    # shellcheck disable=SC2046
    plan=$("$QJT" repair --json $(inputs $family "$dir") 2>/dev/null)
    status=$?
    check "$name: the plan does not exit 0" yes "$([ "$status" != 0 ] && [ "$text_status" = "$status" ] && echo yes)"
    check "$name: the plan never says nothing to change" "" "$(grep -i 'nothing to change\|nothing to do' <<<"$text")"
    expected_warnings='[]'
    case $family in
      libkestrel)
        check "$name: refused, saying why" "2 yes" \
          "$status $(grep -q 'truncates a damaged segment at its own startup' <<<"$text" && echo yes)"
        continue
        ;;
      canal)
        # A meta.dat Canal cannot read: rebuilt from its meta.log.
        check "$name: names --from-log" yes "$(jq -r '.needs[].command' <<<"$plan" | grep -q -- --from-log && echo yes)"
        from_log=$(run_words "$(jq -r '.needs[0].command | sub(" --apply "; " --json ")' <<<"$plan")" 2>/dev/null)
        check "$name: the rebuild's figures add up" true "$(jq "$canal_figures" <<<"$from_log")"
        ;;
      flume)
        check "$name: the figures add up" "" "$(jq -c "select(($flume_figures) | not) | .recovery" <<<"$plan")"
        expected_warnings=$(jq -c '[.recovery.dead_after[]?
          | select(.found == "noop") | "pointer_to_noop log-\(.file_id) \(.offset)"]' <<<"$plan")
        ;;
      kestrel)
        check "$name: the figures add up" true "$(jq "$kestrel_figures" <<<"$plan")"
        ;;
    esac
    needs=$(jq -r '[.needs[].command] | unique | .[]' <<<"$plan")
    changes=$(jq -r 'if .changed == true or ((.files // []) | length) > 0 and any(.files[]; .action != "keep")
      then "yes" else "no" end' <<<"$plan")
    check "$name: the plan changes something or names the repair" yes \
      "$([ "$changes" = yes ] || [ -n "$needs" ] && echo yes)"
    check "$name: a repair that changes nothing names one command per error" "" \
      "$(jq -c '.needs[] | select(.command == null)' <<<"$plan")"
    # shellcheck disable=SC2046
    fix=${needs:-qjt repair --apply $(inputs $family "$dir")}
    run_words "$fix" >"$WORK/fix.out" 2>&1
    check "$name: $fix" 0 $?
    # shellcheck disable=SC2046
    check_verified "$name" $(inputs $family "$dir")
  done
done

# ---- the Flume plan's accounting on named damage --------------------------------
# testdata/flume/v2 (tests/support/make_flume_testdata.cc): a V2 channel of
# 4 events, the fourth taken by a transaction committed after the
# checkpoint. Byte 14 of log-1 (its header's checkpoint position) flipped:
# verify refuses the mark, the rebuild recovers 3 events, and the plan says
# where the fourth went.
cp -r "$DATA/flume/v2" "$WORK/v2"
printf '\377' | dd of="$WORK/v2/data1/log-1" bs=1 seek=14 conv=notrunc 2>/dev/null
v2=(--checkpoint-dir "$WORK/v2/checkpoint" --data-dir "$WORK/v2/data1,$WORK/v2/data2")
plan=$("$QJT" repair --json --rebuild-checkpoint "${v2[@]}")
check "v2: the figures add up" true "$(jq "$flume_figures" <<<"$plan")"
check "v2: 4 now, 3 after, 1 consumed by its take" '[4,3,0,1]' \
  "$(jq -c '.recovery | [.events_now, .events_after, (.lost | length), (.consumed | length)]' <<<"$plan")"
text=$("$QJT" repair --rebuild-checkpoint "${v2[@]}" 2>/dev/null)
check "v2: the text says where the fourth went" 1 "$(grep -c '^  consumed: log-.* (taken by transaction ' <<<"$text")"
check "v2: keeps 3 of the 4" 1 "$(grep -c '^keeps: 3 of the 4 queued event(s) Flume recovers now; 1 consumed' <<<"$text")"

# ---- flip: the event already lost to the damage, and the warning after ------------
"$QJT" gen flume -o "$WORK/flip" --corrupt flip >/dev/null
plan=$("$QJT" repair --json --checkpoint-dir "$WORK/flip/checkpoint" --data-dir "$WORK/flip/data1")
check "flip: one queue element lost to the damage, a NOOP after" '[1,["noop"]]' \
  "$(jq -c '.recovery | [(.lost_to_damage | length), [.dead_after[].found]]' <<<"$plan")"
text=$("$QJT" repair --checkpoint-dir "$WORK/flip/checkpoint" --data-dir "$WORK/flip/data1" 2>/dev/null)
check "flip: the text names it, and the warning verify will give" "1 1" \
  "$(grep -c '^  lost to the damage already: log-' <<<"$text") $(grep -c 'verify still warns pointer_to_noop' <<<"$text")"

exit $((failures > 0))
