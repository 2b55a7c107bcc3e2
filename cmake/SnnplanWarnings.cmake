# Strict warnings for snnplan's own targets only (not exported, not forced on consumers).
add_library(snnplan_warnings INTERFACE)
target_compile_options(snnplan_warnings INTERFACE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-Wall -Wextra -Wpedantic>)
if(SNNPLAN_WERROR)
  target_compile_options(snnplan_warnings INTERFACE -Werror)
endif()
