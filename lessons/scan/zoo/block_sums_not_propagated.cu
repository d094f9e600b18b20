// EXPECT scan_any_n WRONG
// The tile sums are computed and scanned, but pass 3 never gets them: every
// tile starts from 0, as if it were the first. Right whenever n fits one
// tile, wrong on every larger input.
#define scan_exclusive_int scan_exclusive_int_reference
#include "../../../solutions/scan.cu"
#undef scan_exclusive_int

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    long long tiles = tiles_of(n);
    unsigned *tile_sum = (unsigned *)d_scratch;
    if (tiles > 1) {
        reduce_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, n, tile_sum);
        scan_tile_sums<<<1, SUMS_THREADS>>>(tile_sum, (int)tiles);
    }
    scan_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, d_out, n, NULL);   // BUG: tile_sum
}
