// What the read commands (dump, verify, replay, stats) make of their PATHs
// before assigning them to families (dispatch.h), as ripgrep makes of its
// own. A file, "-" or a missing PATH is one unit, as given. A directory is
//
//   - the installations that families discover in it (Driver::discover: a
//     Flume channel root, a Canal deployer root or destination), each a
//     unit read as one, then whatever else it holds, walked;
//   - else one unit when a family reads it as a whole (a Kestrel or
//     libkestrel queue directory: what makes it one is the family's, see
//     Claim::makes_directory; its files of no known format are skipped),
//     or when families claim files in it (a Flume data directory: its
//     files make one unit; beside an installation, each file is a unit of
//     its own, so that no two units share a path); then its
//     subdirectories, walked.
//
// A walk passes over hidden entries (".name"), qjt's own backups
// ("*.qjt-backup*"), what --exclude GLOB names (its base name or its path
// below the PATH matches; a PATH itself is always read, and so is every
// file of a directory read as a whole) and symbolic links to directories
// (no loops), enters
// no directory deeper than --max-depth below its PATH, and counts the files
// that no family claims (skipped). A directory PATH in which the walk
// found nothing stays one unit as given, so that the assignment reports it
// as it reports an empty directory.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "driver.h"
#include "requests.h"

namespace qjt::cli {

struct ReadUnit {
  std::string path;                // the PATH, or the directory or file a walk found it at
  Driver* site_driver = nullptr;   // a discovered installation's family; null: PATHs claimed as usual
  std::string what;                // a site's Site::what
  std::vector<std::string> paths;  // what is assigned: PATHs, a site's files, a directory's claimed files
  Settings settings;               // a site's options
  bool given = false;              // the PATH itself, or its files: not found by walking or discovery
};

struct Expansion {
  std::vector<ReadUnit> units;
  std::vector<std::string> skipped;  // files the walk found that no family claims, in walk order
  // Those of a PATH where the walk found nothing else (the PATH is then
  // read as given: "nothing found"; verify --strict names them instead).
  std::vector<std::string> only_unknown;
  // Some PATH was not read as given: a walk or a discovery found its units.
  // The units are then assigned one by one, and the reports say what was
  // found, unit by unit; else the PATHs are assigned together, as given.
  bool found = false;
};

// The units of `paths`, in order: each PATH's, in walk order (a directory's
// own unit, then its entries by name). `max_depth`: how many levels below a
// PATH the walk enters (0: the PATH itself only); none: no limit.
// `excluded`: the GLOBs of --exclude.
Expansion expand_paths(const std::vector<std::string>& paths, Registry drivers, std::optional<unsigned> max_depth,
                       const std::vector<std::string>& excluded = {});

}  // namespace qjt::cli
