// Reporter decorators any family can put between a decoder and the sink
// that keeps the findings (finding.h). Each forwards to `next`, which must
// outlive it, unless said otherwise.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "finding.h"

namespace qjt {

// Keeps the first of identical findings (same code, file and offset): two
// passes over the same bytes, such as a decoder and a replay, can meet the
// same broken record and would report it twice. A finding with a cause is
// one of many by design, told once each (such as the queue elements that
// point into a missing log, which share its file and no offset): it goes
// through, for the fold (FindingFolder) to count.
//
// What it remembers does not grow with the damage: per code and file, the
// offsets of the first kRemembered findings; past them, only the highest
// offset. A later finding of that code and file at or below it is taken
// for a repeat: the passes that meet the same records walk forward, so a
// second pass repeats what the first reported, in the same order.
class UniqueFindings : public Reporter {
 public:
  static constexpr std::size_t kRemembered = FindingFolder::kDistinctPerCode;

  explicit UniqueFindings(Reporter* next) : next_(next) {}
  void report(Finding finding) override;
  // How many offsets it holds, for tests of the bound.
  std::size_t remembered() const;

 private:
  struct Seen {
    std::set<std::optional<std::uint64_t>> offsets;
    std::optional<std::uint64_t> highest;  // once `offsets` is full
  };
  // Whether `offset` was seen for `seen`, remembering it if not.
  static bool repeated(Seen* seen, std::optional<std::uint64_t> offset);

  Reporter* next_;
  std::map<std::pair<std::string, std::string>, Seen> seen_;  // by code and file
};

// Forwards every finding and remembers whether any was an error, for
// callers whose decision depends on it (Flume refuses a checkpoint with an
// error in any of its files).
class ErrorWatch : public Reporter {
 public:
  explicit ErrorWatch(Reporter* next) : next_(next) {}
  void report(Finding finding) override;
  bool errors() const { return errors_; }

 private:
  Reporter* next_;
  bool errors_ = false;
};

// Forwards every finding and remembers whether one had the code `code`,
// for callers whose exit status depends on it (a Flume channel directory
// that is missing is an I/O error, exit 3, like any missing path).
class CodeWatch : public Reporter {
 public:
  CodeWatch(Reporter* next, std::string code) : next_(next), code_(std::move(code)) {}
  void report(Finding finding) override;
  bool seen() const { return seen_; }

 private:
  Reporter* next_;
  std::string code_;
  bool seen_ = false;
};

// Drops every finding: for decoding whose problems another pass reports.
class DiscardFindings : public Reporter {
 public:
  void report(Finding) override {}
};

}  // namespace qjt
