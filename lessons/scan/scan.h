/* Lesson 4: scan (prefix sum). What you implement in starter/scan.cu.
 * Read docs/04-scan.md first; each function below names its section.
 *
 * Inclusive scan: out[i] = in[0] + ... + in[i]
 * Exclusive scan: out[i] = in[0] + ... + in[i-1], and out[0] = 0
 * Example: in 4 3 9 3 5 7 3 2 -> inclusive 4 7 16 19 24 31 34 36,
 *                                exclusive 0 4 7 16 19 24 31 34.
 * Sums wrap modulo 2^32, as unsigned arithmetic does (the CPU reference
 * does the same): do the additions on unsigned values if you want to be
 * free of signed-overflow undefined behaviour.
 * Outputs start filled with 0xFF bytes (-1) and shared memory starts filled
 * with garbage: write every output element, read only what you wrote.
 */
#ifndef SYNCLAB_SCAN_H
#define SYNCLAB_SCAN_H

#include <stddef.h>
#include "synclab.h"

/* ---- Block scans: common launch shape (the harness launches) -----------
 *   kernel<<<ceil(n / B), B, SCAN_BLOCK_SHARED_BYTES(B)>>>(in, out, n)
 * B = blockDim.x is a power of two from 32 to 1024; n >= 1 and NOT always a
 * multiple of B. Block b owns the tile base .. base + valid - 1, where
 * base = b * B and valid = min(B, n - base): only the last tile can be
 * partial. Every block scans its own tile, independently of the others
 * (the sums restart at 0 at every tile). Threads with
 * i = base + threadIdx.x >= n have no element: they put 0 in their shared
 * slot, must not read in[i] or write out[i], and must STILL reach every
 * __syncthreads() (never return early).
 * Dynamic shared memory: 2 * B ints (extern __shared__ int s[]), room for
 * one array or for two (double buffering), as you like. */
#define SCAN_BLOCK_SHARED_BYTES(B) (2 * (size_t)(B) * sizeof(int))

/* ---- block_inclusive_scan (docs/04-scan.md#block-inclusive-scan) -------
 * Graded range: n from 1 to 2^22 + 3 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 *   out[base + t] = in[base] + in[base + 1] + ... + in[base + t]
 * for 0 <= t < valid. Hillis-Steele (log2 B steps, each: read, barrier,
 * write, barrier) or the work-efficient up-sweep/down-sweep. */
__global__ void block_inclusive_scan(const int *in, int *out, int n);

/* ---- block_exclusive_scan (docs/04-scan.md#block-exclusive-scan) -------
 * Graded range: n from 1 to 2^22 + 3 and blocks of 32 to 1024 threads
 * (the inputs reach both ends).
 *   out[base + t] = in[base] + ... + in[base + t - 1],  out[base] = 0
 * for 0 <= t < valid. Same launch and tiles as block_inclusive_scan. */
__global__ void block_exclusive_scan(const int *in, int *out, int n);

/* ---- scan_any_n (docs/04-scan.md#scan-of-any-n) ------------------------
 * Host launcher: exclusive scan of the whole array,
 *   d_out[i] = d_in[0] + ... + d_in[i-1] (mod 2^32),  d_out[0] = 0,
 * for 1 <= n <= 2^25 + 2^16 - 1 in the graded inputs (both ends are among
 * them; the bench times 2^28). n is a long long: use 64-bit indices where
 * an index can pass 2^31, which no graded input reaches. d_in and d_out come from cudaMalloc (256-byte aligned, so
 * int4 loads and stores at multiples of 4 elements are legal) and do not
 * overlap. You choose the kernels, grids and blocks; launch them on the
 * default stream, in order, and do not synchronize (the harness does).
 *
 * d_scratch: scan_scratch_bytes(n) bytes of device memory that the harness
 * allocated for you before the call (outside the timed region). Its
 * content on entry is garbage (0xFF bytes at first, then whatever your last
 * call left): initialize whatever you need in it (cudaMemsetAsync or a
 * kernel) inside scan_exclusive_int. No cudaMalloc inside the launcher.
 *
 * Timed against cub::DeviceScan::ExclusiveSum at 2^28 ints: aim for the
 * memory bandwidth (see the doc). */
void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch);

/* Bytes of scratch scan_exclusive_int needs for n elements (may be 0).
 * Called by the harness on the host, before scan_exclusive_int. */
size_t scan_scratch_bytes(long long n);

#endif
