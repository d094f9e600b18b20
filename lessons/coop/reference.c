/* CPU reference for lesson 6 (cooperative groups). */
#include "reference.h"

int coop_keep(int32_t v) { return v > 0; }

void coop_tile_reduce(const int32_t *in, int64_t n, int64_t tiles, int tile_size, int32_t *sums,
                      uint32_t *neg_mask)
{
    for (int64_t t = 0; t < tiles; t++) {
        int32_t sum = 0;
        uint32_t mask = 0;
        for (int r = 0; r < tile_size; r++) {
            int64_t g = t * tile_size + r;
            int32_t v = g < n ? in[g] : 0;
            sum += v;
            if (v < 0)
                mask |= 1u << r;
        }
        sums[t] = sum;
        neg_mask[t] = mask;
    }
}

void coop_half_block(const int32_t *in, int64_t n, int block, int32_t *out)
{
    for (int64_t base = 0; base < n; base += block) {
        int64_t end = base + block < n ? base + block : n;
        int32_t sum = 0;
        for (int64_t i = base; i < end; i++)
            sum += in[i];
        for (int64_t i = base; i < end; i++)
            out[i] = sum - in[i];
    }
}

int64_t coop_filter(const int32_t *in, int64_t n, int32_t *kept)
{
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++)
        if (coop_keep(in[i]))
            kept[count++] = in[i];
    return count;
}

int64_t coop_filter_groups(const int32_t *in, int64_t n, int block, int grid)
{
    /* Element i is visited in iteration i / stride by thread i % stride;
     * that thread is warp (i % stride % block) / 32 of block (i % stride) /
     * block. The triple grows with i, so counting changes counts triples. */
    int64_t stride = (int64_t)block * grid;
    int64_t groups = 0, last = -1;
    for (int64_t i = 0; i < n; i++) {
        if (!coop_keep(in[i]))
            continue;
        int64_t iter = i / stride, t = i % stride;
        int64_t warp_key = (iter * grid + t / block) * ((block + 31) / 32) + (t % block) / 32;
        if (warp_key != last) {
            groups++;
            last = warp_key;
        }
    }
    return groups;
}

void coop_distance_to_max(const int32_t *in, int64_t n, int32_t *out)
{
    int32_t m = in[0];
    for (int64_t i = 1; i < n; i++)
        if (in[i] > m)
            m = in[i];
    for (int64_t i = 0; i < n; i++)
        out[i] = m - in[i];
}
