// kestrel_records: a classic Kestrel journal file. Walks every record with
// JournalReader, feeds them to ReplayState (with and without legacy xids)
// and reads back every item the replay keeps. Each record is rendered as
// `qjt dump --json` (base64 data), parsed back with parse_record_json and
// re-encoded: the bytes must equal the record's bytes in the input, and a
// journal without a BROKEN record must round-trip whole.
#include <string>

#include "fuzz_support.h"
#include "kestrel/journal_json.h"
#include "kestrel/journal_json_parse.h"
#include "kestrel/journal_reader.h"
#include "kestrel/journal_writer.h"
#include "kestrel/replay_state.h"

using namespace qjt;
using namespace qjt::kestrel;

namespace {

void round_trip(ByteSpan input, const JournalRecord& record, std::string* journal) {
  std::string json, payload, error;
  append_record_json(&json, "fuzz", record, DataMode::kBase64);
  if (!json.empty() && json.back() == '\n') json.pop_back();
  JournalRecord parsed;
  FUZZ_CHECK(parse_record_json(json, &parsed, &payload, &error));
  FUZZ_CHECK(parsed.type == record.type);
  const std::size_t before = journal->size();
  append_record(journal, parsed);
  if (record.type == RecordType::kEndOfFile) return;
  FUZZ_CHECK(std::string_view(*journal).substr(before) == input.subspan(record.offset, record.length).as_chars());
}

void replay(ByteSpan input, bool legacy_xids) {
  fuzz::RenderingReporter reporter;
  ReplayState state(ReplayOptions{legacy_xids}, &reporter);
  state.begin_file(0, "fuzz", input, true);
  JournalReader reader(input);
  JournalRecord record;
  std::string journal;
  bool broken = false;
  while (reader.next(&record)) {
    state.apply(record);
    broken |= record.type == RecordType::kBroken;
    if (!legacy_xids) round_trip(input, record, &journal);
  }
  if (!legacy_xids && !broken) FUZZ_CHECK(journal == input.as_chars());
  for (const QueuedItem& item : state.queue()) {
    FUZZ_CHECK(state.item_record(item).payload.size() == item.payload_size);
  }
  for (const QueuedItem& item : state.after_restart()) (void)state.item_record(item);
  (void)state.live_bytes();
  (void)state.total_records();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  replay(fuzz::bytes(data, size), false);
  replay(fuzz::bytes(data, size), true);
  return 0;
}
