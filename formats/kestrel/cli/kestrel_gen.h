// gen for classic Kestrel: the driver's options and the run of
// kestrel/journal_generator.h with them (man/qjt-gen.1).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "driver.h"

namespace qjt::cli {

// What only classic Kestrel's gen takes.
struct KestrelGenOptions {
  std::optional<double> remove_share;
  std::optional<std::uint64_t> live;
  double transactional = 0.5;
  bool binary = false;
};

// --remove-share, --live, --transactional, --binary.
void add_kestrel_gen_options(CLI::App* group, KestrelGenOptions* options);

// "truncate", "flip", "garbage".
std::vector<std::string_view> kestrel_corruptions();

ExitCode run_kestrel_gen(const GenRequest& request, const KestrelGenOptions& options);

}  // namespace qjt::cli
