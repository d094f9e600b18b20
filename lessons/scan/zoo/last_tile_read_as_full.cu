// EXPECT scan_any_n MEMORY
// n rounded up to whole tiles, so the partial last tile is loaded and stored
// with int4 as if it were full: reads and writes past the end of the arrays.
#define scan_exclusive_int scan_exclusive_int_reference
#include "../../../solutions/scan.cu"
#undef scan_exclusive_int

void scan_exclusive_int(const int *d_in, int *d_out, long long n, void *d_scratch)
{
    if (n <= 0)
        return;
    long long tiles = tiles_of(n);
    long long padded = tiles * ANY_TILE;   // BUG: the last tile is not full
    unsigned *tile_sum = (unsigned *)d_scratch;
    if (tiles > 1) {
        reduce_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, padded, tile_sum);
        scan_tile_sums<<<1, SUMS_THREADS>>>(tile_sum, (int)tiles);
    }
    scan_tiles<<<(unsigned)tiles, ANY_THREADS>>>(d_in, d_out, padded, tiles > 1 ? tile_sum : NULL);
}
