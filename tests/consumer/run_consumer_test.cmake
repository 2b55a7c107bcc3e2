# ctest driver: install the built tree into a fresh prefix, check the layout, then build and run
# tests/consumer against it with CMake (find_package) and, when available, with pkg-config.
#
#   cmake -DBUILD_DIR=<snnplan build> -DWORK_DIR=<scratch dir> [-DCONFIG=<config>]
#         [-DGENERATOR=...] [-DC_COMPILER=...] [-DCXX_COMPILER=...] [-DLIBDIR=lib]
#         [-DC_FLAGS=...] [-DCXX_FLAGS=...] [-DEXE_LINKER_FLAGS=...] [-DSTATIC_CLI=1 -DSERVE_HELPER=libexec/snnplan/snnplan]
#         -P tests/consumer/run_consumer_test.cmake
cmake_minimum_required(VERSION 3.20)

foreach(required IN ITEMS BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "run_consumer_test.cmake: pass -D${required}=...")
  endif()
endforeach()
if(NOT DEFINED LIBDIR)
  set(LIBDIR lib)
endif()
set(source_dir "${CMAKE_CURRENT_LIST_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/build")
# STATIC_CLI: the build made snnplan-static, so what it installs as bin/snnplan is that one, and
# the dynamic CLI, which its `serve` runs, is SERVE_HELPER (relative to the prefix).
if(NOT DEFINED STATIC_CLI)
  set(STATIC_CLI 0)
endif()
include("${CMAKE_CURRENT_LIST_DIR}/../package/static_cli.cmake")

# Runs a command; on failure prints its output and stops.
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

# 1. A fresh install of the already-built tree.
set(config_args "")
if(DEFINED CONFIG AND NOT CONFIG STREQUAL "")
  set(config_args --config "${CONFIG}")
endif()
run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" ${config_args})

# 2. The layout the issue asks for.
foreach(path IN ITEMS
    include/snnplan/snnplan.hpp include/snnplan/snnplan.h include/snnplan/recommendation.hpp
    ${LIBDIR}/libsnnplan.a ${LIBDIR}/libsnnplan.so bin/snnplan
    share/snnplan/rules/snn_distributed.yaml share/snnplan/rules/snn_plan.yaml
    share/snnplan/rules/snn_distributed.test.yaml share/snnplan/rules/snn_plan.test.yaml
    ${LIBDIR}/cmake/snnplan/snnplanConfig.cmake ${LIBDIR}/cmake/snnplan/snnplanConfigVersion.cmake
    ${LIBDIR}/pkgconfig/snnplan.pc)
  if(NOT EXISTS "${prefix}/${path}")
    message(FATAL_ERROR "the install lacks ${path}")
  endif()
endforeach()
message(STATUS "ok: installed layout")

# 3. Installed headers include nothing of the private dependencies.
file(GLOB_RECURSE headers "${prefix}/include/*")
foreach(header IN LISTS headers)
  file(STRINGS "${header}" leaks REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](yaml-cpp|boost|nlohmann|fmt|CLI)/")
  if(leaks)
    message(FATAL_ERROR "${header} includes a private dependency: ${leaks}")
  endif()
endforeach()
message(STATUS "ok: installed headers do not include yaml-cpp, Boost, nlohmann_json, fmt or CLI11")

# 4. The installed CLI runs and checks the installed rules.
run("installed CLI --version" "${prefix}/bin/snnplan" --version)
run("installed CLI checks the installed rules"
    "${prefix}/bin/snnplan" check --strict "${prefix}/share/snnplan/rules/snn_distributed.yaml")
run("installed CLI runs the installed rule tests"
    "${prefix}/bin/snnplan" test "${prefix}/share/snnplan/rules/snn_distributed.yaml"
    "${prefix}/share/snnplan/rules/snn_distributed.test.yaml" --min-coverage 100)

# 4b. Installed binaries find the installed libraries: run path $ORIGIN/../lib. The installed
# CLI is the statically linked one where the build made it (it needs no library, so no run path).
file(RELATIVE_PATH bin_to_lib "${prefix}/bin" "${prefix}/${LIBDIR}")
set(binaries_and_runpaths "${LIBDIR}/libsnnplan.so|$ORIGIN")
if(STATIC_CLI)
  assert_static_cli("${prefix}/bin/snnplan")
  assert_serve_runs_helper("${prefix}/bin/snnplan" "${prefix}/${SERVE_HELPER}")
  get_filename_component(helper_dir "${prefix}/${SERVE_HELPER}" DIRECTORY)
  file(RELATIVE_PATH helper_to_lib "${helper_dir}" "${prefix}/${LIBDIR}")
  list(APPEND binaries_and_runpaths "${SERVE_HELPER}|$ORIGIN/${helper_to_lib}")
else()
  list(APPEND binaries_and_runpaths "bin/snnplan|$ORIGIN/${bin_to_lib}")
endif()
foreach(binary_and_runpath IN LISTS binaries_and_runpaths)
  string(REPLACE "|" ";" pair "${binary_and_runpath}")
  list(GET pair 0 binary)
  list(GET pair 1 expected_runpath)
  file(READ_ELF "${prefix}/${binary}" RUNPATH runpath)
  if(NOT runpath STREQUAL expected_runpath)
    message(FATAL_ERROR "the installed ${binary} has the run path '${runpath}', expected '${expected_runpath}'")
  endif()
endforeach()
message(STATUS "ok: installed run paths")

# 5. The consumer project, with find_package(snnplan CONFIG) from this prefix only.
set(configure_args -S "${source_dir}" -B "${consumer_build}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DSNNPLAN_EXPECTED_PREFIX=${prefix}"
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(DEFINED GENERATOR AND NOT GENERATOR STREQUAL "")
  list(APPEND configure_args -G "${GENERATOR}")
endif()
if(DEFINED CONFIG AND NOT CONFIG STREQUAL "")
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${CONFIG}")
endif()
if(DEFINED C_COMPILER AND NOT C_COMPILER STREQUAL "")
  list(APPEND configure_args "-DCMAKE_C_COMPILER=${C_COMPILER}")
endif()
if(DEFINED CXX_COMPILER AND NOT CXX_COMPILER STREQUAL "")
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
# Same flags as the snnplan build (sanitizer presets: the libraries need their runtime).
foreach(flags IN ITEMS C_FLAGS CXX_FLAGS EXE_LINKER_FLAGS)
  if(DEFINED ${flags} AND NOT "${${flags}}" STREQUAL "")
    list(APPEND configure_args "-DCMAKE_${flags}=${${flags}}")
  endif()
endforeach()
run("configure the consumer project" "${CMAKE_COMMAND}" ${configure_args})
run("build the consumer project" "${CMAKE_COMMAND}" --build "${consumer_build}" ${config_args})

foreach(program IN ITEMS consumer consumer_static consumer_c)
  set(candidates "${consumer_build}/${program}")
  if(DEFINED CONFIG AND NOT CONFIG STREQUAL "")
    list(APPEND candidates "${consumer_build}/${CONFIG}/${program}")
  endif()
  set(executable "")
  foreach(candidate IN LISTS candidates)
    if(EXISTS "${candidate}" OR EXISTS "${candidate}.exe")
      set(executable "${candidate}")
      break()
    endif()
  endforeach()
  if(executable STREQUAL "")
    message(FATAL_ERROR "the consumer build produced no ${program}")
  endif()
  run("run ${program}" "${executable}")
  message(STATUS "   ${run_output}")
endforeach()

# 5b. A project in C alone links the static archive (no C++ compiler enabled there).
set(c_only_args -S "${source_dir}/c_only" -B "${WORK_DIR}/c-only-build" "-DCMAKE_PREFIX_PATH=${prefix}"
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
foreach(arg IN LISTS configure_args)
  if(arg MATCHES "^-DCMAKE_(C_COMPILER|BUILD_TYPE|C_FLAGS|EXE_LINKER_FLAGS)=" OR arg STREQUAL "-G"
     OR (DEFINED GENERATOR AND arg STREQUAL "${GENERATOR}"))
    list(APPEND c_only_args "${arg}")
  endif()
endforeach()
run("configure the C-only project" "${CMAKE_COMMAND}" ${c_only_args})
run("build the C-only project" "${CMAKE_COMMAND}" --build "${WORK_DIR}/c-only-build" ${config_args})
file(GLOB_RECURSE c_only_program "${WORK_DIR}/c-only-build/consumer_c_static" "${WORK_DIR}/c-only-build/consumer_c_static.exe")
if(NOT c_only_program)
  message(FATAL_ERROR "the C-only build produced no consumer_c_static")
endif()
list(GET c_only_program 0 c_only_program)
run("run the C-only static consumer" "${c_only_program}")

# 6. pkg-config, when installed (tools/deps.sh installs it).
find_program(PKG_CONFIG_EXECUTABLE NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG_EXECUTABLE)
  message(STATUS "skipped: pkg-config not found")
  return()
endif()
set(ENV{PKG_CONFIG_PATH} "${prefix}/${LIBDIR}/pkgconfig")
run("pkg-config --modversion snnplan" "${PKG_CONFIG_EXECUTABLE}" --modversion snnplan)
string(STRIP "${run_output}" pc_version)
run("pkg-config --variable=rulesdir snnplan" "${PKG_CONFIG_EXECUTABLE}" --variable=rulesdir snnplan)
string(STRIP "${run_output}" pc_rulesdir)
if(NOT EXISTS "${pc_rulesdir}/snn_distributed.yaml")
  message(FATAL_ERROR "pkg-config's rulesdir ${pc_rulesdir} holds no snn_distributed.yaml")
endif()
run("pkg-config --cflags --libs snnplan" "${PKG_CONFIG_EXECUTABLE}" --cflags --libs snnplan)
string(STRIP "${run_output}" pc_flags)
message(STATUS "   ${pc_flags}")
if(pc_flags MATCHES "-lyaml|-lfmt|boost|nlohmann")
  message(FATAL_ERROR "pkg-config --cflags --libs snnplan names private dependencies: ${pc_flags}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
set(defines "-DSNNPLAN_RULES_DIR=\"${pc_rulesdir}\"" "-DSNNPLAN_EXPECTED_VERSION=\"${pc_version}\"")
if(NOT DEFINED CXX_COMPILER OR CXX_COMPILER STREQUAL "")
  set(CXX_COMPILER c++)
endif()
if(NOT DEFINED C_COMPILER OR C_COMPILER STREQUAL "")
  set(C_COMPILER cc)
endif()
separate_arguments(extra_c_flags UNIX_COMMAND "${C_FLAGS} ${EXE_LINKER_FLAGS}")
separate_arguments(extra_cxx_flags UNIX_COMMAND "${CXX_FLAGS} ${EXE_LINKER_FLAGS}")
run("compile the C++ consumer with pkg-config's flags"
    "${CXX_COMPILER}" -std=c++20 ${extra_cxx_flags} ${defines} "${source_dir}/main.cpp" -o "${WORK_DIR}/pc_consumer" ${pc_flags})
run("compile the C consumer with pkg-config's flags"
    "${C_COMPILER}" -std=c99 ${extra_c_flags} ${defines} "${source_dir}/main.c" -o "${WORK_DIR}/pc_consumer_c" ${pc_flags})
# A static C link with pkg-config --static: Libs.private must name everything the archive needs.
run("pkg-config --cflags --static --libs snnplan" "${PKG_CONFIG_EXECUTABLE}" --cflags --static --libs snnplan)
string(STRIP "${run_output}" pc_static_flags)
message(STATUS "   ${pc_static_flags}")
separate_arguments(pc_static_flags UNIX_COMMAND "${pc_static_flags}")
list(TRANSFORM pc_static_flags REPLACE "^-lsnnplan$" "-l:libsnnplan.a")  # the archive, not the .so
run("link the C consumer statically with pkg-config --static's flags"
    "${C_COMPILER}" -std=c99 ${extra_c_flags} ${defines} "${source_dir}/main.c" -o "${WORK_DIR}/pc_consumer_c_static" ${pc_static_flags})
run("run the statically linked pkg-config C consumer" "${WORK_DIR}/pc_consumer_c_static")

# pkg-config gives no run path: find the installed shared library the way a user would.
set(ENV{LD_LIBRARY_PATH} "${prefix}/${LIBDIR}")
run("run the pkg-config C++ consumer" "${WORK_DIR}/pc_consumer")
message(STATUS "   ${run_output}")
run("run the pkg-config C consumer" "${WORK_DIR}/pc_consumer_c")
