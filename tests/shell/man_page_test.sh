#!/usr/bin/env bash
# ctest "the man page lists every subcommand and the exit codes": `snnplan help --man` (the page
# the build installs as snnplan(1)) has a section per subcommand and the exit codes, and groff,
# when installed, formats it without a warning.
#   man_page_test.sh SNNPLAN
set -uo pipefail
snnplan=$1
page=$("$snnplan" help --man) || { echo "FAIL snnplan help --man exits $?"; exit 1; }
status=0
for command in $("$snnplan" completion bash | sed -n "s/^    COMPREPLY=(\$(compgen -W '\([^-]*\) -.*/\1/p"); do
  grep -q "^\.SS \"snnplan $command" <<<"$page" || { echo "FAIL no section for $command"; status=1; }
done
# Not `grep -q`: it stops reading at the first match, and with pipefail the writer's SIGPIPE
# would fail the check once the page is long enough.
for code in 0 1 2 3; do
  grep -A1 '^\.TP' <<<"$page" | grep -x "\.B $code" >/dev/null || { echo "FAIL exit code $code is not listed"; status=1; }
done
grep -q '^\.SH EXIT STATUS' <<<"$page" || { echo "FAIL no EXIT STATUS section"; status=1; }
if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z <<<"$page" 2>&1)
  [[ -z "$warnings" ]] || { echo "FAIL groff warns: $warnings"; status=1; }
fi
[[ $status -eq 0 ]] && echo "ok   the man page has every subcommand and exit code"
exit $status
