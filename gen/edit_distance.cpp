#include "edit_distance.hpp"

#include <algorithm>
#include <cctype>

namespace opgen::gen {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic-programming table are enough for transpositions.
  std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      }
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

template <class S>
std::string closest_impl(std::string_view word, std::span<const S> candidates) {
  const std::size_t limit = std::clamp<std::size_t>(word.size() / 3, 1, 3);
  std::size_t best = limit + 1;
  std::string_view found;
  for (const S& c : candidates) {
    const std::string_view cand(c);
    if (cand == word) continue;
    // The distance is at least the difference of the lengths; and nobody
    // misspells a name of more than kLongest characters (the table would be
    // quadratic in it).
    constexpr std::size_t kLongest = 64;
    const std::size_t longer = std::max(cand.size(), word.size());
    if (longer - std::min(cand.size(), word.size()) > limit || longer > kLongest) continue;
    std::size_t d = equal_ignoring_case(cand, word) ? 0 : edit_distance(word, cand);
    if (d < best) {
      best = d;
      found = cand;
    }
  }
  return std::string(found);
}

template <class S>
std::string did_you_mean_impl(std::string_view word, std::span<const S> candidates) {
  std::string c = closest_impl(word, candidates);
  return c.empty() ? std::string() : "; did you mean '" + c + "'?";
}

}  // namespace

std::string closest(std::string_view word, std::span<const std::string> candidates) {
  return closest_impl(word, candidates);
}
std::string closest(std::string_view word, std::span<const std::string_view> candidates) {
  return closest_impl(word, candidates);
}
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates) {
  return did_you_mean_impl(word, candidates);
}
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  return did_you_mean_impl(word, candidates);
}

}  // namespace opgen::gen
