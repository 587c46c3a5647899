#include "resolve.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "edit_distance.hpp"
#include "spec_keys.hpp"

namespace opgen::gen {

std::string pascal_case(std::string_view snake) {
  std::string out;
  bool upper = true;
  for (char c : snake) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

namespace {

/// Definitions visible from the namespace file, by name.
template <class T>
struct Table {
  std::map<std::string, const T*, std::less<>> by_name;
  std::map<const T*, const SpecFile*> file_of;
  std::vector<std::string> names;

  const T* find(std::string_view name) const {
    auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : it->second;
  }
};

template <class T>
void add_definitions(Table<T>& table, const std::vector<T>& defs, const SpecFile& file,
                     std::string_view what, Diagnostics& diags) {
  for (const T& d : defs) {
    if (d.name.value.empty()) continue;
    auto [it, fresh] = table.by_name.emplace(d.name.value, &d);
    if (!fresh) {
      diags.error(Diag::duplicate_definition, d.name.loc,
                  "duplicate " + std::string(what) + " '" + d.name.value + "'");
      diags.note(it->second->name.loc, std::string(what) + " '" + d.name.value +
                                           "' first defined here");
      continue;
    }
    table.file_of[&d] = &file;
    table.names.push_back(d.name.value);
  }
}

class Resolver {
 public:
  Resolver(const SpecSet& set, Diagnostics& diags) : set_(set), diags_(diags) {}

  Namespace run() {
    const SpecFile& main = *set_.files[0];
    for (std::size_t i : set_.visible[0]) {
      const SpecFile& f = *set_.files[i];
      add_definitions(mixins_, f.mixins, f, "mixin", diags_);
      add_definitions(configs_, f.configs, f, "config", diags_);
      add_definitions(enums_, f.enums, f, "enum", diags_);
    }
    Namespace ns;
    ns.name = main.namespace_name->value;
    ns.loc = main.namespace_name->loc;
    ns.source = main.display_path;
    ns.cpp_namespace =
        main.cpp_namespace ? main.cpp_namespace->value : "opgen::" + ns.name;
    if (main.cpp_namespace) ns.cpp_namespace_loc = main.cpp_namespace->loc;
    ns.kernel_header = main.kernel_header ? main.kernel_header->value : "builtin_kernels.hpp";
    ns.summary = main.summary;
    ns.doc = main.doc;

    std::map<std::string, const OpBody*, std::less<>> seen;
    for (const OpBody& body : main.ops) {
      if (!body.name.value.empty()) {
        auto [it, fresh] = seen.emplace(body.name.value, &body);
        if (!fresh) {
          diags_.error(Diag::duplicate_op, body.name.loc, "duplicate op '" + body.name.value + "'");
          diags_.note(it->second->name.loc, "op '" + body.name.value + "' first defined here");
          continue;
        }
      }
      ns.ops.push_back(resolve_op(body));
    }

    for (const OpBody& m : main.mixins) {
      // A duplicate (or nameless) mixin is reported as such, not as unused;
      // and any mixin may be the one a broken 'use' meant.
      if (mixins_.find(m.name.value) != &m || broken_use_) continue;
      if (used_mixins_.count(&m) == 0) {
        diags_.warning(Diag::unused_mixin, m.name.loc,
                       "mixin '" + m.name.value + "' is not used by any op");
      }
    }
    collect_configs_and_enums(ns, main);
    return ns;
  }

 private:
  // The effective body of a mixin: its own uses applied, then its entries.
  Op mixin_body(const OpBody& mixin, std::vector<const OpBody*>& stack) {
    Op acc;
    apply_uses(acc, mixin.uses, stack);
    merge(acc, mixin, mixin.name.value, mixin.name.loc, {});
    return acc;
  }

  void apply_uses(Op& acc, const std::vector<MixinUse>& uses,
                  std::vector<const OpBody*>& stack) {
    for (const MixinUse& use : uses) {
      if (use.name.value.empty()) {  // a use entry without a mixin, reported by the loader
        acc.incomplete = true;
        broken_use_ = true;
        continue;
      }
      const OpBody* m = mixins_.find(use.name.value);
      if (m == nullptr) acc.incomplete = true;
      if (m == nullptr) {
        diags_.error(
            Diag::unknown_mixin, use.name.loc,
            "unknown mixin '" + use.name.value + "'" + did_you_mean(use.name.value, mixins_.names));
        // The mixin suggested is not "unused": the op meant it.
        if (const OpBody* meant = mixins_.find(closest(use.name.value, mixins_.names))) {
          used_mixins_.insert(meant);
        }
        continue;
      }
      if (std::find(stack.begin(), stack.end(), m) != stack.end()) {
        std::string chain;
        for (const OpBody* s : stack) chain += s->name.value + " -> ";
        diags_.error(Diag::mixin_cycle, use.name.loc, "mixin cycle: " + chain + m->name.value);
        acc.incomplete = true;
        continue;
      }
      used_mixins_.insert(m);
      std::set<std::string, std::less<>> skip;
      for (const LocatedString& s : use.skip) {
        if (std::find(std::begin(kSkippable), std::end(kSkippable), s.value) ==
            std::end(kSkippable)) {
          diags_.error(Diag::unknown_skip, s.loc,
                       "cannot skip '" + s.value + "'" +
                           did_you_mean(s.value, std::span<const std::string_view>(kSkippable)) +
                           " (skippable: input, arg, output, constraint, signature, doc, "
                           "config)");
          continue;
        }
        skip.insert(s.value);
      }
      stack.push_back(m);
      Op body = mixin_body(*m, stack);
      stack.pop_back();
      merge_resolved(acc, body, m->name.value, use.name.loc, skip);
      acc.incomplete |= body.incomplete;
    }
  }

  static void merge_named(std::vector<Param>& into, const std::vector<Param>& from,
                          const std::string& mixin, SourceLoc use_loc) {
    for (const Param& p : from) {
      Param copy = p;
      if (!mixin.empty() && copy.from_mixin.empty()) {
        copy.from_mixin = mixin;
        copy.from_use = use_loc;
      }
      auto it = std::find_if(into.begin(), into.end(), [&](const Param& q) {
        return !q.name.value.empty() && q.name.value == p.name.value;
      });
      if (it != into.end()) {
        *it = std::move(copy);  // replaced in place, keeping its position
      } else {
        into.push_back(std::move(copy));
      }
    }
  }

  // Merges an already resolved mixin body into `acc`.
  void merge_resolved(Op& acc, const Op& m, const std::string& mixin, SourceLoc use_loc,
                      const std::set<std::string, std::less<>>& skip) {
    auto skipped = [&](std::string_view part) { return skip.count(part) != 0; };
    if (m.kind_loc.known()) {
      acc.kind = m.kind;
      acc.kind_loc = m.kind_loc;
    }
    if (m.dtypes_given) {
      acc.dtypes = m.dtypes;
      acc.dtypes_given = true;
      acc.dtypes_loc = m.dtypes_loc;
    }
    if (m.summary) acc.summary = m.summary;
    if (m.notes) acc.notes = m.notes;
    if (m.inplace) acc.inplace = m.inplace;
    if (!m.out_variant) acc.out_variant = false;
    if (!skipped("doc")) acc.doc.insert(acc.doc.end(), m.doc.begin(), m.doc.end());
    if (!skipped("input")) merge_named(acc.inputs, m.inputs, mixin, use_loc);
    if (!skipped("arg")) merge_named(acc.args, m.args, mixin, use_loc);
    if (!skipped("output")) merge_named(acc.outputs, m.outputs, mixin, use_loc);
    if (!skipped("constraint")) {
      for (Constraint c : m.constraints) {
        if (c.from_mixin.empty()) c.from_mixin = mixin;
        acc.constraints.push_back(std::move(c));
      }
    }
    if (!skipped("signature")) {
      for (Signature s : m.signatures) {
        if (s.from_mixin.empty()) s.from_mixin = mixin;
        acc.signatures.push_back(std::move(s));
      }
    }
    if (!skipped("config")) {
      for (const LocatedString& c : m.configs) {
        if (std::none_of(acc.configs.begin(), acc.configs.end(),
                         [&](const LocatedString& q) { return q.value == c.value; })) {
          acc.configs.push_back(c);
        }
      }
    }
  }

  // Merges a raw body (a mixin's or the op's own entries) into `acc`.
  void merge(Op& acc, const OpBody& b, const std::string& mixin, SourceLoc use_loc,
             const std::set<std::string, std::less<>>& skip) {
    // A part that could not be read (reported) leaves the op incomplete.
    for (const char* key : {"use", "input", "arg", "output"}) {
      if (b.misspelled.count(key) != 0) acc.incomplete = true;
    }
    if (b.misspelled.count("use") != 0) broken_use_ = true;
    Op own;
    if (b.kind) {
      own.kind_loc = b.kind->loc;
      own.kind = parse_kind(*b.kind);
    }
    if (b.dtypes) {
      own.dtypes = *b.dtypes;
      own.dtypes_given = true;
      own.dtypes_loc = b.dtypes_loc;
    }
    own.summary = b.summary;
    own.notes = b.notes;
    own.inplace = b.inplace;
    if (b.out_variant) own.out_variant = b.out_variant->value;
    if (b.doc) own.doc.push_back(*b.doc);
    own.inputs = b.inputs;
    own.args = b.args;
    own.outputs = b.outputs;
    own.constraints = b.constraints;
    own.signatures = b.signatures;
    own.configs = b.configs;
    // Entries defined in a mixin keep "" here; merge_resolved tags them.
    merge_resolved(acc, own, mixin.empty() ? std::string() : mixin, use_loc, skip);
    if (b.out_variant && b.out_variant->value) acc.out_variant = true;
  }

  OpKind parse_kind(const LocatedString& k) {
    if (k.value == "pointwise") return OpKind::pointwise;
    if (k.value == "reduction") return OpKind::reduction;
    if (k.value == "custom") return OpKind::custom;
    diags_.error(Diag::unknown_kind, k.loc,
                 "unknown kind '" + k.value + "'" +
                     did_you_mean(k.value, std::span<const std::string_view>(kKinds)) +
                     " (kinds: pointwise, reduction, custom)");
    return OpKind::custom;
  }

  Op resolve_op(const OpBody& body) {
    Op op;
    std::vector<const OpBody*> stack;
    apply_uses(op, body.uses, stack);
    merge(op, body, "", {}, {});
    op.name = body.name.value;
    op.loc = body.loc;
    op.name_loc = body.name.loc.known() ? body.name.loc : body.loc;
    op.cpp_name = body.cpp_name ? body.cpp_name->value : op.name;
    if (body.kernel) {
      op.kernel = pascal_case(body.kernel->value);
      op.kernel_loc = body.kernel->loc;
      op.kernel_key = body.kernel;
    } else {
      op.kernel = pascal_case(op.name);
      op.kernel_loc = op.name_loc;
    }
    op.aliases = body.aliases;
    op.formula = body.formula;
    op.misspelled = body.misspelled;
    if (!op.kind_loc.known() && !op.name.empty() && !op.incomplete &&
        op.misspelled.count("kind") == 0) {
      diags_.error(Diag::missing_key, op.name_loc,
                   "op '" + op.name +
                       "' has no 'kind' (pointwise, reduction or custom); set it "
                       "on the op or in a mixin it uses");
    }
    return op;
  }

  void collect_configs_and_enums(Namespace& ns, const SpecFile& main) {
    std::set<const ConfigDef*> used;
    std::set<const ConfigDef*> meant;  // suggested for a misspelled name
    for (const Op& op : ns.ops) {
      for (const LocatedString& c : op.configs) {
        const ConfigDef* def = configs_.find(c.value);
        if (def == nullptr) {
          diags_.error(Diag::unknown_config, c.loc,
                       "unknown config '" + c.value + "'" + did_you_mean(c.value, configs_.names));
          meant.insert(configs_.find(closest(c.value, configs_.names)));
          continue;
        }
        if (used.insert(def).second) ns.configs.push_back(def);
      }
    }
    for (const ConfigDef& c : main.configs) {
      // Not "unused" when an op misspelled it, nor when it is a duplicate
      // (or has no name): those are reported as such.
      if (meant.count(&c) != 0 || configs_.find(c.name.value) != &c) continue;
      if (used.count(&c) == 0) {
        diags_.error(Diag::unused_config, c.name.loc,
                     "config '" + c.name.value +
                         "' is not used by any op (add it to an op's 'config' or "
                         "remove it)");
      }
    }
    std::set<const EnumDef*> enums;
    auto use_enum = [&](const Param& p) {
      if (!p.enum_name) return;
      const EnumDef* e = enums_.find(p.enum_name->value);
      if (e == nullptr) {
        diags_.error(Diag::unknown_enum, p.enum_name->loc,
                     "unknown enum '" + p.enum_name->value + "'" +
                         did_you_mean(p.enum_name->value, enums_.names));
        return;
      }
      if (enums.insert(e).second) ns.enums.push_back(e);
    };
    for (const Op& op : ns.ops) {
      for (const Param& a : op.args) use_enum(a);
    }
    for (const ConfigDef* c : ns.configs) {
      for (const Param& a : c->args) use_enum(a);
    }
  }

  const SpecSet& set_;
  Diagnostics& diags_;
  Table<OpBody> mixins_;
  Table<ConfigDef> configs_;
  Table<EnumDef> enums_;
  std::set<const OpBody*> used_mixins_;
  bool broken_use_ = false;  // a 'use' that could not be read (reported)
};

}  // namespace

Namespace resolve(const SpecSet& set, Diagnostics& diags) {
  return Resolver(set, diags).run();
}

}  // namespace opgen::gen
