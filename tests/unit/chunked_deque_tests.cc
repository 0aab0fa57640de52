// ChunkedDeque against std::deque as the model, with chunks small enough
// that every path (new chunk at either end, spare reuse, emptying) runs.
#include <deque>
#include <random>

#include <doctest/doctest.h>

#include "chunked_deque.h"

namespace {

template <typename D>
std::deque<int> contents(const D& d) {
  return std::deque<int>(d.begin(), d.end());
}

}  // namespace

TEST_CASE("chunked deque: matches std::deque under random pushes and pops") {
  qjt::ChunkedDeque<int, 4> deque;
  std::deque<int> model;
  std::mt19937 random(7);
  for (int step = 0; step < 20000; ++step) {
    const auto op = random() % 10;
    if (op < 5) {
      deque.push_back(step);
      model.push_back(step);
    } else if (op < 7) {
      deque.push_front(step);
      model.push_front(step);
    } else if (!model.empty()) {
      REQUIRE(deque.front() == model.front());
      deque.pop_front();
      model.pop_front();
    }
    REQUIRE(deque.size() == model.size());
    if (!model.empty()) {
      REQUIRE(deque.front() == model.front());
      REQUIRE(deque.back() == model.back());
    }
    if (step % 997 == 0) REQUIRE(contents(deque) == model);
  }
  REQUIRE(contents(deque) == model);
}

TEST_CASE("chunked deque: emptied and refilled, front pushes on an empty deque") {
  qjt::ChunkedDeque<int, 2> deque;
  deque.push_front(1);
  deque.push_back(2);
  deque.push_back(3);
  CHECK(contents(deque) == std::deque<int>{1, 2, 3});
  deque.pop_front();
  deque.pop_front();
  deque.pop_front();
  CHECK(deque.empty());
  deque.push_front(4);
  deque.push_front(5);
  deque.push_back(6);
  CHECK(contents(deque) == std::deque<int>{5, 4, 6});
  CHECK(deque[2] == 6);
}
