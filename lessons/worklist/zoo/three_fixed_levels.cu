// EXPECT worklist_insert WRONG
// The scan has three fixed levels instead of recursing: the third is one
// block, right while there are at most `block` second-level sums, i.e.
// n <= block^3. Past that the tiles after the first block^2 * block threads
// get offsets that miss the earlier tile sums. The inputs go past block^3
// for every block up to 256 (2^24 for 256).
#define worklist_insert worklist_insert_reference
#include "../../../solutions/worklist.cu"
#undef worklist_insert

static void three_level_scan(const int *in, int *out, int n, int *total, int *sums, int block)
{
    int tiles = (n + block - 1) / block;
    int tiles2 = (tiles + block - 1) / block;
    int *sums2 = sums + tiles;
    scan_tiles<<<tiles, block>>>(in, out, sums, n);                // level 1
    scan_tiles<<<tiles2, block>>>(sums, sums, sums2, tiles);      // level 2
    scan_tiles<<<1, block>>>(sums2, sums2, total, tiles2);        // BUG: level 3 is one block
    add_tile_offsets<<<tiles2, block>>>(sums, sums2, tiles);
    add_tile_offsets<<<tiles, block>>>(out, sums, n);
}

void worklist_insert(const int *nelem, int n, int2 *worklist, int *total,
                     int *scratch, int block)
{
    int *offsets = scratch;
    int *sums = scratch + n;
    three_level_scan(nelem, offsets, n, total, sums, block);
    write_items<<<(n + block - 1) / block, block>>>(nelem, offsets, n, worklist);
}
