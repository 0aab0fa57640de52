// gen for libkestrel: the driver's options and the run of
// libkestrel/libkestrel_generator.h with them (man/qjt-gen.1).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "driver.h"

namespace qjt::cli {

// What only libkestrel's gen takes.
struct LibkestrelGenOptions {
  std::vector<std::string> readers;  // NAME=HEAD
  std::uint64_t done = 0;
};

// --reader, --done.
void add_libkestrel_gen_options(CLI::App* group, LibkestrelGenOptions* options);

ExitCode run_libkestrel_gen(const GenRequest& request, const LibkestrelGenOptions& options);

}  // namespace qjt::cli
