// ADVERSARIAL SUBMISSION: hands in the reference solution by including it.
#include "../../../../solutions/barriers.cu"
