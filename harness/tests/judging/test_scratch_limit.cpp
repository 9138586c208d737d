// The disk is the solution's only within its folder's limit (judging/os/runner_scratch.hpp):
// a fake solution that writes until its folder is full (fake_runner.cpp,
// fill-on-load) is RE naming the limit, as a size-capped tmpfs (as root) or as a watched
// folder (elsewhere); the folder outside, the judge's --json report and history, and the
// next judge are untouched.
#include "command_line/history/history.hpp"
#include "judging/os/process.hpp"
#include "judging/os/runner_scratch.hpp"
#include "judging/supervisor.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;

namespace {

constexpr std::uint64_t scratch_test_limit = std::uint64_t(8) << 20;

TestCase scratch_test_case(const std::string &name) {
    TestCase tc;
    tc.name = name;
    tc.category = "secret";
    tc.M = 8;
    tc.N = 5;
    tc.K = 7;
    tc.time_limit_s = 2;
    return tc;
}

// TMPDIR set to a fresh folder for as long as it lives: every runner folder is made in it.
struct ScratchParent {
    TempFolder folder{"gemm-scratch-parent"};
    std::string saved;
    ScratchParent() {
        if (const char *old = std::getenv("TMPDIR")) saved = old;
        setenv("TMPDIR", folder.path.c_str(), 1);
    }
    ~ScratchParent() {
        if (saved.empty())
            unsetenv("TMPDIR");
        else
            setenv("TMPDIR", saved.c_str(), 1);
    }
    // A runner folder left in it, or "" (other files of the judge's may be there).
    std::string runner_folder_left() const {
        for (const auto &entry : std::filesystem::directory_iterator(folder.path))
            if (entry.path().filename().string().rfind("gemm-judge-runner-", 0) == 0) return entry.path().string();
        return "";
    }
};

SupervisorOptions scratch_supervision(const std::string &library, bool may_mount) {
    SupervisorOptions options;
    options.referee = std::string(GEMM_BIN_DIR) + "/fake_referee";
    options.runner = std::string(GEMM_BIN_DIR) + "/fake_runner";
    options.library = library;
    options.judge_phase_limit_s = 5.0;
    options.startup_limit_s = 10.0;
    options.scratch_limit_bytes = scratch_test_limit;
    options.scratch_may_mount = may_mount;
    return options;
}

std::string mount_table() {
    std::ifstream file("/proc/self/mounts");
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// Whether this machine lets the judge mount a tmpfs (root, and not refused).
bool can_mount_tmpfs() {
    TempFolder folder;
    const std::string library = folder.write("solution.so", "ok\n");
    RunnerScratch scratch(library, scratch_test_limit);
    return scratch.size_capped();
}

} // namespace

TEST_CASE("limits are said as a user gives them") {
    CHECK(describe_bytes(std::uint64_t(1) << 30) == "1 GiB");
    CHECK(describe_bytes(std::uint64_t(8) << 20) == "8 MiB");
    CHECK(describe_bytes(std::uint64_t(3) << 29) == "1.5 GiB");
    CHECK(describe_bytes(100) == "100 bytes");
}

TEST_CASE(
    "a solution that fills its tmpfs folder is RE naming the limit, and the disk and the next judge are untouched") {
    if (!can_mount_tmpfs()) {
        std::printf("[skipped: no tmpfs]\n"); // not root, or mounting is refused here
        return;
    }
    ScratchParent parent;
    TempFolder folder;
    {
        Supervisor s(scratch_supervision(folder.write("solution.so", "fill-on-load\n"), true));
        const auto start = s.start();
        REQUIRE(start.ok);
        for (const auto &note : start.unconfined) CHECK_FALSE(contains(note, "not size-capped"));
        const auto r = s.run_case(scratch_test_case("filler"));
        CHECK(r.verdict == Verdict::RE);
        CHECK(contains(r.detail, "wrote more than 8 MiB (--scratch-limit) to its folder"));
        // The tmpfs refused the writes past it: the solution met ENOSPC, the disk never did.
        CHECK(contains(r.output_tail, "No space left on device"));
        CHECK(contains(mount_table(), parent.folder.path.string()));
    }
    CHECK(parent.runner_folder_left() == "");
    CHECK_FALSE(contains(mount_table(), parent.folder.path.string()));
    Supervisor next(scratch_supervision(folder.write("next.so", "ok\n"), true));
    CHECK(next.run_case(scratch_test_case("next")).verdict == Verdict::AC);
}

TEST_CASE("a runner folder left mounted by a judge killed with SIGKILL is unmounted by the next, a live one's never") {
    if (!can_mount_tmpfs()) {
        std::printf("[skipped: no tmpfs]\n");
        return;
    }
    ScratchParent parent;
    TempFolder folder;
    const std::string library = folder.write("solution.so", "ok\n");
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t judge = fork();
    REQUIRE(judge >= 0);
    if (judge == 0) { // a judge that mounts its runner's folder, then is killed
        close(ready[0]);
        RunnerScratch scratch(library, scratch_test_limit);
        const std::string line = (scratch.size_capped() ? "" : "!") + scratch.dir() + "\n";
        if (write(ready[1], line.data(), line.size()) != static_cast<ssize_t>(line.size())) _exit(1);
        pause();
        _exit(0);
    }
    close(ready[1]);
    std::string dir;
    for (char c; read(ready[0], &c, 1) == 1 && c != '\n';) dir += c;
    close(ready[0]);
    kill(judge, SIGKILL);
    waitpid(judge, nullptr, 0);
    REQUIRE_FALSE(dir.empty());
    REQUIRE(dir[0] != '!');
    CHECK(contains(mount_table(), dir)); // SIGKILL ran no destructor: still mounted

    RunnerScratch live(library, scratch_test_limit); // this process's: its judge lives
    REQUIRE(live.size_capped());
    CHECK(unmount_abandoned_runner_folders() >= 1); // this process swept once already, before the kill
    CHECK_FALSE(contains(mount_table(), dir));
    CHECK_FALSE(std::filesystem::exists(dir));
    CHECK(contains(mount_table(), live.dir())); // a live judge's folder is left alone
    CHECK(unmount_abandoned_runner_folders() == 0);
    CHECK(contains(mount_table(), live.dir()));
}

TEST_CASE("where no tmpfs caps the folder it is watched: the solution is stopped past the limit, RE, and it is said") {
    ScratchParent parent;
    TempFolder folder;
    {
        Supervisor s(scratch_supervision(folder.write("solution.so", "fill-on-load\n"), false));
        // Stopped while it loads or in the case, as the watch finds it first: RE either way.
        const auto start = s.start();
        bool said = false;
        for (const auto &note : start.unconfined) said |= contains(note, "its folder is not size-capped");
        CHECK(said);
        const auto r = s.run_case(scratch_test_case("filler"));
        CHECK(r.verdict == Verdict::RE);
        CHECK(contains(r.detail, "wrote more than 8 MiB (--scratch-limit) to its folder: it was stopped"));
    }
    CHECK(parent.runner_folder_left() == "");
    Supervisor next(scratch_supervision(folder.write("next.so", "ok\n"), false));
    CHECK(next.run_case(scratch_test_case("next")).verdict == Verdict::AC);
}

TEST_CASE("a judge whose solution fills its folder writes a whole --json report and records the run") {
    TempFolder folder;
    const std::string solution = folder.write("filler.cu", "fill-on-load\n");
    ChildSetup setup;
    setup.wall_seconds = 60;
    const auto run =
        run_captured({std::string(GEMM_BIN_DIR) + "/fake_judge", solution, "--json", folder.at("report.json"),
                      "--history", folder.at("history.sqlite"), "--scratch-limit-mib", "8"},
                     setup);
    CHECK(run.exit_code == exit_status_for(Verdict::RE));
    std::ifstream file(folder.at("report.json"));
    const auto report = nlohmann::json::parse(file, nullptr, false);
    REQUIRE_FALSE(report.is_discarded());
    REQUIRE(report["cases"].is_array());
    REQUIRE_FALSE(report["cases"].empty());
    CHECK(report["cases"][0]["verdict"] == "RE");
    CHECK(contains(report["cases"][0]["detail"].get<std::string>(), "wrote more than 8 MiB"));
    const auto attempts = History::open(folder.at("history.sqlite")).attempts();
    REQUIRE(attempts.size() == 1);
    CHECK(attempts[0].worst_verdict == "RE");
    if (run_captured({"python3", "-c", "import jsonschema"}).exit_code != 0) {
        std::printf("[skipped: no jsonschema]\n");
        return;
    }
    const auto checked = run_captured(
        {"python3", std::string(GEMM_SOURCE_DIR) + "/scripts/check-report", "--at-least", "1", folder.path.string()});
    CHECK_MESSAGE(checked.exit_code == 0, checked.output);
}
