// gen for Canal: the driver's options and the run of
// canal/meta_generator.h with them (man/qjt-gen.1).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "driver.h"

namespace qjt::cli {

// What only Canal's gen takes.
struct CanalGenOptions {
  std::uint32_t clients = 2;
  std::string destination = "example";
};

// --clients, --destination.
void add_canal_gen_options(CLI::App* group, CanalGenOptions* options);

ExitCode run_canal_gen(const GenRequest& request, const CanalGenOptions& options);

}  // namespace qjt::cli
