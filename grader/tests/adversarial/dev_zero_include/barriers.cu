// Reading /dev/zero never ends: the memory limit stops the compiler.
#include "/dev/zero"
