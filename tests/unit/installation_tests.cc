// Unit tests for the installation layouts the families recognise by file
// names alone: a Flume channel root (flume/channel_root.h) and Canal's
// deployer root and destination directories (canal/deployer_layout.h).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "canal/deployer_layout.h"
#include "flume/channel_root.h"
#include "unit_helpers.h"

using qjt_test::TempDir;
namespace fs = std::filesystem;

namespace {

// Creates the empty files `names` (with their directories) under `root`.
void touch(const fs::path& root, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    fs::create_directories((root / name).parent_path());
    std::ofstream(root / name) << "";
  }
}

}  // namespace

TEST_CASE("flume channel root: data, checkpoint and backup directories by the files they hold") {
  TempDir dir{"root"};
  touch(dir.path(), {"checkpoint/checkpoint", "checkpoint/checkpoint.meta", "data1/log-1", "data1/log-1.meta",
                     "data2/log-2.meta", "backup/backupComplete", "backup/checkpoint", "notes/readme"});
  const auto root = qjt::flume::find_channel_root(dir.path().string());
  REQUIRE(root);
  CHECK(root->checkpoint_dir == (dir.path() / "checkpoint").string());
  CHECK(root->data_dirs == std::vector<std::string>{(dir.path() / "data1").string(), (dir.path() / "data2").string()});
  CHECK(root->backup_dir == (dir.path() / "backup").string());
}

TEST_CASE("flume channel root: Flume's defaults before the first checkpoint") {
  TempDir dir{"root"};
  fs::create_directories(dir.path() / "checkpoint");
  touch(dir.path(), {"data/log-1"});
  const auto root = qjt::flume::find_channel_root(dir.path().string());
  REQUIRE(root);
  CHECK(root->checkpoint_dir == (dir.path() / "checkpoint").string());
  CHECK_FALSE(root->backup_dir);
}

TEST_CASE("flume channel root: no data log, or two checkpoints, is no root: nothing is guessed") {
  TempDir dir{"root"};
  touch(dir.path(), {"checkpoint/checkpoint"});
  CHECK_FALSE(qjt::flume::find_channel_root(dir.path().string()));
  touch(dir.path(), {"data/log-3", "checkpoint2/checkpoint.meta"});
  CHECK_FALSE(qjt::flume::find_channel_root(dir.path().string()));
}

TEST_CASE("canal deployer root: one destination per name, meta.dat then the log history oldest first") {
  TempDir dir{"canal"};
  touch(dir.path(),
        {"conf/example/meta.dat", "conf/example/instance.properties", "conf/canal.properties", "conf/other/meta.dat",
         "logs/example/meta.log", "logs/example/2021-01-14/meta-2021-01-14-10.log.gz",
         "logs/example/2021-01-14/meta-2021-01-14-9.log.gz", "logs/example/2021-01-13/meta-2021-01-13-1.log.gz",
         "logs/canal/canal.log"});
  const auto found = qjt::canal::find_destinations(dir.path().string());
  REQUIRE(found.size() == 2);
  CHECK(found[0].name == "example");
  const fs::path logs = dir.path() / "logs/example";
  CHECK(found[0].files == std::vector<std::string>{(dir.path() / "conf/example/meta.dat").string(),
                                                   (logs / "2021-01-13/meta-2021-01-13-1.log.gz").string(),
                                                   (logs / "2021-01-14/meta-2021-01-14-9.log.gz").string(),
                                                   (logs / "2021-01-14/meta-2021-01-14-10.log.gz").string(),
                                                   (logs / "meta.log").string()});
  CHECK(found[0].covers == std::vector<std::string>{(dir.path() / "conf").string(), (dir.path() / "logs").string()});
  CHECK(found[1].name == "other");
  CHECK(found[1].files == std::vector<std::string>{(dir.path() / "conf/other/meta.dat").string()});
}

TEST_CASE("canal destination directory: two of its files make one; a lone file is no layout") {
  TempDir dir{"canal"};
  touch(dir.path(), {"example/meta.log"});
  CHECK(qjt::canal::find_destinations((dir.path() / "example").string()).empty());
  touch(dir.path(), {"example/2021-01-14/meta-2021-01-14-1.log.gz"});
  const auto found = qjt::canal::find_destinations((dir.path() / "example").string());
  REQUIRE(found.size() == 1);
  CHECK(found[0].name == "example");
  CHECK(found[0].files.size() == 2);
  CHECK(found[0].covers.size() == 3);  // both files and the day's directory
}
