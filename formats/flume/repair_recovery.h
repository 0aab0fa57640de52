// RepairRecovery: what a channel repair plan (channel_repair.h) does to the
// queue Flume recovers, found before anything is written.
//
// Both states are replayed as Flume starts from them (channel_replay.h):
// the channel as it is now, and as the plan leaves it, the plan's new
// files read from a FileOverlay and its byte patches previewed in private
// mappings of the logs. A queue counts the events Flume's take delivers
// from it (for_each_queued_event: pointers to NOOPs and to records that do
// not decode are skipped), each known by its pointer (file id, offset),
// which no repair moves.
//
//  - lost: an event recovered now, so an intact one (its put decodes and
//    its CRC32 holds), that the planned state does not recover, unless the
//    planned logs hold a committed take of it (a take that damage hid from
//    today's replay: the event was consumed, not lost) or the operator
//    asked to drop it (ChannelRepairRequest::drop_events). Also lost: an
//    intact event whose put and commit the records show (read on past
//    damage), that today's replay never reached because its log's reading
//    stopped before it (a broken record, or 0x80 with records after the
//    fill), and that the planned state neither recovers nor leaves behind
//    such a stop with its commit still after the checkpoint (where mending
//    the damage would recover it; a rebuilt checkpoint buries it).
//  - revived: an event the planned state recovers that today's replay met
//    (its put lies before the record where today's replay of its log
//    stopped, if it stopped; a checkpoint covers the puts before its
//    marks) and does not recover: it was taken, rolled back or never
//    committed, and would be delivered again or for the first time.
//    Events today's replay never reached (behind a broken record) are
//    recovered, not revived.
// qjt repair refuses a plan that loses or revives anything unless forced.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_repair.h"
#include "flume/event_pointer.h"

namespace qjt::flume {

struct RecoveryChange {
  std::vector<EventPointer> now;      // the events recovered today, head to tail
  std::vector<EventPointer> after;    // those the planned state recovers
  std::vector<EventPointer> lost;     // ascending
  std::vector<EventPointer> revived;  // ascending
  bool keeps_queue() const { return lost.empty() && revived.empty(); }
};

// Replays `layout` as it is and as `plan` leaves it (nothing is written;
// the replays' findings are not reported: verify and replay say them).
// `capacity` is the configured one, as for replay_channel.
RecoveryChange compare_recovery(const ChannelLayout& layout, const KeyRing& keys, const ChannelRepairPlan& plan,
                                std::optional<std::int64_t> capacity);

}  // namespace qjt::flume
