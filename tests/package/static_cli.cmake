# assert_static_cli(<binary>): the CLI put on PATH is the statically linked one (issue 34): its
# ELF program headers request no interpreter (no dynamic loader runs before main) and its dynamic
# section, if any, needs no shared library (no yaml-cpp, fmt, Nettle or libstdc++ to load and
# relocate at every start). Included by run_consumer_test.cmake and run_deb_test.cmake.
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
