// not next to this header: the compiler takes lessons/barriers/reference.h
#include "reference.h"
