#include "serve/judging_events.hpp"
#include "testcases/problem.hpp"

namespace gemm::serve {

namespace {

void add_stream_line(Submission &submission, const std::string &line) {
    auto event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_object() && event.contains("event")) submission.add(std::move(event));
}

void add_console_line(Submission &submission, const std::string &line) {
    // gpu_turn's words: another judge holds the GPU, and this one waits for its turn.
    if (line.find("waiting for the GPU") != std::string::npos)
        submission.add({{"event", "stage"}, {"stage", "waiting for the GPU"}, {"detail", line}});
}

} // namespace

std::vector<std::string> judge_command(const JudgeProgram &program, JudgingKind kind, const std::string &source,
                                       const std::string &problem) {
    std::vector<std::string> options;
    if (kind == JudgingKind::run) options = judge_child::quick_run_selection();
    if (!problem.empty()) options.insert(options.end(), {"--problem", problem});
    if (!program.default_suite.empty() && (problem.empty() || problem == default_problem().name))
        options.insert(options.end(), {"--testcases", program.default_suite});
    options.insert(options.end(), program.shared_args.begin(), program.shared_args.end());
    return judge_child::judge_command_line(
        program.path, kind == JudgingKind::rank ? judge_child::JudgeMode::rank : judge_child::JudgeMode::judge, source,
        options);
}

judge_child::JudgeEnding judge_submission(const JudgeProgram &program, Submission &submission,
                                          const std::string &source) {
    judge_child::JudgeCall call;
    call.argv = judge_command(program, submission.kind, source, submission.problem);
    judge_child::JudgeListener listener;
    listener.started = [&](int pid) {
        submission.add({{"event", "stage"}, {"stage", "compiling"}, {"judge_pid", pid}});
    };
    listener.stream_line = [&](const std::string &line) { add_stream_line(submission, line); };
    listener.console_line = [&](const std::string &line) { add_console_line(submission, line); };
    return judge_child::run_judge(call, listener);
}

} // namespace gemm::serve
