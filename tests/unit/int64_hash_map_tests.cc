// lib/int64_hash_map.h against std::unordered_map: the same answers after
// a long random run of inserts and erases over few keys (so erases meet
// long probe chains and the table grows), key 0 included.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <unordered_map>

#include "int64_hash_map.h"

namespace qjt {
namespace {

TEST_CASE("Int64HashMap: agrees with std::unordered_map over random inserts and erases") {
  Int64HashMap<std::int64_t> map;
  std::unordered_map<std::int64_t, std::int64_t> model;
  std::mt19937_64 random(20261207);
  for (int step = 0; step < 200000; ++step) {
    const std::int64_t key = static_cast<std::int64_t>(random() % 5000) - 100;  // 0 and negatives too
    if (random() % 3 == 0) {
      CHECK(map.erase(key) == (model.erase(key) == 1));
    } else {
      bool inserted = false;
      const std::int64_t value = static_cast<std::int64_t>(random());
      const std::int64_t kept = map.insert(key, value, &inserted);
      const auto [it, model_inserted] = model.emplace(key, value);
      CHECK(inserted == model_inserted);
      CHECK(kept == it->second);
    }
  }
  CHECK(map.size() == model.size());
  std::size_t seen = 0;
  map.for_each([&](std::int64_t key, std::int64_t value) {
    ++seen;
    const auto it = model.find(key);
    REQUIRE(it != model.end());
    CHECK(it->second == value);
  });
  CHECK(seen == model.size());
  for (std::int64_t key = -100; key < 4900; ++key) CHECK(map.contains(key) == (model.count(key) == 1));
}

TEST_CASE("Int64HashMap: key 0 is a key like any other") {
  Int64HashMap<int> map;
  CHECK(map.find(0) == nullptr);
  CHECK_FALSE(map.erase(0));
  map.insert(0, 7);
  REQUIRE(map.find(0) != nullptr);
  CHECK(*map.find(0) == 7);
  CHECK(map.size() == 1);
  CHECK(map.erase(0));
  CHECK(map.empty());
}

}  // namespace
}  // namespace qjt
