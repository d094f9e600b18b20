#!/usr/bin/env bash
# scripts/bench-contexts.sh with a stand-in compiler whose "probe" takes
# 0.2 s, claims two GPUs and notes the GPU it was given, and a stand-in
# compute-sanitizer that runs its program: the lines it prints, the GPUs
# used (CUDA_VISIBLE_DEVICES's own when set: a Slurm job's), a failed probe
# (exit 1, said), no GPU (77).
#   bench_contexts.sh <scripts dir> <scratch dir>
set -euo pipefail
scripts=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
# the stand-in nvcc writes, as its -o file, a probe that behaves as $PROBE says
cat > "$dir/nvcc" <<'EOF2'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
cat > "$out" <<EOF3
#!/usr/bin/env bash
case "$PROBE" in none) exit 77 ;; esac
[ "\${1:-}" = --count ] && { echo 2; exit 0; }
echo "\${CUDA_VISIBLE_DEVICES:-unset}" >> "$SEEN"
echo "\${CUDA_DEVICE_MAX_CONNECTIONS:-8}" >> "$SEEN.queues"
sleep 0.2
[ "$PROBE" = fails ] && exit 1
exit 0
EOF3
chmod +x "$out"
EOF2
printf '#!/usr/bin/env bash\nexec "${@: -1}"\n' > "$dir/compute-sanitizer"
chmod +x "$dir/nvcc" "$dir/compute-sanitizer"
run() {
  SEEN=$dir/seen-$1 NVCC=$dir/nvcc SANITIZER=$dir/compute-sanitizer PROBE=$1 \
    bash "$scripts/bench-contexts.sh" 4
}
gpus_seen() { sort -u "$dir/seen-$1" | tr '\n' ' '; }

rc=0
run ok > "$dir/ok.txt" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$dir/ok.txt"; echo "a working probe: exit $rc"; exit 1; }
for want in "GPUs: 2" "contexts, one GPU: " "contexts, one work queue: " "contexts, 2 GPUs: " "spread over 2 GPUs: " \
            "contexts under memcheck:" "contexts under racecheck:" "contexts under synccheck:" \
            "contexts under initcheck:"; do
  grep -qF "$want" "$dir/ok.txt" || { cat "$dir/ok.txt"; echo "missing: $want"; exit 1; }
done
# four probes of 0.2 s at once take about 0.2 s, not 0.8 s: they ran together
awk '/^contexts, one GPU:/ { if ($(NF - 4) + 0 > 0.7) bad = 1 } END { exit bad }' "$dir/ok.txt" ||
  { cat "$dir/ok.txt"; echo "the probes did not run at once"; exit 1; }
[ "$(gpus_seen ok)" = "0 1 " ] || { echo "GPUs used: $(gpus_seen ok), not 0 and 1"; exit 1; }
# the one-queue line's probes ran with one queue, the others with the default
[ "$(sort -u "$dir/seen-ok.queues" | tr '\n' ' ')" = "1 8 " ] ||
  { echo "work queues seen: $(sort -u "$dir/seen-ok.queues" | tr '\n' ' '), not 1 and 8"; exit 1; }
# a job given GPUs 5 and 7 uses those, never GPU 0
rc=0
CUDA_VISIBLE_DEVICES=5,7 run slurm > "$dir/slurm.txt" 2>&1 || rc=$?
[ "$rc" -eq 0 ] && [ "$(gpus_seen slurm)" = "5 7 " ] ||
  { cat "$dir/slurm.txt"; echo "GPUs 5,7 given: exit $rc, used $(gpus_seen slurm)"; exit 1; }
rc=0
run fails > "$dir/fails.txt" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "a probe failed" "$dir/fails.txt" ||
  { cat "$dir/fails.txt"; echo "a failing probe: exit $rc"; exit 1; }
rc=0
run none > "$dir/none.txt" 2>&1 || rc=$?
[ "$rc" -eq 77 ] && grep -q "no GPU" "$dir/none.txt" ||
  { cat "$dir/none.txt"; echo "no GPU: exit $rc"; exit 1; }
echo "bench-contexts: its lines, the GPUs it was given, a failed probe (1) and no GPU (77)"
