// expect: WA
// cases: secret/16-around-2048
// detail: never written
// Patches the process it runs in so that the runner's wait after solve() returns at once.
// It finds every copy of the synchronising calls in its process — the runtime's
// cudaDeviceSynchronize / cudaStreamSynchronize / cudaEventSynchronize in every loaded
// libcudart and wherever the global scope resolves them, and the driver's cuCtxSynchronize,
// cuStreamSynchronize, cuEventSynchronize both by name and through cuGetProcAddress (the
// pointers a statically linked runtime calls) — makes their pages writable with mprotect
// and overwrites their first bytes with `xor eax, eax; ret` (return success). Then it
// launches a correct but slow GEMM (19 passes into scratch, the 20th into C, ~60 ms at
// this shape on an H200) on a non-blocking stream and returns: the runner answers
// "returned" while C still holds the referee's poison.
// Why the judge must hold: the snapshot of C is taken by the referee, in its own process,
// right after "returned": a runner tricked into answering early only gets C checked before
// the work is done (WA, the elements never written). Were the work to finish first, the
// answer would be right and the time honest (the referee's stop stamp follows the
// snapshot) — never a fast AC.
#include "hostile.cuh"
#include "naive_kernel.cuh"

#include <cuda.h>
#include <dlfcn.h>
#include <fstream>
#include <set>

namespace {

constexpr int passes = 20;

// Every loaded object whose file name contains `part`, as dlopen names it.
std::set<std::string> loaded_objects(const std::string &part) {
    std::set<std::string> names;
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
        const auto slash = line.find('/');
        if (slash != std::string::npos && line.find(part, slash) != std::string::npos) names.insert(line.substr(slash));
    }
    return names;
}

std::set<void *> synchronize_entry_points() {
    std::set<void *> found;
    const char *runtime_names[] = {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaStreamSynchronize_ptsz",
                                   "cudaEventSynchronize"};
    const char *driver_names[] = {"cuCtxSynchronize", "cuCtxSynchronize_v2", "cuStreamSynchronize",
                                  "cuStreamSynchronize_ptsz", "cuEventSynchronize"};
    for (const char *name : runtime_names)
        if (void *p = dlsym(RTLD_DEFAULT, name)) found.insert(p);
    for (const auto &object : loaded_objects("libcudart")) {
        if (void *handle = dlopen(object.c_str(), RTLD_NOLOAD | RTLD_LAZY))
            for (const char *name : runtime_names)
                if (void *p = dlsym(handle, name)) found.insert(p);
    }
    void *driver = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_NOW);
    if (!driver) return found;
    for (const char *name : driver_names)
        if (void *p = dlsym(driver, name)) found.insert(p);
    using GetProcAddress = CUresult (*)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
    if (auto get = reinterpret_cast<GetProcAddress>(dlsym(driver, "cuGetProcAddress_v2"))) {
        for (const char *name : {"cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize"})
            for (const int version : {CUDA_VERSION, 12000, 11030})
                for (const cuuint64_t flags :
                     {CU_GET_PROC_ADDRESS_LEGACY_STREAM, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM}) {
                    void *p = nullptr;
                    CUdriverProcAddressQueryResult status;
                    if (get(name, &p, version, flags, &status) == CUDA_SUCCESS && p) found.insert(p);
                }
    }
    return found;
}

// The runner's calls only: this library's own statically linked runtime is left whole.
void disable_synchronisation() {
    Dl_info self;
    dladdr(reinterpret_cast<void *>(&disable_synchronisation), &self);
    int patched = 0;
    for (void *entry : synchronize_entry_points()) {
        Dl_info owner;
        if (dladdr(entry, &owner) && owner.dli_fbase == self.dli_fbase) continue;
        if (hostile::patch_code(entry, hostile::return_success, sizeof hostile::return_success)) {
            std::fprintf(stderr, "hostile: patched %s in %s\n", owner.dli_sname ? owner.dli_sname : "?",
                         owner.dli_fname ? owner.dli_fname : "?");
            ++patched;
        }
    }
    std::fprintf(stderr, "hostile: %d synchronising entry points now return at once\n", patched);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static cudaStream_t side = [] {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        return s;
    }();
    static float *scratch = nullptr;
    static size_t scratch_elements = 0;
    const size_t elements = static_cast<size_t>(M) * K;
    if (scratch_elements < elements) {
        cudaFree(scratch);
        cudaMalloc(&scratch, elements * sizeof(float));
        scratch_elements = elements;
    }
    static const bool patched = (disable_synchronisation(), true);
    (void)patched;
    for (int pass = 1; pass < passes; ++pass) launch_naive(A, B, scratch, M, N, K, side);
    launch_naive(A, B, C, M, N, K, side);
}
