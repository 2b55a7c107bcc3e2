# snnplan_find_python_with(<var> "<module>, <module>" <interpreter>): sets <var> to the first of
# <interpreter> and /usr/bin/python3 (Debian's, which Debian's mypy, pip, setuptools and wheel
# belong to) that imports every module named and loads extensions of the same suffix as
# <interpreter> does (so the module built for <interpreter> imports in it); to "" if neither.
function(snnplan_find_python_with var modules interpreter)
  set(probe "import sysconfig, ${modules}; print(sysconfig.get_config_var('EXT_SUFFIX'))")
  execute_process(COMMAND ${interpreter} -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"
                  OUTPUT_VARIABLE wanted OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(found "")
  foreach(candidate ${interpreter} /usr/bin/python3)
    if(EXISTS ${candidate} AND NOT found)
      execute_process(COMMAND ${candidate} -c "${probe}" OUTPUT_VARIABLE suffix OUTPUT_STRIP_TRAILING_WHITESPACE
                      RESULT_VARIABLE status ERROR_QUIET)
      if(status EQUAL 0 AND suffix STREQUAL wanted)
        set(found ${candidate})
      endif()
    endif()
  endforeach()
  set(${var} "${found}" PARENT_SCOPE)
endfunction()
