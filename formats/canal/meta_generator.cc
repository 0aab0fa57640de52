#include "canal/meta_generator.h"

#include <ctime>
#include <filesystem>

#include <fmt/format.h>

#include "canal/meta_dat.h"
#include "generated_files.h"
#include "synthetic_data.h"

namespace qjt::canal {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kFirstClientId = 1001;
constexpr std::int64_t kServerId = 1;
constexpr std::int64_t kPort = 3306;
constexpr std::string_view kHost = "db1.internal";
constexpr std::string_view kAddress = "db1.internal/10.0.0.5:3306";

// "yyyy-MM-dd HH:mm:ss.SSS" in UTC.
std::string log_time(std::int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:03}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, ms % 1000);
}

Cursor first_cursor(std::int64_t timestamp) {
  Cursor c;
  c.address = std::string(kHost);
  c.port = kPort;
  c.journal_name = "mysql-bin.000001";
  c.position = 4;
  c.server_id = kServerId;
  c.timestamp = timestamp;
  c.gtid = "";
  return c;
}

bool make_parent(const std::string& path, std::string* error) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) *error = fmt::format("cannot create directory {}: {}", fs::path(path).parent_path().string(), ec.message());
  return !ec;
}

}  // namespace

std::vector<std::string_view> meta_corruptions() { return {"truncate", "empty"}; }

std::optional<std::string> check_meta_options(const MetaGeneratorOptions& o) {
  if (o.clients == 0 || o.clients > 1000) return "--clients: expected 1 to 1000";
  if (o.updates < o.clients)
    return fmt::format("--records {}: at least one update per client ({}) is needed", o.updates, o.clients);
  if (o.destination.empty() || o.destination.find_first_of("/\\") != std::string::npos || o.destination == "." ||
      o.destination == "..")
    return fmt::format("--destination '{}': expected a directory name", o.destination);
  return std::nullopt;
}

GenerateStatus generate_canal_meta(const std::string& dir, const MetaGeneratorOptions& o, MetaGeneratorReport* report,
                                   std::string* error) {
  if (auto problem = check_meta_options(o)) {
    *error = *problem;
    return GenerateStatus::kUsage;
  }
  report->meta_dat = (fs::path(dir) / "conf" / o.destination / "meta.dat").string();
  report->meta_log = (fs::path(dir) / "logs" / o.destination / "meta.log").string();
  std::vector<std::string> stale;
  for (const std::string& path : {report->meta_dat, report->meta_log})
    if (fs::exists(path)) stale.push_back(path);
  if (!stale.empty() && !o.force) {
    *error = fmt::format("{} exists: give --force to replace it", stale.front());
    return GenerateStatus::kIoError;
  }
  if (!make_parent(report->meta_dat, error) || !make_parent(report->meta_log, error)) return GenerateStatus::kIoError;
  GeneratedFiles files;
  auto log = files.create(report->meta_log, error);
  if (!log) return GenerateStatus::kIoError;
  Rng rng(o.seed);
  std::vector<Cursor> cursors;
  std::string line;
  for (std::uint64_t i = 0; i < o.updates; ++i) {
    const std::int64_t now = o.start_ms + static_cast<std::int64_t>(i) * 1000;
    std::size_t client = i;
    if (i < o.clients) {
      cursors.push_back(first_cursor(now));
    } else {
      client = rng.below(o.clients);
      Cursor& c = cursors[client];
      if (rng.below(50) == 0) {
        c.journal_name = fmt::format("mysql-bin.{:06}", std::stoi(c.journal_name->substr(10)) + 1);
        c.position = 4;
        ++report->binlog_rolls;
      } else {
        *c.position += static_cast<std::int64_t>(100 + rng.below(9901));
      }
      c.timestamp = now - static_cast<std::int64_t>(rng.below(1000));
    }
    const Cursor& c = cursors[client];
    report->last_time = log_time(now);
    line = fmt::format("{} - clientId:{} cursor:[{},{},{},{},] address[{}]\n", report->last_time,
                       kFirstClientId + static_cast<std::int64_t>(client), *c.journal_name, *c.position, *c.timestamp,
                       kServerId, kAddress);
    report->meta_log_bytes += line.size();
    if (!log->append(ByteSpan(line), error)) return GenerateStatus::kIoError;
  }
  if (!log->sync(error)) return GenerateStatus::kIoError;
  log.reset();
  MetaDat meta{o.destination, {}};
  for (std::size_t k = 0; k < cursors.size(); ++k)
    meta.clients.push_back(
        ClientData{kFirstClientId + static_cast<std::int64_t>(k), o.destination, std::string(), cursors[k], 0});
  std::string bytes = write_meta_dat(meta);
  if (o.corrupt == "truncate") {
    report->corruption = GeneratedDamage{o.corrupt, report->meta_dat, std::nullopt,
                                         fmt::format("cut from {} to {} bytes", bytes.size(), bytes.size() / 2)};
    bytes.resize(bytes.size() / 2);
  } else if (o.corrupt == "empty") {
    report->corruption = GeneratedDamage{o.corrupt, report->meta_dat, std::nullopt,
                                         fmt::format("left empty ({} bytes dropped)", bytes.size())};
    bytes.clear();
  }
  report->meta_dat_bytes = bytes.size();
  report->updates = o.updates;
  if (!files.write_whole(report->meta_dat, bytes, error) ||
      !files.install(stale, fmt::format("the Canal files of {} were written", o.destination), error))
    return GenerateStatus::kIoError;
  return GenerateStatus::kOk;
}

}  // namespace qjt::canal
