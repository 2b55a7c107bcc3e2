# `cpack -G DEB` (run in the build directory): one Debian package, snnplan, with the CLI, the
# shared and static libraries, the headers, the default rules, the JSON Schemas, the man page and
# the shell completions, installed under /usr. Tested by tests/package/run_deb_test.cmake.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME snnplan)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "rule-driven distributed-training planner for spiking neural networks")
set(CPACK_PACKAGE_DESCRIPTION
    "snnplan chooses a parallel strategy and memory-optimisation level for distributed SNN training from an ordered YAML rule table: a C++20 and C library and the snnplan command line.")
set(CPACK_PACKAGE_CONTACT "snnplan maintainers <snnplan@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # the build's debug information stays out of the package
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # snnplan_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
# The run-time dependencies (yaml-cpp, fmt, libstdc++) as dpkg-shlibdeps finds them in the binaries.
find_program(SNNPLAN_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(SNNPLAN_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
include(CPack)
