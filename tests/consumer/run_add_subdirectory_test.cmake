# ctest driver: configure tests/consumer/add_subdirectory against this source tree, once as it
# comes (the library and the CLI only) and once asking for the examples (the options still work
# from a parent project). Configuring is enough: the targets and tests a project gets are fixed
# then, and building would compile snnplan a second time.
#
#   cmake -DSOURCE_DIR=<snnplan checkout> -DWORK_DIR=<scratch dir> [-DGENERATOR=...]
#         [-DC_COMPILER=...] [-DCXX_COMPILER=...] -P tests/consumer/run_add_subdirectory_test.cmake
cmake_minimum_required(VERSION 3.20)

foreach(required IN ITEMS SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_add_subdirectory_test.cmake: pass -D${required}=...")
  endif()
endforeach()

set(common_args "-DSNNPLAN_SOURCE_DIR=${SOURCE_DIR}")
if(DEFINED GENERATOR AND NOT GENERATOR STREQUAL "")
  list(APPEND common_args -G "${GENERATOR}")
endif()
foreach(language IN ITEMS C CXX)
  if(DEFINED ${language}_COMPILER AND NOT ${language}_COMPILER STREQUAL "")
    list(APPEND common_args "-DCMAKE_${language}_COMPILER=${${language}_COMPILER}")
  endif()
endforeach()

# Configures the project in WORK_DIR/<name>; `expected` is a comma-separated list of targets.
function(configure name expected)
  configure_project(${name} add_subdirectory "-DEXPECTED_TARGETS=${expected}" ${ARGN})
endfunction()

# Configures and generates tests/consumer/<project> in WORK_DIR/<name>.
function(configure_project name project)
  set(build "${WORK_DIR}/${name}")
  file(REMOVE_RECURSE "${build}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}/${project}" -B "${build}"
            ${common_args} ${ARGN}
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR
      "configuring with add_subdirectory(snnplan) ${ARGN} failed (${status}):\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${name}")
endfunction()

# snnplan_objects and snnplan_serialize_builtins make the library (its built-in rules are
# compiled at build time by a program made of its objects).
configure(default snnplan,snnplan_cli,snnplan_exe,snnplan_lsp,snnplan_objects,snnplan_serialize_builtins,snnplan_serve,snnplan_warnings)
configure(examples snnplan,snnplan_cli,snnplan_exe,snnplan_lsp,snnplan_objects,snnplan_serialize_builtins,snnplan_serve,snnplan_warnings,recommend_example
          -DSNNPLAN_BUILD_EXAMPLES=ON)
# A parent in C alone: its C program links the library with the C driver (no C++ standard is
# required of it, the C++ runtime comes with the library's link interface).
configure_project(c_only add_subdirectory_c)
set(link_file "${WORK_DIR}/c_only/CMakeFiles/uses_snnplan_from_c.dir/link.txt")
if(EXISTS "${link_file}")  # Makefile generators write the link line there
  file(STRINGS "${link_file}" link_line)
  if(NOT link_line MATCHES "-lstdc\\+\\+")
    message(FATAL_ERROR "the C program's link line lacks the C++ runtime:\n${link_line}")
  endif()
  message(STATUS "ok: a C-only parent links with: ${link_line}")
endif()
