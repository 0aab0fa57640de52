// Building blocks for the unit tests that lay out a Flume file channel on
// disk: V3 logs written record by record with qjt's encoders (each one
// checked against the spec's bytes in flume_log_tests.cc), their metas, and
// a checkpoint dir plus data dirs in a temporary directory.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flume/aes_ctr.h"
#include "flume/channel_layout.h"
#include "flume/event_pointer.h"
#include "flume/log_metadata.h"
#include "flume/log_writer.h"
#include "unit_helpers.h"

namespace qjt_test::flume {

namespace fs = std::filesystem;
using qjt::flume::EventPointer;

inline void put_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Some of the 0x80 fill Flume preallocates after the data.
inline const std::string kFill(64, '\x80');

// One V3 data log being written: each call appends one record and returns
// where its OP byte sits (for a put: the pointer a queue holds).
struct LogFile {
  explicit LogFile(std::int32_t file_id, qjt::flume::AesCtr* cipher = nullptr) : id(file_id), writer(cipher) {}

  EventPointer put(std::int64_t txid, std::int64_t woid, std::string_view body) {
    const auto at = bytes.size();
    REQUIRE(writer.put(&bytes, txid, woid, {}, body));
    return EventPointer{id, static_cast<std::int32_t>(at)};
  }
  std::size_t take(std::int64_t txid, std::int64_t woid, EventPointer taken) {
    const auto at = bytes.size();
    REQUIRE(writer.take(&bytes, txid, woid, taken));
    return at;
  }
  std::size_t rollback(std::int64_t txid, std::int64_t woid) {
    const auto at = bytes.size();
    REQUIRE(writer.rollback(&bytes, txid, woid));
    return at;
  }
  std::size_t commit(std::int64_t txid, std::int64_t woid, std::int16_t type) {
    const auto at = bytes.size();
    REQUIRE(writer.commit(&bytes, txid, woid, type));
    return at;
  }
  std::int64_t position() const { return static_cast<std::int64_t>(bytes.size()); }

  // The meta Flume writes for this log, with the checkpoint mark (position, woid).
  qjt::flume::LogMetadata meta(std::int64_t mark_position = 0, std::int64_t mark_woid = 0,
                               std::optional<qjt::flume::LogFileEncryption> encryption = std::nullopt) const {
    qjt::flume::LogMetadata m;
    m.log_file_id = id;
    m.checkpoint_position = mark_position;
    m.checkpoint_write_order_id = mark_woid;
    m.encryption = std::move(encryption);
    return m;
  }
  // log-N (records, then `tail`) and log-N.meta.
  void write_with_meta(const fs::path& dir, const qjt::flume::LogMetadata& m, std::string_view tail = kFill) const {
    const std::string name = "log-" + std::to_string(id);
    put_file(dir / name, bytes + std::string(tail));
    put_file(dir / (name + ".meta"), qjt::flume::encode_log_metadata(m));
  }
  void write(const fs::path& dir, std::int64_t mark_position = 0, std::int64_t mark_woid = 0,
             std::optional<qjt::flume::LogFileEncryption> encryption = std::nullopt) const {
    write_with_meta(dir, meta(mark_position, mark_woid, std::move(encryption)));
  }

  std::int32_t id;
  qjt::flume::V3RecordWriter writer;
  std::string bytes;
};

// A checkpoint dir and `data_dirs` data dirs in a fresh temporary directory.
struct Dirs {
  explicit Dirs(std::string_view tag, std::size_t data_dirs = 1) : tmp(tag) {
    cp = tmp.path() / "checkpoint";
    fs::create_directories(cp);
    for (std::size_t i = 1; i <= data_dirs; ++i) {
      data.push_back(tmp.path() / ("data" + std::to_string(i)));
      fs::create_directories(data.back());
    }
  }
  qjt::flume::ChannelDirs channel(std::optional<fs::path> backup = std::nullopt) const {
    qjt::flume::ChannelDirs dirs;
    dirs.checkpoint_dir = cp.string();
    for (const auto& d : data) dirs.data_dirs.push_back(d.string());
    if (backup) dirs.backup_dir = backup->string();
    return dirs;
  }
  TempDir tmp;
  fs::path cp;
  std::vector<fs::path> data;
};

// One of Flume's own V2 channels from ../shared/fixtures/flume-v2 (file
// names start with `prefix`), laid out as Flume's tests lay it out:
// checkpoint/checkpoint (unless !with_checkpoint), data1/log-1 ... data3/log-3
// (`d` needs three data dirs). False when the fixtures are not on this
// machine.
inline bool lay_out_v2_fixture(const Dirs& d, const std::string& prefix, bool with_checkpoint) {
  auto checkpoint = read_shared_fixture_gz("flume-v2/" + prefix + "checkpoint.gz");
  if (!checkpoint) return false;
  if (with_checkpoint) write_file(d.cp / "checkpoint", *checkpoint);
  for (int i = 1; i <= 3; ++i) {
    auto log = read_shared_fixture_gz("flume-v2/" + prefix + "log-" + std::to_string(i) + ".gz");
    if (!log) return false;
    write_file(d.data[static_cast<std::size_t>(i - 1)] / ("log-" + std::to_string(i)), *log);
  }
  return true;
}

}  // namespace qjt_test::flume
