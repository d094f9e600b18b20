/* Lesson 1, barriers: CPU references. */
#include "reference.h"

void ref_tile_reverse(const int32_t *in, int32_t *out, int64_t n, int64_t block)
{
    for (int64_t base = 0; base < n; base += block) {
        int64_t valid = n - base < block ? n - base : block;
        for (int64_t t = 0; t < valid; t++)
            out[base + t] = in[base + valid - 1 - t];
    }
}

int32_t ref_halo_y(int32_t x) { return x * x; }

static int32_t y_at(const int32_t *in, int64_t j, int64_t n)
{
    return (j >= 0 && j < n) ? ref_halo_y(in[j]) : 0;
}

void ref_halo_diff(const int32_t *in, int32_t *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = y_at(in, i + 1, n) - y_at(in, i - 1, n);
}

void ref_block_vote(const int32_t *in, int32_t *out, int64_t n, int64_t block, int32_t threshold)
{
    for (int64_t b = 0; b * block < n; b++) {
        int64_t base = b * block;
        int64_t end = base + block < n ? base + block : n;
        int32_t count = 0;
        for (int64_t i = base; i < end; i++)
            count += in[i] > threshold;
        out[3 * b + 0] = count;
        out[3 * b + 1] = count == end - base;
        out[3 * b + 2] = count > 0;
    }
}

void ref_warp_step(const int32_t *in, int32_t *out, int64_t n)
{
    for (int64_t g = 0; g < n; g += 32) {
        int64_t end = g + 32 < n ? g + 32 : n;
        int32_t sum = 0;
        for (int64_t i = g; i < end; i++)
            sum += in[i];
        for (int64_t i = g; i < end; i++)
            out[i] = sum;
    }
}
