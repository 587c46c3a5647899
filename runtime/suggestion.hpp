// "Did you mean" suggestions for misspelt op and arg names. Private to the
// runtime (the generator has its own copy: it must build without the runtime).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace opgen::detail {

/// Levenshtein distance with adjacent transpositions counted as one edit
/// (optimal string alignment), case-sensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The index of the candidate closest to `word` when it is close enough to
/// be a likely typo (see did_you_mean), or -1. Candidates equal to `word` are
/// skipped.
std::ptrdiff_t closest(std::string_view word, std::span<const std::string_view> candidates);

/// "; did you mean 'x'?" for the candidate closest to `word` when it is
/// close enough to be a likely typo (at most a third of the word's length in
/// edits, at least 1 and at most 3, or equal ignoring case); "" otherwise.
/// Ties go to the earlier candidate.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace opgen::detail
