// Process metrics without I/O: counter, gauge and histogram families with labels, rendered in
// the Prometheus text exposition format 0.0.4 (the body of a GET /metrics). A family is
// registered once with its label names; each combination of label values is a child, created
// on first use and kept for the life of the registry (label values must stay few: a route
// template, never an id).
// Thread-safety: everything may be called from any thread. Updating a child is lock-free
// (atomics); With() takes the family's mutex to find or create the child, so a hot path keeps
// the reference it returned (children never move). Render() takes each family's mutex in turn;
// a histogram observed during Render may show in its buckets and not yet in its _sum.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao::metrics {

// The Content-Type of Render()'s text.
inline constexpr const char* kContentType = "text/plain; version=0.0.4; charset=utf-8";

// Monotonic within the process (it resets when the process restarts).
class Counter {
 public:
  void Inc(double by = 1);  // a negative or NaN `by` is ignored: a counter never goes down
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

class Gauge {
 public:
  void Set(double value) { value_.store(value, std::memory_order_relaxed); }
  void Add(double by) { value_.fetch_add(by, std::memory_order_relaxed); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

// Counts observations into buckets by upper bound (le, inclusive), plus their sum.
class Histogram {
 public:
  explicit Histogram(const std::vector<double>* bounds);
  void Observe(double value);  // NaN is ignored

  // Cumulative counts per bound, then the +Inf bucket (== count()).
  std::vector<std::uint64_t> CumulativeCounts() const;
  std::uint64_t count() const;
  double sum() const { return sum_.load(std::memory_order_relaxed); }

 private:
  const std::vector<double>* bounds_;                     // the family's, sorted
  std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;  // per bucket (not cumulative), +Inf last
  std::atomic<double> sum_{0};
};

enum class Type { kCounter, kGauge, kHistogram };

// One metric name with its help text and label names; children by label values.
template <class Child>
class Family {
 public:
  // The child of these label values, in the order of the label names. Their number must
  // equal the label names' (asserted; a release build pads with "" and drops the extra).
  Child& With(std::initializer_list<std::string_view> values);
  Child& With(const std::vector<std::string>& values);

  const std::string& name() const { return name_; }

 private:
  friend class Registry;
  Family(Type type, std::string name, std::string help, std::vector<std::string> label_names,
         std::vector<double> bounds = {});
  std::string Render() const;
  Child& WithKey(std::vector<std::string> key);

  const Type type_;
  const std::string name_, help_;
  const std::vector<std::string> label_names_;
  const std::vector<double> bounds_;  // histograms only
  mutable std::mutex mu_;
  std::map<std::vector<std::string>, std::unique_ptr<Child>> children_;  // guarded by mu_
};

using CounterFamily = Family<Counter>;
using GaugeFamily = Family<Gauge>;
using HistogramFamily = Family<Histogram>;

// The families of one exposition, rendered in the order they were added. A family without
// labels has its one child from the start (it shows as 0 before any update).
class Registry {
 public:
  // kInvalidArgument naming the rule for a bad metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`; a
  // counter's must end in "_total"), a bad or repeated label name (`[a-zA-Z_][a-zA-Z0-9_]*`,
  // not "__..."; "le" is the histogram's own), or histogram bounds that are not finite and
  // strictly increasing (+Inf is always added); kAlreadyExists for a name already registered.
  StatusOr<CounterFamily*> AddCounter(std::string name, std::string help, std::vector<std::string> label_names = {});
  StatusOr<GaugeFamily*> AddGauge(std::string name, std::string help, std::vector<std::string> label_names = {});
  StatusOr<HistogramFamily*> AddHistogram(std::string name, std::string help, std::vector<std::string> label_names,
                                          std::vector<double> bounds);

  // "# HELP", "# TYPE" and the samples of every family, each line ending in "\n".
  std::string Render() const;

 private:
  Status Check(Type type, const std::string& name, const std::vector<std::string>& label_names) const;

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<CounterFamily>> counters_;  // guarded by mu_
  std::vector<std::unique_ptr<GaugeFamily>> gauges_;
  std::vector<std::unique_ptr<HistogramFamily>> histograms_;
  std::vector<std::pair<Type, std::size_t>> order_;  // (type, index in its vector)
};

// The text format's pieces, exposed for tests and for writers of other expositions.
bool IsValidMetricName(std::string_view name);
bool IsValidLabelName(std::string_view name);
std::string EscapeHelp(std::string_view help);         // '\' -> "\\", newline -> "\n"
std::string EscapeLabelValue(std::string_view value);  // also '"' -> "\""
// Integers (|v| < 2^53) without a fraction, others in the shortest form that reads back the
// same double; "NaN", "+Inf", "-Inf".
std::string FormatValue(double value);

}  // namespace balcao::metrics
