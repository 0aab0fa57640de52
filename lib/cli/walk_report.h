// What the read commands say of the units a walk found (path_walk.h), so
// that nobody wonders which files were read:
//
//   - dump and replay start each unit's records with its header: a line
//     "# PATH: WHAT (OPTIONS)" in text, a "unit" object under --json;
//   - verify gives one verdict per unit and the total (verify_walk);
//   - every command notes on standard error the files it skipped, and
//     stats the installations it discovered.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "command_support.h"
#include "exit_code.h"
#include "json_writer.h"
#include "path_walk.h"

namespace qjt::cli {

// "PATH", or "PATH: Flume channel (--checkpoint-dir DIR --data-dir DIRS)"
// for a discovered installation.
std::string unit_title(const ReadUnit& unit);

// The unit as a JSON object: {"path","what","options"} (qjt-json(5)).
void write_unit_json(JsonWriter* out, const ReadUnit& unit);

// The units as a JSON array of unit objects when a walk found them; else "".
std::string units_json(const Expansion& expansion);

// The line a found unit's records start with: "# TITLE" or a "unit" object.
std::string unit_header(const ReadUnit& unit, bool json);

// On standard error (left out with --quiet): the files the walk skipped,
// as a count, and, with `sites`, each discovered installation.
void note_walk(std::string_view command, const Expansion& expansion, bool sites);

// `files` (skipped by a walk) as unknown_format errors, for --strict.
FindingList skipped_findings(const std::vector<std::string>& files);

// The unit whose files include `file` (a finding's), by its PATHs or the
// directory it was found in; 0 when none does.
std::size_t unit_of_file(const Expansion& expansion, const std::string& file);

// verify's answer over a walk: for each unit, its findings and its verdict
// (text), or its report object with a "unit" member (JSON); then the total
// over every unit and the skipped files, which --strict makes errors
// (unknown_format). Returns the worst of the units' exit statuses.
ExitCode finish_walk_verify(const Expansion& expansion, const std::vector<VerifyTally>& units, bool json, bool strict,
                            bool quiet);

}  // namespace qjt::cli
