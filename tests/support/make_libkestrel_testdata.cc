// Writes testdata/libkestrel: two small Kestrel 3 (libkestrel) queue
// directories for the CLI tests and the README examples. The bytes are laid
// out here by hand from the spec (kestrel-format.md §5.1 to §5.3), without
// any of qjt's code, so the fixtures never depend on the decoder under test.
// What libkestrel makes of them is derived by hand in
// tests/libkestrel/libkestrel_cli.sh.
//
//   make_libkestrel_testdata OUT_DIR
//
// queue/    queue "jobs", six items in three segments:
//   jobs.1700000000000  PUT 1 "alpha", PUT 2 "bravo" (expiry 1700000600000)
//   jobs.1700000001000  PUT 3 "charlie", PUT 4 "delta" (error count 2)
//   jobs.1700000002000  PUT 5 "echo", PUT 6 "foxtrot", then 16 zero bytes
//                       (the tail of a pre-extended segment after a crash)
//   jobs.read.web       head 3, done {5}
//   jobs.read.audit     head 4, done {}
//   Add times are 1700000000000 + 1000 * id.
// damaged/  queue "q":
//   q.1           PUT 1 "one", an unknown command 5 (1 header word), PUT 2
//                 "two", then PUT 3 cut inside its data
//   q.2           PUT 4 "four", a 0x00 end byte, then 00 00 07 00
//   q.read.       head 7, done {9, 9}
//   q.read.x~~5   a bookmark checkpoint that never got renamed
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string g_out;

void le(std::string* out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

const std::string kSegment("\x27\x64\x26\x03", 4);
const std::string kBookmark("\x26\x3c\x26\x03", 4);

// 0x86: size, error count, id, add time, data; 0x88 adds the expiry.
std::string put(std::int64_t id, const std::string& data, std::int64_t expiry = 0, std::int32_t errors = 0) {
  std::string out(1, static_cast<char>(expiry ? 0x88 : 0x86));
  le(&out, data.size(), 4);
  le(&out, static_cast<std::uint32_t>(errors), 4);
  le(&out, static_cast<std::uint64_t>(id), 8);
  le(&out, static_cast<std::uint64_t>(1700000000000 + 1000 * id), 8);
  if (expiry) le(&out, static_cast<std::uint64_t>(expiry), 8);
  return out + data;
}

// 0x02 head; 0x91 byte count then the ids.
std::string bookmark(std::int64_t head, std::initializer_list<std::int64_t> done) {
  std::string out = kBookmark + "\x02";
  le(&out, static_cast<std::uint64_t>(head), 8);
  out.push_back('\x91');
  le(&out, done.size() * 8, 4);
  for (std::int64_t id : done) le(&out, static_cast<std::uint64_t>(id), 8);
  return out;
}

void write(const std::string& dir, const std::string& name, const std::string& bytes) {
  fs::create_directories(fs::path(g_out) / dir);
  std::ofstream(fs::path(g_out) / dir / name, std::ios::binary) << bytes;
}

void make_queue() {
  write("queue", "jobs.1700000000000", kSegment + put(1, "alpha") + put(2, "bravo", 1700000600000));
  write("queue", "jobs.1700000001000", kSegment + put(3, "charlie") + put(4, "delta", 0, 2));
  write("queue", "jobs.1700000002000", kSegment + put(5, "echo") + put(6, "foxtrot") + std::string(16, '\0'));
  write("queue", "jobs.read.web", bookmark(3, {5}));
  write("queue", "jobs.read.audit", bookmark(4, {}));
}

void make_damaged() {
  std::string unknown = "\x51";
  le(&unknown, 0xdeadbeef, 4);
  const std::string cut = put(3, "three").substr(0, 28);
  write("damaged", "q.1", kSegment + put(1, "one") + unknown + put(2, "two") + cut);
  write("damaged", "q.2", kSegment + put(4, "four") + std::string("\0\0\0\x07\0", 5));
  write("damaged", "q.read.", bookmark(7, {9, 9}));
  write("damaged", "q.read.x~~5", bookmark(1, {}));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_libkestrel_testdata OUTDIR\n";
    return 2;
  }
  g_out = argv[1];
  make_queue();
  make_damaged();
  return 0;
}
