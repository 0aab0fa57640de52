// gen for Flume: the driver's options and the run of
// flume/channel_generator.h with them (man/qjt-gen.1).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver.h"
#include "flume/channel_generator.h"

namespace qjt::cli {

// What only Flume's gen takes; the shared options fill in the rest.
struct FlumeGenOptions {
  flume::ChannelGeneratorOptions channel;
  std::string max_log_size;
  std::string header_size;
  std::optional<std::string> key;  // ALIAS=HEX
};

// --data-dirs, --checkpoint-version, --capacity, --batch, --take-share,
// --rollback-share, --headers, --header-size, --max-log-size, --key.
void add_flume_gen_options(CLI::App* group, FlumeGenOptions* options);

ExitCode run_flume_gen(const GenRequest& request, const FlumeGenOptions& options);

}  // namespace qjt::cli
