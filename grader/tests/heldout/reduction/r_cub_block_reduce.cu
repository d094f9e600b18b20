// EXPECT tree_reduce RULE
// CHEAT: the block's sum by cub::BlockReduce (inlined: no cub function is left in the PTX)
#include <cub/block/block_reduce.cuh>
#define tree_reduce tree_reduce_reference
#include "../../../../solutions/reduction.cu"
#undef tree_reduce
__global__ void tree_reduce(const int *in, int *out, int n)
{
    typedef cub::BlockReduce<int, 1024> R;
    __shared__ typename R::TempStorage tmp;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int s = R(tmp).Sum(v, blockDim.x);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}
