#include "rng.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void sl_rng_seed(sl_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t sl_rng_u64(sl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int64_t sl_rng_range(sl_rng *r, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)(hi - lo) + 1;
    if (span == 0) /* the full 64-bit range */
        return (int64_t)sl_rng_u64(r);
    /* Rejection sampling: no modulo bias. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t x;
    do
        x = sl_rng_u64(r);
    while (x >= limit);
    return lo + (int64_t)(x % span);
}

double sl_rng_double(sl_rng *r, double lo, double hi)
{
    double u = (double)(sl_rng_u64(r) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
}

uint64_t sl_seed_unpredictable(void)
{
    uint64_t seed = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&seed, sizeof seed, 1, f) != 1)
            seed = 0;
        fclose(f);
    }
    if (seed == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)getpid();
        seed = splitmix64(&x);
    }
    return seed;
}
