#include "diagnostics.hpp"

#include <algorithm>
#include <tuple>

namespace opgen::gen {

namespace {

constexpr DiagClassInfo kDiagClasses[] = {
#define OPGEN_DIAG(id, name, description) {Diag::id, name, description},
#include "diagnostic_classes.def"
};

}  // namespace

std::span<const DiagClassInfo> diag_classes() noexcept { return kDiagClasses; }

std::string_view diag_name(Diag d) noexcept {
  const auto i = static_cast<std::size_t>(d);
  return i < std::size(kDiagClasses) ? kDiagClasses[i].name : std::string_view("?");
}

std::string SourceLoc::to_string() const {
  if (file == nullptr) return "<unknown>";
  std::string s = *file;
  if (line != 0) {
    s += ':' + std::to_string(line);
    if (col != 0) s += ':' + std::to_string(col);
  }
  return s;
}

bool operator<(const SourceLoc& a, const SourceLoc& b) noexcept {
  const std::string_view fa = a.file ? std::string_view(*a.file) : std::string_view();
  const std::string_view fb = b.file ? std::string_view(*b.file) : std::string_view();
  return std::tie(fa, a.line, a.col) < std::tie(fb, b.line, b.col);
}

const std::string* Diagnostics::add_file(std::string path, std::string contents) {
  const std::string* name = intern(path);
  contents_[name] = std::move(contents);
  return name;
}

const std::string* Diagnostics::intern(std::string_view path) {
  auto it = names_.find(path);
  if (it == names_.end()) {
    it = names_.emplace(std::string(path), std::make_unique<std::string>(path)).first;
  }
  return it->second.get();
}

std::string_view Diagnostics::contents(const std::string* file) const {
  auto it = contents_.find(file);
  return it == contents_.end() ? std::string_view() : std::string_view(it->second);
}

namespace {

// Messages quote what the spec says; a word of a pathological spec (a name
// of a million characters) is shown by its first characters, so that every
// message stays short. Words are runs without spaces; no real name or path
// comes near the limit.
std::string clip_long_words(std::string message) {
  constexpr std::size_t kLongest = 200;
  constexpr std::size_t kShown = 60;
  std::size_t start = 0;
  while (start < message.size()) {
    std::size_t end = message.find(' ', start);
    if (end == std::string::npos) end = message.size();
    if (end - start > kLongest) {
      std::size_t cut = start + kShown;
      while (cut > start && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) --cut;
      const std::string note = "...(" + std::to_string(end - start) + " bytes)";
      message.replace(cut, end - cut, note);
      end = cut + note.size();
    }
    start = end + 1;
  }
  return message;
}

}  // namespace

Diagnostic& Diagnostics::error(Diag diag, SourceLoc loc, std::string message) {
  ++error_count_;
  items_.push_back({Severity::error, diag, loc, clip_long_words(std::move(message)), {}});
  return items_.back();
}

Diagnostic& Diagnostics::warning(Diag diag, SourceLoc loc, std::string message) {
  items_.push_back({Severity::warning, diag, loc, clip_long_words(std::move(message)), {}});
  return items_.back();
}

void Diagnostics::note(SourceLoc loc, std::string message) {
  if (items_.empty()) return;
  Diagnostic& d = items_.back();
  d.notes.push_back({Severity::note, d.diag_class, loc, clip_long_words(std::move(message)), {}});
}

std::vector<Diagnostic> Diagnostics::sorted() const {
  std::vector<Diagnostic> out = items_;
  std::stable_sort(out.begin(), out.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.loc < b.loc; });
  // The same problem can be found twice (a mixin's entry checked in every
  // op that uses it): report it once.
  auto same = [](const Diagnostic& a, const Diagnostic& b) {
    return a.severity == b.severity && a.message == b.message && !(a.loc < b.loc) &&
           !(b.loc < a.loc);
  };
  out.erase(std::unique(out.begin(), out.end(), same), out.end());
  return out;
}

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::note:
      return "note";
  }
  return "error";
}

}  // namespace

std::string_view Diagnostics::source_line(const std::string* file, std::uint32_t line) const {
  const std::string_view text = contents(file);
  auto [it, fresh] = line_starts_.try_emplace(file);
  std::vector<std::size_t>& starts = it->second;
  if (fresh) {
    starts.push_back(0);
    for (std::size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1)) {
      starts.push_back(i + 1);
    }
  }
  if (line == 0 || line > starts.size()) return {};
  const std::size_t start = starts[line - 1];
  std::size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  std::string_view s = text.substr(start, end - start);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

void Diagnostics::print_one(std::ostream& os, const Diagnostic& d, bool show_class) const {
  os << d.loc.to_string() << ": " << severity_name(d.severity) << ": " << d.message;
  if (show_class) os << " [" << diag_name(d.diag_class) << ']';
  os << '\n';
  if (!d.loc.known()) return;
  std::string_view line = source_line(d.loc.file, d.loc.line);
  if (line.empty()) return;
  // Columns count code points. A long line is shown as a window around the
  // column, so that one diagnostic stays a few lines whatever the spec holds.
  auto is_start = [&](std::size_t i) {
    return i >= line.size() || (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
  };
  std::size_t at = 0;  // byte offset of the column
  for (std::uint32_t c = 1; c < d.loc.col && at < line.size();) {
    ++at;
    if (is_start(at)) ++c;
  }
  constexpr std::size_t kWindow = 80;  // bytes shown on each side of the column
  std::size_t from = at > kWindow ? at - kWindow : 0;
  std::size_t to = std::min(line.size(), at + kWindow);
  while (from > 0 && !is_start(from)) --from;
  while (to < line.size() && !is_start(to)) ++to;
  const std::string_view head = from > 0 ? "..." : "";
  const std::string_view tail = to < line.size() ? "..." : "";
  os << "    " << head << line.substr(from, to - from) << tail << '\n';
  if (d.loc.col == 0) return;
  // Keep tabs so the caret lines up under the same column.
  std::string pad(head.size(), ' ');
  for (std::size_t i = from; i < at && i < line.size(); ++i) {
    if (line[i] == '\t') {
      pad += '\t';
    } else if (is_start(i)) {
      pad += ' ';
    }
  }
  os << "    " << pad << "^\n";
}

void Diagnostics::print(std::ostream& os, bool show_classes) const {
  for (const Diagnostic& d : sorted()) {
    print_one(os, d, show_classes);
    for (const Diagnostic& n : d.notes) print_one(os, n, false);
  }
}

std::vector<std::string> Diagnostics::lines() const {
  std::vector<std::string> out;
  for (const Diagnostic& d : sorted()) {
    out.push_back(d.loc.to_string() + ": " + severity_name(d.severity) + ": " + d.message);
    for (const Diagnostic& n : d.notes) {
      out.push_back(n.loc.to_string() + ": note: " + n.message);
    }
  }
  return out;
}

}  // namespace opgen::gen
