// canal_properties: an instance.properties or canal.properties, read as
// java.util.Properties.load reads it (destination_config.h). Every key and
// value read is whole UTF-8, and reading never exceeds the input's bound.
#include "canal/destination_config.h"
#include "fuzz_support.h"
#include "json_writer.h"

using namespace qjt;
using namespace qjt::canal;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Properties properties;
  std::vector<PropertiesProblem> problems;
  read_properties(fuzz::bytes(data, size).as_chars(), &properties, &problems);
  for (const auto& [key, value] : properties) {
    FUZZ_CHECK(valid_utf8_prefix(key) == key.size());
    FUZZ_CHECK(valid_utf8_prefix(value) == value.size());
  }
  for (const PropertiesProblem& p : problems) FUZZ_CHECK(p.offset <= size);
  return 0;
}
