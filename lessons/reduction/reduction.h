/* Lesson 3: reduction. What you implement in starter/reduction.cu.
 * Read docs/03-reduction.md first; each function below names its section.
 *
 * Every sum here is a sum of ints or floats. Int sums wrap modulo 2^32
 * (the CPU reference does the same), so the order never matters for ints;
 * float sums depend on the order and are judged with a tolerance.
 * Outputs start filled with 0xFF bytes (-1 as an int, NaN as a float) and
 * shared memory starts filled with garbage: write every output, and read
 * only shared memory your block wrote in this launch.
 */
#ifndef SYNCLAB_REDUCTION_H
#define SYNCLAB_REDUCTION_H

#include "synclab.h"

/* ---- tree_reduce (docs/03-reduction.md#tree-reduce) --------------------
 * Graded range: n from 1 to 3000001 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * Per-block sum through a shared-memory tree:
 *   out[b] = in[b*B] + in[b*B + 1] + ... + in[min(n, (b+1)*B) - 1],  B = blockDim.x
 * Launch (done by the harness):
 *   tree_reduce<<<ceil(n / B), B, B * sizeof(int)>>>(in, out, n)
 * B is a power of two from 32 to 1024; n >= 1 and NOT always a multiple of
 * B: the last block may be partial, and its threads with
 * i = blockIdx.x * B + threadIdx.x >= n have no element (they must put 0 in
 * their shared slot, and must not read in[i]).
 * Dynamic shared memory: B ints (extern __shared__ int s[]).
 * log2(B) levels, a __syncthreads() after each. No atomics (the PTX is
 * checked): the point is the tree. */
__global__ void tree_reduce(const int *in, int *out, int n);

/* ---- mirrored_reduce (docs/03-reduction.md#mirrored-reduce) ------------
 * Graded range: n from 1 to 3000001 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 * Same contract, launch and output as tree_reduce, but each level pairs
 * mirrored slots, as in the seed:
 *   for off = B/2, B/4, ..., 1: every thread tid < 2*off does
 *       s[tid] = s[tid] + s[2*off - tid - 1]
 * Both halves of [0, 2*off) are read AND written in the same level, so the
 * seed's single barrier per level is a race: separate the reads from the
 * writes in time (read into a register, barrier, write, barrier).
 * out[b] = s[0] at the end. No atomics (the PTX is checked). */
__global__ void mirrored_reduce(const int *in, int *out, int n);

/* ---- sum_int (docs/03-reduction.md#full-array-int-sum) -----------------
 * Host launcher: *d_out = in[0] + ... + in[n-1] (wrapping modulo 2^32).
 * d_in and d_out are device pointers. n is a long long, 1 <= n <= 2^25 in
 * the graded inputs (both ends are among them; the bench times 2^28). No
 * input passes 2^31, where 32-bit index arithmetic would break: the type is
 * long long so that your code is right there too, which is not graded.
 * d_in is 4-byte aligned but NOT always 16-byte aligned: check
 * before you load int4. *d_out starts as 0xFFFFFFFF: the launcher must
 * initialise it (cudaMemsetAsync, or a kernel) before it accumulates.
 * You choose the grid and block; launch on the default stream and do not
 * synchronize (the harness does). Timed against cub::DeviceReduce::Sum:
 * aim for the memory bandwidth (see the doc). */
void reduce_sum_int(const int *d_in, long long n, int *d_out);

/* ---- sum_float (docs/03-reduction.md#full-array-float-sum) -------------
 * Same for floats, the same range of n: *d_out = in[0] + ... + in[n-1], in
 * any order you like;
 * judged against a double-precision sum with a tolerance that grows with n
 * and with the sum of |in[i]|. */
void reduce_sum_float(const float *d_in, long long n, float *d_out);

#endif
