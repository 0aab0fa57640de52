// Unit tests for lib/path_name.h: base_name as the name a path was written
// with (trailing slashes left out), and is_directory without exceptions.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "path_name.h"

using qjt::base_name;
using qjt::is_directory;

TEST_CASE("path names: the last component") {
  CHECK(base_name("log-3") == "log-3");
  CHECK(base_name("data1/log-3") == "log-3");
  CHECK(base_name("/var/lib/flume/data1/log-3.meta") == "log-3.meta");
  CHECK(base_name("conf/example/meta.dat") == "meta.dat");
  CHECK(base_name("-") == "-");
}

TEST_CASE("path names: trailing slashes do not hide the name") {
  CHECK(base_name("data1/") == "data1");
  CHECK(base_name("/var/lib/queue//") == "queue");
  CHECK(base_name("a//b") == "b");
}

TEST_CASE("path names: what has no name") {
  CHECK(base_name("") == "");
  CHECK(base_name("/") == "");
  CHECK(base_name("///") == "");
  CHECK(base_name(".") == ".");
  CHECK(base_name("a/..") == "..");
}

TEST_CASE("path names: is_directory answers, never throws") {
  const std::string dir = QJT_TESTDATA_DIR;
  CHECK(is_directory(dir));
  CHECK(is_directory(dir + "/"));
  CHECK_FALSE(is_directory(dir + "/kestrel/sample/orders"));
  CHECK_FALSE(is_directory(dir + "/no such entry"));
  CHECK_FALSE(is_directory(""));
  CHECK_FALSE(is_directory(dir + "/kestrel/sample/orders/below a file"));  // ENOTDIR
  CHECK_FALSE(is_directory(std::string(5000, 'x')));                       // ENAMETOOLONG
}
