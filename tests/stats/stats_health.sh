#!/usr/bin/env bash
# Metrics that say when a read failed: every unit has qjt_unit_up and its
# findings by severity, a unit that could not be read has no other figure
# (zeros would show an empty, healthy queue), every report carries the
# run's time, and a run that read nothing leaves the last report alone.
source "$(dirname "$0")/common.sh"
sample=$testdata/kestrel/sample
prom=$tmp/q.prom

"$qjt" stats -q --prometheus -o "$prom" "$sample"
expect "a good run: exit" "$?" 0
expect "a good run: its unit up, its 4 warnings (leftovers of a compaction)" \
  "$(grep '^qjt_unit_' "$prom" | sort | paste -sd'|')" \
  "qjt_unit_findings{path=\"$sample\",severity=\"error\"} 0|qjt_unit_findings{path=\"$sample\",severity=\"warning\"} 4|qjt_unit_up{path=\"$sample\"} 1"
expect "a good run: the run's time" "$(grep '^qjt_run_started_timestamp_seconds' "$prom")" \
  "qjt_run_started_timestamp_seconds 1700000000"
"$prometheus_lint" <"$prom" || fail "prometheus_lint rejects the good run's report"
before=$(cat "$prom")

"$qjt" stats --prometheus -o "$prom" /missing/path 2>"$tmp/err"
expect "nothing read: exit 3" "$?" 3
expect "nothing read: the report left as it was" "$(cat "$prom")" "$before"
expect "nothing read: said so" "$(grep -c 'nothing was read' "$tmp/err")" 1

out=$("$qjt" stats --prometheus "$sample" /missing/path 2>/dev/null)
expect "one unit not read: exit 3" "$?" 3
expect "one unit not read: up 0, beside the one read" \
  "$(grep '^qjt_unit_up' <<<"$out" | paste -sd'|')" \
  "qjt_unit_up{path=\"/missing/path\"} 0|qjt_unit_up{path=\"$sample\"} 1"
expect "one unit not read: no figure of it" "$(grep -v '^qjt_unit' <<<"$out" | grep -c '/missing/path')" 0
expect "one unit not read: its error counted" \
  "$(grep '^qjt_unit_findings{path="/missing/path",severity="error"}' <<<"$out")" \
  'qjt_unit_findings{path="/missing/path",severity="error"} 1'
"$prometheus_lint" <<<"$out" || fail "prometheus_lint rejects the report with a unit not read"

head -c 100 /dev/urandom >"$tmp/garbage"
out=$("$qjt" stats --prometheus --format kestrel "$tmp/garbage" 2>/dev/null)
expect "a damaged queue: read, its error counted" \
  "$(grep -c "qjt_unit_up{path=\"$tmp/garbage\"} 1" <<<"$out") $(grep "^qjt_unit_findings{path=\"$tmp/garbage\",severity=\"error\"}" <<<"$out" | cut -d' ' -f2)" \
  "1 1"

expect "JSON and text have no health entities" \
  "$("$qjt" stats --json "$sample" | jq '[.entities[] | select(.kind == "unit" or .kind == "run")] | length')" 0

finish stats_health
