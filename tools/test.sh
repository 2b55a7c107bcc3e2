#!/usr/bin/env bash
# Installs what is missing, builds (warnings are errors), and runs the whole test suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tools/deps.sh"
snnplan_install_deps
build=${SNNPLAN_BUILD_DIR:-$root/build}
snnplan_build "$build" -DSNNPLAN_WERROR=ON
cd "$build"
ctest --output-on-failure -j "$(nproc)"
