#include "registry.h"

#include <algorithm>
#include <array>

namespace qjt::app {

Driver& libkestrel_driver();  // libkestrel_driver.cc
Driver& canal_driver();       // canal_driver.cc
Driver& flume_driver();       // flume_driver.cc
Driver& kestrel_driver();     // kestrel_driver.cc

Registry registry() {
  static const std::array<Driver*, 4> drivers{&libkestrel_driver(), &canal_driver(), &flume_driver(),
                                              &kestrel_driver()};
  return drivers;
}

Driver* find_driver(Registry drivers, std::string_view name) {
  for (Driver* d : drivers) {
    const auto kinds = d->kinds();
    if (d->name() == name || std::find(kinds.begin(), kinds.end(), name) != kinds.end()) return d;
  }
  return nullptr;
}

}  // namespace qjt::app
