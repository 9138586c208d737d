#include "batch/submission_judge.hpp"
#include "common/errors.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace gemm::batch {

namespace fs = std::filesystem;

namespace {

// The judge's table and messages are kept whole for the reader; a submission that prints
// without end is cut (the judge itself bounds what it shows of the solution's output).
constexpr std::size_t output_limit = 4 << 20;

void write_file(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw SetupError("cannot write " + path + ": " + std::strerror(errno));
}

bool has_option(const std::vector<std::string> &arguments, const std::string &option) {
    return std::any_of(arguments.begin(), arguments.end(), [&](const std::string &argument) {
        return argument == option || argument.rfind(option + "=", 0) == 0;
    });
}

} // namespace

using judge_child::JudgeMode;

std::vector<std::string> judge_command_line(const JudgeCommand &command, const std::string &submission,
                                            const std::string &report) {
    std::vector<std::string> options{"--json", report};
    options.insert(options.end(), command.arguments.begin(), command.arguments.end());
    return judge_child::judge_command_line(command.program, command.rank ? JudgeMode::rank : JudgeMode::judge,
                                           submission, options);
}

BatchRow judge_submission(const JudgeCommand &command, const GpuLane &lane, const std::string &submission,
                          const std::string &key, const ResultStore &store) {
    const std::string report = store.path_for(submission, key, ".json");
    const std::string output = store.path_for(submission, key, ".txt");
    std::error_code ec;
    fs::remove(report, ec); // a report from an earlier, unfinished attempt would read as this one's
    judge_child::JudgeCall call;
    call.argv = judge_command_line(command, submission, report);
    call.timeout_s = command.timeout_s;
    call.output_limit = output_limit;
    if (lane.visible_devices) call.environment.push_back("CUDA_VISIBLE_DEVICES=" + *lane.visible_devices);
    const auto start = std::chrono::steady_clock::now();
    const judge_child::JudgeEnding ending = judge_child::run_judge(call);
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_file(output, ending.output);

    BatchRow row = row_from_judge(ending, fs::exists(report, ec) ? judge_child::read_file(report) : "");
    row.submission = submission;
    row.key = key;
    row.gpu = lane.label;
    row.wall_s = wall_s;
    row.report = fs::exists(report, ec) ? fs::path(report).filename().string() : "";
    row.output = fs::path(output).filename().string();
    return row;
}

void compile_ahead(const JudgeCommand &command, const std::string &target, const std::string &submission) {
    std::vector<std::string> options = command.arguments;
    if (!target.empty() && !has_option(command.arguments, "--arch")) options.insert(options.end(), {"--arch", target});
    options.push_back("--no-history");
    judge_child::JudgeCall call;
    call.argv = judge_child::judge_command_line(command.program, command.rank ? JudgeMode::rank : JudgeMode::judge,
                                                submission, options);
    call.timeout_s = command.timeout_s;
    // No GPU: the judge compiles and stops; it takes no turn on a GPU and pins no CPU, so
    // the lanes' judges find both free.
    call.environment = {"CUDA_VISIBLE_DEVICES=", "GEMM_JUDGE_PIN_CPUS=0"};
    judge_child::run_judge(call);
}

} // namespace gemm::batch
