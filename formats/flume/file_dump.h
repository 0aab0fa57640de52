// dump_file: the library side of `qjt dump` for ONE Flume file channel file
// (a checkpoint, checkpoint.meta, an inflight file, a data log V2 or V3, a
// log-N.meta, a snappy backup checkpoint), one line per record, queue
// element or transaction, as JSON Lines or as greppable text.
//
// Contract:
//  - Decoding never throws and never allocates from a size read in the
//    file; every problem goes to the Reporter, as the codecs report it, plus
//    the findings below that only a dump knows about. Output stops after
//    options.limit lines, and nothing after that line is decoded (so no
//    later finding is reported either).
//  - A line is one object: in text form a put's payload, when shown, goes on
//    an indented continuation line that belongs to its record and is not
//    counted separately. `sink` runs after each counted line.
//  - Files beside the one dumped are read when the format keeps part of a
//    file's meaning there: a V3 log's log-N.meta (.meta.tmp, .meta.old as
//    Flume chooses) for its file id and encryption, a V3 checkpoint's
//    checkpoint.meta for the queue's head, size and active logs. Nothing is
//    read beside standard input ("-").
//
// JSON Lines (every object starts with the envelope "format":"flume" and
// "file", then "kind"; man/qjt-json.5):
//   {"file","kind":"checkpoint","version","write_order_id","capacity",
//    "marker","complete","size","head","active_logs":[{"file_id","count"}]}
//     size/head/active_logs: V2 from the header; V3 from checkpoint.meta,
//     null when it is missing or invalid (then no element lines).
//   {"file","kind":"checkpoint_element","index","slot","file_id","offset"}
//     index: logical (0 = queue head); slot: absolute long index (>= 1029).
//   {"file","kind":"checkpoint_meta","version","write_order_id",
//    "queue_size","queue_head","active_logs":[{"file_id","count"}]}
//   {"file","kind":"inflight_puts"|"inflight_takes"|"inflight","offset",
//    "transaction_id","pointers":[{"file_id","offset"}]}
//   {"file","kind":"log_meta","version","log_file_id","checkpoint_position",
//    "checkpoint_write_order_id","backup_checkpoint_position"|null,
//    "backup_checkpoint_write_order_id"|null,["raw_b64"|"raw_hex",]
//    "encryption":null|{"cipher_provider","key_alias","parameters_hex"|null}}
//     raw_*: the whole file, only when its bytes are not Flume's encoding of
//     the fields (log_json.h; hex under --data=hex, base64 otherwise).
//   (every line starts with "type":"record","format":"flume")
//   {"file","kind":"log_record","offset","op","version", then by op:
//     PUT:      "transaction_id","write_order_id","headers":{..},
//               "time_ms" (the timestamp header, when a number),"size",
//               payload (add_payload: data|data_b64|data_hex, none: omitted),
//               "crc" (stored, null when absent),"crc_ok"
//     TAKE:     "transaction_id","write_order_id","taken":{"file_id","offset"}
//     ROLLBACK: "transaction_id","write_order_id"
//     COMMIT:   "transaction_id","write_order_id","commit_type":"PUT"|"TAKE"|N
//     NOOP:     "size" (bytes skipped, framing included)
//     END_OF_DATA: nothing more;  BROKEN: "error"}
//   V3 records then add what `qjt convert --to flume-log` needs to give
//   the bytes back (log_json.h add_exact_fields; "_hex" under --data=hex,
//   "_b64" otherwise): put/take/rollback/commit "raw_b64" only when the
//   fields would encode to other bytes; noop "raw_b64" always (its skipped
//   bytes); broken "raw_b64" (every byte to the end of the file);
//   end_of_data "fill" (0x80 bytes from here) and "after_fill_b64" when
//   other bytes follow the fill. V2 records add nothing.
//   Header keys and values are JSON strings; bytes that are not UTF-8 become
//   U+FFFD (JsonWriter's rule). Duplicate keys are all kept, in file order
//   (Flume's map keeps the last, as a JSON reader does).
//   A meta file that does not decode (invalid) gives no line: the decoder's
//   findings say why.
//
// Text (one line per object; %10d is the byte offset, decimal as in JSON):
//   checkpoint v2 woid=W capacity=C size=S head=H complete|incomplete|marker=M active_logs=1:3,2:3|none|?
//     [i] slot N -> log-F @ O
//   checkpoint_meta v3 woid=W size=S head=H active_logs=...
//   %10d  inflight_puts txid=T -> log-F @ O, log-F @ O
//   log_meta v3 log_file_id=N checkpoint_position=P checkpoint_woid=W backup_position=P|none
//     backup_woid=W|none encryption=none|PROVIDER key_alias=A iv=HEX|none   (one line)
//   %10d  put txid=T woid=W size=N crc=ok|mismatch|none [headers={"k":"v"}]   (event_json.h
//       headers_text: a "timestamp" header of epoch ms shown as a time)
//       data="..."   (only when the mode is not none; data_b64= / data_hex= likewise)
//   %10d  take txid=T woid=W -> log-F @ O
//   %10d  rollback txid=T woid=W
//   %10d  commit txid=T woid=W type=put|take|N
//   %10d  noop size=N
//   %10d  end_of_data
//   %10d  broken  ERROR
//
// Findings added here: missing_key / bad_key (error: an encrypted log whose
// key is not given or unusable; no records then), missing_log_meta (warning:
// a non-empty V3 log with no meta beside it, dumped unencrypted),
// log_file_id_mismatch (error: a meta naming another id than log-N),
// io_error (a meta beside the file that cannot be read),
// missing_checkpoint_meta (warning: a V3 checkpoint without checkpoint.meta),
// broken_record (error, at the record), crc_mismatch (error, at the put's OP
// byte; "expected CRC32 <stored>, found <computed> over bytes A to B", B
// exclusive), data_after_end (warning, at the first non-fill byte after the
// end-of-data fill), not_dumpable (warning, backupComplete), unknown_file
// (error).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "byte_span.h"
#include "finding.h"
#include "flume/channel_logs.h"
#include "flume/checkpoint_file.h"
#include "flume/file_kind.h"
#include "flume/log_record.h"
#include "input_file.h"
#include "json_writer.h"
#include "payload.h"

namespace qjt::flume {

struct FileDumpOptions {
  bool json = false;
  // Decode and report, but leave a data log's records and a checkpoint's
  // elements unformatted (still counted as lines): what verify wants,
  // which prints neither.
  bool records_unprinted = false;
  DataMode mode = DataMode::kText;
  // Max lines printed by this call; the caller counts across calls with the
  // return value.
  std::optional<std::uint64_t> limit;
  const KeyRing* keys = nullptr;  // alias -> raw key bytes, for encrypted logs
  // Which log records are printed (dump's filters); empty: all. Records it
  // refuses are still decoded and their findings reported, but not counted.
  std::function<bool(const LogRecord&)> log_filter;
  // Called with every record of a data log as it is decoded, filtered or
  // not (verify collects the intact puts, IntactPuts in channel_replay.h).
  std::function<void(const LogRecord&)> on_log_record;
};

// Appends the dump of `bytes` (the file `path`, of kind `kind`) to *out.
// Returns the number of lines written. `sink` (may be empty) is called after
// each line so the caller can flush.
std::uint64_t dump_file(const std::string& path, ByteSpan bytes, FileKind kind, const FileDumpOptions& options,
                        std::string* out, const std::function<void()>& sink, Reporter* reporter);
// The same for an opened file: a data log's records are read through a
// window (LogReader over an InputFile), not the mapping.
std::uint64_t dump_file(const std::string& path, const InputFile& input, FileKind kind, const FileDumpOptions& options,
                        std::string* out, const std::function<void()>& sink, Reporter* reporter);

// A checkpoint's active logs as dump shows them, also in convert's upgrade
// report: [{"file_id":N,"count":N},...].
void write_active_logs_json(JsonWriter* out, const std::vector<ActiveLogCount>& logs);
// "1:2,2:1" (file id:count), or "none".
std::string active_logs_text(const std::vector<ActiveLogCount>& logs);

}  // namespace qjt::flume
