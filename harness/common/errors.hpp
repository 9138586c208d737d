// Failures that are neither the solution's (CE, RE, …) nor the judge's (JE): each has an
// exit status of its own, and its message names what to change.
#pragma once

#include <stdexcept>

namespace gemm {

// A bad command line: an option's value, options that conflict (exit_status::usage, 64).
// The message starts with the option as the user wrote it: "--data 'uniform 1 1': …".
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The machine or its configuration: nvcc cannot run, a folder cannot be written or is not
// the user's own (exit_status::setup, 7).
struct SetupError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace gemm
