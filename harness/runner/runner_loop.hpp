// The runner's side of the runner protocol (channel/runner_protocol.hpp): it maps the
// memory the referee hands it and makes the calls it is ordered to make. Nothing here
// decides a verdict or a time; a runner says only "returned" or why it could not.
#pragma once

#include "channel/runner_protocol.hpp"

#include <optional>
#include <string>

namespace gemm {

// How a call went, as the runner saw it.
struct CallOutcome {
    std::string failure;                 // "" or why it failed
    std::optional<double> own_events_ms; // its CUDA events around the call, when it has a GPU
};

// What a runner does with its GPU (runner/cuda_backend.cpp) or, in the CPU tests,
// with shared host memory.
class RunnerBackend {
  public:
    virtual ~RunnerBackend() = default;
    // Maps `bytes` of the allocation behind `fd` (the backend owns fd); "" or why not.
    virtual std::string map(int fd, std::size_t bytes) = 0;
    // Makes one call and waits for all of its work.
    virtual CallOutcome call(const CallOrder &order) = 0;
};

// Answers the referee's orders until it closes the channel; the exit status.
int serve_referee(SocketChannel &referee, RunnerBackend &backend);

} // namespace gemm
