// Shared by the libkestrel fuzz targets: a walk of one file with Reader,
// each record rendered as `qjt dump --json` and as text, and a replay whose
// pending items are all read back.
#pragma once

#include <string>

#include "fuzz_support.h"
#include "libkestrel/libkestrel_json.h"
#include "libkestrel/libkestrel_reader.h"
#include "libkestrel/libkestrel_replay.h"

namespace qjt::fuzz {

inline void walk_libkestrel(ByteSpan file, libkestrel::FileKind kind) {
  libkestrel::Reader reader(file, kind);
  libkestrel::Record record;
  std::string out;
  std::uint64_t end = 0;
  while (reader.next(&record)) {
    FUZZ_CHECK(record.offset >= end && record.offset + record.length <= file.size());
    end = record.offset + record.length;
    out.clear();
    libkestrel::append_record_json(&out, "fuzz", record, DataMode::kBase64);
    libkestrel::append_record_text(&out, record, DataMode::kText);
  }
  (void)reader.data_after_end();
}

// Finishes `replay` and reads every reader's pending items back.
inline void read_pending(libkestrel::QueueReplay* replay) {
  replay->finish();
  for (const auto& reader : replay->readers()) {
    replay->for_each_pending(
        reader, [&](const libkestrel::ItemRef& item) { FUZZ_CHECK(replay->item_record(item).id == item.id); });
  }
}

}  // namespace qjt::fuzz
