// expect: RE
// cases: sample/01-one-by-one sample/02-small-explicit secret/04-primes
// detail: wrote more than 1 GiB (--scratch-limit) to its folder
// A static constructor writes 1 GiB files into its working folder until a write fails, as
// a solution that fills the disk would: the folder is the solution's only up to its limit
// (a tmpfs of that size when the judge is root), so the writes past it fail, the disk the
// judge's report and history are written to stays free, and every case is RE naming the
// limit. It says how far it got on stdout (--show-output shows it).
#include "naive_kernel.cuh"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
struct FillAtLoad {
    FillAtLoad() {
        std::vector<char> block(64 << 20, 'x');
        long long written = 0;
        int error = 0;
        for (int file = 0; error == 0 && file < 1024; ++file) {
            const int fd = open(("fill-" + std::to_string(file)).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd < 0) error = errno;
            for (int i = 0; fd >= 0 && error == 0 && i < 16; ++i) { // 16 × 64 MiB: 1 GiB a file
                const ssize_t n = write(fd, block.data(), block.size());
                if (n > 0) written += n;
                if (n != ssize_t(block.size())) error = n < 0 ? errno : ENOSPC;
            }
            if (fd >= 0) close(fd);
        }
        std::printf("fills-disk: %lld MiB written, then: %s\n", written >> 20, std::strerror(error));
        std::fflush(stdout);
    }
} fill_at_load;
} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
