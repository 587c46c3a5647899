# opgen_generate(): opgen namespaces of your own, generated into a CMake target.
# Included by opgenConfig.cmake; needs CMake 3.20 (depfiles of custom commands,
# policy CMP0116). Documented in opgen's docs/cmake.md.
#
#   opgen_generate(TARGET <target>
#                  SPECS <spec>...
#                  [OUT_DIR <dir>]
#                  [INCLUDE_DIRS <dir>...]
#                  [ROOT <dir>])
#
# TARGET        an existing library or executable target. It gets each
#               generated <ns>.cpp and <ns>.hpp as sources, OUT_DIR as a
#               public include directory, and opgen::opgen as a public link
#               library (set as properties, so it works whichever
#               target_link_libraries() signature the project uses).
# SPECS         namespace spec files (relative to the current source dir),
#               one per namespace; each file must be named <ns>.toml after
#               its `namespace` key. Include-only files are not listed: the
#               generator finds them through `include`, and its depfile
#               makes them dependencies.
# OUT_DIR       where the files go (relative to the current binary dir);
#               default ${CMAKE_CURRENT_BINARY_DIR}/opgen.
# INCLUDE_DIRS  folders searched for included spec files not found beside
#               the including file (`opgen generate --include-dir`).
# ROOT          spec paths in banners and reference pages are shown relative
#               to it (`--root`); default ${PROJECT_SOURCE_DIR}, so generated
#               files do not depend on where the checkout is.
#
# Per namespace <ns>, OUT_DIR receives <ns>.hpp (the API), <ns>.cpp (the
# checked wrappers and registry entries), <ns>.md (the reference page),
# <ns>_reference.hpp (header-only scalar reference functions of the ops'
# formulas, an oracle for kernel tests) and <ns>.d (the depfile). The spec's `kernel_header` is included by <ns>.cpp:
# put its folder in TARGET's include directories.
#
# One custom command per namespace, with the generator's depfile: editing a
# spec or a file it includes reruns that namespace's generator only; the
# generator rewrites only files whose content changed and CMake's Ninja rules
# restat, so an edit that changes no C++ (a comment, `notes`) compiles
# nothing. A new opgen program reruns every generator.

# The function records the policies in effect here: CMP0116 (depfile paths
# as the generator writes them) holds even in a project declaring an older
# cmake_minimum_required. An older CMake still gets opgen::opgen.
cmake_policy(PUSH)
if(NOT CMAKE_VERSION VERSION_LESS 3.20)
  cmake_policy(VERSION 3.20...3.25)
endif()

function(opgen_generate)
  if(CMAKE_VERSION VERSION_LESS 3.20)
    message(FATAL_ERROR "opgen_generate needs CMake 3.20 or newer (depfiles of custom commands)")
  endif()
  cmake_parse_arguments(PARSE_ARGV 0 _og "" "TARGET;OUT_DIR;ROOT" "SPECS;INCLUDE_DIRS")
  if(_og_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "opgen_generate: unexpected arguments: ${_og_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _og_TARGET)
    message(FATAL_ERROR "opgen_generate: TARGET is required")
  endif()
  if(NOT TARGET "${_og_TARGET}")
    message(FATAL_ERROR "opgen_generate: '${_og_TARGET}' is not a target (create it first)")
  endif()
  if(NOT _og_SPECS)
    message(FATAL_ERROR "opgen_generate: SPECS needs at least one spec file")
  endif()
  if(NOT TARGET opgen::generator OR NOT TARGET opgen::opgen)
    message(FATAL_ERROR "opgen_generate: call find_package(opgen) in this directory or a parent first")
  endif()

  if(NOT _og_OUT_DIR)
    set(_og_OUT_DIR opgen)
  endif()
  cmake_path(ABSOLUTE_PATH _og_OUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE)
  if(NOT _og_ROOT)
    set(_og_ROOT "${PROJECT_SOURCE_DIR}")
  endif()
  cmake_path(ABSOLUTE_PATH _og_ROOT BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
  set(include_args "")
  foreach(dir IN LISTS _og_INCLUDE_DIRS)
    cmake_path(ABSOLUTE_PATH dir BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    list(APPEND include_args --include-dir "${dir}")
  endforeach()
  file(MAKE_DIRECTORY "${_og_OUT_DIR}")

  foreach(spec IN LISTS _og_SPECS)
    cmake_path(ABSOLUTE_PATH spec BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE
               OUTPUT_VARIABLE spec_path)
    if(NOT EXISTS "${spec_path}")
      message(FATAL_ERROR "opgen_generate: spec file ${spec_path} does not exist")
    endif()
    # The output names must be known here, at configure time: they come from
    # the file name, which must match the spec's `namespace` key.
    cmake_path(GET spec_path STEM LAST_ONLY ns)
    file(STRINGS "${spec_path}" ns_lines REGEX "^[ \t]*namespace[ \t]*=")
    if(ns_lines)
      list(GET ns_lines 0 ns_line)
    else()
      set(ns_line "")
    endif()
    if(NOT ns_line MATCHES "^[ \t]*namespace[ \t]*=[ \t]*[\"']([^\"']*)[\"']")
      message(FATAL_ERROR "opgen_generate: ${spec_path} has no `namespace` key "
                          "(include-only files are found through `include`, not listed in SPECS)")
    endif()
    if(NOT CMAKE_MATCH_1 STREQUAL ns)
      message(FATAL_ERROR "opgen_generate: ${spec_path} defines namespace '${CMAKE_MATCH_1}'; "
                          "name the file ${CMAKE_MATCH_1}.toml")
    endif()

    # Every file `opgen generate` writes, besides the depfile (opgen's test
    # tests/build/cmake_consumer.py fails when the program writes another).
    set(outputs "")
    foreach(suffix IN ITEMS .hpp .cpp .md _reference.hpp)
      list(APPEND outputs "${_og_OUT_DIR}/${ns}${suffix}")
    endforeach()
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND opgen::generator generate "${spec_path}"
              --out-dir "${_og_OUT_DIR}"
              --depfile "${_og_OUT_DIR}/${ns}.d"
              --root "${_og_ROOT}"
              ${include_args}
      MAIN_DEPENDENCY "${spec_path}"
      DEPENDS opgen::generator
      DEPFILE "${_og_OUT_DIR}/${ns}.d"
      COMMENT "opgen: generating namespace ${ns}"
      VERBATIM)
    target_sources("${_og_TARGET}" PRIVATE "${_og_OUT_DIR}/${ns}.cpp" "${_og_OUT_DIR}/${ns}.hpp")
  endforeach()

  target_include_directories("${_og_TARGET}" PUBLIC "${_og_OUT_DIR}")
  set_property(TARGET "${_og_TARGET}" APPEND PROPERTY LINK_LIBRARIES opgen::opgen)
  set_property(TARGET "${_og_TARGET}" APPEND PROPERTY INTERFACE_LINK_LIBRARIES opgen::opgen)
endfunction()

cmake_policy(POP)
