// Writing generated files: only when their content changes (so ninja's
// restat stops the rebuild there) and atomically (a temporary file in the
// same directory, then rename), so a reader never sees half a file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace opgen::gen {

/// Writes `content` to `path` unless the file already holds exactly that.
/// Returns an error message ("cannot write ...: reason"), or "" on success.
/// `changed` (optional) tells whether the file was written.
std::string write_if_changed(const std::string& path, std::string_view content,
                             bool* changed = nullptr);

/// A Makefile-style depfile: `targets: deps`, spaces and special characters
/// escaped as ninja and make expect.
std::string depfile_text(const std::vector<std::string>& targets,
                         const std::vector<std::string>& deps);

}  // namespace opgen::gen
