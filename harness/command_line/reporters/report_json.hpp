// The --json report: the public format of a run's results, read by people, scripts, the
// history and `./judge compare`. It is written here from the typed results, key by key, and
// is independent of the private channel between the judge's processes
// (channel/protocol.hpp), which may change without changing it. Its schema, with its
// version, is docs/report.schema.json; docs/json-report.md explains it.
#pragma once

#include "command_line/reporters/report.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace gemm {

// Raised when a change to the report removes or renames a key or changes a key's meaning;
// adding a key does not raise it.
constexpr int report_schema_version = 1;

// Every figure of a run; each string in it is valid UTF-8 (made_valid_utf8), so it can be
// written (dump) whatever bytes the compiler, the solution or a file name held.
nlohmann::json report_json(const RunContext &run, const std::vector<CaseResult> &results, int exit_status);

// One case as the report holds it.
nlohmann::json case_report_json(const CaseResult &r);

// The value with every string and key made valid UTF-8 (common/terminal_text.hpp: valid_utf8).
nlohmann::json made_valid_utf8(nlohmann::json value);

} // namespace gemm
