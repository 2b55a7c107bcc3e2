# assert_static_cli(<binary>): the CLI put on PATH is the statically linked one (issue 34): its
# ELF program headers request no interpreter (no dynamic loader runs before main) and its dynamic
# section, if any, needs no shared library (no yaml-cpp, fmt, libmd or libstdc++ to load and
# relocate at every start). assert_serve_runs_helper(<static CLI> <helper>): its `serve` runs the
# dynamically linked CLI installed as <helper> (src/frontends/serve/server_exec.cpp), which has the web
# server. Included by run_consumer_test.cmake and run_deb_test.cmake.
find_program(SNNPLAN_READELF NAMES readelf REQUIRED)

function(assert_static_cli binary)
  execute_process(COMMAND "${SNNPLAN_READELF}" -lW "${binary}" RESULT_VARIABLE status
                  OUTPUT_VARIABLE headers ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "readelf -l ${binary} failed (${status}): ${err}")
  endif()
  if(headers MATCHES "INTERP" OR headers MATCHES "program interpreter")
    message(FATAL_ERROR "${binary} is linked dynamically (it requests a program interpreter):\n${headers}")
  endif()
  execute_process(COMMAND "${SNNPLAN_READELF}" -dW "${binary}" RESULT_VARIABLE status
                  OUTPUT_VARIABLE dynamic ERROR_VARIABLE err)
  if(dynamic MATCHES "\\(NEEDED\\)")
    message(FATAL_ERROR "${binary} needs shared libraries:\n${dynamic}")
  endif()
  message(STATUS "ok: ${binary} is statically linked (no program interpreter, no shared library needed)")
endfunction()

# `snnplan serve` of a file that does not exist passes the static CLI's parsing and reaches the
# workbench, which refuses to start: through the helper, the output and exit code are the
# helper's own (exit 2, "cannot read"); a static CLI that could not run the helper would say
# "cannot run the workbench server" instead.
function(assert_serve_runs_helper static_cli helper)
  if(NOT EXISTS "${helper}")
    message(FATAL_ERROR "the serve helper ${helper} is not installed")
  endif()
  set(missing "${CMAKE_CURRENT_BINARY_DIR}/no-such-rules.yaml")
  execute_process(COMMAND "${static_cli}" serve "${missing}" --port 0 RESULT_VARIABLE static_status
                  OUTPUT_VARIABLE static_out ERROR_VARIABLE static_err)
  execute_process(COMMAND "${helper}" serve "${missing}" --port 0 RESULT_VARIABLE helper_status
                  OUTPUT_VARIABLE helper_out ERROR_VARIABLE helper_err)
  if(NOT static_status EQUAL 2 OR NOT static_err MATCHES "cannot read"
     OR NOT static_status STREQUAL helper_status OR NOT static_out STREQUAL helper_out
     OR NOT static_err STREQUAL helper_err)
    message(FATAL_ERROR "snnplan serve did not run the helper ${helper}:\n"
                        "static CLI: exit ${static_status}\n${static_out}${static_err}\n"
                        "helper: exit ${helper_status}\n${helper_out}${helper_err}")
  endif()
  message(STATUS "ok: ${static_cli} serve runs ${helper} (exit ${static_status}, same output)")
endfunction()
