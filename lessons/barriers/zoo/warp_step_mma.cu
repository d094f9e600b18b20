// EXPECT warp_step RULE
// The first two butterfly steps done by a tensor-core mma instead of the
// shared-memory exchange: an m8n8k4 f64 mma whose A fragment is every
// lane's value and B is all ones gives each lane the sum of its aligned
// group of four lanes (the mma moves the data between lanes). The steps
// d = 4, 8, 16 stay in shared memory. The outputs are right, but the
// exercise is the exchange through shared memory: every instruction class
// that moves data across lanes by itself is refused, not only shuffles.
#define warp_step warp_step_reference
#include "../../../solutions/barriers.cu"
#undef warp_step

__global__ void warp_step(const int *in, int *out, int n)
{
    extern __shared__ int slots[];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * blockDim.x + t;
    int *warp_slots = slots + (t - lane);

    int sum = i < n ? in[i] : 0;
    double a = (double)sum, b = 1.0, c0 = 0.0, c1 = 0.0, d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, "
                 "{%4, %5};"
                 : "=d"(d0), "=d"(d1)
                 : "d"(a), "d"(b), "d"(c0), "d"(c1));
    sum = (int)(long long)d0;  // the sum of lanes 4*(lane/4) .. 4*(lane/4)+3
    for (int d = 4; d < 32; d *= 2) {
        warp_slots[lane] = sum;
        __syncwarp();
        sum += warp_slots[lane ^ d];
        __syncwarp();
    }
    if (i < n)
        out[i] = sum;
}
