# snnplan_embed_text(OUT_VAR INPUT OUTPUT_NAME NAMESPACE NAME DESCRIPTION): a build step that
# writes generated/OUTPUT_NAME, defining `const std::string_view NAMESPACE::NAME` as the text of
# INPUT (relative to the project's source directory) by cmake/embed_text.cmake, rewritten whenever
# INPUT or that script changes; OUT_VAR is set to the generated file, for a target's sources.
function(snnplan_embed_text out_var input output_name namespace name description)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/generated/${output_name})
  set(script ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_text.cmake)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${PROJECT_SOURCE_DIR}/${input} -DOUTPUT=${output}
            -DNAMESPACE=${namespace} -DNAME=${name} -P ${script}
    DEPENDS ${PROJECT_SOURCE_DIR}/${input} ${script}
    COMMENT "Embedding ${description}"
    VERBATIM)
  set(${out_var} ${output} PARENT_SCOPE)
endfunction()
