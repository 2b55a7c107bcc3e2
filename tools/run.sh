#!/usr/bin/env bash
# Quick start: install what is missing, build if needed, and print a recommendation from
# the built-in rules. Extra arguments go to `snnplan recommend`, replacing the example input.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tools/deps.sh"
snnplan_install_deps
snnplan_build "$root/build"
if [ $# -eq 0 ]; then
  set -- --model spikformer_8_384 --world-size 8 --prefer memory --batch-size 64 --format text
fi
exec "$root/build/snnplan" recommend "$@"
