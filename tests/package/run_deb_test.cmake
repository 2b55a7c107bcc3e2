# ctest driver for "cpack builds a .deb that installs and runs": builds the Debian package of
# the build tree with `cpack -G DEB`, lists it with `dpkg-deb -c`, checks that it holds the CLI,
# the libraries, the headers, the rules, the schemas, the man page and the completions, unpacks
# it into a scratch root with `dpkg -x` and runs the CLI from there.
# Where the build made snnplan-static (-DSTATIC_CLI=1), the packaged /usr/bin/snnplan must be it,
# and its `serve` must run the dynamic CLI packaged as /usr/SERVE_HELPER.
#   cmake -DBUILD_DIR=<snnplan build> -DWORK_DIR=<scratch dir> [-DSTATIC_CLI=1 -DSERVE_HELPER=...]
#         -P tests/package/run_deb_test.cmake
cmake_minimum_required(VERSION 3.20)
foreach(required IN ITEMS BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_deb_test.cmake: pass -D${required}=...")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/static_cli.cmake")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${what}")
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
get_filename_component(cmake_dir "${CMAKE_COMMAND}" DIRECTORY)
find_program(CPACK cpack HINTS "${cmake_dir}" REQUIRED)
run("cpack -G DEB" "${CPACK}" -G DEB --config "${BUILD_DIR}/CPackConfig.cmake" -B "${WORK_DIR}")
file(GLOB debs "${WORK_DIR}/snnplan_*.deb")
list(LENGTH debs deb_count)
if(NOT deb_count EQUAL 1)
  message(FATAL_ERROR "cpack wrote ${deb_count} packages, expected one snnplan_*.deb: ${debs}")
endif()

run("dpkg-deb -c" dpkg-deb -c "${debs}")
set(listing "${run_output}")
foreach(path IN ITEMS
    ./usr/bin/snnplan ./usr/lib/libsnnplan.so ./usr/lib/libsnnplan.a
    ./usr/include/snnplan/snnplan.hpp ./usr/include/snnplan/snnplan.h ./usr/include/snnplan/json.hpp
    ./usr/share/snnplan/rules/snn_distributed.yaml ./usr/share/snnplan/rules/snn_plan.yaml
    ./usr/share/snnplan/rules/snn_distributed.test.yaml ./usr/share/snnplan/rules/snn_plan.test.yaml
    ./usr/share/snnplan/schema/rules.schema.json ./usr/share/snnplan/schema/tests.schema.json
    ./usr/share/snnplan/schema/record.schema.json ./usr/share/man/man1/snnplan.1
    ./usr/share/bash-completion/completions/snnplan ./usr/share/zsh/vendor-completions/_snnplan
    ./usr/share/fish/vendor_completions.d/snnplan.fish ./usr/lib/pkgconfig/snnplan.pc)
  string(REPLACE "." "\\." pattern "${path}")
  if(NOT listing MATCHES " ${pattern}( -> [^\n]*)?\n")  # a symbolic link is listed with its target
    message(FATAL_ERROR "the package lacks ${path}:\n${listing}")
  endif()
endforeach()
message(STATUS "ok: the package holds the CLI, libraries, headers, rules, schemas, man page and completions")
run("dpkg-deb -f" dpkg-deb -f "${debs}" Package Version Depends)
message(STATUS "   ${run_output}")

set(root "${WORK_DIR}/root")
run("dpkg -x" dpkg -x "${debs}" "${root}")
if(STATIC_CLI)
  assert_static_cli("${root}/usr/bin/snnplan")
  assert_serve_runs_helper("${root}/usr/bin/snnplan" "${root}/usr/${SERVE_HELPER}")
endif()
run("the unpacked CLI prints its version" "${root}/usr/bin/snnplan" --version)
if(NOT run_output MATCHES "rule format 2")
  message(FATAL_ERROR "snnplan --version from the package says:\n${run_output}")
endif()
run("the unpacked CLI checks the packaged rules"
    "${root}/usr/bin/snnplan" check --strict "${root}/usr/share/snnplan/rules/snn_distributed.yaml")
run("the unpacked CLI recommends with the packaged rules"
    "${root}/usr/bin/snnplan" recommend --rules "${root}/usr/share/snnplan/rules/snn_distributed.yaml"
    --model spikformer_8_384 --world-size 8 --prefer memory --batch-size 64)
if(NOT run_output MATCHES "\"mode\": \"fsdp2_tp\"")
  message(FATAL_ERROR "unexpected recommendation from the package:\n${run_output}")
endif()
file(READ "${root}/usr/share/snnplan/schema/rules.schema.json" schema)
string(JSON dialect GET "${schema}" "\$schema")
if(NOT dialect STREQUAL "https://json-schema.org/draft/2020-12/schema")
  message(FATAL_ERROR "the packaged rules schema declares ${dialect}")
endif()
message(STATUS "ok: the packaged schema is a draft 2020-12 JSON Schema")
