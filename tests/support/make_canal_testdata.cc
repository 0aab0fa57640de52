// Writes the one binary file of testdata/canal: a rolled meta.log, gzip'd
// the way logback rolls it (logs/<destination>/<date>/meta-<date>-<i>.log.gz).
// Its lines are the pre-2017 three-field form (canal-format.md §2): one
// with an address, one without. Everything else in testdata/canal is plain
// text written by hand. Links zlib only, none of qjt's libraries.
//
//   make_canal_testdata OUT_DIR
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

constexpr const char* kRolledLog =
    "2021-01-14 10:00:00.000 - clientId:1001 cursor:[mysql-bin.000264,396,1610618400000] "
    "address[db1.internal/10.0.0.5:3306]\n"
    "2021-01-14 10:00:01.000 - clientId:1001 cursor:[mysql-bin.000264,1200,1610618401000]\n";

// A gzip member with a zero mtime, so the bytes do not depend on the clock.
std::string gzip(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_canal_testdata OUT_DIR\n");
    return 2;
  }
  const std::filesystem::path dir = std::filesystem::path(argv[1]) / "logs" / "example" / "2021-01-14";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "meta-2021-01-14-1.log.gz", std::ios::binary) << gzip(kRolledLog);
  return 0;
}
