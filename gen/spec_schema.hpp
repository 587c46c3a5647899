// `opgen schema`: a JSON Schema (draft-07) of spec files, for TOML editors
// (Taplo, Even Better TOML) to complete and validate specs as they are
// typed. Built from the loader's key tables (spec_keys.hpp), so the schema
// lists exactly the keys the loader takes; docs/opgen-spec.schema.json is
// its committed copy.
#pragma once

#include "json_writer.hpp"

namespace opgen::gen {

/// The schema of one spec file (a namespace file or an include-only file).
/// Every key of every table is a property with a description; tables allow
/// no other keys (the loader rejects them); closed sets of values (kinds,
/// types, dtypes, skippable parts) are enumerated, and names, counts and
/// the shape and dtype rules are matched by patterns. Throws
/// std::logic_error when a key table and the descriptions here disagree (a
/// key without a description, or a description for no key), a bug caught by
/// the tests.
Json spec_schema();

}  // namespace opgen::gen
