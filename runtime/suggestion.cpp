#include "suggestion.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace opgen::detail {

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

}  // namespace

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

std::ptrdiff_t closest(std::string_view word, std::span<const std::string_view> candidates) {
  // A third of the word: "dim" -> "dims" is a typo, "x" -> "y" is not.
  const std::size_t limit = std::clamp<std::size_t>(word.size() / 3, 1, 3);
  std::size_t best = limit + 1;
  std::ptrdiff_t found = -1;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::string_view c = candidates[i];
    if (c == word) continue;
    const std::size_t d = equal_ignoring_case(c, word) ? 0 : edit_distance(word, c);
    if (d < best) {
      best = d;
      found = static_cast<std::ptrdiff_t>(i);
    }
  }
  return found;
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  const std::ptrdiff_t i = closest(word, candidates);
  if (i < 0) return std::string();
  return "; did you mean '" + std::string(candidates[static_cast<std::size_t>(i)]) + "'?";
}

}  // namespace opgen::detail
