/* The class-throughput levers (issue 29), each switchable on its own so
 * that its effect can be measured alone: SYNCLAB_LEVERS is a comma list of
 * the levers that are on ("jobs,dedup,racecheck"); "none" (or "") turns all
 * off; unset means SL_LEVERS_DEFAULT, the levers proven not to change a
 * verdict:
 * - jobs: `syncgrade class` without --jobs grades one student per CPU core
 *   (cmd_class.c), not one per two;
 * - dedup: byte-identical lesson files of a class are judged once
 *   (class/dedup.h): with one seed for the class any file, with a seed per
 *   student those whose verdicts are all static (an untouched starter);
 * - racecheck: racecheck does not run on a file whose PTX cannot touch
 *   shared memory (static/ptx_shared.h). Off by default: racecheck can
 *   find nothing there, but its run also compares outputs and times the
 *   kernels under the tool (grade.c), which the bug zoo has not been
 *   judged without on a GPU yet;
 * - initcheck: initcheck does not run on a file that allocates no device
 *   memory (sl_grade_may_read_uninitialized, judge/grade.h): it watches
 *   global memory only, and the harness writes every buffer it hands a
 *   launcher, so it can find nothing there. On: on an H200 a class of 12
 *   went from 14.9 to 11.0 s a student with the same grades.csv, and no
 *   file of the bug zoo allocates (their verdicts never came from
 *   initcheck) but sum_partials_past_blocks, which shows it still runs
 *   where it can find something; memcheck still compares the small
 *   inputs' outputs under a tool.
 * - alloc: a plain run keeps the device memory the harness frees and hands
 *   it out again for a later input (runner_main.cu); tool runs keep one
 *   exact cudaMalloc per buffer, for memcheck. The driver maps and unmaps
 *   fresh memory under the same machine-wide lock as it makes contexts.
 * - toolalloc: racecheck and synccheck runs keep and reuse the harness's
 *   device memory as plain runs do with "alloc" (runner_call.c): they
 *   watch shared memory and barriers, never where a global buffer ends.
 *   memcheck and initcheck runs still get an exact, fresh cudaMalloc per
 *   buffer. Tool runs' fresh allocations and frees were most of the driver
 *   calls that runners waited in for the machine-wide lock (bench-class.sh
 *   as root, an H200, 16 students at once). On: with it, "connections"
 *   and "gpunode", all 217 solution and zoo cases got their verdicts on
 *   four H200s, and a class of 24 on one of them took 6.7 s a student
 *   (7.9 s without the three, another node), the same grades.csv;
 * - connections: runs make their context with one hardware work queue
 *   (CUDA_DEVICE_MAX_CONNECTIONS=1, runner_call.c) instead of eight; no
 *   harness runs two streams at once. On four H200s a bare context took
 *   595 ioctls instead of 760, and 16 at once 2.5 s instead of 4.9 s;
 * - gpunode: a sandboxed run sees the device node of its own GPU only
 *   (run/gpu_node.h), named by its uuid inside: CUDA opens and sets up
 *   every GPU whose node it can open. On four H200s a bare context took
 *   487 ioctls instead of 760, and with "connections" 322, 16 at once
 *   1.35 s instead of 4.85 s. Where the GPU cannot be told for sure
 *   (gpu_node.h), and for MPS clients, every node stays;
 * - keepgpu: an idle context of the grader's own on each GPU for the
 *   whole grading (run/gpu_keep.h), so the driver's unified-memory module
 *   does not tear a GPU down when its last run ends and set it up again
 *   for the next, under its machine-wide lock: on four H200s a context
 *   alone took 0.23 s, 0.10 s beside a keeper. Off: a class of 24 on
 *   four H200s was slower with it, 150.0 s against 118.3 s without, one
 *   after the other on one node;
 * - together: a student's lessons are swept in one runner of them all
 *   (judge/together.h): five processes for the submission's plain run
 *   and tools, where each lesson made its own five (up to 35 contexts).
 * - builds: with "together", a student's lesson files are built at once,
 *   each in a child process (sl_lesson_prebuild), two compilers a core
 *   among the students graded at once (class.c), before the lessons are
 *   prepared one by one and find their builds up to date. Without it a
 *   class student's 22 compiler calls ran one after the other: 17.8 s of
 *   a student's wall time on one H200 and 24.2 s with four; with it 7.2 s
 *   on one H200 (8 students at once; 25.3 s with 24 at once on four
 *   GPUs, the 64 cores full);
 * - stagger: --jobs sweeps run on each GPU at once, each holding one of
 *   its places (run/slots.h) while its runners run (sweep.c), and three
 *   times as many students are graded at once (class.c), so the others build,
 *   write inputs, check outputs and are judged meanwhile: the students of
 *   a class no longer build, then run, in step. Without it one H200 sat
 *   idle while its 8 students compiled, then was busy 100% while they
 *   ran, then idle again while they checked their outputs. With it a
 *   class of 24 on one H200 of a two-GPU node took 5.0 s a student (the
 *   GPU busy 58% of the time), the same grades.csv; 6.2 s on a node of
 *   four with a place held per student, not per sweep.
 * - buildturns: with "builds" and "stagger", students build in turns: so
 *   many at once that each has two compilers a core for all its lessons
 *   (class.c), the others waiting for a turn (run/slots.h), so the first
 *   built start on the GPU while the rest build. Without it the students
 *   graded at once built side by side and were ready together, the GPU
 *   idle until then: a class of 24 on one H200 with 16 cores took 158.4 s
 *   without it and 129.3 s with it, one after the other on one machine,
 *   the same grades.csv.
 * - sleepwait: the harness's wait for a student's kernels (sl_launched,
 *   runner_main.cu) spins 200 us, then sleeps on an event made to block,
 *   where CUDA's default spins a core for the whole wait: runners spent 12 s
 *   of CPU a student on one H200, most of it spinning. Sleeping from the
 *   start (cudaDeviceScheduleBlockingSync) cut that to 4 s but the short
 *   waits of the small inputs each woke late: the sweeps' plain runs took
 *   19.3 s a student instead of 14.6 s, the class longer. Off: on one H200
 *   a class of 24 spent 58 to 62 s of CPU a student with it, 66 s without,
 *   the runners' user time 6.7 s against 12.1 s, the same grades.csv, but
 *   its wall did not move (one round, cores to spare), nor on a shard of
 *   50 (several rounds, the CPU the limit): 5.1 s a student against 5.0 s,
 *   59 s of CPU against 64 s. The CPU it saves goes idle.
 * Each sanitizer run costs a CUDA context, and the driver makes contexts
 * one at a time for the whole machine (measured on an H200: 16 at once
 * took 3.2 s, one 0.4 s; graded runners spent 72% of their samples waiting
 * on the driver's lock): a tool not run is a context not made. */
#ifndef SYNCLAB_LEVERS_H
#define SYNCLAB_LEVERS_H

#define SL_LEVERS_DEFAULT                                                                          \
    "dedup,initcheck,alloc,toolalloc,connections,gpunode,together,builds,stagger,buildturns"

/* 1 when lever name is on (see above). */
int sl_lever_on(const char *name);
/* The same decision from a given SYNCLAB_LEVERS value (NULL: unset). */
int sl_lever_in(const char *levers, const char *name);

#endif
