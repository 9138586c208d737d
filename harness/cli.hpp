// The command line of ./judge (CLI11) → a plain options struct.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace gemm {

struct JudgeOptions {
    std::string solution;
    std::vector<std::string> cases; // names, or categories such as "perf"
    std::string testcases_dir;
    std::string arch;
    std::string json_path;
    std::string nvcc;
    std::string cache_dir;
    std::string baseline = "perf";
    double time_budget_s = 0.3;
    bool show_output = false;
    bool list = false;
};

// The options, or the exit status to return at once (--help, or a usage error
// already explained on stderr).
std::variant<JudgeOptions, int> parse_command_line(int argc, const char *const *argv,
                                                   const std::string &default_testcases_dir,
                                                   const std::string &default_nvcc);

// Does a --case selector pick this testcase? Exact name, a category ("perf"), or the
// name without its category ("07-primes").
bool case_selected(const std::string &case_name, const std::string &selector);

} // namespace gemm
