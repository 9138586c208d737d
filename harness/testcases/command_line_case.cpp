#include "testcases/command_line_case.hpp"
#include "common/terminal_text.hpp"
#include "testcases/problem.hpp"

namespace gemm {

TestCase command_line_case(const Shape &shape, long long seed, const std::string &data) {
    if (data.find_first_of("\r\n") != std::string::npos) throw UsageError("--data: must be a single line");
    const std::string sizes = std::to_string(shape.M) + " " + std::to_string(shape.N) + " " + std::to_string(shape.K);
    const std::string shape_option = "--shape " + shape_text(shape, "x");
    const std::string data_option = "--data '" + escape_for_terminal(data) + "'";
    return parse_option_case({{shape_option, "shape " + sizes},
                              {data_option, "data " + data},
                              {"--seed " + std::to_string(seed), "seed " + std::to_string(seed)}},
                             "shape/" + shape_text(shape, "x"), shape_option + " with " + data_option);
}

TestCase command_line_case(const ProblemDescriptor &problem, const std::vector<int> &sizes, long long seed,
                           const std::string &data) {
    std::string crossed, spaced, names;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        crossed += (i ? "x" : "") + std::to_string(sizes[i]);
        spaced += (i ? " " : "") + std::to_string(sizes[i]);
    }
    for (std::size_t i = 0; i < problem.dims.size(); ++i) names += (i ? "×" : "") + problem.dims[i];
    const std::string shape_option = "--shape " + crossed;
    if (sizes.size() != problem.dims.size()) {
        if (problem.is_default)
            throw UsageError(shape_option + ": expected MxNxK or M N K, three whole numbers, e.g. 17x33x5");
        throw UsageError(shape_option + ": " + problem.name + " takes " + std::to_string(problem.dims.size()) +
                         " sizes, its dims " + names);
    }
    if (problem.is_default) return command_line_case(Shape{sizes[0], sizes[1], sizes[2]}, seed, data);
    if (data.find_first_of("\r\n") != std::string::npos) throw UsageError("--data: must be a single line");
    const std::string data_option = "--data '" + escape_for_terminal(data) + "'";
    return parse_option_case({{shape_option, "shape " + spaced},
                              {data_option, "data " + data},
                              {"--seed " + std::to_string(seed), "seed " + std::to_string(seed)}},
                             "shape/" + crossed, shape_option + " with " + data_option, &problem);
}

} // namespace gemm
