// expect: AC
// cases: secret/15-around-1000 secret/02-n-is-one
// flags: --precision tf32
// The TF32 cuBLAS solution judged under --precision tf32, where tensor-core arithmetic
// is admitted: the same output that is WA under fp32 must be AC here.
#include "tf32-cublas.cu"
