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
// The plan's figures add up: now - lost - dropped - consumed + revived +
// reached = after, where
//  - dropped: an event recovered now whose put the operator asked to drop;
//  - consumed: an event recovered now that a committed take the planned
//    state replays (or one today's replay missed) removes: the take's
//    record and transaction say where it went;
//  - reached: an event the planned state recovers that today's replay never
//    met (it lay behind a broken record), neither lost nor revived;
//  - lost_unreached: lost events of the second kind above, not among now.
// Besides: the queue elements that deliver no event now (damaged: already
// lost to the damage, whatever the repair does), the committed puts
// another record's damaged length swallows (trailing_bytes: Flume's replay
// skips them, so they are lost to the damage too, unless the checkpoint
// holds them, and a plan that recovers one reaches it, not revives it),
// and the elements that deliver none after it (verify warns
// pointer_to_noop on a NOOP'd one).
// qjt repair refuses a plan that loses or revives anything unless forced.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "flume/channel_layout.h"
#include "flume/channel_logs.h"
#include "flume/channel_repair.h"
#include "flume/event_pointer.h"
#include "flume/log_history.h"

namespace qjt::flume {

// A queue element that delivers no event, and what its pointer finds.
struct DeadElement {
  EventPointer event;
  PointerTarget target = PointerTarget::kBroken;
};

struct RecoveryChange {
  std::vector<EventPointer> now;             // the events recovered today, head to tail
  std::vector<EventPointer> after;           // those the planned state recovers
  std::vector<EventPointer> lost;            // ascending; recovered now
  std::vector<EventPointer> lost_unreached;  // ascending; committed, behind damage today, buried by the plan
  std::vector<EventPointer> revived;         // ascending
  std::vector<EventPointer> dropped;         // ascending; --drop-event
  std::vector<Consumption> consumed;         // by event, ascending
  std::vector<EventPointer> reached;         // ascending
  std::vector<DeadElement> dead_now;         // queue order: lost to the damage already
  std::vector<EventPointer> hidden_now;      // ascending: committed puts a damaged length hides, lost already
  std::vector<DeadElement> dead_after;       // queue order
  bool keeps_queue() const { return lost.empty() && lost_unreached.empty() && revived.empty(); }
};

// Replays `layout` as it is and as `plan` leaves it (nothing is written;
// the replays' findings are not reported: verify and replay say them).
// `capacity` is the configured one, as for replay_channel.
RecoveryChange compare_recovery(const ChannelLayout& layout, const KeyRing& keys, const ChannelRepairPlan& plan,
                                std::optional<std::int64_t> capacity);

}  // namespace qjt::flume
