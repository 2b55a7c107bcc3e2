#!/usr/bin/env bash
# ctest "the static CLI is linked in its start-up order, and the order still names its code":
# snnplan-static is linked by lld in the order of src/frontends/cli/startup.order (CMakeLists.txt), so that
# a cold start touches few pages of code. The list is written by tools/startup_order.py and goes
# stale as code changes (names it lists no longer exist; lld ignores them silently). This fails
# when fewer than 90 % of the names it lists are in the binary (regenerate the list), or when
# fewer than 90 % of its functions lie in the first MiB of the code (the order was not applied).
#   startup_order_test.sh SNNPLAN_STATIC ORDER_FILE
set -uo pipefail
cli=$1
order=$2
defined=$(mktemp)
trap 'rm -f "$defined"' EXIT
nm --defined-only "$cli" | awk 'NF == 3 { print $3 }' | sort -u >"$defined"
listed=$(grep -cv '^#' "$order")
present=$(grep -v '^#' "$order" | sort -u | comm -12 - "$defined" | wc -l)
echo "$present of $listed names in $order are defined in $cli"
if (( listed == 0 || present * 10 < listed * 9 )); then
  echo "FAIL: the start-up order is stale; regenerate it with python3 tools/startup_order.py $cli"
  exit 1
fi
text_start=$(readelf -SW "$cli" | awk '{ for (i = 1; i < NF; ++i) if ($i == ".text") print $(i + 2) }')
if [[ -z "$text_start" ]]; then
  echo "FAIL: no .text section in $cli"
  exit 1
fi
# The listed functions' addresses: in the order's block at the start of the code, not spread
# over its 4 MB as without the order.
# (nm prints addresses as 16 hex digits, so they compare as text.)
limit=$(printf '%016x' $((16#$text_start + 1048576)))
read -r functions near < <(nm --defined-only "$cli" | awk -v limit="$limit" '
  NR == FNR { if ($0 !~ /^#/) listed[$0] = 1; next }
  NF == 3 && ($2 ~ /^[tTwWi]$/) && ($3 in listed) && !seen[$3]++ {
    functions++
    if ($1 < limit) near++
  }
  END { print functions + 0, near + 0 }' "$order" -)
echo "$near of $functions listed functions lie in the first MiB of code"
if (( functions == 0 || near * 10 < functions * 9 )); then
  echo "FAIL: $cli was not linked in its start-up order (lld's --symbol-ordering-file)"
  exit 1
fi
