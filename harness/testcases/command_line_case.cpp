#include "testcases/command_line_case.hpp"
#include "common/terminal_text.hpp"

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

} // namespace gemm
