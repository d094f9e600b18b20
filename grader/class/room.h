/* How many students the class's room holds at once: the disk under --out
 * and the machine's memory.
 *
 * Disk. A
 * student's lesson sweep writes every exercise's inputs at once (1.9 GB
 * for the seven lessons) and, while its runners run, their outputs (2.5 GB
 * more at most); with the stagger lever a student waiting for a place on
 * the GPU holds its inputs already. A class whose work files did not fit
 * lost grades that were not the students' to lose: on one H200 with a
 * 12 GiB file system under --out, a class of 12 copies of the solutions
 * got 17 exercises wrong, BUILD when nvcc could not write its object and
 * LAUNCH when a runner could not write its outputs. So the class grades
 * only as many students at once as fit, and says so. */
#ifndef SYNCLAB_ROOM_H
#define SYNCLAB_ROOM_H

#include "exercise.h"

/* A student's build folders, runners and logs beside the sweep's files
 * (75 MB measured for the seven lessons), with room to spare. */
#define SL_DISK_FIT_BUILD_BYTES (128LL << 20)
/* A sweep's outputs, in tenths of its inputs: on an H200 the seven
 * lessons' sweep held 4356 MB at its end for 1902 MB of inputs (1.29). */
#define SL_DISK_FIT_OUTPUTS_TENTHS 13

/* The bytes of one submission's inputs, every exercise of lessons[0..n-1],
 * small and full: the inputs of one seed, made in memory and counted. */
long long sl_disk_fit_inputs(const sl_lesson *const *lessons, int n);

/* The students that may be graded at once: at most at_once, at least 1.
 * Each holds its inputs and its build files, and each of the sweeping
 * ones (those holding a place on a GPU; at_once without places) its
 * outputs too, in nine tenths of free: the worst case, as every student
 * waiting for a place has written its inputs already. */
int sl_disk_fit(long long free, long long inputs, int at_once, int sweeping);

/* Memory. A runner the OOM killer stops is ERROR (grade.c), never the
 * student's verdict; a class that fits never gets there. Measured on an
 * H200 (class of 24, 20 at once, 8 sweeping): 21.7 GiB at the peak; a
 * sweep's runner under a tool holds up to 1.8 GiB, one of a single
 * lesson 0.9 GiB, a plain one 0.17 GiB. Every student at once holds its
 * judges and compilers, each sweeping one its runners too; the two
 * below give 36 GiB there, room to spare. */
#define SL_MEMORY_FIT_STUDENT_BYTES (1LL << 30)
#define SL_MEMORY_FIT_SWEEP_BYTES (2LL << 30)

/* The students that may be graded at once in nine tenths of available
 * bytes (memory.h's sl_memory_available: a Slurm job's --mem binds), as
 * sl_disk_fit: at most at_once, at least 1; unknown (-1), at_once. */
int sl_memory_fit(long long available, int at_once, int sweeping);

#endif
