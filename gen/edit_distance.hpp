// "Did you mean" suggestions from edit distance.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace opgen::gen {

/// Levenshtein distance with adjacent transpositions counted as one edit
/// (optimal string alignment), case-sensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word`, when it is close enough to be a likely
/// typo: at most a third of the word's length in edits (at least 1, at most
/// 3), or equal ignoring case. Ties go to the earlier candidate. Empty when
/// nothing is close.
std::string closest(std::string_view word, std::span<const std::string> candidates);
std::string closest(std::string_view word, std::span<const std::string_view> candidates);

/// "; did you mean 'x'?" for a close candidate, or "" when none is close.
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates);
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace opgen::gen
