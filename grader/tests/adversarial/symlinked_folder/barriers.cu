// lib/ is a symbolic link to the solutions folder.
#include "lib/barriers.cu"
