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

Diagnostic& Diagnostics::error(Diag diag, SourceLoc loc, std::string message) {
  ++error_count_;
  items_.push_back({Severity::error, diag, loc, std::move(message), {}});
  return items_.back();
}

Diagnostic& Diagnostics::warning(Diag diag, SourceLoc loc, std::string message) {
  items_.push_back({Severity::warning, diag, loc, std::move(message), {}});
  return items_.back();
}

void Diagnostics::note(SourceLoc loc, std::string message) {
  if (items_.empty()) return;
  Diagnostic& d = items_.back();
  d.notes.push_back({Severity::note, d.diag_class, loc, std::move(message), {}});
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

std::string_view line_of(std::string_view text, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line; ++l) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  std::size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  std::string_view s = text.substr(start, end - start);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

}  // namespace

void Diagnostics::print_one(std::ostream& os, const Diagnostic& d, bool show_class) const {
  os << d.loc.to_string() << ": " << severity_name(d.severity) << ": " << d.message;
  if (show_class) os << " [" << diag_name(d.diag_class) << ']';
  os << '\n';
  if (!d.loc.known()) return;
  const std::string_view line = line_of(contents(d.loc.file), d.loc.line);
  if (line.empty()) return;
  os << "    " << line << '\n';
  if (d.loc.col == 0) return;
  // Keep tabs so the caret lines up under the same column.
  std::string pad;
  for (std::uint32_t i = 1; i < d.loc.col && i - 1 < line.size(); ++i) {
    pad += line[i - 1] == '\t' ? '\t' : ' ';
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
