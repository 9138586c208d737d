// solve.h — put on nvcc's include path, after the solution's own folder and --include's,
// by the judge (compile/compile.cpp: starter_include_dir).
//
// LeetGPU's older starter code for its matrix-multiplication challenge begins with
// `#include "solve.h"` and defines a plain `void solve(...)`, relying on LeetGPU's own
// solve.h for the C linkage its harness looks up. A function declared extern "C" keeps
// that linkage in every later declaration and in its definition ([dcl.link]), so this
// one declaration lets such a file compile, and be found, exactly as it is. A solution
// folder's own solve.h is found first and wins.
#pragma once

#ifdef __cplusplus
extern "C"
#endif
    void
    solve(const float *A, const float *B, float *C, int M, int N, int K);
