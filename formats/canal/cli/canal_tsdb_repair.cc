#include "canal/cli/canal_tsdb_repair.h"

#include <filesystem>

#include <fmt/format.h>

#include "canal/cli/canal_repair.h"
#include "free_space.h"
#include "path_name.h"

namespace qjt::cli {
namespace {

namespace fs = std::filesystem;

// A MySQL string literal: quotes doubled, backslashes escaped (MySQL's
// default sql_mode reads a backslash as an escape).
std::string sql_string(std::string_view value) {
  std::string out = "'";
  for (const char c : value) {
    if (c == '\'' || c == '\\') out.push_back(c);
    out.push_back(c);
  }
  return out + "'";
}

// Where each file of the store goes: <name>.qjt-backup-<stamp>, beside it
// or in --backup-to, as meta.dat's backup goes.
std::vector<StoreMove> moves_for(const TsdbPlan& p, const WriteGuardOptions& guard, std::string_view stamp) {
  std::vector<StoreMove> moves;
  for (const canal::StoreFile& f : p.store.files) {
    moves.push_back(StoreMove{f.path, canal_backup_path(f.path, guard, stamp)});
  }
  return moves;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& s : parts) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string clients_text(const std::vector<std::int64_t>& ids) {
  std::vector<std::string> parts;
  for (const std::int64_t id : ids) parts.push_back(std::to_string(id));
  return join(parts);
}

bool is_mysql(const TsdbPlan& p) { return p.config && p.config->tsdb == canal::TsdbKind::kMySql; }
bool is_disabled(const TsdbPlan& p) { return p.config && p.config->tsdb == canal::TsdbKind::kDisabled; }

// The reset: the files moved, unless that cannot be done safely.
void plan_reset(TsdbPlan* p, const WriteGuardOptions& guard, std::string_view stamp) {
  if (guard.no_backup) {
    p->usage_error =
        "--reset-tsdb moves the table-meta store aside, it never deletes it: it cannot be given with --no-backup "
        "(the move takes no room)";
    return;
  }
  if (!guard.backup_root.empty() && !same_file_system(guard.backup_root, p->dir)) {
    p->usage_error = fmt::format(
        "--reset-tsdb renames the table-meta store, which can be large, and never copies it: --backup-to {} must "
        "be on the file system of {}",
        guard.backup_root, p->dir);
    return;
  }
  p->moves = moves_for(*p, guard, stamp);
  std::vector<std::string> targets;
  for (const StoreMove& m : p->moves) targets.push_back(m.to);
  p->action = fmt::format("reset (moved to {}); Canal rebuilds it on start", join(targets));
}

std::string decide_action(TsdbPlan* p, const WriteGuardOptions& guard, std::string_view stamp) {
  const bool rewind = !p->rewound.empty();
  if (p->choice == TsdbChoice::kKeep && (p->store.present() || is_mysql(*p))) return "kept (--keep-tsdb)";
  if (is_mysql(*p)) {
    if (!rewind && p->choice != TsdbChoice::kReset) return "in MySQL, kept (no cursor moves back)";
    p->sql = reset_statements(p->destination);
    return "in MySQL: reset it with the statements below (qjt never runs them)";
  }
  if (!p->store.present()) return "none present";
  if (p->choice == TsdbChoice::kReset) {
    plan_reset(p, guard, stamp);
    return p->action;
  }
  if (is_disabled(*p)) return fmt::format("kept, unused ({})", p->config->tsdb_because);
  if (!rewind) return "kept (no cursor moves back)";
  p->refused = true;
  return "present: a rewind needs --reset-tsdb or --keep-tsdb";
}

}  // namespace

std::vector<std::string> reset_statements(const std::string& destination) {
  const std::string d = sql_string(destination);
  return {fmt::format("DELETE FROM meta_snapshot WHERE destination = {};", d),
          fmt::format("DELETE FROM meta_history WHERE destination = {};", d)};
}

TsdbPlan plan_tsdb(const std::string& path, const std::optional<canal::MetaDat>& before, const canal::MetaDat& after,
                   TsdbChoice choice, const WriteGuardOptions& guard, std::string_view stamp) {
  TsdbPlan p;
  const fs::path parent = fs::path(path).parent_path();
  p.dir = parent.empty() ? "." : parent.string();
  p.choice = choice;
  p.destination = canal::destination_of_meta_dat(path);
  if (p.destination.empty()) p.destination = after.destination;
  p.store = canal::find_tsdb_store(p.dir);
  // What the configuration says is read quietly: verify reports its problems.
  FindingList ignored;
  p.config = canal::load_destination_config(p.dir, &ignored);
  if (before) p.rewound = canal::rewound_clients(*before, after);
  p.action = decide_action(&p, guard, stamp);
  return p;
}

std::string tsdb_refusal(const TsdbPlan& p) {
  return fmt::format(
      "client(s) {} move back, and {} holds the H2 table-meta store ({}), which may hold DDL from after the new "
      "position; give --reset-tsdb (move it aside with the backup, and Canal rebuilds it) or --keep-tsdb (no DDL "
      "happened in between); nothing was changed",
      clients_text(p.rewound), p.dir, p.store.files.front().path);
}

std::string tsdb_plan_text(const TsdbPlan& p) {
  std::string text = fmt::format("  table-meta store: {}\n", p.action);
  if (!p.rewound.empty()) text += fmt::format("  moves back: client(s) {}\n", clients_text(p.rewound));
  for (const std::string& statement : p.sql) text += "    " + statement + "\n";
  return text;
}

void write_tsdb_json(JsonWriter* json, const TsdbPlan& p) {
  const char* action = p.refused                          ? "refused"
                       : !p.moves.empty()                 ? "reset"
                       : !p.sql.empty()                   ? "sql"
                       : p.store.present() || is_mysql(p) ? "kept"
                                                          : "none";
  json->begin_object("tsdb").str("action", action).str("text", p.action).begin_array("rewound_clients");
  for (const std::int64_t id : p.rewound) json->number(id);
  json->end_array().begin_array("files");
  for (std::size_t i = 0; i < p.store.files.size(); ++i) {
    json->begin_object().str("path", p.store.files[i].path);
    i < p.moves.size() ? json->str("moved_to", p.moves[i].to) : json->null("moved_to");
    json->end_object();
  }
  json->end_array().begin_array("sql");
  for (const std::string& statement : p.sql) json->string(statement);
  json->end_array().end_object();
}

FileChange move_store(const TsdbPlan& plan) {
  return FileChange::by_protocol(
      [moves = plan.moves](const std::string&, std::string* error) {
        for (const StoreMove& m : moves) {
          bool existed = false;
          if (durable_rename_new(m.from, m.to, &existed, error)) continue;
          if (existed) *error = fmt::format("{} exists already; {} was not moved", m.to, m.from);
          return false;
        }
        return true;
      },
      "repair.tsdb_moved");
}

std::string unmove_store_command(const TsdbPlan& plan) {
  std::string command;
  for (const StoreMove& m : plan.moves)
    command += fmt::format("{}mv -n {} {}", command.empty() ? "" : " && ", shell_word(m.to), shell_word(m.from));
  return command;
}

std::vector<std::string> store_files(const TsdbPlan& plan) {
  std::vector<std::string> files;
  for (const canal::StoreFile& f : plan.store.files) files.push_back(f.path);
  return files;
}

}  // namespace qjt::cli
