#!/usr/bin/env bash
# Class grading throughput: makes a demo class of N students
# (scripts/make-demo-class.sh), grades it, and prints the wall time,
# students per minute, processes per student (runner, sanitizer and sweep
# runs and nvcc calls, from SYNCLAB_TRACE), the machine's CPU time and the
# sha256 of grades.csv, which must not change when a speed lever does, and
# what was busy meanwhile, sampled each second (samples.txt: CPU, processes
# of each kind, each GPU's busy percent and memory; samples-disk.txt: the
# disk of the class's folder and the memory left).
#   scripts/bench-class.sh N [--distinct] [syncgrade class options...]
# e.g. scripts/bench-class.sh 100 --jobs 8
#      scripts/bench-class.sh 100 --gpus all
#      SYNCLAB_LEVERS=jobs scripts/bench-class.sh 24 --distinct
# --distinct: no two files of the class byte-identical (make-demo-class.sh),
# so the dedup lever has nothing to share. SYNCLAB_LEVERS (levers.h) picks
# the grader's levers; the summary says which were on.
# A fixed --seed (1 unless given) keeps the checksum comparable.
# --shard K/N: grades shard K of the class of N (figures per student of the
# shard); syncgrade merge joins the shards' grades folders. Every grade is
# checked against the verdicts the class was made to get
# (check-demo-grades.sh).
# BENCH_DIR: where the class and the grades go (default build/bench-class).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:?usage: bench-class.sh N [--distinct] [syncgrade class options...]}
shift
distinct=()
if [ "${1:-}" = --distinct ]; then distinct=(--distinct); shift; fi
syncgrade=${SYNCGRADE:-$root/build/syncgrade}
dir=${BENCH_DIR:-$root/build/bench-class}
[ -x "$syncgrade" ] || { echo "bench-class: no $syncgrade (build first)" >&2; exit 2; }
seed=(--seed 1)
# the value of a class option the bench reads too (--shard, --points, --seed), as
# "--name value" or "--name=value"; empty when not given
opt_value() {
  local name=$1 prev="" a v=""
  shift
  for a in "$@"; do
    [ "$prev" = "$name" ] && v=$a
    case $a in "$name"=*) v=${a#"$name"=} ;; esac
    prev=$a
  done
  echo "$v"
}
# a seed given either way replaces the bench's
[ -z "$(opt_value --seed "$@")" ] || seed=()

# the grader's own probe: without a GPU every run would be SKIP, and the
# numbers would measure nothing
probe=$(dirname "$syncgrade")/harness/synclab_gpu_probe
if [ -x "$probe" ]; then
  rc=0
  timeout 60 "$probe" > /dev/null 2>&1 || rc=$?
  [ "$rc" -ne 77 ] || { echo "bench-class: no GPU here: every run would be SKIP" >&2; exit 77; }
fi

rm -rf "$dir"
mkdir -p "$dir"
"$root/scripts/make-demo-class.sh" "${distinct[@]}" "$dir/class" "$n" > "$dir/class.txt"

# the machine's CPU time (user, nice, system; /proc/stat's first line, in
# clock ticks): sandboxed runners are in a PID namespace whose CPU time never
# reaches the grader's wait, so the whole machine's counter is taken
cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4; exit }' /proc/stat; }
tick=$(getconf CLK_TCK)
# Once a second, what limits the class (issue 29 asks where the time goes):
# the CPU's busy and total ticks, the processes of each kind alive (runner:
# a student's program, under a tool or not; the sanitizer; the compilers),
# and each GPU's busy percent and memory (nvidia-smi, where there is one).
# A runner held in D (state): the driver call it waits in, from
# /proc/PID/syscall (root only; samples-driver.txt): the device file, the
# ioctl's NVIDIA escape (29 RM free, 2a RM control, 2b RM alloc, 4e/57 map)
# with the control's command or the alloc's class read from the caller's
# parameters, and the tool it runs under: which calls take the driver's
# machine-wide lock (docs/instructors.md) tells what a lever could spare.
# Seen on an H200 (NVIDIA's open kernel modules name them): alloc class 40
# (device memory), control 503c0105 (unregister video memory), nvidia-uvm
# 21 and 22 (map an allocation, free it), 1b (register a channel).
driver_call() {
  local pid=$1 nr fd req arg dev esc what="-" tool=plain p=$1 k
  read -r nr fd req arg _ <"/proc/$pid/syscall" 2>/dev/null || return 0
  case $nr in
    16) ;;
    running) echo "(out of the call when read)"; return 0 ;;
    *) echo "(system call $nr)"; return 0 ;;
  esac
  dev=$(readlink "/proc/$pid/fd/$((fd))" 2>/dev/null) || dev=?
  esc=$(printf '%02x' $((req & 0xff)))
  case "${dev##*/}:$esc" in
    nvidiactl:2a) what=$(dd if="/proc/$pid/mem" bs=4 count=1 skip=$((arg + 8)) iflag=skip_bytes 2>/dev/null | od -An -tx4 | tr -d ' ') ;;
    nvidiactl:2b) what=$(dd if="/proc/$pid/mem" bs=4 count=1 skip=$((arg + 12)) iflag=skip_bytes 2>/dev/null | od -An -tx4 | tr -d ' ') ;;
  esac
  for k in 1 2 3 4 5 6; do
    p=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null) || break
    [ -n "$p" ] && [ "$p" != 0 ] || break
    case "$(cat "/proc/$p/comm" 2>/dev/null)" in
      compute-sanitiz*) tool=$(tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | awk 'prev == "--tool" { print; exit } { prev = $0 }')
        break ;;
    esac
  done
  echo "${tool:-sanitizer} ${dev##*/} $esc ${what:--}"
}
sample() {
  local smi=0
  command -v nvidia-smi >/dev/null 2>&1 && smi=1
  while :; do
    local cpu procs ps_now gpus=""
    cpu=$(awk '/^cpu / { print $2 + $3 + $4, $2 + $3 + $4 + $5 + $6; exit }' /proc/stat)
    # one look at the processes serves both files
    ps_now=$(ps -e -o pid=,stat=,wchan:32=,comm=)
    procs=$(awk '$4 == "runner" { r++ } $4 ~ /^compute-sanitiz/ { s++ }
      $4 == "nvcc" || $4 == "cicc" || $4 == "ptxas" || $4 == "cudafe++" { c++ }
      END { printf "%d %d %d", r, s, c }' <<<"$ps_now")
    [ "$smi" = 1 ] && gpus=$(timeout 5 nvidia-smi --query-gpu=index,utilization.gpu,memory.used \
      --format=csv,noheader,nounits 2>/dev/null | tr -d ' ' | tr '\n' ' ')
    echo "$(date +%s.%N) $cpu $procs $gpus"
    # each process of the grading: kind, state, CPU ticks so far (user,
    # system), and where the kernel holds it when in D (samples-procs.txt)
    awk -v t="$(date +%s)" '
      $4 == "runner" || $4 ~ /^compute-sanitiz/ || $4 == "syncgrade" || $4 == "bwrap" ||
      $4 ~ /^(nvcc|cicc|ptxas|cudafe\+\+|fatbinary|nvlink|cc1plus|cc1|as|ld|gcc|g\+\+)$/ {
        stat = "/proc/" $1 "/stat"
        if ((getline line < stat) > 0) {
          sub(/.*\) /, "", line); split(line, f, " ")
          print t, $1, $4, substr($2, 1, 1), f[12], f[13], $3 }
        close(stat) }' <<<"$ps_now" >>"$dir/samples-procs.txt"
    awk '$4 == "runner" && substr($2, 1, 1) == "D" { print $1 }' <<<"$ps_now" |
      while read -r pid; do driver_call "$pid"; done >>"$dir/samples-driver.txt"
    # the disk the class's folder is on (KiB used and free) and the
    # memory left: the work files of every student graded at once
    echo "$(df -Pk "$dir" 2>/dev/null | awk 'NR == 2 { print $3, $4 }') $(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)" >>"$dir/samples-disk.txt"
    sleep 1
  done
}
# there even when the class ends before the first sample is written
: >"$dir/samples-procs.txt"
: >"$dir/samples-driver.txt"
: >"$dir/samples-disk.txt"
disk0=$(df -Pk "$dir" | awk 'NR == 2 { print $3 }')
mem0=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
sample > "$dir/samples.txt" 2>/dev/null &
sampler=$!
# the grading's own CPU where it can have a cgroup of its own (cgroup v2,
# root): other work on the machine does not count then
cg="" cg_from=""
if [ -w /sys/fs/cgroup/cgroup.procs ] && grep -q '^0::' /proc/self/cgroup; then
  cg=/sys/fs/cgroup/synclab-bench-$$
  cg_from=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
  if mkdir "$cg" 2>/dev/null && echo $$ >"$cg/cgroup.procs" 2>/dev/null; then :; else
    rmdir "$cg" 2>/dev/null; cg=""; fi
fi
cg_usec() { awk -v k="$1" '$1 == k { print $2 }' "$cg/cpu.stat"; }
cg_leave() { [ -z "$cg" ] || { echo $$ >"$cg_from/cgroup.procs" 2>/dev/null; rmdir "$cg" 2>/dev/null; cg=""; }; }
trap cg_leave EXIT
c0=$(cpu_ticks)
start=$(date +%s.%N)
rc=0
SYNCLAB_TRACE=1 "$syncgrade" class --submissions "$dir/class" \
  --out "$dir/grades" --quiet "${seed[@]}" "$@" 2> "$dir/trace.log" || rc=$?
end=$(date +%s.%N)
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
cpu=$(( ($(cpu_ticks) - c0) / tick )) cpu_of="the whole machine"
if [ -n "$cg" ]; then
  cpu=$(( $(cg_usec usage_usec) / 1000000 )) cpu_of="the grading's cgroup: $(( $(cg_usec user_usec) / 1000000 )) s user, $(( $(cg_usec system_usec) / 1000000 )) s system"
  cg_leave || true
fi
[ "$rc" -le 1 ] || { tail -n 20 "$dir/trace.log"; echo "bench-class: syncgrade class failed ($rc)" >&2; exit "$rc"; }
# with --shard K/N only this shard's students were graded: every figure
# "per student" is per student graded here (grades.csv's rows)
class_n=$n
n=$(( $(wc -l < "$dir/grades/grades.csv") - 1 ))
[ "$n" -gt 0 ] || { echo "bench-class: no student graded (an empty shard?)" >&2; exit 1; }
shard=$(opt_value --shard "$@")
# students graded at once (the class's trace): a class of fewer is one round
at_once=$(sed -n 's/^\[trace\] class size: [0-9]* students, \([0-9]*\) graded at once.*/\1/p' "$dir/trace.log" | head -n 1)

count() { grep -c "$1" "$dir/trace.log" || true; }
plain=$(count '^\[trace\] [^ ]*: plain run')
tools=$(count '^\[trace\] [^ ]*: \(racecheck\|synccheck\|memcheck\|initcheck\)')
# a sweep's runner processes, each traced with its wall time (not what an
# exercise keeps, nor a place taken)
sweeps=$(count '^\[trace\] sweep [^ ]*: .* s wall')
nvcc=$(count '^\[trace\] build: nvcc')
reused=$(count '^\[trace\] dedup ')
cores=$(nproc)
awk -v n="$n" -v s="$start" -v e="$end" -v p="$plain" -v t="$tools" -v w="$sweeps" \
    -v c="$nvcc" -v cpu="$cpu" -v r="$reused" -v cores="$cores" \
    -v levers="${SYNCLAB_LEVERS-(default)}" -v d="${distinct[*]:-}" -v cpu_of="$cpu_of" -v shard="$shard" -v class_n="$class_n" -v at="$at_once" 'BEGIN {
  wall = e - s
  printf "students:             %d%s\n", n, shard != "" ? sprintf(" (shard %s of a class of %d)", shard, class_n) : ""
  printf "wall:                 %.1f s (%.1f s per student)\n", wall, wall / n
  printf "students per minute:  %.2f\n", n * 60 / wall
  if (at > 0)
    printf "rounds:               %.1f (%d graded at once%s)\n", n / at, at,
           n <= at ? ": one round, as long as its slowest student; more GPUs can shorten only the wait of each student" : ""
  printf "levers:               %s%s\n", levers == "" ? "none" : levers, d != "" ? " (distinct files)" : ""
  printf "cpu:                  %.0f s (%.1f s per student, %.1f of %d cores busy; %s)\n", cpu, cpu / n, cpu / wall, cores, cpu_of
  printf "processes per student: %.1f GPU (%.1f plain runs, %.1f sanitizer runs, %.1f sweep runs), %.1f nvcc\n",
         (p + t + w) / n, p / n, t / n, w / n, c / n
  printf "lessons reused:       %.1f per student (identical files, dedup)\n", r / n
}'
# where the time goes, per student: processes and the sum of their wall
# and CPU times, from the trace (a sandboxed run's CPU is its command's,
# counted through bubblewrap's init: run/proc.c), and of the wall time what
# passed before each runner said it held a CUDA context (the driver makes
# contexts one at a time: docs/instructors.md)
awk -v n="$n" '
  /^\[trace\] build: /                      { k = "build" }
  /^\[trace\] sweep [^ ]*: plain/            { k = "sweep plain" }
  /^\[trace\] sweep [^ ]*: (memcheck|synccheck|racecheck|initcheck)/ { k = "sweep tools" }
  /^\[trace\] [^ ]*: plain run/              { k = "plain runs" }
  /^\[trace\] [^ ]*: (memcheck|synccheck|racecheck|initcheck) / { k = "tool runs" }
  / s wall, [0-9.]+ s cpu/ && k != "" {
    w = $0; sub(/ s wall.*/, "", w); sub(/.* /, "", w)
    c = $0; sub(/ s cpu.*/, "", c); sub(/.* /, "", c)
    wall[k] += w; cpu[k] += c; cnt[k]++
    if (match($0, /ready after [0-9.]+ s/)) {
      r = substr($0, RSTART + 12, RLENGTH - 14); ready[k] += r; seen[k]++ }
  }
  { k = "" }
  END {
    for (k in cnt)
      printf "  %-12s %5.1f per student, %6.1f s wall, %6.1f s CPU per student%s\n", k, cnt[k] / n,
             wall[k] / n, cpu[k] / n,
             seen[k] ? sprintf(" (%.1f s of the wall to start: sandbox, tool and CUDA context)", ready[k] / n) : ""
  }' "$dir/trace.log" | sort
# the GPU held alone (a hang or a failed launch confirmed, its diagnosis):
# time in which it served no one else, and the waits to get it
awk '/^\[trace\] gpu turn: was alone / { n++; held += $6 }
     /^\[trace\] gpu turn: alone after / { waited += $6 }
     END { if (n) printf "GPU held alone:       %d times, %.1f s in all (waits to get it: %.1f s in all)\n", n, held, waited }' "$dir/trace.log"
# grading from a private tree: what the sandbox staged (links are free,
# copies are not)
awk -v n="$n" '/^\[trace\] sandbox: (staged|outputs back): / {
    k++; s += $NF; mb += substr($(NF - 2), 2) }
  END { if (k) printf "staging (private tree): %d times, %.1f s and %.0f MB copied per student\n", k, s / n, mb / n }' "$dir/trace.log"
# the CPU of each kind of process (the last ticks each pid was seen with:
# a process's last second is missed) and how often each was held in the
# kernel (state D) and where
awk -v n="$n" -v tick="$tick" '
  { kind = $3 ~ /^compute-sanitiz/ ? "sanitizer" : $3 ~ /^(runner|syncgrade|bwrap)$/ ? $3 : "compilers"
    u[$2] = $5; sy[$2] = $6; of[$2] = kind; seen[kind]++
    if ($4 == "D") { d[kind]++; w[kind " " $7]++ } }
  END {
    for (p in of) { cu[of[p]] += u[p]; cs[of[p]] += sy[p] }
    for (k in seen) {
      top = ""; best = 0
      for (x in w) { split(x, a, " "); if (a[1] == k && w[x] > best) { best = w[x]; top = a[2] } }
      printf "  %-10s cpu %6.1f s user, %6.1f s system per student; in D %4.1f%% of samples%s\n",
             k, cu[k] / tick / n, cs[k] / tick / n, 100 * d[k] / seen[k], top != "" ? " (mostly " top ")" : ""
    } }' "$dir/samples-procs.txt" 2>/dev/null | sort
# the driver calls runners in D waited in (driver_call above; as root)
awk '{ k[$0]++; n++ }
  END { if (!n) exit
    printf "runners in D, by tool and driver call (%d samples; device, escape, command or class):\n", n
    for (x in k) printf "  %5.1f%%  %s\n", 100 * k[x] / n, x }' "$dir/samples-driver.txt" 2>/dev/null |
  { IFS= read -r head && { echo "$head"; sort -rn | head -n 12; }; } || true
# the samples: busy CPU between samples, processes at once, each GPU
awk -v cores="$(nproc)" '
  NF < 5 { next }
  prev != "" { db = $2 - pb; dt = $3 - pt; if (dt > 0) { busy += cores * db / dt; k++ } }
  { pb = $2; pt = $3; prev = 1
    r += $4; s += $5; c += $6; m++
    if ($4 > rmax) rmax = $4; if ($5 > smax) smax = $5; if ($6 > cmax) cmax = $6
    for (i = 7; i <= NF; i++) { split($i, g, ","); id = g[1]; gs[id] += g[2]; gn[id]++
      if (g[2] >= 95) gfull[id]++; if (g[3] > gm[id]) gm[id] = g[3] } }
  END {
    if (!m) exit
    printf "sampled each second:  %.1f of %d cores busy; at once: runners %.1f (peak %d), sanitizers %.1f (peak %d), compilers %.1f (peak %d)\n",
           k ? busy / k : 0, cores, r / m, rmax, s / m, smax, c / m, cmax
    for (id in gn)
      printf "  GPU %s: busy %.0f%% on average, at 95%% or more in %.0f%% of samples; memory peak %d MiB\n",
             id, gs[id] / gn[id], 100 * gfull[id] / gn[id], gm[id]
  }' "$dir/samples.txt"
# the disk taken at the peak above what was used before the class (its
# submissions included), the least free; the memory taken at the peak
# (the fall of MemAvailable from before the class) and the least left
awk -v u0="$disk0" -v m0="$mem0" 'NF == 3 { if ($1 - u0 > up) up = $1 - u0; if (fr == "" || $2 < fr) fr = $2; if (m == "" || $3 < m) m = $3 }
  END { if (fr != "") printf "disk:                 %.1f GiB at the peak, %.1f GiB free at the least; memory %.1f GiB at the peak, %.1f GiB available at the least\n",
        up / 1048576, fr / 1048576, (m0 > m ? m0 - m : 0) / 1048576, m / 1048576 }' "$dir/samples-disk.txt"
# every grade the one the class was made to get (check-demo-grades.sh: a
# clean copy of the solutions has full marks, a mutant's bug none), or the
# run proves nothing; a class graded once or in shards has no checksum to
# compare with
pts=$(opt_value --points "$@")
made=$("$root/scripts/check-demo-grades.sh" "$dir/class.txt" "$dir/grades/grades.csv" ${pts:+"$pts"}) || exit 1
echo "verdicts:             ${made#verdicts as made: }"
echo "grades.csv sha256:    $(sha256sum < "$dir/grades/grades.csv" | cut -d' ' -f1)"
[ "$rc" -eq 0 ] || echo "(some exercises not judged: ERROR; see $dir/trace.log)"
