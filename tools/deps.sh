#!/usr/bin/env bash
# Installs what snnplan needs to build and test, from Debian packages, when it is missing.
# Sourced by tools/run.sh and tools/test.sh; safe to run again (does nothing when complete).
set -euo pipefail

SNNPLAN_PACKAGES=(cmake make g++ pkg-config python3
  lld  # links snnplan-static in its start-up order (src/frontends/cli/startup.order)
  libyaml-cpp-dev libboost-graph-dev doctest-dev nlohmann-json3-dev libcli11-dev libfmt-dev libmd-dev
  libbenchmark-dev pybind11-dev python3-dev
  # the Python package: pip install --no-build-isolation . (python/build_backend.py needs neither
  # setuptools nor wheel; the packaging test builds once with Debian's too), its typing tests
  python3-pip python3-setuptools python3-wheel python3-venv python3-build mypy
  python3-jsonschema python3-yaml pre-commit git python3-torch  # the schema, pre-commit hook and real-PyTorch probe tests
  chromium  # the decision map's screenshot test in headless Chromium
  libcpp-httplib-dev chromium-driver python3-selenium  # snnplan serve; its page in Chromium via Selenium
  neovim)  # the language server under a real client: headless Neovim's built-in LSP client
# For the fuzzers (fuzz/run.sh): clang and its runtimes (libFuzzer, ASan, UBSan). The gcc
# sanitizer runtimes of the asan/tsan presets come with g++.
SNNPLAN_FUZZ_PACKAGES=(clang libclang-rt-14-dev)

# Both take package names; without any, SNNPLAN_PACKAGES.
snnplan_missing_packages() {
  local missing=()
  local wanted=("$@")
  [ $# -eq 0 ] && wanted=("${SNNPLAN_PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  echo "${missing[@]:-}"
}

snnplan_install_deps() {
  local missing
  missing=$(snnplan_missing_packages "$@")
  [ -z "$missing" ] && return 0
  echo "snnplan: installing Debian packages: $missing" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  if ! $sudo apt-get install -y --no-install-recommends $missing >/dev/null; then
    $sudo apt-get update >/dev/null
    # shellcheck disable=SC2086
    $sudo apt-get install -y --no-install-recommends $missing >/dev/null
  fi
}

# Configures (once) and builds the tree in $1 with extra cmake arguments after it.
snnplan_build() {
  local build_dir=$1
  shift
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  elif [ $# -gt 0 ]; then
    cmake -S "$root" -B "$build_dir" "$@" >/dev/null
  fi
  cmake --build "$build_dir" -j "$(nproc)" >/dev/null
}
