// EXPECT sum_int WRONG
// The launcher never sets *d_out to 0 before the blocks atomically add into
// it: the sum starts from whatever was there (here 0xFFFFFFFF = -1).
#define reduce_sum_int reduce_sum_int_reference
#include "../../../solutions/reduction.cu"
#undef reduce_sum_int

void reduce_sum_int(const int *d_in, long long n, int *d_out)
{
    static int max_blocks;
    int blocks = sum_blocks(n, (const void *)sum_kernel<int, int4>, &max_blocks);
    /* BUG: no cudaMemsetAsync(d_out, 0, sizeof *d_out) */
    sum_kernel<int, int4><<<blocks, SUM_THREADS>>>(d_in, n, d_out);
}
