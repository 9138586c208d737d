// compute-sanitizer mode: the tools to run, how to launch the worker under them, and
// how to turn their report into one finding with the solution's source line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gemm {

// memcheck: out-of-bounds and misaligned accesses; racecheck: shared-memory hazards
// (a missing __syncthreads); synccheck: illegal barriers; initcheck: reads of
// uninitialised device memory.
const std::vector<std::string> &sanitizer_tools();

// compute-sanitizer beside nvcc (the same toolkit), else from PATH.
std::string sanitizer_program(const std::string &nvcc);

std::vector<std::string> sanitizer_prefix(const std::string &program, const std::string &tool);

// The first error in a tool's output, as "racecheck: Race reported between Write access
// at tiled.cu:31 and Read access at tiled.cu:36"; locations are shortened to the file
// name. nullopt when the output holds no error report.
std::optional<std::string> sanitizer_finding(const std::string &tool, const std::string &output);

} // namespace gemm
