#include "output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <signal.h>
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

// The atomicity test (tests/gen/cli_test.cpp, killed_mid_write) needs the
// generator stopped with a temporary file half written. With the variable
// OPGEN_TEST_PAUSE_MID_WRITE=FILE set, the first write that is half done
// creates FILE and sleeps until it is killed. Nothing else reads the variable.
void pause_for_test(std::size_t written) {
  const char* flag = std::getenv("OPGEN_TEST_PAUSE_MID_WRITE");
  if (flag == nullptr || *flag == '\0' || written == 0) return;
  std::ofstream(flag) << ::getpid() << "\n";
  for (;;) ::pause();
}

// Temporaries are named `<name>.tmp<pid>-XXXXXX`: the writer's process id,
// then mkstemp's unique suffix.
std::string temporary_prefix(const std::filesystem::path& target) {
  return target.filename().string() + ".tmp";
}

// Temporaries a killed run left beside `target`: removed by the next write of
// the same file, so a crash leaves no litter for long. Only those whose
// writer is gone: a generator writing the same output at the same moment
// (two builds sharing an output folder) keeps its temporary, else its rename
// would fail.
void remove_stale_temporaries(const std::filesystem::path& target) {
  namespace fs = std::filesystem;
  const std::string prefix = temporary_prefix(target);
  std::error_code ec;
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::size_t dash = name.find('-', prefix.size());
    if (dash == std::string::npos || dash == prefix.size() || name.size() != dash + 7) continue;
    const std::string digits = name.substr(prefix.size(), dash - prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
    const pid_t writer = static_cast<pid_t>(std::stol(digits));
    if (writer == ::getpid() || ::kill(writer, 0) == 0 || errno != ESRCH) continue;  // alive
    fs::remove(it->path(), ec);
    ec.clear();
  }
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
  remove_stale_temporaries(target);
  std::string tmp = (target.parent_path() /
                     (temporary_prefix(target) + std::to_string(::getpid()) + "-XXXXXX"))
                        .string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return "cannot write " + path + ": " + std::strerror(errno);
  std::size_t done = 0;
  while (done < content.size()) {
    pause_for_test(done);
    // Two writes at least (half, then the rest): the test hook above stops
    // between them.
    const std::size_t chunk = done == 0 ? (content.size() + 1) / 2 : content.size() - done;
    const ssize_t n = ::write(fd, content.data() + done, chunk);
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
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (i > 0) out += ' ';
    out += escape_dep(targets[i]);
  }
  out += ":";
  for (const std::string& d : deps) out += " \\\n  " + escape_dep(d);
  return out + "\n";
}

}  // namespace opgen::gen
