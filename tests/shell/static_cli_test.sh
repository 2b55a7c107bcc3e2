#!/usr/bin/env bash
# ctest "the statically linked CLI answers, explains and checks as the dynamic one": snnplan-static
# (CMakeLists.txt, SNNPLAN_BUILD_STATIC_CLI) gives the same output, errors and exit code as
# snnplan for commands that use the built-in rules, a rule file and YAML error reporting.
#   static_cli_test.sh SNNPLAN SNNPLAN_STATIC RULES_DIR
set -uo pipefail
dynamic=$1
static=$2
rules=$3
status=0
run_both() {
  local a b
  a=$("$dynamic" "$@" 2>&1; echo "exit $?")
  b=$("$static" "$@" 2>&1; echo "exit $?")
  if [[ "$a" != "$b" ]]; then
    echo "FAIL snnplan $*: the outputs differ"
    diff <(echo "$a") <(echo "$b") | head -20
    status=1
  fi
}
run_both recommend --model spikformer_8_384 --world-size 8 --prefer speed --batch-size 64
run_both recommend --model vgg --world-size 6 --prefer capacity --batch-size 12 --format text --trace
run_both recommend --model vgg --world-size 6 --prefer bogus --batch-size 12
run_both explain --rules "$rules/snn_distributed.yaml" --model x --world-size 8 --prefer memory --batch-size 8
run_both plan --objective memory --world-size 8 --batch-size 64
run_both check --strict "$rules/snn_distributed.yaml"
broken=$(mktemp "${TMPDIR:-/tmp}/snnplan-static-test.XXXXXX.yaml")
trap 'rm -f "$broken"' EXIT
printf 'snnplan: 1\ninputs: {a: {type: int}}\nrecord: {x: 1}\ntables:\n  t:\n    - name: r\n      when: {b: 1}\n' >"$broken"
run_both check "$broken"
run_both microbatches 8 4
run_both --version
[[ $status -eq 0 ]] && echo "ok   snnplan-static answers as snnplan"
exit $status
