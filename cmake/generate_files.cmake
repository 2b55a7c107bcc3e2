# Writes the files the CLI generates from its own definitions into OUTPUT_DIR, for install:
# the JSON Schemas (`snnplan schema`), the man page (`snnplan help --man`) and the shell
# completions (`snnplan completion`).
#   cmake -DSNNPLAN=<built snnplan> -DOUTPUT_DIR=<dir> -P cmake/generate_files.cmake
foreach(required IN ITEMS SNNPLAN OUTPUT_DIR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "generate_files.cmake: pass -D${required}=...")
  endif()
endforeach()

function(generate output)
  get_filename_component(directory "${OUTPUT_DIR}/${output}" DIRECTORY)
  file(MAKE_DIRECTORY "${directory}")
  execute_process(COMMAND "${SNNPLAN}" ${ARGN} OUTPUT_FILE "${OUTPUT_DIR}/${output}.tmp"
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "snnplan ${ARGN} failed (${status}): ${err}")
  endif()
  file(RENAME "${OUTPUT_DIR}/${output}.tmp" "${OUTPUT_DIR}/${output}")
endfunction()

foreach(kind IN ITEMS rules tests record decision-log)
  generate(schema/${kind}.schema.json schema ${kind})
endforeach()
generate(man/snnplan.1 help --man)
generate(completion/snnplan.bash completion bash)
generate(completion/_snnplan completion zsh)
generate(completion/snnplan.fish completion fish)
