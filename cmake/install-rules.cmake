# The installed package (issue 5): headers, a shared and a static library, the CLI, the default
# rules, a CMake package (find_package(snnplan CONFIG)) and a pkg-config file; the JSON Schemas,
# man page and shell completions (issue 17); a Debian package of all of it (cmake/package.cmake).
#
# Inside this build tree the targets keep using `snnplan` (a static library) as before. The two
# libraries shipped to consumers are linked from its object files (nothing is compiled twice):
#   snnplan_shared -> libsnnplan.so.<version>, exported as snnplan::snnplan
#   snnplan_static -> libsnnplan.a,            exported as snnplan::snnplan_static
# yaml-cpp, fmt, Boost and nlohmann_json stay private: the installed headers do not include them
# and the exported targets carry no compile flags of theirs. The shared library links them itself;
# the static archive names only what it needs at link time (yaml-cpp, fmt) as link-only
# dependencies, which snnplanConfig.cmake finds, and libmd (SHA-256) by name, -lmd.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SNNPLAN_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/snnplan"
    CACHE STRING "Where snnplanConfig.cmake is installed (relative to the prefix)")
set(SNNPLAN_INSTALL_RULESDIR "${CMAKE_INSTALL_DATADIR}/snnplan/rules"
    CACHE STRING "Where the default rule files are installed (relative to the prefix)")
mark_as_advanced(SNNPLAN_INSTALL_CMAKEDIR SNNPLAN_INSTALL_RULESDIR)

# Separate output directory: the in-tree static `snnplan` already writes libsnnplan.a.
set(snnplan_package_lib_dir "${PROJECT_BINARY_DIR}/package/lib")

# Shared and static libraries with the same public face as `snnplan`.
add_library(snnplan_shared SHARED $<TARGET_OBJECTS:snnplan_objects> $<TARGET_OBJECTS:snnplan>)
add_library(snnplan_static STATIC $<TARGET_OBJECTS:snnplan_objects> $<TARGET_OBJECTS:snnplan>)
foreach(target IN ITEMS snnplan_shared snnplan_static)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target} PUBLIC Threads::Threads)
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME snnplan
    LINKER_LANGUAGE CXX
    LIBRARY_OUTPUT_DIRECTORY "${snnplan_package_lib_dir}"
    ARCHIVE_OUTPUT_DIRECTORY "${snnplan_package_lib_dir}")
endforeach()
# Private: nothing of these reaches the exported interface of the shared library.
target_link_libraries(snnplan_shared PRIVATE yaml-cpp fmt::fmt ${SNNPLAN_MD_LIBRARY})
# For a static archive, CMake exports private libraries as $<LINK_ONLY:...>: linked, never compiled
# with. Boost and nlohmann_json are header-only here and are deliberately absent.
# libmd by name (-lmd): an installed package must not carry this machine's library path.
target_link_libraries(snnplan_static PRIVATE yaml-cpp fmt::fmt md)
set_target_properties(snnplan_shared PROPERTIES
  EXPORT_NAME snnplan
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR})
set_target_properties(snnplan_static PROPERTIES EXPORT_NAME snnplan_static)

# Headers, libraries, CLI, rules.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/snnplan
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT snnplan_development
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
install(TARGETS snnplan_shared EXPORT snnplanTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT snnplan_runtime
                NAMELINK_COMPONENT snnplan_development
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT snnplan_runtime
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT snnplan_development)
install(TARGETS snnplan_static EXPORT snnplanStaticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT snnplan_development)
# Installed binaries find the libraries installed beside them: a run path of $ORIGIN/../lib (the
# library directory relative to the binary's directory), so an install into any prefix runs
# without LD_LIBRARY_PATH. (The dynamic CLI links the static library today; the run path keeps it
# working if it links the shared one. The static CLI, installed when built, has no run path.)
set_target_properties(snnplan_shared PROPERTIES INSTALL_RPATH "$ORIGIN")
# What is put on PATH as `snnplan` is the CLI that starts fastest: snnplan-static, linked
# statically (no dynamic loader, no relocation of libstdc++, yaml-cpp and fmt at every
# start; bench/cold_start_bench.cpp), whenever this build makes it. Its `serve` runs the dynamic
# CLI, which has the web server (Debian's cpp-httplib is shared only): that one is installed as
# libexec/snnplan/snnplan (SNNPLAN_SERVE_HELPER_DIR, src/frontends/serve/server_exec.cpp). Where no static
# CLI is built (sanitizer builds, no static yaml-cpp or libmd), the dynamic CLI is bin/snnplan.
if(TARGET snnplan_static_exe)
  set(snnplan_dynamic_cli_dir "${SNNPLAN_SERVE_HELPER_DIR}")
else()
  set(snnplan_dynamic_cli_dir "${CMAKE_INSTALL_BINDIR}")
endif()
file(RELATIVE_PATH snnplan_cli_to_lib "/prefix/${snnplan_dynamic_cli_dir}" "/prefix/${CMAKE_INSTALL_LIBDIR}")
set_target_properties(snnplan_exe PROPERTIES INSTALL_RPATH "$ORIGIN/${snnplan_cli_to_lib}")
install(TARGETS snnplan_exe RUNTIME DESTINATION ${snnplan_dynamic_cli_dir} COMPONENT snnplan_runtime)
if(TARGET snnplan_static_exe)
  install(PROGRAMS $<TARGET_FILE:snnplan_static_exe> DESTINATION ${CMAKE_INSTALL_BINDIR}
          RENAME snnplan${CMAKE_EXECUTABLE_SUFFIX} COMPONENT snnplan_runtime)
  # install(PROGRAMS) is not stripped with `cmake --install --strip` or CPACK_STRIP_FILES as
  # install(TARGETS) is: strip it the same way (the build's debug information stays out).
  install(CODE "
    if(CMAKE_INSTALL_DO_STRIP AND NOT \"${CMAKE_STRIP}\" STREQUAL \"\")
      execute_process(COMMAND \"${CMAKE_STRIP}\" \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/snnplan${CMAKE_EXECUTABLE_SUFFIX}\")
    endif()" COMPONENT snnplan_runtime)
endif()
install(FILES ${SNNPLAN_BUILTIN_RULE_FILES}
        DESTINATION ${SNNPLAN_INSTALL_RULESDIR} COMPONENT snnplan_runtime)
# Their rule tests, beside them: `snnplan test RULES RULES.test.yaml` runs on an installation.
install(FILES ${PROJECT_SOURCE_DIR}/rules/snn_distributed.test.yaml
              ${PROJECT_SOURCE_DIR}/rules/snn_plan.test.yaml
              ${PROJECT_SOURCE_DIR}/rules/snn_llm_planning.test.yaml
        DESTINATION ${SNNPLAN_INSTALL_RULESDIR} COMPONENT snnplan_runtime)
# Upstream's earlier recommendation policies, one rule file per version, and upstream HEAD's
# plan (plan_HEAD.yaml) with its rule tests (rules/history/).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/history
        DESTINATION ${SNNPLAN_INSTALL_RULESDIR} COMPONENT snnplan_runtime
        FILES_MATCHING PATTERN "*.yaml" PATTERN "README.md")

# What the CLI generates from its own definitions (cmake/generate_files.cmake): the JSON Schemas,
# the man page and the shell completions, installed where Debian's tools look for them.
set(snnplan_generated_dir "${PROJECT_BINARY_DIR}/generated/share")
set(snnplan_schemas ${snnplan_generated_dir}/schema/rules.schema.json
                    ${snnplan_generated_dir}/schema/tests.schema.json
                    ${snnplan_generated_dir}/schema/record.schema.json
                    ${snnplan_generated_dir}/schema/decision-log.schema.json)
set(snnplan_generated_files ${snnplan_schemas} ${snnplan_generated_dir}/man/snnplan.1
    ${snnplan_generated_dir}/completion/snnplan.bash ${snnplan_generated_dir}/completion/_snnplan
    ${snnplan_generated_dir}/completion/snnplan.fish)
add_custom_command(
  OUTPUT ${snnplan_generated_files}
  COMMAND ${CMAKE_COMMAND} -DSNNPLAN=$<TARGET_FILE:snnplan_exe> -DOUTPUT_DIR=${snnplan_generated_dir}
          -P ${CMAKE_CURRENT_LIST_DIR}/generate_files.cmake
  DEPENDS snnplan_exe ${CMAKE_CURRENT_LIST_DIR}/generate_files.cmake
  COMMENT "Writing the JSON Schemas, the man page and the shell completions"
  VERBATIM)
add_custom_target(snnplan_generated_files ALL DEPENDS ${snnplan_generated_files})
install(FILES ${snnplan_schemas}
        DESTINATION ${CMAKE_INSTALL_DATADIR}/snnplan/schema COMPONENT snnplan_runtime)
install(FILES ${snnplan_generated_dir}/man/snnplan.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT snnplan_runtime)
install(FILES ${snnplan_generated_dir}/completion/snnplan.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME snnplan
        COMPONENT snnplan_runtime)
install(FILES ${snnplan_generated_dir}/completion/_snnplan
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT snnplan_runtime)
install(FILES ${snnplan_generated_dir}/completion/snnplan.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT snnplan_runtime)

# CMake package.
install(EXPORT snnplanTargets NAMESPACE snnplan::
        DESTINATION ${SNNPLAN_INSTALL_CMAKEDIR} COMPONENT snnplan_development)
install(EXPORT snnplanStaticTargets NAMESPACE snnplan::
        DESTINATION ${SNNPLAN_INSTALL_CMAKEDIR} COMPONENT snnplan_development)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/snnplanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/snnplanConfig.cmake
  INSTALL_DESTINATION ${SNNPLAN_INSTALL_CMAKEDIR}
  PATH_VARS SNNPLAN_INSTALL_RULESDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/package/snnplanConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/snnplanConfig.cmake
              ${PROJECT_BINARY_DIR}/package/snnplanConfigVersion.cmake
        DESTINATION ${SNNPLAN_INSTALL_CMAKEDIR} COMPONENT snnplan_development)

# pkg-config: relocatable (paths relative to the .pc file, so `cmake --install --prefix` works).
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SNNPLAN_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(SNNPLAN_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH snnplan_pc_up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" snnplan_pc_up "${snnplan_pc_up}")
  set(SNNPLAN_PC_PREFIX "\${pcfiledir}/${snnplan_pc_up}")
  set(SNNPLAN_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SNNPLAN_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(SNNPLAN_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/snnplan.pc.in ${PROJECT_BINARY_DIR}/package/snnplan.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/snnplan.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT snnplan_development)

# A .deb of everything above: `cpack -G DEB` in the build directory.
include(${CMAKE_CURRENT_LIST_DIR}/package.cmake)
