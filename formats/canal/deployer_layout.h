// Where Canal keeps a destination's cursors, found by the layout its
// deployer writes, by file names alone (no file is opened):
//
//   ROOT/conf/<destination>/meta.dat                       (FileMixedMetaManager)
//   ROOT/logs/<destination>/meta.log                       (the meta logger)
//   ROOT/logs/<destination>/<yyyy-MM-dd>/meta-<yyyy-MM-dd>-<i>.log.gz  (its rotations)
//
// A deployer root (a directory with conf/ or logs/ holding such files)
// holds one destination per name found under either; a directory of one
// destination holds more than one of its files itself: meta.dat beside
// meta.log, or meta.log beside its dated rotations. A lone meta.dat or
// meta.log is no layout: it is read as the file it is.
#pragma once

#include <string>
#include <vector>

namespace qjt::canal {

struct DestinationFiles {
  std::string name;                 // the destination
  std::string dir;                  // where it is: conf/NAME of a deployer root (logs/NAME without a
                                    // meta.dat), or the destination's own directory
  std::vector<std::string> files;   // meta.dat, then the meta.log history, oldest first
  std::vector<std::string> covers;  // the entries of the directory these account for (in a
                                    // destination's directory also instance.properties and h2.*)
};

// The destinations `dir` holds, by name; none when it is neither layout.
std::vector<DestinationFiles> find_destinations(const std::string& dir);

}  // namespace qjt::canal
