// Ctrl-C and SIGTERM: the judge ends by the signal, nvcc and every worker end with it (their
// children too), and no half-written file is left in the compile cache.
#include "common/text.hpp"
#include "judging/os/interrupt.hpp"
#include "judging/supervisor.hpp"
#include "test_support.hpp"

#include <csignal>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <vector>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;
namespace fs = std::filesystem;

namespace {

// The pids a fake worker wrote to `file`, once there are `count` of them (empty after 60 s).
std::vector<pid_t> wait_for_pids(const std::string &file, std::size_t count) {
    for (int tries = 0; tries < 6000; ++tries) {
        std::ifstream in(file);
        std::vector<pid_t> pids;
        for (pid_t pid; in >> pid;) pids.push_back(pid);
        if (pids.size() >= count) return pids;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return {};
}

// Gone, or a zombie no one has reaped yet: either way it runs no more.
bool has_ended(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return true;
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

bool ends_within_seconds(pid_t pid, int seconds) {
    for (int tries = 0; tries < seconds * 100; ++tries) {
        if (has_ended(pid)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

int signal_that_ended(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) ? WTERMSIG(status) : -WEXITSTATUS(status);
}

// An nvcc that starts its output file and a temporary file in its TMPDIR, leaves a child
// running, and records both pids and its TMPDIR in the cache folder (with its TMPDIR, the
// only one a confined nvcc may write).
std::string slow_nvcc(const TempFolder &folder) {
    const auto path =
        folder.write("toolkit/bin/nvcc", "#!/bin/sh\n"
                                         "case \"$1\" in --version) echo fake nvcc; exit 0 ;;\n"
                                         "  --list-gpu-code) echo sm_90; echo sm_90a; exit 0 ;; esac\n"
                                         "prev=''\n"
                                         "for a in \"$@\"; do [ \"$prev\" = -o ] && out=\"$a\" && : > \"$a\"; "
                                         "prev=\"$a\"; done\n"
                                         "cache=\"$(dirname \"$out\")\"\n"
                                         "head -c 1048576 /dev/urandom > \"$TMPDIR/tmpxft_0_fake.cpp1.ii\"\n"
                                         "echo \"$TMPDIR\" > \"$cache/tmpdir\"\n"
                                         "sleep 300 &\n"
                                         "echo $! >> \"$cache/pids\"\necho $$ >> \"$cache/pids\"\nwait\n");
    chmod(path.c_str(), 0755);
    return path;
}

pid_t start_program(const std::vector<std::string> &argv) {
    const pid_t pid = fork();
    if (pid == 0) {
        const int null_fd = open("/dev/null", O_RDWR);
        dup2(null_fd, STDOUT_FILENO);
        dup2(null_fd, STDERR_FILENO);
        std::vector<char *> args;
        for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    return pid;
}

} // namespace

TEST_CASE("Ctrl-C or SIGTERM during a compile stops nvcc and what it started, and leaves no .part file or TMPDIR") {
    for (const int signal_number : {SIGINT, SIGTERM}) {
        CAPTURE(signal_number);
        TempFolder folder;
        const auto solution = folder.write("sol.cu", "extern \"C\" void solve() {}\n");
        const pid_t judge = start_program({std::string(GEMM_BIN_DIR) + "/gemm-judge", solution, "--nvcc",
                                           slow_nvcc(folder), "--cache-dir", folder.at("cache")});
        const auto pids = wait_for_pids(folder.at("cache/pids"), 2);
        REQUIRE(pids.size() == 2);
        const std::string tmpdir = read_text_file(folder.at("cache/tmpdir")).value_or("");
        REQUIRE_FALSE(tmpdir.empty());
        kill(judge, signal_number);
        CHECK(signal_that_ended(judge) == signal_number);
        for (pid_t pid : pids) CHECK_MESSAGE(ends_within_seconds(pid, 5), "pid ", pid, " outlived the judge");
        for (const auto &entry : fs::directory_iterator(folder.at("cache")))
            CHECK_MESSAGE(!contains(entry.path().filename().string(), ".part"), entry.path());
        CHECK_MESSAGE(!fs::exists(tmpdir.substr(0, tmpdir.find('\n'))), tmpdir);
    }
}

TEST_CASE("SIGTERM while the referee and a runner run stops them and everything they started") {
    TempFolder folder;
    const auto pid_file = folder.at("pids");
    // Stands in for both programs: starts a sleep, records both pids, never says hello.
    const auto program = folder.write("fake-worker", "#!/bin/sh\nsleep 300 & echo $! >> " + pid_file + "; echo $$ >> " +
                                                         pid_file + "; wait\n");
    fs::permissions(program, fs::perms::owner_all);
    const pid_t judge = fork();
    if (judge == 0) {
        install_interrupt_cleanup();
        SupervisorOptions options;
        options.referee = options.runner = program;
        Supervisor supervisor(options);
        supervisor.start(); // waits for a hello that never comes
        _exit(0);
    }
    const auto pids = wait_for_pids(pid_file, 4);
    REQUIRE(pids.size() == 4);
    kill(judge, SIGTERM);
    CHECK(signal_that_ended(judge) == SIGTERM);
    for (pid_t pid : pids) CHECK_MESSAGE(ends_within_seconds(pid, 5), "pid ", pid, " outlived the judge");
}
