// What `qjt repair` does with a destination's table-meta store when it
// rewrites meta.dat. Canal rebuilds a destination's schema at its start
// position from the store; a cursor moved back below DDL the store
// recorded gets the newer schema ("column size is not match", issues 1737,
// 2220, 2772, 3702, 5498, 534). So a rewind (a client's cursor moved back,
// tsdb_store.h's is_rewind) with an H2 store beside meta.dat is refused
// unless the operator says which way:
//
//   --reset-tsdb  the store's files (h2.mv.db and its h2.* siblings) are
//                 renamed out of Canal's reach, with meta.dat's backup
//                 stamp (beside them, or in --backup-to on the same file
//                 system: a store can be large and is never copied), so
//                 Canal rebuilds the store on start. Not with --no-backup:
//                 qjt never deletes a store.
//   --keep-tsdb   the store is left: no DDL happened in between.
//
// A MySQL-backed store (mysql-tsdb.xml or a jdbc:mysql: URL in the
// properties) cannot be moved: the plan prints the two statements that
// reset it for the destination, for the operator to run; qjt never does.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canal/destination_config.h"
#include "canal/meta_dat.h"
#include "canal/tsdb_store.h"
#include "guarded_replace.h"
#include "json_writer.h"

namespace qjt::cli {

enum class TsdbChoice { kUnsaid, kReset, kKeep };

struct StoreMove {
  std::string from;
  std::string to;
};

struct TsdbPlan {
  std::string dir;          // meta.dat's directory
  std::string destination;  // its name, else meta.dat's own
  canal::TsdbStore store;
  std::optional<canal::DestinationConfig> config;
  std::vector<std::int64_t> rewound;  // the clients whose cursor moves back
  TsdbChoice choice = TsdbChoice::kUnsaid;
  bool refused = false;          // a rewind, an H2 store, and no choice
  std::vector<StoreMove> moves;  // --reset-tsdb: the renames
  std::vector<std::string> sql;  // a MySQL store: the statements for the operator
  std::string action;            // what happens to the store, in words
  std::string usage_error;       // a choice that cannot be carried out ("" when none)
};

// The plan for the store of the meta.dat at `path`, going from `before`
// (nullopt: no readable file) to `after`; `stamp` ends the backup names
// ("<ms>" before --apply).
TsdbPlan plan_tsdb(const std::string& path, const std::optional<canal::MetaDat>& before, const canal::MetaDat& after,
                   TsdbChoice choice, const WriteGuardOptions& guard, std::string_view stamp);

// The two statements that reset a MySQL-backed store for `destination`
// (its rows of meta_snapshot and meta_history), for the operator to run.
std::vector<std::string> reset_statements(const std::string& destination);

// The sentence that refuses a rewind: names both options.
std::string tsdb_refusal(const TsdbPlan& plan);

// The plan's lines ("  table-meta store: ...", the SQL) and its JSON member.
std::string tsdb_plan_text(const TsdbPlan& plan);
void write_tsdb_json(JsonWriter* json, const TsdbPlan& plan);

// The renames, as one change of guarded_replace's step 5 (each durable,
// never over an existing file), and the commands that undo them.
FileChange move_store(const TsdbPlan& plan);
std::string unmove_store_command(const TsdbPlan& plan);

// The files guarded_replace must find closed: H2 holds its files open
// while Canal runs.
std::vector<std::string> store_files(const TsdbPlan& plan);

}  // namespace qjt::cli
