// prometheus_lint: reads a Prometheus text exposition on standard input,
// prints each breach of its grammar (exposition_validator.h) and exits 1
// when there is one, 0 when it is well-formed. For the stats tests.
#include <iostream>
#include <iterator>
#include <string>

#include "exposition_validator.h"

int main() {
  const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  const auto errors = qjt_test::exposition_errors(text);
  for (const std::string& error : errors) std::cout << error << "\n";
  return errors.empty() ? 0 : 1;
}
