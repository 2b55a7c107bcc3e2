#!/bin/sh
# The long run of the soundness campaign (docs/soundness.md): CHUNKS chunks of N mutants over
# the seven shipped rule files, with seeds SEED, SEED+1, ..., one after another (one core).
#   fuzz/soundness/long_run.sh [CHUNKS [N [SEED [BUILD_DIR]]]]   (default: 10 10000 20261205 build)
# Writes each chunk's report to OUT_DIR (default: long_run_out in the build dir) and prints
# the summed figures; exits 1 when any chunk has a miss, 2 when a chunk cannot run.
set -u
chunks=${1:-10}
n=${2:-10000}
seed=${3:-20261205}
build=${4:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
tool="$build/fuzz/snnplan_soundness"
out=${OUT_DIR:-$build/long_run_out}
mkdir -p "$out"
[ -x "$tool" ] || { echo "no $tool: build the target snnplan_soundness first" >&2; exit 2; }
# The seven shipped files (not the history's test files).
files="$root/rules/snn_distributed.yaml $root/rules/snn_plan.yaml"
for f in "$root"/rules/history/*.yaml; do
  case "$f" in *.test.yaml) ;; *) files="$files $f" ;; esac
done
status=0
start=$(date +%s)
k=0
while [ "$k" -lt "$chunks" ]; do
  s=$((seed + k))
  # shellcheck disable=SC2086
  nice -n 10 "$tool" --mutants "$n" --seed "$s" $files > "$out/seed_$s.txt" 2>&1
  rc=$?
  echo "seed $s: exit $rc ($out/seed_$s.txt)"
  [ "$rc" -eq 2 ] && status=2
  [ "$rc" -eq 1 ] && [ "$status" -eq 0 ] && status=1
  k=$((k + 1))
done
echo "time: $(( $(date +%s) - start )) s"
# Sum the figures line of each chunk ("mutants N, rejected by check N, ... (deliberate errors N, ...)").
grep -h '^mutants ' "$out"/seed_*.txt | tr '(),' '\n\n\n' | awk '
  { sub(/^ +/, ""); sub(/ +$/, ""); if ($NF ~ /^[0-9]+$/) { label = $0; sub(/ +[0-9]+$/, "", label); sum[label] += $NF
      if (!(label in seen)) { seen[label] = 1; order[++n] = label } } }
  END { for (k = 1; k <= n; ++k) printf "%s: %d\n", order[k], sum[order[k]] }'
grep -h -A3 '^miss class' "$out"/seed_*.txt
exit "$status"
