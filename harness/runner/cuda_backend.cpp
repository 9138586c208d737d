#include "runner/cuda_backend.hpp"
#include "cuda_driver/cublas_api.hpp"
#include "cuda_driver/driver_api.hpp"
#include "runner/baseline_epilogue.hpp"
#include "runner/baseline_requantization.hpp"
#include "runner/calibration_kernel.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <stdexcept>
#include <unistd.h>

namespace gemm {

namespace {

// The baseline: cuBLAS's call for the product as the operands are stored. C = A·B for
// row-major matrices: cuBLAS is column-major, so it computes Cᵀ = Bᵀ·Aᵀ; an operand stored
// transposed is op T there too; a batch is one strided-batched call; a diagonal A is SDGMM
// (B's columns scaled, in cuBLAS's view the right side); one product with one column (a
// matrix-vector problem, or any case with K = 1) is SGEMV, cuBLAS's routine for it.
cublasStatus_t baseline_product(cublasHandle_t handle, const float *A, const float *B, float *C, int M, int N, int K,
                                const ProductLayout &layout) {
    const float one = 1, zero = 0;
    const CublasApi &api = cublas_api();
    if (layout.a_diagonal) {
        for (long long i = 0; i < layout.batch; ++i) {
            const cublasStatus_t status =
                api.sdgmm(handle, CUBLAS_SIDE_RIGHT, K, N, B + i * N * static_cast<long long>(K), K, A + i * N, 1,
                          C + i * N * static_cast<long long>(K), K);
            if (status != CUBLAS_STATUS_SUCCESS) return status;
        }
        return CUBLAS_STATUS_SUCCESS;
    }
    if (layout.batch == 1 && K == 1) {
        // y = A·x with A row-major M×N: in cuBLAS's view N×M (ld N), so op T; stored
        // transposed (N×M row-major) it is M×N there (ld M), op N. B's one column is x either way.
        if (layout.a_transposed) return api.sgemv(handle, CUBLAS_OP_N, M, N, &one, A, M, B, 1, &zero, C, 1);
        return api.sgemv(handle, CUBLAS_OP_T, N, M, &one, A, N, B, 1, &zero, C, 1);
    }
    const cublasOperation_t op_b = layout.b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_a = layout.a_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int ld_b = layout.b_transposed ? N : K, ld_a = layout.a_transposed ? M : N;
    if (layout.batch == 1) return api.sgemm(handle, op_b, op_a, K, M, N, &one, B, ld_b, A, ld_a, &zero, C, K);
    return api.sgemm_strided_batched(handle, op_b, op_a, K, M, N, &one, B, ld_b, static_cast<long long>(N) * K, A, ld_a,
                                     static_cast<long long>(M) * N, &zero, C, K, static_cast<long long>(M) * K,
                                     static_cast<int>(layout.batch));
}

// FP16 storage (LeetGPU #22, #57), or BF16: GemmEx with FP32 computation on the tensor cores,
// as the site's own baseline, α and β from the call (β·C₀ read where the layout reads C).
cublasStatus_t baseline_half_product(cublasHandle_t handle, const float *A, const float *B, float *C,
                                     const CallOrder &o) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    const auto scalar = [&](const char *role, float otherwise) {
        const auto found = o.scalars.find(role);
        return found == o.scalars.end() ? otherwise : static_cast<float>(found->second);
    };
    const float alpha = scalar("alpha", 1), beta = o.layout.c_read ? scalar("beta", 0) : 0;
    const CublasApi &api = cublas_api();
    const cudaDataType type = o.layout.bfloat16 ? CUDA_R_16BF : CUDA_R_16F;
    if (o.layout.batch == 1)
        return api.gemm_ex(handle, CUBLAS_OP_N, CUBLAS_OP_N, o.K, o.M, o.N, &alpha, B, type, o.K, A, type, o.N, &beta,
                           C, type, o.K, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return api.gemm_strided_batched_ex(
        handle, CUBLAS_OP_N, CUBLAS_OP_N, o.K, o.M, o.N, &alpha, B, type, o.K, static_cast<long long>(o.N) * o.K, A,
        type, o.N, static_cast<long long>(o.M) * o.N, &beta, C, type, o.K, static_cast<long long>(o.M) * o.K,
        static_cast<int>(o.layout.batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// INT8 (LeetGPU #32): cuBLAS's int8 GEMM, exact int32 sums, into `scratch` (M·K sums, then M + K
// ints for the zero points' line sums), then the judge's requantization kernel into C. Where
// cuBLAS declines the integer form for a shape, its int8 GEMM summing in FP32 stands in: exact
// while the sums stay below 2^24, and the baseline's output is checked (a JE past that).
cublasStatus_t baseline_int8_product(cublasHandle_t handle, const void *A, const void *B, void *C, float *scratch,
                                     const CallOrder &o) {
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    const CublasApi &api = cublas_api();
    const Requantization q = requantization_of(o.scalars);
    const auto *a = static_cast<const signed char *>(A), *b = static_cast<const signed char *>(B);
    auto *c = static_cast<signed char *>(C);
    int *lines = reinterpret_cast<int *>(scratch) + static_cast<std::size_t>(o.M) * o.K;
    const int one = 1, zero = 0;
    cublasStatus_t status =
        api.gemm_ex(handle, CUBLAS_OP_N, CUBLAS_OP_N, o.K, o.M, o.N, &one, B, CUDA_R_8I, o.K, A, CUDA_R_8I, o.N, &zero,
                    scratch, CUDA_R_32I, o.K, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
    if (status == CUBLAS_STATUS_SUCCESS)
        return apply_baseline_requantization(reinterpret_cast<const int *>(scratch), a, b, c, lines, q, o.M, o.N,
                                             o.K) == cudaSuccess
                   ? CUBLAS_STATUS_SUCCESS
                   : CUBLAS_STATUS_EXECUTION_FAILED;
    const float one_f = 1, zero_f = 0;
    status = api.gemm_ex(handle, CUBLAS_OP_N, CUBLAS_OP_N, o.K, o.M, o.N, &one_f, B, CUDA_R_8I, o.K, A, CUDA_R_8I, o.N,
                         &zero_f, scratch, CUDA_R_32F, o.K, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS) return status;
    return apply_baseline_requantization(static_cast<const float *>(scratch), a, b, c, lines, q, o.M, o.N, o.K) ==
                   cudaSuccess
               ? CUBLAS_STATUS_SUCCESS
               : CUBLAS_STATUS_EXECUTION_FAILED;
}

CallOutcome failed(std::string why) {
    CallOutcome outcome;
    outcome.failure = std::move(why);
    return outcome;
}

} // namespace

CudaBackend::~CudaBackend() {
    mapping_.reset();
    if (scratch_) cudaFree(scratch_);
    if (own_events_.context_id != 0 && own_events_.context_id == current_context_id()) {
        cudaEventDestroy(own_events_.before);
        cudaEventDestroy(own_events_.after);
    }
    if (cublas_) cublas_api().destroy(cublas_);
    if (half_cublas_) cublas_api().destroy(half_cublas_);
}

std::string CudaBackend::start(bool baseline) {
    // Spin, never sleep, while waiting for the GPU: a thread that sleeps through a long
    // kernel wakes tens of µs late (the deeper the CPU's idle state, the later), and that
    // lateness would be counted in the call's time (docs/perf-notes.md).
    if (const cudaError_t e = cudaSetDeviceFlags(cudaDeviceScheduleSpin); e != cudaSuccess)
        return std::string("cannot use the GPU: ") + cudaGetErrorString(e);
    if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess)
        return std::string("cannot use the GPU: ") + cudaGetErrorString(e);
    if (cudaEventCreate(&own_events_.before) != cudaSuccess || cudaEventCreate(&own_events_.after) != cudaSuccess)
        return "cudaEventCreate failed";
    own_events_.context_id = current_context_id();
    if (cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
        return "cannot read the GPU's multiprocessor count";
    if (baseline) {
        try {
            if (cublas_api().create(&cublas_) != CUBLAS_STATUS_SUCCESS) return "cublasCreate failed";
        } catch (const std::runtime_error &e) {
            return e.what();
        }
        // FP32 arithmetic only: the baseline is SGEMM, never TF32.
        if (cublas_api().set_math_mode(cublas_, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS)
            return "cublasSetMathMode failed";
    }
    return "";
}

std::string CudaBackend::load(const std::string &library, const EntryPlan &plan) {
    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return std::string("cannot load the compiled solution: ") + dlerror();
    if (void *function = dlsym(handle, plan.symbol.c_str())) {
        try {
            entry_.emplace(function, plan);
        } catch (const std::invalid_argument &e) {
            return e.what();
        }
        return "";
    }
    if (plan.symbol != "solve") return "the library has no extern \"C\" " + plan.symbol + " symbol";
    // The C++ name of solve(const float*, const float*, float*, int, int, int).
    if (dlsym(handle, "_Z5solvePKfS0_Pfiii"))
        return "the library has no extern \"C\" solve symbol: solve() is compiled with a C++ (mangled) name; "
               "declare it as extern \"C\" void solve(const float *A, const float *B, float *C, int M, int N, int K)";
    return "the library has no extern \"C\" solve symbol: define "
           "extern \"C\" void solve(const float *A, const float *B, float *C, int M, int N, int K)";
}

std::string CudaBackend::map(int fd, std::size_t bytes) {
    mapping_.reset();
    CUmemGenericAllocationHandle handle;
    const CUresult r = driver_api().mem_import_from_shareable_handle(
        &handle, reinterpret_cast<void *>(static_cast<std::uintptr_t>(fd)), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    close(fd);
    if (r != CUDA_SUCCESS) return driver_error(r, "importing the judge's GPU memory");
    const std::string why = mapping_.map(handle, bytes);
    return why.empty() ? "" : "the judge's GPU memory: " + why;
}

// A second handle in cuBLAS's default math mode: the FP32 one is pedantic (never TF32), which
// would keep an FP16 or int8 GemmEx off the tensor cores the site's baseline uses. Made on the
// first such call, a warm-up call.
cublasHandle_t CudaBackend::half_handle() {
    if (!half_cublas_ && cublas_ && cublas_api().create(&half_cublas_) != CUBLAS_STATUS_SUCCESS) half_cublas_ = nullptr;
    return half_cublas_;
}

// Grown, never shrunk: the warm-up calls of a shape allocate it, the timed ones find it.
float *CudaBackend::product_scratch(std::size_t elements) {
    if (elements <= scratch_elements_) return scratch_;
    if (scratch_) cudaFree(scratch_);
    scratch_ = nullptr;
    scratch_elements_ = 0;
    if (cudaMalloc(&scratch_, elements * sizeof(float)) != cudaSuccess) {
        cudaGetLastError();
        return scratch_ = nullptr;
    }
    scratch_elements_ = elements;
    return scratch_;
}

// A solution that resets the device or leaves another one current would make every
// later call fail: name it as the solution's doing.
std::string CudaBackend::check_device_untouched(const float *C) const {
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess || device != 0)
        return "solve() left device " + std::to_string(device) + " current; it must leave device 0 current";
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, C) != cudaSuccess || attributes.type != cudaMemoryTypeDevice) {
        cudaGetLastError();
        return "solve() reset the device (cudaDeviceReset?): the judge's buffers no longer exist";
    }
    return "";
}

// 0 where there is no current context or the driver cannot say (then a reset goes unseen
// and the events are used as they are).
unsigned long long CudaBackend::current_context_id() {
    try {
        CUcontext context = nullptr;
        unsigned long long id = 0;
        if (driver_api().ctx_get_current(&context) != CUDA_SUCCESS || !context) return 0;
        if (driver_api().ctx_get_id(context, &id) != CUDA_SUCCESS) return 0;
        return id;
    } catch (const std::exception &) {
        return 0;
    }
}

// A solution that resets the device takes the runner's events with its context, and
// their handles then point at freed memory: a context that is not the one the events
// were made in gets new events (the old handles are never touched), and this call has
// no figure of its own. An error the solution left pending is left for the check after
// the call to report.
bool CudaBackend::record_own_event(cudaEvent_t &event) {
    if (cudaPeekAtLastError() != cudaSuccess) return false;
    if (current_context_id() != own_events_.context_id) {
        own_events_ = {};
        if (cudaEventCreate(&own_events_.before) == cudaSuccess && cudaEventCreate(&own_events_.after) == cudaSuccess)
            own_events_.context_id = current_context_id();
        cudaGetLastError();
        return false;
    }
    return cudaEventRecord(event, nullptr) == cudaSuccess;
}

CallOutcome CudaBackend::call(const CallOrder &o) {
    const auto end = [&](std::size_t offset, std::size_t elements) { return offset + elements * 4; };
    const CUdeviceptr base = mapping_.base();
    const std::size_t bytes = mapping_.bytes();
    // In 4-byte words: an fp16 operand's elements take half as many.
    const std::size_t a_elements = o.layout.words(o.layout.a_elements(o.M, o.N)),
                      b_elements = o.layout.words(o.layout.b_elements(o.N, o.K)),
                      c_elements = o.layout.words(o.layout.c_elements(o.M, o.K));
    if (!base || end(o.a_offset, a_elements) > bytes || end(o.b_offset, b_elements) > bytes ||
        end(o.c_offset, c_elements) > bytes || end(o.bias_offset, o.layout.bias_elements(o.K)) > bytes ||
        end(o.factor_offset, o.layout.factor_elements(o.M, o.K)) > bytes)
        return failed("the judge ordered a call outside the mapped memory");
    EntryOperands operands;
    operands.A = reinterpret_cast<const float *>(base + o.a_offset);
    operands.B = reinterpret_cast<const float *>(base + o.b_offset);
    operands.C = reinterpret_cast<float *>(base + o.c_offset);
    if (o.layout.bias) operands.bias = reinterpret_cast<const float *>(base + o.bias_offset);
    if (o.layout.factor) operands.factor = reinterpret_cast<const float *>(base + o.factor_offset);
    const float *A = operands.A, *B = operands.B;
    float *C = operands.C;
    // The in-process events a judge that ran solve() in its own process would have
    // timed with: the referee compares them with its stamps, and believes its stamps.
    const bool events = record_own_event(own_events_.before);
    switch (o.work) {
    case RunnerWork::Solve: {
        if (!entry_) return failed("no solve() was loaded");
        // The NVTX range lets a profiler (rank --profile) take the solution's kernels alone.
        nvtxRangePushA("solve");
        const std::string why =
            (*entry_)(operands, o.dims.empty() ? std::vector<long long>{o.M, o.N, o.K} : o.dims, o.scalars);
        nvtxRangePop();
        if (!why.empty()) return failed(why);
        break;
    }
    case RunnerWork::Cublas: {
        // + bias then ReLU on one FP32 product: cuBLASLt's fused epilogue, where it has an
        // algorithm for the shape; else SGEMM and the judge's own epilogue kernel, below.
        const bool bias_relu = o.epilogue.count == 2 && o.epilogue.steps[0].op == EpilogueOp::Bias &&
                               o.epilogue.steps[1].op == EpilogueOp::Relu && o.layout.element_bytes == 4 &&
                               o.layout.batch == 1 && !o.layout.a_diagonal && !o.layout.scalar_output;
        if (bias_relu) {
            const cublasStatus_t fused = bias_relu_.run(A, B, operands.bias, C, o.M, o.N, o.K, o.layout);
            if (fused == CUBLAS_STATUS_SUCCESS) break;
            if (fused != CUBLAS_STATUS_NOT_SUPPORTED) return failed("cuBLASLt's baseline call failed");
        }
        // A summed C's product, or an int8 C's int32 sums, go to the runner's own scratch first.
        float *product = C;
        if (o.layout.scalar_output || o.layout.element_bytes == 1) {
            const std::size_t lines = o.layout.element_bytes == 1 ? std::size_t(o.M) + o.K : 0;
            if (!(product = product_scratch(o.layout.product_elements(o.M, o.K) + lines)))
                return failed("the baseline's scratch for the product could not be allocated");
        }
        const cublasStatus_t status = o.layout.element_bytes == 1
                                          ? baseline_int8_product(half_handle(), A, B, C, product, o)
                                      : o.layout.element_bytes == 2 ? baseline_half_product(half_handle(), A, B, C, o)
                                      : cublas_ ? baseline_product(cublas_, A, B, product, o.M, o.N, o.K, o.layout)
                                                : CUBLAS_STATUS_NOT_INITIALIZED;
        if (status != CUBLAS_STATUS_SUCCESS) return failed("cuBLAS's baseline call failed");
        if (!o.epilogue.empty() &&
            apply_baseline_epilogue(product, C, operands.bias, operands.factor, o.epilogue, o.M, o.K) != cudaSuccess)
            return failed("the baseline's epilogue kernel failed");
        break;
    }
    case RunnerWork::Nothing:
        // Nothing but what every call must do on the GPU: write C (the poison again).
        // The switch to this context and back is part of every real call, and so are
        // C's lines left dirty in the L2 when it switches back (with an empty kernel here,
        // a real call cost more than the empty call beyond its own events:
        // docs/perf-notes.md); the memset's own time is in its events, which are not taken
        // off the solution's time.
        if (cudaMemsetAsync(C, 0xFF, c_elements * sizeof(float), nullptr) != cudaSuccess)
            return failed("the empty call's memset failed");
        break;
    case RunnerWork::Calibration:
        if (launch_calibration_kernel({A, B, C, a_elements, b_elements, c_elements}, o.calibration_ns, multiprocessors_,
                                      o.calibration_kind) != cudaSuccess)
            return failed("the stand-in call's kernel failed");
        break;
    }
    // After every kind of call, so that the empty call pays the host work a solution's
    // call pays (the empty call's cost is what is taken off the solution's times).
    if (auto why = check_device_untouched(C); !why.empty()) return failed(why);
    const bool timed = events && record_own_event(own_events_.after);
    // Every stream of this context, non-blocking ones included: work a solution leaves
    // running is waited for here and counted in its time.
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError(); // launch errors that do not stick
    if (e != cudaSuccess) return failed(std::string("CUDA error in solve(): ") + cudaGetErrorString(e));
    CallOutcome outcome;
    float ms = 0;
    if (timed && cudaEventElapsedTime(&ms, own_events_.before, own_events_.after) == cudaSuccess)
        outcome.own_events_ms = ms;
    return outcome;
}

} // namespace gemm
