#include "registry.h"

#include <array>

namespace qjt::cli {

Driver& libkestrel_driver();  // formats/libkestrel/cli/libkestrel_driver.cc
Driver& canal_driver();       // formats/canal/cli/canal_driver.cc
Driver& flume_driver();       // formats/flume/cli/flume_driver.cc
Driver& kestrel_driver();     // formats/kestrel/cli/kestrel_driver.cc

Registry registry() {
  static const std::array<Driver*, 4> drivers{&libkestrel_driver(), &canal_driver(), &flume_driver(),
                                              &kestrel_driver()};
  return drivers;
}

}  // namespace qjt::cli
