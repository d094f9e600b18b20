// 2^40 distinct instantiations: the compiler would take the machine's memory.
// It stops at the build's memory limit (SL_BUILD_MEMORY_LIMIT_MIB): BUILD.
template <unsigned long N, int D> struct Tree {
    Tree<2 * N, D - 1> left;
    Tree<2 * N + 1, D - 1> right;
};
template <unsigned long N> struct Tree<N, 0> { char leaf; };
unsigned long bomb() { return sizeof(Tree<1, 40>); }
