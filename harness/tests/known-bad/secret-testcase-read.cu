// expect: RE
// cases: secret/04-primes
// detail: (blocked)
// decoys: yes
// Tries to leak secret testcases: reads the test's decoy secret case and the checkout's
// testcases/secret/04-primes.case (the checkout found as in testcase-overwrite.cu), prints
// what it read to stdout — which the judge shows with --show-output and keeps in its
// report — and copies it into its scratch folder (its current folder and $TMPDIR), where
// a later solution or the user could pick it up. Then it computes C correctly.
// Why the judge must hold: the runner may read only the system, the toolkit, the driver
// and its own /proc entries; Landlock refuses the open, the judge names the attempt
// ("tried to read … (blocked)"), the case is RE, and the decoy's marker appears nowhere
// in the judge's output or its JSON report.
#include "hostile.cuh"
#include "naive_kernel.cuh"

namespace {

void leak(const std::string &path) {
    const auto text = hostile::read_file(path);
    if (!text) {
        std::fprintf(stderr, "hostile: cannot read %s: %s\n", path.c_str(), std::strerror(errno));
        return;
    }
    std::printf("hostile: %s holds:\n%s\n", path.c_str(), text->c_str());
    std::fflush(stdout);
    std::vector<std::string> copies = {"leaked-secret.case"};
    if (const char *tmp = std::getenv("TMPDIR")) copies.push_back(std::string(tmp) + "/leaked-secret.case");
    for (const auto &copy : copies) {
        const int fd = ::open(copy.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) (void)!::write(fd, text->data(), text->size());
        if (fd >= 0) ::close(fd);
    }
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const bool tried = [] {
        leak(hostile::decoy_secret);
        const std::string checkout = hostile::find_checkout();
        if (!checkout.empty()) leak(checkout + "/testcases/secret/04-primes.case");
        return true;
    }();
    (void)tried;
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
