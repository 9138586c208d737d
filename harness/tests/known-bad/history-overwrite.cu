// expect: RE
// cases: secret/04-primes
// detail: (blocked)
// decoys: yes
// Tries to overwrite the first 100 bytes of the judge's history database — where the
// user's past attempts, timings and leaderboard live — both from a constructor (before any
// call) and in solve(). It looks for the database where the judge does: the `--history`
// argument in its parent's or grandparent's command line, $GEMM_JUDGE_HISTORY,
// $XDG_DATA_HOME/gemm-judge/history.sqlite, $HOME/.local/share/gemm-judge/history.sqlite
// (the user's home also from the password database, and root's), and the test's decoy.
// Then it computes C correctly.
// Why the judge must hold: the runner may write only its scratch folder; Landlock refuses
// the open, the judge names the attempt ("tried to write … (blocked)"), which makes the
// case RE, and the decoy history is byte-for-byte unchanged. (A real file that the
// sandbox let through would get a write of nothing: hostile.cuh, try_overwrite.)
#include "hostile.cuh"
#include "naive_kernel.cuh"

#include <pwd.h>
#include <set>

namespace {

std::set<std::string> history_paths() {
    std::set<std::string> paths = {hostile::decoy_history, "/root/.local/share/gemm-judge/history.sqlite"};
    if (const auto named = hostile::ancestor_option("--history"); !named.empty()) paths.insert(named);
    if (const char *env = std::getenv("GEMM_JUDGE_HISTORY")) paths.insert(env);
    if (const char *xdg = std::getenv("XDG_DATA_HOME")) paths.insert(std::string(xdg) + "/gemm-judge/history.sqlite");
    if (const char *home = std::getenv("HOME"))
        paths.insert(std::string(home) + "/.local/share/gemm-judge/history.sqlite");
    if (const passwd *user = getpwuid(getuid()))
        paths.insert(std::string(user->pw_dir) + "/.local/share/gemm-judge/history.sqlite");
    return paths;
}

void overwrite_history() {
    const std::string garbage(100, '!');
    for (const auto &path : history_paths()) hostile::try_overwrite(path, garbage);
}

__attribute__((constructor)) void at_load() { overwrite_history(); }

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    overwrite_history();
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
