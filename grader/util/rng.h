/* Seeded random numbers (xoshiro256**): every input is reproducible from the
 * seed recorded in the report. */
#ifndef SYNCLAB_RNG_H
#define SYNCLAB_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} sl_rng;

void sl_rng_seed(sl_rng *r, uint64_t seed);
uint64_t sl_rng_u64(sl_rng *r);
/* Uniform in [lo, hi] inclusive. */
int64_t sl_rng_range(sl_rng *r, int64_t lo, int64_t hi);
/* Uniform in [lo, hi). */
double sl_rng_double(sl_rng *r, double lo, double hi);
/* A seed nobody can predict (from /dev/urandom). */
uint64_t sl_seed_unpredictable(void);

#endif
