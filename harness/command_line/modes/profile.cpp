#include "command_line/modes/profile.hpp"
#include "common/text.hpp"
#include "judging/case_policy.hpp"
#include "judging/os/process.hpp"
#include "measurement/stats.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace gemm {

const char *const profile_metrics =
    "gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,"
    "dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,"
    "launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,"
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,"
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";

namespace {

// One CSV line into fields; ncu quotes every field and doubles no quotes inside names we read.
std::vector<std::string> csv_fields(const std::string &line) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted) {
            fields.push_back(field);
            field.clear();
        } else
            field += c;
    }
    fields.push_back(field);
    return fields;
}

double csv_number(const std::string &text) {
    std::string digits;
    for (char c : text)
        if (c != ',') digits += c; // ncu may group thousands
    return std::strtod(digits.c_str(), nullptr);
}

// Nanoseconds, microseconds, milliseconds or seconds, by the units row.
double to_ms(double value, const std::string &unit) {
    if (unit == "nsecond" || unit == "ns") return value * 1e-6;
    if (unit == "usecond" || unit == "us") return value * 1e-3;
    if (unit == "msecond" || unit == "ms") return value;
    if (unit == "second" || unit == "s") return value * 1e3;
    return value * 1e-6; // ncu's default for gpu__time_duration is nanoseconds
}

double to_bytes(double value, const std::string &unit) {
    if (unit == "Kbyte" || unit == "KB") return value * 1e3;
    if (unit == "Kibyte" || unit == "KiB") return value * 1024;
    if (unit == "Mbyte" || unit == "MB") return value * 1e6;
    return value;
}

} // namespace

std::optional<KernelProfile> parse_ncu_csv(const std::string &csv) {
    std::istringstream lines(csv);
    std::vector<std::string> header, units;
    KernelProfile p;
    double longest = -1;
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] != '"') continue; // ncu's own ==PROF== lines
        const auto fields = csv_fields(line);
        if (header.empty()) {
            header = fields;
            continue;
        }
        if (units.empty()) {
            units = fields;
            continue;
        }
        auto column = [&](const std::string &name) -> std::pair<double, std::string> {
            for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i)
                if (header[i] == name) return {csv_number(fields[i]), i < units.size() ? units[i] : ""};
            return {0, ""};
        };
        auto text = [&](const std::string &name) {
            for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i)
                if (header[i] == name) return fields[i];
            return std::string();
        };
        const auto [duration, unit] = column("gpu__time_duration.sum");
        const double ms = to_ms(duration, unit);
        ++p.kernels;
        p.duration_ms += ms;
        p.ffma_flop += 2 * column("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum").first +
                       column("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum").first +
                       column("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum").first;
        if (ms <= longest) continue;
        longest = ms;
        p.kernel = text("Kernel Name");
        p.sm_percent = column("sm__throughput.avg.pct_of_peak_sustained_elapsed").first;
        p.dram_percent = column("dram__throughput.avg.pct_of_peak_sustained_elapsed").first;
        p.occupancy_percent = column("sm__warps_active.avg.pct_of_peak_sustained_active").first;
        p.registers = column("launch__registers_per_thread").first;
        const auto [static_shared, static_unit] = column("launch__shared_mem_per_block_static");
        const auto [dynamic_shared, dynamic_unit] = column("launch__shared_mem_per_block_dynamic");
        p.shared_bytes = to_bytes(static_shared, static_unit) + to_bytes(dynamic_shared, dynamic_unit);
    }
    if (p.kernels == 0) return std::nullopt;
    return p;
}

void profile_case(Session &session, const TestCase &tc, const CaseResult &ranked) {
    const std::string ncu = find_program("ncu");
    if (ncu.empty()) {
        session.report.note("profile: ncu (Nsight Compute) is not on PATH; nothing was profiled");
        return;
    }
    // The report goes to a file and is read back as CSV, apart from what the runner prints.
    const std::string report =
        (std::filesystem::temp_directory_path() / ("gemm-judge-ncu-" + std::to_string(getpid()))).string();
    SupervisorOptions options = session.supervision(100.0);
    const std::vector<std::string> prefix = {ncu,      "--clock-control", "none",          "--nvtx", "--nvtx-include",
                                             "solve/", "--metrics",       profile_metrics, "-f",     "-o",
                                             report};
    options.runner_prefix = prefix;
    options.relaxed_for = "ncu";
    options.timed_shapes.clear(); // untimed
    options.startup_limit_s = 600;
    Supervisor supervisor(options);
    session.progress.show("profile: " + tc.name + " under Nsight Compute");
    const CaseResult r = supervisor.run_case(tc, untimed(policy_for(tc, session.options.case_run)));
    session.progress.clear();
    const auto csv = run_captured({ncu, "--import", report + ".ncu-rep", "--csv", "--page", "raw"});
    std::filesystem::remove(report + ".ncu-rep");
    const auto p = parse_ncu_csv(csv.output);
    if (!p) {
        session.report.note("profile: ncu reported no kernel for " + tc.name + " (" +
                            std::string(verdict_name(r.verdict)) + (r.detail.empty() ? "" : ": " + r.detail) + ")");
        return;
    }
    session.report.profiled({tc.name, shape_of(tc), *p, ranked.timing ? ranked.timing->stats.median_ms : 0});
}

} // namespace gemm
