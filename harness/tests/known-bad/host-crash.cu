// expect: RE
// cases: sample/02-small-explicit
// detail: Segmentation fault
// solve() dereferences a null host pointer: the worker dies by SIGSEGV.
#include <cuda_runtime.h>

extern "C" void solve(const float *, const float *, float *, int M, int, int) {
    volatile int *nowhere = nullptr;
    *nowhere = M;
}
