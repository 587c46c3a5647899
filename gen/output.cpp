#include "output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace opgen::gen {

namespace {

bool same_content(const std::string& path, std::string_view content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str() == content;
}

std::string escape_dep(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#' || c == '\\') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

}  // namespace

std::string write_if_changed(const std::string& path, std::string_view content, bool* changed) {
  if (changed != nullptr) *changed = false;
  if (same_content(path, content)) return "";
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  // A unique temporary beside the target: rename() within one file system
  // replaces the old file in one step, and parallel runs never share a temp.
  std::string tmp = (target.parent_path() / (target.filename().string() + ".tmpXXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return "cannot write " + path + ": " + std::strerror(errno);
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return "cannot write " + path + ": " + why;
    }
    done += static_cast<std::size_t>(n);
  }
  // mkstemp creates 0600; generated files are ordinary source files.
  ::fchmod(fd, 0644);
  if (::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return "cannot write " + path + ": " + why;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return "cannot write " + path + ": " + why;
  }
  if (changed != nullptr) *changed = true;
  return "";
}

std::string depfile_text(const std::vector<std::string>& targets,
                         const std::vector<std::string>& deps) {
  std::string out;
  for (std::size_t i = 0; i < targets.size(); ++i) out += (i ? " " : "") + escape_dep(targets[i]);
  out += ":";
  for (const std::string& d : deps) out += " \\\n  " + escape_dep(d);
  return out + "\n";
}

}  // namespace opgen::gen
