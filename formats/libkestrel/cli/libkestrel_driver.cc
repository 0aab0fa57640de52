// The libkestrel (Kestrel 3) driver: segments and reader bookmarks, told by
// their magics.
#include <fmt/format.h>

#include <utility>

#include "driver.h"
#include "libkestrel/cli/libkestrel_commands.h"
#include "libkestrel/cli/libkestrel_gen.h"
#include "libkestrel/cli/libkestrel_input.h"
#include "libkestrel/libkestrel_format.h"
#include "libkestrel/libkestrel_generator.h"
#include "path_family.h"

namespace qjt::cli {
namespace {

bool is_magic_prefix(ByteSpan bytes, std::uint32_t magic) {
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] != static_cast<std::uint8_t>(magic >> (24 - 8 * i))) return false;
  return true;
}

// "2764" for the bytes 0x27 0x64.
std::string hex_bytes(ByteSpan bytes) {
  std::string hex;
  for (std::size_t i = 0; i < bytes.size(); ++i) hex += fmt::format("{:02x}", bytes[i]);
  return hex;
}

// convert's own options.
struct ConvertOptions {
  std::string queue, reader;
};

class LibkestrelDriver final : public Driver {
 public:
  LibkestrelDriver() {
    dump_.does = "every item of each segment, and each bookmark";
    dump_.read = [](const ReadRequest& r) { return run_libkestrel_dump(run(r)); };

    verify_.does = "decodes segments and bookmarks; replays every reader";
    verify_.verify = [](const ReadRequest& r) { return check_libkestrel(run(r)); };

    replay_.does = "what each reader still has to read";
    replay_.read = [](const ReadRequest& r) { return run_libkestrel_replay(run(r)); };

    stats_.does = "per queue, reader and segment: items, lag, and the readers that pin each segment";
    stats_.stats = [](const ReadRequest& r, StatsModel* model, Reporter* findings) {
      return run_libkestrel_stats(run(r), model, findings);
    };

    compact_.does = "drops the segments every reader has read";
    compact_.add_options = bind_options<bool>([](CLI::App* group, bool* rewrite_bookmarks) {
      group->add_flag("--rewrite-bookmarks", *rewrite_bookmarks, "Also rewrite each bookmark in its canonical form");
    });
    compact_.write = [](const WriteRequest& r) {
      return run_libkestrel_compact({.paths = r.paths,
                                     .queue = r.queue,
                                     .json = r.json,
                                     .apply = r.apply,
                                     .rewrite_bookmarks = options_in<bool>(r.options),
                                     .if_reclaimable = r.if_reclaimable,
                                     .guard = r.guard});
    };

    convert_.does = "a classic queue to Kestrel 3 (libkestrel); a reader's queue to classic; a queue to JSON Lines";
    convert_.targets = {"libkestrel", "classic", "jsonl"};
    convert_.add_options = bind_options<ConvertOptions>([](CLI::App* group, ConvertOptions* o) {
      group->add_option("--reader", o->reader,
                        "libkestrel: the reader to create (default: the default reader); classic: the reader whose "
                        "queue to write");
      group->add_option("--queue", o->queue, "libkestrel, classic, jsonl: the queue of a directory to convert");
    });
    convert_.convert = [](const ConvertRequest& r) {
      const auto claim = claim_path(r.input, r.drivers);
      const std::string family = claim && claim->positive ? std::string(claim->driver->name()) : "";
      const auto o = options_in<ConvertOptions>(r.options);
      return run_libkestrel_convert({r.to, r.input, r.output, o.queue, o.reader, r.data, family,
                                     input_time_ms(r.input, r.add_time), r.guard, r.drivers});
    };

    gen_.does = "a queue's segments and reader bookmarks";
    gen_.corruptions = libkestrel::queue_corruptions();
    gen_.add_options = bind_options<LibkestrelGenOptions>(add_libkestrel_gen_options);
    gen_.gen = [](const GenRequest& r) { return run_libkestrel_gen(r, options_in<LibkestrelGenOptions>(r.options)); };
  }

  std::string_view name() const override { return "libkestrel"; }
  std::string_view title() const override { return "Kestrel 3 (libkestrel) segments and bookmarks"; }

  std::optional<Claim> claim(const std::string&, ByteSpan bytes) const override {
    switch (libkestrel::file_kind(bytes)) {
      case libkestrel::FileKind::kSegment:
        return Claim{true, "a libkestrel segment magic", "libkestrel"};
      case libkestrel::FileKind::kBookmark:
        return Claim{true, "a libkestrel bookmark magic", "libkestrel"};
      case libkestrel::FileKind::kClassic:
        break;
    }
    // A segment or bookmark cut inside its magic: no classic journal starts
    // with 0x27 or 0x26, which are not Kestrel opcodes. Evidence enough to
    // name the family in the finding read commands give such a file
    // (path_family.h), but not proof enough for a write, nor to make its
    // directory a queue (read as files, the walk's verdict is the file's).
    if (bytes.empty() || bytes.size() >= 4) return std::nullopt;
    for (const auto& [magic, kind] :
         {std::pair{libkestrel::kSegmentMagic, "segment"}, {libkestrel::kBookmarkMagic, "bookmark"}}) {
      if (!is_magic_prefix(bytes, magic)) continue;
      return Claim{.positive = false,
                   .evidence = fmt::format("too short to be a libkestrel {}: {} of 4 magic bytes (expected {:08x}, "
                                           "found {})",
                                           kind, bytes.size(), magic, hex_bytes(bytes)),
                   .group = "libkestrel",
                   .unrecognised = false,
                   .makes_directory = false};
    }
    return std::nullopt;
  }

  std::string_view looks_for() const override { return "a libkestrel segment or bookmark magic (27642603, 263c2603)"; }

  std::string_view why_not(std::string_view command) const override {
    return command == "repair" ? "libkestrel truncates a damaged segment at its own startup; qjt verify "
                                 "shows what it would cut"
                               : "";
  }

  std::vector<std::vector<std::string>> units(const std::vector<std::string>& paths) const override {
    return libkestrel_units(paths);
  }

  FilterFields filter_fields() const override {
    return {.ops = {"PUT", "READ_HEAD", "READ_DONE", "UNKNOWN", "END_OF_FILE", "BROKEN"},
            .time = "add time",
            .offsets = true};
  }

  Capability* provides(std::string_view command) override {
    return offered(command, {{"dump", &dump_},
                             {"verify", &verify_},
                             {"replay", &replay_},
                             {"stats", &stats_},
                             {"compact", &compact_},
                             {"convert", &convert_},
                             {"gen", &gen_}});
  }

 private:
  static LibkestrelRun run(const ReadRequest& r) {
    return {.paths = r.paths,
            .queue = r.queue,
            .json = r.json,
            .data = r.data,
            .limit = r.limit,
            .filter = r.filter,
            .strict = r.strict,
            .quiet = r.quiet,
            .printed = r.printed};
  }
  ReadCapability dump_, replay_;
  VerifyCapability verify_;
  StatsCapability stats_;
  WriteCapability compact_;
  ConvertCapability convert_;
  GenCapability gen_;
};

}  // namespace

Driver& libkestrel_driver() {
  static LibkestrelDriver driver;
  return driver;
}

}  // namespace qjt::cli
