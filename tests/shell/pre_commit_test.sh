#!/usr/bin/env bash
# ctest "the pre-commit hooks check and test rule files in a repository": runs this source
# tree's .pre-commit-hooks.yaml with pre-commit's try-repo (which takes the working tree as it
# is, uncommitted changes included) in a scratch git repository: a good rule file passes both
# hooks, a broken one fails snnplan-check with its position.
#   pre_commit_test.sh SNNPLAN_BIN_DIR SOURCE_DIR
# Skips (exit 77) when pre-commit or git is missing or the source tree is not a git checkout.
set -uo pipefail
bin_dir=$1
source_dir=$2
skip() { echo "skipped: $*"; exit 77; }
command -v pre-commit >/dev/null || skip "pre-commit is not installed (Debian package pre-commit)"
command -v git >/dev/null || skip "git is not installed"
git -C "$source_dir" rev-parse --git-dir >/dev/null 2>&1 || skip "$source_dir is not a git checkout"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export PATH="$bin_dir:$PATH" PRE_COMMIT_HOME="$scratch/cache" HOME="$scratch"
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@localhost GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@localhost
repo="$scratch/repo"
mkdir -p "$repo/rules"
cp "$source_dir/rules/snn_distributed.yaml" "$source_dir/rules/snn_distributed.test.yaml" "$repo/rules/"
cd "$repo" || exit 1
git init -q . && git add rules && git commit -qm rules || exit 1

status=0
expect_exit() {  # expect_exit EXPECTED_STATUS WHAT COMMAND...
  local expected=$1 what=$2
  shift 2
  output=$("$@" 2>&1)
  local got=$?
  if [[ $got -ne $expected ]]; then
    if grep -qiE "network|resolve host|could not read from remote" <<<"$output"; then
      skip "pre-commit cannot run offline here: $output"
    fi
    printf 'FAIL %s: exit %d, expected %d\n%s\n' "$what" "$got" "$expected" "$output"
    status=1
  else
    printf 'ok   %s (exit %d)\n' "$what" "$got"
  fi
}

# try-repo takes the hooks of the working tree as it is, uncommitted changes included.
expect_exit 0 "snnplan-check (try-repo) passes the default rules" \
  pre-commit try-repo "$source_dir" snnplan-check --files rules/snn_distributed.yaml

# A project's own configuration, with the arguments snnplan-test needs; pre-commit clones the
# hooks at a commit, so this part needs them committed.
rev=$(git -C "$source_dir" rev-parse HEAD)
if git -C "$source_dir" cat-file -e "$rev:.pre-commit-hooks.yaml" 2>/dev/null; then
  cat > .pre-commit-config.yaml <<CONFIG
repos:
  - repo: $source_dir
    rev: $rev
    hooks:
      - id: snnplan-check
        files: ^rules/
      - id: snnplan-test
        args: [rules/snn_distributed.yaml, rules/snn_distributed.test.yaml, --min-coverage, "100"]
CONFIG
  git add .pre-commit-config.yaml && git commit -qm config
  expect_exit 0 "both hooks pass the default rules and their tests" pre-commit run --all-files
else
  echo "note: HEAD of $source_dir has no .pre-commit-hooks.yaml; only try-repo is tested"
fi

sed -i 's/^  model_family:/  model_familly:/' rules/snn_distributed.yaml  # its uses name an unknown value now
expect_exit 1 "snnplan-check (try-repo) fails a broken rule file" \
  pre-commit try-repo "$source_dir" snnplan-check --files rules/snn_distributed.yaml
if ! grep -q "rules/snn_distributed.yaml:[0-9]*:[0-9]*: error:" <<<"$output"; then
  printf 'FAIL snnplan-check names no file:line:column:\n%s\n' "$output"
  status=1
fi
exit $status
