// A solution judged by the judge program itself, as a child of a front end (./judge serve,
// ./judge batch): exactly as `./judge FILE` judges it alone, with its compile, its referee
// and runners, its confinement and its turn on the GPU, in a process group of its own that
// dies with the front end and that Ctrl-C kills. The front end believes only how the judge
// ended and what it reported (its --json report, its --stream events); what it printed is
// kept, escaped where shown, to explain a run that ended without its report.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gemm::judge_child {

// What a front end asks the judge for: one solution's cases judged, or ranked as well.
enum class JudgeMode { judge, rank };

// Which cases a quick run judges (the page's Run): the judge's options that choose them.
std::vector<std::string> quick_run_selection();

// The judge's command line: `program [rank] solution options…`.
std::vector<std::string> judge_command_line(const std::string &program, JudgeMode mode, const std::string &solution,
                                            const std::vector<std::string> &options);

struct JudgeCall {
    std::vector<std::string> argv;        // judge_command_line's
    std::vector<std::string> environment; // "NAME=value", added to this process's or replacing it
    double timeout_s = 0;                 // then the judge is killed with its group; 0: no limit
    std::size_t output_limit = 64 << 10;  // bytes of what it printed kept: the last ones
};

// What happens while it runs, for a front end that shows it (each may be empty).
struct JudgeListener {
    std::function<void(int pid)> started;
    // Each line of its --stream (given `--stream /dev/fd/N` when this is set).
    std::function<void(const std::string &line)> stream_line;
    // Each line it prints, stdout and stderr together.
    std::function<void(const std::string &line)> console_line;
};

// How the judge's process ended.
struct JudgeEnding {
    bool started = true;    // false: the program could not be started
    int exit_status = -1;   // when it exited (README: 0 all AC … 7 setup)
    int signal = 0;         // when a signal ended it
    bool timed_out = false; // ran past JudgeCall::timeout_s and was killed
    double limit_s = 0;     // that limit
    std::string output;     // the end of what it printed, stdout and stderr together

    // The shell's way: the exit status, else 128 + the signal; -1 when it did not start.
    int shell_status() const;
};

// Runs the judge and waits for it to end.
JudgeEnding run_judge(const JudgeCall &call, const JudgeListener &listener = {});

// A file's bytes ("" when it cannot be read): the report the judge left.
std::string read_file(const std::string &path);

} // namespace gemm::judge_child
