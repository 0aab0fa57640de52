# Shared by the compaction tests. Sourced with QJT set to the binary.
set -uo pipefail

fail() { echo "FAIL: $*"; exit 1; }

# The queue state that matters, without file positions: what Kestrel's
# startup would rebuild, per queue.
queue_state() {
  "$QJT" replay --json "$@" 2>/dev/null |
    jq -c '{queue_name, queue: [.queue[] | del(.file, .offset)],
            open: [.open_transactions[] | del(.file, .offset)],
            after_restart: [.after_restart[] | del(.file, .offset)]}'
}
