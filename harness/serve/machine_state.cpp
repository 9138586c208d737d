#include "serve/machine_state.hpp"
#include "judging/os/gpu_absence.hpp"
#include "judging/os/gpu_identity.hpp"
#include "verification/verdict.hpp"

#include <cstdlib>
#include <unistd.h>

namespace gemm::serve {

nlohmann::json verdicts_json() {
    nlohmann::json verdicts = nlohmann::json::array();
    for (const auto &row : verdict_table())
        verdicts.push_back({{"name", row.name},
                            {"meaning", row.meaning},
                            {"exit_status", row.exit_status},
                            {"colour", row.page_colour},
                            {"bold", row.bold},
                            {"junit_element", row.junit_element}});
    return {{"verdicts", verdicts}, {"no_gpu_exit_status", exit_status::no_gpu}};
}

nlohmann::json machine_json() {
    const GpuSystemFiles files;
    const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
    const bool driver = access(files.driver_version.c_str(), R_OK) == 0;
    const bool node = access(files.device_node.c_str(), R_OK | W_OK) == 0;
    if (driver && node && !no_gpu_visible(visible)) return {{"gpu", true}};
    return {{"gpu", false}, {"why", explain_missing_gpu("", visible, files).sentence()}};
}

} // namespace gemm::serve
