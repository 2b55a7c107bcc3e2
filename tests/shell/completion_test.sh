#!/usr/bin/env bash
# ctest "the bash completion completes subcommands, flags and their values": sources the script
# `snnplan completion bash` prints and completes as bash would on TAB.
#   completion_test.sh SNNPLAN
set -euo pipefail
snnplan=$1
# shellcheck disable=SC1090
source <("$snnplan" completion bash)
status=0

# Completes the words given (the last one is being typed) and prints COMPREPLY, one per line.
complete_words() {
  COMP_WORDS=(snnplan "$@")
  COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
  COMPREPLY=()
  _snnplan
  printf '%s\n' "${COMPREPLY[@]}"
}

expect() {  # expect "WHAT" "EXPECTED (newline-separated)" WORDS...
  local what=$1 expected=$2
  shift 2
  local got
  got=$(complete_words "$@")
  if [[ "$got" != "$expected" ]]; then
    printf 'FAIL %s: completing [%s]\n  expected: %s\n  got:      %s\n' "$what" "$*" "$expected" "$got"
    status=1
  else
    printf 'ok   %s\n' "$what"
  fi
}

expect "a subcommand" "recommend" reco
expect "a subcommand among several" $'check\ncompletion' c
expect "a flag of the subcommand" "--world-size" recommend --model x --wor
expect "a choice flag's values" $'json\nyaml\ntext' recommend --format ""
expect "a BOOL flag's values" $'true\nfalse' explain --fsdp2-available ""
expect "a positional choice" "zsh" completion z
expect "a schema name" "record" schema rec
expect "only this subcommand's flags" "--strict" check --st
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
touch rules.yaml
expect "a FILE flag completes file names" "rules.yaml" recommend --rules ru
expect "a FILE positional completes file names" "rules.yaml" check ru
# The scripts for the other shells parse, when those shells are here.
if command -v zsh >/dev/null; then zsh -n <("$snnplan" completion zsh) && echo "ok   zsh script parses" || status=1; fi
if command -v fish >/dev/null; then "$snnplan" completion fish | fish -n && echo "ok   fish script parses" || status=1; fi
exit $status
