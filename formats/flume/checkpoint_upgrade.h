// checkpoint_upgrade: the V2 -> V3 checkpoint upgrade Flume performs at
// channel start (spec §1.5, EventQueueBackingStoreFactory.upgrade), done
// ahead of time and crash-safely.
//
// What Flume does: copy `checkpoint` to `checkpoint-backup-<ms>`, write
// `checkpoint.meta` from the V2 header (version 3, the header's write order
// id, queue size and head, and every count > 0 of slots 5..1028 in the
// iteration order of the HashMap Flume loaded them into), then overwrite
// long[0] with 3. Every other byte of the checkpoint stays as it was (V3
// ignores longs 2, 3 and 5..1028).
//
// What qjt does differently, for crash safety: the copy is durable; the new
// checkpoint and the meta are written whole to "~~qjt-<pid>" temp files and
// fsynced before anything is renamed; then the meta is renamed into place,
// then the checkpoint (a new inode: the backup copy may be a hard link to the
// old one, so the checkpoint is never written in place), each rename
// followed by a directory fsync. Only between the two renames would Flume
// find a state it refuses (a meta beside a V2 checkpoint), and a re-run
// recognises exactly that state (kHalfDone: the meta equals the one the V2
// header gives) and finishes it. The renames run in one CommitSection
// (lib/interrupt.h), so an interrupt never leaves that state; one before
// them removes the temp files and the new backup. Failpoints
// (lib/failpoint.h) sit between the durable steps.
//
// Findings: the checkpoint decoder's, plus upgrade_refused (error): no
// checkpoint, a checkpoint Flume would refuse to open as V2 (length, version
// other than 2 or 3, marker not complete), or a checkpoint.meta beside a V2
// checkpoint that is not the one its header gives (not a half-done upgrade).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "finding.h"
#include "flume/channel_layout.h"
#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"

namespace qjt::flume {

// checkpoint.meta's content as Flume's upgrade writes it from a V2 header:
// counts in slot order, a repeated file id keeping its first position and
// its last count (HashMap.put), then java_hash_map_order, counts <= 0 left out.
CheckpointMeta meta_from_v2_header(const CheckpointFile& checkpoint);

enum class UpgradeState {
  kV2,        // a V2 checkpoint without meta: the whole upgrade
  kHalfDone,  // a V2 checkpoint and the meta its header gives: only the checkpoint is left
  kV3,        // already V3 (with its meta): nothing to do
  kRefused,   // see upgrade_refused above
};
const char* upgrade_state_name(UpgradeState state);  // "v2", "half_done", "v3", "refused"

struct UpgradePlan {
  UpgradeState state = UpgradeState::kRefused;
  std::string checkpoint_path;
  std::string meta_path;
  std::int64_t version = 0;  // long[0] as found
  CheckpointMeta meta;       // kV2, kHalfDone: the meta to write (or written)
  // An existing checkpoint-backup-<ms> holding the checkpoint's bytes (a
  // re-run does not copy again); empty when a copy is to be made.
  std::string existing_backup;
};

// Reads the checkpoint dir's files and decides; never changes anything.
UpgradePlan plan_checkpoint_upgrade(const CheckpointFiles& files, Reporter* reporter);

// Carries out a kV2 or kHalfDone plan; `now_ms` names the backup
// (checkpoint-backup-<now_ms>). *backup is the backup's path. False with
// *error (a sentence naming the path) on an I/O failure; what was done
// before stays done and a re-run finishes the rest.
bool apply_checkpoint_upgrade(const UpgradePlan& plan, std::int64_t now_ms, std::string* backup, std::string* error);

}  // namespace qjt::flume
