// expect: RE
// cases: secret/04-primes
// detail: (blocked)
// decoys: yes
// Tries to rewrite the judge's testcases: the test's decoy testcase (replaced by a 1×1×1
// case), a new case planted beside it, and in the judge's checkout — found by walking up
// from its parent's executable, its own, its current folder and every file mapped into
// its process — testcases/sample/*.case and testcases/secret/04-primes.case, plus a new
// case planted in testcases/secret/. A suite a solution can edit is a suite it can make
// easy, or whose expected outputs it can set. Then it computes C correctly.
// Why the judge must hold: the runner may write only its scratch folder; Landlock refuses
// every open, the judge names the attempt ("(blocked)"), the case is RE, and the decoy
// folder holds exactly its three files, unchanged. (Real files the sandbox let through
// would get a write of nothing, and a planted real case would be removed at once:
// hostile.cuh.)
#include "hostile.cuh"
#include "naive_kernel.cuh"

namespace {

void rewrite_testcases() {
    const std::string easy = "# planted\nshape 1 1 1\ndata uniform -1 1\nseed 1\n";
    hostile::try_overwrite(hostile::decoy_testcase, easy);
    hostile::try_create(std::string(hostile::decoy_folder) + "/planted.case", easy);
    const std::string checkout = hostile::find_checkout();
    std::fprintf(stderr, "hostile: checkout: %s\n", checkout.empty() ? "(not found)" : checkout.c_str());
    if (checkout.empty()) return;
    for (const char *name : {"sample/01-one-by-one.case", "sample/02-small-explicit.case", "sample/03-integers.case",
                             "secret/04-primes.case"})
        hostile::try_overwrite(checkout + "/testcases/" + name, easy);
    hostile::try_create(checkout + "/testcases/secret/00-planted.case", easy);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const bool tried = (rewrite_testcases(), true);
    (void)tried;
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
