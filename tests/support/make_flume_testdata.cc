// Writes testdata/flume: small Flume file channels for the CLI tests and
// the README examples, built with qjt's Flume encoders (each checked byte
// for byte against the spec's vectors in the unit tests). The scenario is
// fixed, and what Flume recovers from it is derived by hand in
// tests/flume/channel_cli.sh, not from qjt's output.
//
//   make_flume_testdata OUT_DIR
//
// channel/   a V3 channel, capacity 10, checkpoint write order id 1000:
//   before the checkpoint  txn 1 (data1): put alpha, put bravo, commit
//                          txn 2 (data2): put charlie, commit
//                          txn 3 (data1): take alpha         (open: inflighttakes)
//                          txn 4 (data2): put delta          (open: inflightputs)
//   after it               txn 4: commit;  txn 5 (data1): put echo, rollback
//                          txn 6 (data2): put foxtrot, commit
//                          txn 7 (data1): take charlie, commit
//                          txn 8 (data1): put golf           (never committed)
// damaged/   the same, with one byte of foxtrot's body changed (its CRC
//            fails) and the checkpoint marked incomplete; backup/ holds a
//            complete copy of the checkpoint, as snappy, with backupComplete.
// encrypted/ the same as channel/, with log-2 encrypted (AES-128-CTR, key
//            alias "k1", key 000102...0f).
// v2/        a V2 channel as Flume 1.2 left it (no meta files, no inflight
//            files), capacity 10, checkpoint write order id 1000:
//   before the checkpoint  txn 1 (data1): put alpha, put bravo, commit
//                          txn 2 (data2): put charlie {"k":"v"}, commit
//   after it               txn 3 (data2): put delta, commit
//                          txn 4 (data1): take alpha, commit
//   The checkpoint holds [alpha, bravo, charlie], counts 1:2, 2:1; each
//   log's header marks its checkpoint position. Flume recovers bravo,
//   charlie, delta; `qjt convert --to flume-v3` upgrades its checkpoint.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "flume/checkpoint_file.h"
#include "flume/checkpoint_meta.h"
#include "flume/event_queue.h"
#include "flume/inflight_file.h"
#include "flume/log_metadata.h"
#include "flume/log_writer.h"
#include "flume/snappy_stream.h"

namespace fs = std::filesystem;
using namespace qjt::flume;

namespace {

constexpr std::int64_t kCheckpointWoid = 1000;
constexpr std::int64_t kCapacity = 10;
const std::string kKey = std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f", 16);
const std::string kIv = std::string("\xa0\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8\xa9\xaa\xab\x00\x00\x00\x01", 16);

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

struct Log {
  std::int32_t id;
  std::string bytes;
  std::int64_t checkpoint_position = 0;
  std::unique_ptr<AesCtr> cipher;
  V3RecordWriter writer() const { return V3RecordWriter(cipher.get()); }
  EventPointer here() const { return EventPointer{id, static_cast<std::int32_t>(bytes.size())}; }
};

struct Channel {
  Log log1{1, {}, 0, nullptr};
  Log log2{2, {}, 0, nullptr};
  EventPointer alpha, bravo, charlie, delta, foxtrot;
};

Channel build(bool encrypt_log2, bool damage_foxtrot) {
  Channel c;
  if (encrypt_log2) {
    std::string error;
    c.log2.cipher = std::make_unique<AesCtr>(*AesCtr::create(qjt::ByteSpan(kKey), qjt::ByteSpan(kIv), &error));
  }
  const HeaderToWrite host[] = {{"host", "web-1"}};
  const HeaderToWrite none[] = {{"empty", std::nullopt}};
  Log& l1 = c.log1;
  Log& l2 = c.log2;
  c.alpha = l1.here();
  l1.writer().put(&l1.bytes, 1, 901, host, "alpha");
  c.bravo = l1.here();
  l1.writer().put(&l1.bytes, 1, 902, {}, "bravo");
  l1.writer().commit(&l1.bytes, 1, 903, 1);
  c.charlie = l2.here();
  l2.writer().put(&l2.bytes, 2, 904, none, "charlie");
  l2.writer().commit(&l2.bytes, 2, 905, 1);
  l1.writer().take(&l1.bytes, 3, 906, c.alpha);
  c.delta = l2.here();
  l2.writer().put(&l2.bytes, 4, 907, {}, "delta");
  l1.checkpoint_position = static_cast<std::int64_t>(l1.bytes.size());
  l2.checkpoint_position = static_cast<std::int64_t>(l2.bytes.size());
  l2.writer().commit(&l2.bytes, 4, 1001, 1);
  l1.writer().put(&l1.bytes, 5, 1002, {}, "echo");
  l1.writer().rollback(&l1.bytes, 5, 1003);
  c.foxtrot = l2.here();
  l2.writer().put(&l2.bytes, 6, 1004, host, "foxtrot");
  if (damage_foxtrot) l2.bytes[l2.bytes.size() - 12] ^= 0x20;  // inside the body "foxtrot"
  l2.writer().commit(&l2.bytes, 6, 1005, 1);
  l1.writer().take(&l1.bytes, 7, 1006, c.charlie);
  l1.writer().commit(&l1.bytes, 7, 1007, 2);
  l1.writer().put(&l1.bytes, 8, 1008, {}, "golf");
  // Flume preallocates and fills with OP_EOF; a short fill is enough here.
  for (Log* l : {&l1, &l2}) l->bytes.append(64, static_cast<char>(0x80));
  return c;
}

// The checkpoint's queue: what Flume's queue held at write order id 1000,
// built by the same addTail/removeHead rules Flume uses.
std::vector<std::string> checkpoint_files(const Channel& c, std::int64_t marker) {
  std::string error;
  EventQueue queue = *EventQueue::create(kCapacity, &error);
  queue.add_tail(c.alpha);
  queue.add_tail(c.bravo);
  queue.add_tail(c.charlie);
  EventPointer taken;
  queue.remove_head(&taken);  // txn 3's take of alpha
  CheckpointImage image;
  image.version = 3;
  image.write_order_id = kCheckpointWoid;
  image.marker = marker;
  image.slots = queue.slots();
  CheckpointMeta meta;
  meta.write_order_id = kCheckpointWoid;
  meta.queue_size = queue.size();
  meta.queue_head = queue.head();
  for (const auto& [file_id, count] : queue.reference_counts())
    meta.active_logs.push_back(ActiveLogCount{file_id, static_cast<std::int32_t>(count)});
  return {*encode_checkpoint(image), encode_checkpoint_meta(meta),
          encode_inflight({InflightTransaction{4, {c.delta}, 0}}),
          encode_inflight({InflightTransaction{3, {c.alpha}, 0}})};
}

void write_logs(const fs::path& dir, const Channel& c) {
  for (const Log* l : {&c.log1, &c.log2}) {
    const fs::path data = dir / ("data" + std::to_string(l->id));
    write(data / ("log-" + std::to_string(l->id)), l->bytes);
    LogMetadata meta;
    meta.log_file_id = l->id;
    meta.checkpoint_position = l->checkpoint_position;
    meta.checkpoint_write_order_id = kCheckpointWoid;
    if (l->cipher) meta.encryption = LogFileEncryption{"AESCTRNOPADDING", "k1", kIv};
    write(data / ("log-" + std::to_string(l->id) + ".meta"), encode_log_metadata(meta));
  }
}

void write_checkpoint(const fs::path& dir, const std::vector<std::string>& files) {
  write(dir / "checkpoint", files[0]);
  write(dir / "checkpoint.meta", files[1]);
  write(dir / "inflightputs", files[2]);
  write(dir / "inflighttakes", files[3]);
}

void write_channel(const fs::path& dir, bool encrypt, bool damage) {
  const Channel c = build(encrypt, damage);
  write_logs(dir, c);
  write_checkpoint(dir / "checkpoint", checkpoint_files(c, damage ? kCheckpointIncomplete : kCheckpointComplete));
  if (!damage) return;
  std::vector<std::string> backup = checkpoint_files(c, kCheckpointComplete);
  write(dir / "backup" / "checkpoint.snappy", compress_snappy_stream(qjt::ByteSpan(backup[0])));
  backup.erase(backup.begin());
  write(dir / "backup" / "checkpoint.meta", backup[0]);
  write(dir / "backup" / "inflightputs", backup[1]);
  write(dir / "backup" / "inflighttakes", backup[2]);
  write(dir / "backup" / "backupComplete", "");
}

// The V2 channel: logs with 24-byte headers, a V2 checkpoint whose header
// holds size, head and the reference counts.
void write_v2_channel(const fs::path& dir) {
  V2LogHeader h1{2, 1, 0, kCheckpointWoid}, h2{2, 2, 0, kCheckpointWoid};
  std::string l1, l2;
  append_v2_log_header(&l1, h1);
  append_v2_log_header(&l2, h2);
  const EventPointer alpha{1, static_cast<std::int32_t>(l1.size())};
  append_v2_put(&l1, 1, 901, {}, "alpha");
  const EventPointer bravo{1, static_cast<std::int32_t>(l1.size())};
  append_v2_put(&l1, 1, 902, {}, "bravo");
  append_v2_commit(&l1, 1, 903, 1);
  const HeaderToWrite kv[] = {{"k", "v"}};
  const EventPointer charlie{2, static_cast<std::int32_t>(l2.size())};
  append_v2_put(&l2, 2, 904, kv, "charlie");
  append_v2_commit(&l2, 2, 905, 1);
  h1.checkpoint_position = static_cast<std::int64_t>(l1.size());
  h2.checkpoint_position = static_cast<std::int64_t>(l2.size());
  append_v2_put(&l2, 3, 1001, {}, "delta");
  append_v2_commit(&l2, 3, 1002, 1);
  append_v2_take(&l1, 4, 1003, alpha);
  append_v2_commit(&l1, 4, 1004, 2);
  for (auto [log, header] : {std::pair{&l1, &h1}, std::pair{&l2, &h2}}) {
    std::string marked;
    append_v2_log_header(&marked, *header);
    log->replace(0, marked.size(), marked);
    log->append(64, static_cast<char>(0x80));
  }
  write(dir / "data1" / "log-1", l1);
  write(dir / "data2" / "log-2", l2);
  std::string error;
  EventQueue queue = *EventQueue::create(kCapacity, &error);
  for (EventPointer p : {alpha, bravo, charlie}) queue.add_tail(p);
  CheckpointImage image;
  image.version = 2;
  image.write_order_id = kCheckpointWoid;
  image.v2_size = queue.size();
  image.v2_head = queue.head();
  image.v2_active_logs = {ActiveLogCount{1, 2}, ActiveLogCount{2, 1}};
  image.slots = queue.slots();
  write(dir / "checkpoint" / "checkpoint", *encode_checkpoint(image));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_flume_testdata OUT_DIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  write_channel(out / "channel", false, false);
  write_channel(out / "damaged", false, true);
  write_channel(out / "encrypted", true, false);
  write_v2_channel(out / "v2");
  return 0;
}
