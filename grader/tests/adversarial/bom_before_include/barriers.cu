#include "../../../../solutions/barriers.cu"
// A UTF-8 byte order mark before the first #include.
