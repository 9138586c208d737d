// What the page says before anything is judged: the verdicts' table (names, order, exit
// statuses, colours, as the console and the reports use them) and whether this machine shows
// a GPU. The GPU is looked for as the judge explains its absence (judging/os/gpu_absence.hpp),
// from the driver's files and CUDA_VISIBLE_DEVICES, without starting CUDA; a run's own report
// then says what CUDA found.
#pragma once

#include <nlohmann/json.hpp>

namespace gemm::serve {

// {"verdicts": [{"name", "meaning", "exit_status", "colour", "bold", "junit_element"}, …]
//  best first, "no_gpu_exit_status": 6}
nlohmann::json verdicts_json();

// {"gpu": true} or {"gpu": false, "why": "no NVIDIA driver is loaded (…). Run the judge where …"}
nlohmann::json machine_json();

} // namespace gemm::serve
