#include "common/metrics.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <set>

namespace balcao::metrics {
namespace {

bool IsNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

const char* TypeName(Type type) {
  switch (type) {
    case Type::kCounter:
      return "counter";
    case Type::kGauge:
      return "gauge";
    case Type::kHistogram:
      return "histogram";
  }
  return "untyped";
}

// `{a="x",b="y"}` (with `extra` appended, e.g. le="0.5"); "" when there are no labels.
std::string LabelText(const std::vector<std::string>& names, const std::vector<std::string>& values,
                      std::string_view extra = {}) {
  if (names.empty() && extra.empty()) return "";
  std::string out = "{";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ',';
    out += names[i] + "=\"" + EscapeLabelValue(values[i]) + "\"";
  }
  if (!extra.empty()) {
    if (!names.empty()) out += ',';
    out += extra;
  }
  return out + "}";
}

}  // namespace

bool IsValidMetricName(std::string_view name) {
  if (name.empty() || !(IsNameStart(name[0]) || name[0] == ':')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) { return IsNameStart(c) || IsDigit(c) || c == ':'; });
}

bool IsValidLabelName(std::string_view name) {
  if (name.empty() || !IsNameStart(name[0]) || name.substr(0, 2) == "__") return false;
  return std::all_of(name.begin(), name.end(), [](char c) { return IsNameStart(c) || IsDigit(c); });
}

std::string EscapeHelp(std::string_view help) {
  std::string out;
  out.reserve(help.size());
  for (char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
    return std::to_string(static_cast<std::int64_t>(value));
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

// --- children ---

void Counter::Inc(double by) {
  if (!(by >= 0)) return;  // also NaN
  value_.fetch_add(by, std::memory_order_relaxed);
}

Histogram::Histogram(const std::vector<double>* bounds)
    : bounds_(bounds), counts_(std::make_unique<std::atomic<std::uint64_t>[]>(bounds->size() + 1)) {
  for (std::size_t i = 0; i <= bounds_->size(); ++i) counts_[i].store(0, std::memory_order_relaxed);
}

void Histogram::Observe(double value) {
  if (std::isnan(value)) return;
  // The first bound >= value: its bucket (le is inclusive), or +Inf past the last one.
  const auto at = std::lower_bound(bounds_->begin(), bounds_->end(), value);
  counts_[static_cast<std::size_t>(at - bounds_->begin())].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
}

std::vector<std::uint64_t> Histogram::CumulativeCounts() const {
  std::vector<std::uint64_t> out(bounds_->size() + 1);
  std::uint64_t running = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    out[i] = running;
  }
  return out;
}

std::uint64_t Histogram::count() const { return CumulativeCounts().back(); }

// --- families ---

template <class Child>
Family<Child>::Family(Type type, std::string name, std::string help, std::vector<std::string> label_names,
                      std::vector<double> bounds)
    : type_(type),
      name_(std::move(name)),
      help_(std::move(help)),
      label_names_(std::move(label_names)),
      bounds_(std::move(bounds)) {
  if (label_names_.empty()) WithKey({});
}

template <class Child>
Child& Family<Child>::With(std::initializer_list<std::string_view> values) {
  return WithKey(std::vector<std::string>(values.begin(), values.end()));
}

template <class Child>
Child& Family<Child>::With(const std::vector<std::string>& values) {
  return WithKey(values);
}

template <class Child>
Child& Family<Child>::WithKey(std::vector<std::string> key) {
  assert(key.size() == label_names_.size() && "label values must match the family's label names");
  key.resize(label_names_.size());
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<Child>& child = children_[std::move(key)];
  if (!child) {
    if constexpr (std::is_same_v<Child, Histogram>) {
      child = std::make_unique<Histogram>(&bounds_);
    } else {
      child = std::make_unique<Child>();
    }
  }
  return *child;
}

template <class Child>
std::string Family<Child>::Render() const {
  std::string out = "# HELP " + name_ + " " + EscapeHelp(help_) + "\n# TYPE " + name_ + " " + TypeName(type_) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [values, child] : children_) {
    if constexpr (std::is_same_v<Child, Histogram>) {
      const std::vector<std::uint64_t> counts = child->CumulativeCounts();
      for (std::size_t i = 0; i < counts.size(); ++i) {
        const std::string le = i < bounds_.size() ? FormatValue(bounds_[i]) : "+Inf";
        out += name_ + "_bucket" + LabelText(label_names_, values, "le=\"" + le + "\"") + " " +
               std::to_string(counts[i]) + "\n";
      }
      const std::string labels = LabelText(label_names_, values);
      out += name_ + "_sum" + labels + " " + FormatValue(child->sum()) + "\n";
      out += name_ + "_count" + labels + " " + std::to_string(counts.back()) + "\n";
    } else {
      out += name_ + LabelText(label_names_, values) + " " + FormatValue(child->value()) + "\n";
    }
  }
  return out;
}

template class Family<Counter>;
template class Family<Gauge>;
template class Family<Histogram>;

// --- the registry ---

Status Registry::Check(Type type, const std::string& name, const std::vector<std::string>& label_names) const {
  if (!IsValidMetricName(name))
    return InvalidArgumentError("metric name '" + name + "': must match [a-zA-Z_:][a-zA-Z0-9_:]*");
  if (type == Type::kCounter && (name.size() < 6 || name.compare(name.size() - 6, 6, "_total") != 0))
    return InvalidArgumentError("metric name '" + name + "': a counter's ends in _total");
  std::set<std::string> seen;
  for (const std::string& label : label_names) {
    if (!IsValidLabelName(label))
      return InvalidArgumentError("label name '" + label + "' of " + name +
                                  ": must match [a-zA-Z_][a-zA-Z0-9_]* and not start with __");
    if (type == Type::kHistogram && label == "le")
      return InvalidArgumentError("label name 'le' of " + name + ": reserved for the histogram's buckets");
    if (!seen.insert(label).second) return InvalidArgumentError("label name '" + label + "' of " + name + ": repeated");
  }
  auto taken = [&](const auto& families) {
    return std::any_of(families.begin(), families.end(), [&](const auto& f) { return f->name() == name; });
  };
  if (taken(counters_) || taken(gauges_) || taken(histograms_))
    return AlreadyExistsError("metric name '" + name + "': already registered");
  return OkStatus();
}

StatusOr<CounterFamily*> Registry::AddCounter(std::string name, std::string help,
                                              std::vector<std::string> label_names) {
  std::lock_guard<std::mutex> lock(mu_);
  BALCAO_RETURN_IF_ERROR(Check(Type::kCounter, name, label_names));
  counters_.push_back(std::unique_ptr<CounterFamily>(
      new CounterFamily(Type::kCounter, std::move(name), std::move(help), std::move(label_names))));
  order_.emplace_back(Type::kCounter, counters_.size() - 1);
  return counters_.back().get();
}

StatusOr<GaugeFamily*> Registry::AddGauge(std::string name, std::string help, std::vector<std::string> label_names) {
  std::lock_guard<std::mutex> lock(mu_);
  BALCAO_RETURN_IF_ERROR(Check(Type::kGauge, name, label_names));
  gauges_.push_back(std::unique_ptr<GaugeFamily>(
      new GaugeFamily(Type::kGauge, std::move(name), std::move(help), std::move(label_names))));
  order_.emplace_back(Type::kGauge, gauges_.size() - 1);
  return gauges_.back().get();
}

StatusOr<HistogramFamily*> Registry::AddHistogram(std::string name, std::string help,
                                                  std::vector<std::string> label_names, std::vector<double> bounds) {
  std::lock_guard<std::mutex> lock(mu_);
  BALCAO_RETURN_IF_ERROR(Check(Type::kHistogram, name, label_names));
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    if (!std::isfinite(bounds[i]) || (i > 0 && !(bounds[i] > bounds[i - 1])))
      return InvalidArgumentError("buckets of " + name + ": finite and strictly increasing (+Inf is added)");
  }
  histograms_.push_back(std::unique_ptr<HistogramFamily>(new HistogramFamily(
      Type::kHistogram, std::move(name), std::move(help), std::move(label_names), std::move(bounds))));
  order_.emplace_back(Type::kHistogram, histograms_.size() - 1);
  return histograms_.back().get();
}

std::string Registry::Render() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const auto& [type, index] : order_) {
    switch (type) {
      case Type::kCounter:
        out += counters_[index]->Render();
        break;
      case Type::kGauge:
        out += gauges_[index]->Render();
        break;
      case Type::kHistogram:
        out += histograms_[index]->Render();
        break;
    }
  }
  return out;
}

}  // namespace balcao::metrics
