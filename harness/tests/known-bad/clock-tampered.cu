// expect: AC
// cases: secret/16-around-2048
// min-time-ratio: 0.9
// Tampers with every clock its own process can reach, as one would to fool the old judge,
// which timed solve() with CUDA events and the host clock inside the solution's process:
//  - replaces cudaEventRecord, cudaEventSynchronize and cudaEventElapsedTime (0.001 ms
//    between any two events) in every runtime its process has loaded but its own. They
//    cannot simply be exported from the library: nvcc links the runtime statically
//    (cudart_static.o defines all three), and the linker refuses a second definition, so
//    the interposition is done at run time, with mprotect and a jump;
//  - the same in the driver (cuEventRecord, cuEventSynchronize, cuEventElapsedTime),
//    where every statically linked runtime's events end;
//  - redirects libc's clock_gettime to a clock that runs 1000× slower than the real one.
// Then it computes C correctly with the naive kernel.
// Why the judge must hold: the time is taken by the referee, another process, with
// %globaltimer stamps ordered around the call; nothing the runner's clocks say is believed.
// So the answer is AC with an honest time: its median at least 0.9× that of
// solutions/01-naive.cu on the same case.
#include "hostile.cuh"
#include "naive_kernel.cuh"

#include <atomic>
#include <ctime>
#include <cuda.h>
#include <dlfcn.h>
#include <fstream>
#include <set>
#include <sys/syscall.h>

namespace {

cudaError_t fast_event_elapsed_time(float *ms, cudaEvent_t, cudaEvent_t) {
    *ms = 0.001f;
    return cudaSuccess;
}

CUresult fast_elapsed_time(float *ms, CUevent, CUevent) {
    *ms = 0.001f;
    return CUDA_SUCCESS;
}

// Each clock starts where the real one was at its first reading, then runs 1000× slower.
std::atomic<long long> clock_origin[16];

int slow_clock_gettime(clockid_t id, timespec *t) {
    const long rc = syscall(SYS_clock_gettime, id, t);
    if (rc != 0 || id < 0 || id >= 16) return static_cast<int>(rc);
    const long long now = t->tv_sec * 1000000000ll + t->tv_nsec;
    long long first = 0;
    clock_origin[id].compare_exchange_strong(first, now);
    const long long origin = first == 0 ? now : first;
    const long long slow = origin + (now - origin) / 1000;
    t->tv_sec = slow / 1000000000ll;
    t->tv_nsec = slow % 1000000000ll;
    return 0;
}

// Every copy of `name` in this process outside this library: where the global scope
// resolves it, in the object loaded as `object`, and in each loaded object whose path
// contains `object`.
std::set<void *> copies_of(const char *name, const std::string &object) {
    std::set<void *> found;
    if (void *p = dlsym(RTLD_DEFAULT, name)) found.insert(p);
    if (void *handle = dlopen(object.c_str(), RTLD_NOLOAD | RTLD_LAZY))
        if (void *p = dlsym(handle, name)) found.insert(p);
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
        const auto slash = line.find('/');
        if (slash == std::string::npos || line.find(object, slash) == std::string::npos) continue;
        if (void *handle = dlopen(line.substr(slash).c_str(), RTLD_NOLOAD | RTLD_LAZY))
            if (void *p = dlsym(handle, name)) found.insert(p);
    }
    Dl_info self, owner;
    dladdr(reinterpret_cast<void *>(&fast_elapsed_time), &self);
    for (auto it = found.begin(); it != found.end();)
        it = dladdr(*it, &owner) && owner.dli_fbase == self.dli_fbase ? found.erase(it) : std::next(it);
    return found;
}

void replace(const char *name, const std::string &object, const void *replacement) {
    int done = 0;
    for (void *entry : copies_of(name, object))
        done += replacement ? hostile::redirect_code(entry, replacement)
                            : hostile::patch_code(entry, hostile::return_success, sizeof hostile::return_success);
    std::fprintf(stderr, "hostile: %s replaced in %d places\n", name, done);
}

void tamper_with_clocks() {
    for (const char *name : {"cudaEventRecord", "cudaEventRecord_ptsz", "cudaEventSynchronize"})
        replace(name, "libcudart", nullptr);
    replace("cudaEventElapsedTime", "libcudart", reinterpret_cast<const void *>(&fast_event_elapsed_time));
    for (const char *name : {"cuEventRecord", "cuEventRecord_ptsz", "cuEventSynchronize"})
        replace(name, "libcuda.so.1", nullptr);
    for (const char *name : {"cuEventElapsedTime", "cuEventElapsedTime_v2"})
        replace(name, "libcuda.so.1", reinterpret_cast<const void *>(&fast_elapsed_time));
    replace("clock_gettime", "libc.so.6", reinterpret_cast<const void *>(&slow_clock_gettime));
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const bool tampered = (tamper_with_clocks(), true);
    (void)tampered;
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
