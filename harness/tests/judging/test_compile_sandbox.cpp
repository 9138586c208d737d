// Compiling untrusted code is bounded and confined (compile_sandbox.hpp): a solution file
// must be a small regular file; nvcc and what it starts stop at the compile time and memory
// limits with a CE that names the limit, read only the system, the toolkit and the
// solution's folders, write only their TMPDIR (removed afterwards) and the cache, and open
// no network socket; a full disk is a setup error; nothing half-written stays in the cache.
// Fake nvcc scripts (in a toolkit folder of their own, as a real nvcc is) do each of these
// things; the real nvcc, where there is one, gets `#include "/dev/zero"`.
#include "common/errors.hpp"
#include "common/text.hpp"
#include "compile/compile.hpp"
#include "compile/compile_cache.hpp"
#include "judging/os/process.hpp"
#include "sandbox/landlock.hpp"
#include "test_support.hpp"

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <doctest/doctest.h>
#include <filesystem>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace gemm;
using gemm::test::contains;
using gemm::test::judge_program;
using gemm::test::skip_without_nvcc;
using gemm::test::TempFolder;
namespace fs = std::filesystem;

namespace {

const std::string solution_text = "extern \"C\" void solve(const float *, const float *, float *, int, int, int) {}\n";
const std::string secret_text = "seed 8675309 the secret testcase\n";

bool have_landlock() { return sandbox::landlock_abi() > 0; }

// A solution folder, a toolkit whose bin/nvcc runs `body` (with $out the library to write,
// then written when the body succeeds), and a decoy folder beside them that nvcc may not
// touch.
struct FakeToolkit {
    TempFolder folder{"gemm-compile-sandbox"};
    std::string solution = folder.write("solution/sol.cu", solution_text);
    std::string secret = folder.write("decoys/secret.case", secret_text);
    std::string nvcc;
    explicit FakeToolkit(const std::string &body) {
        nvcc = folder.write("toolkit/bin/nvcc",
                            "#!/bin/sh\n"
                            "case \"$1\" in --version) echo fake nvcc; exit 0 ;; esac\n"
                            "prev=''\n"
                            "for a in \"$@\"; do [ \"$prev\" = -o ] && out=\"$a\"; prev=\"$a\"; done\n" +
                                body + "\n: > \"$out\"\n");
        chmod(nvcc.c_str(), 0755);
        chmod(secret.c_str(), 0666); // only the sandbox keeps nvcc from it
    }
    CompileOptions options(double wall_seconds = 120, double memory_gib = 8) const {
        CompileOptions o;
        o.nvcc = nvcc;
        o.cache_dir = folder.at("cache");
        o.limits = {wall_seconds, memory_gib};
        return o;
    }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool has_ended(pid_t pid) {
    return kill(pid, 0) != 0 ||
           contains(read_text_file("/proc/" + std::to_string(pid) + "/stat").value_or(") Z"), ") Z");
}

// SIGKILL is delivered, not waited for: under load a killed process can still be on its way
// out for a moment after the judge returns (1 run in 12 on 2 busy cores), so "killed" is
// checked as "gone within 2 s", far below the 300 s it would otherwise sleep.
bool ends_soon(pid_t pid) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!has_ended(pid)) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

// The number printed after `label` in nvcc's output.
long number_after(const std::string &output, const std::string &label) {
    const auto at = output.find(label);
    return at == std::string::npos ? -1 : std::stol(output.substr(at + label.size()));
}

std::vector<std::string> partial_files(const std::string &folder) {
    std::vector<std::string> found;
    for (const auto &entry : fs::directory_iterator(folder))
        if (contains(entry.path().filename().string(), ".part")) found.push_back(entry.path().string());
    return found;
}

} // namespace

TEST_CASE("a solution that is a FIFO, a device, a folder or over 1 MiB is refused at once as a bad command line") {
    TempFolder folder;
    REQUIRE(mkfifo(folder.at("fifo.cu").c_str(), 0600) == 0);
    fs::create_symlink("/dev/zero", folder.at("zero.cu"));
    fs::create_directories(folder.at("folder.cu"));
    folder.write("large.cu", std::string(max_solution_bytes + 1, ' '));
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"fifo.cu", "fifo.cu: is a FIFO"},
        {"zero.cu", "zero.cu: is a character device (/dev/zero)"},
        {"folder.cu", "folder.cu"},
        {"large.cu", "large.cu: is 1.0 MiB; a solution is at most 1 MiB of source"},
    };
    for (const auto &[name, message] : cases) {
        CAPTURE(name);
        const auto started = std::chrono::steady_clock::now();
        const auto run = run_captured({judge_program, folder.at(name), "--cache-dir", folder.at("cache")});
        CAPTURE(run.output);
        CHECK(run.exit_code == 64);
        CHECK(contains(test::unwrapped(run.output), message)); // refusals are wrapped at 100 columns
        CHECK_FALSE(contains(run.output, "CE"));
        CHECK(seconds_since(started) < 10);
    }
    CHECK_THROWS_WITH_AS(compile_solution(folder.at("fifo.cu"), CompileOptions{}), doctest::Contains("is a FIFO"),
                         UsageError);
}

TEST_CASE("nvcc past the compile time limit is CE naming the limit, and what it started is killed") {
    const FakeToolkit toolkit("sleep 300 & echo \"sleeper $!\"; wait");
    const auto started = std::chrono::steady_clock::now();
    const auto result = compile_solution(toolkit.solution, toolkit.options(1));
    CAPTURE(result.diagnostics);
    CHECK_FALSE(result.ok);
    CHECK(contains(result.diagnostics, "nvcc ran past the compile time limit of 1 s"));
    CHECK(seconds_since(started) < 10);
    const long sleeper = number_after(result.diagnostics, "sleeper ");
    REQUIRE(sleeper > 0);
    CHECK(ends_soon(static_cast<pid_t>(sleeper)));
    CHECK(partial_files(toolkit.folder.at("cache")).empty());
}

TEST_CASE("nvcc past the compile memory limit is CE naming the limit, and within it compiles") {
    // dd takes its 2 GiB buffer whole, as cc1plus grows past the limit on `#include "/dev/zero"`.
    const FakeToolkit toolkit("dd if=/dev/null of=/dev/null bs=2G count=1 || exit 1");
    const auto over = compile_solution(toolkit.solution, toolkit.options(120, 1));
    CAPTURE(over.diagnostics);
    CHECK_FALSE(over.ok);
    CHECK(contains(over.diagnostics, "nvcc exceeded the compile memory limit of 1 GiB (--compile-memory GiB)"));
    const auto within = compile_solution(toolkit.solution, toolkit.options(120, 4));
    CAPTURE(within.diagnostics);
    CHECK(within.ok);
}

TEST_CASE("nvcc cannot read /dev/zero or a file outside the solution's folders, nor write outside its own") {
    if (!have_landlock()) {
        MESSAGE("[skipped: no Landlock] nvcc's files are not confined on this kernel");
        return;
    }
    for (const std::string body : {"head -c 16 /dev/zero > /dev/null || exit 1", "cat \"$SECRET\" || exit 1",
                                   "echo planted >> \"$SECRET\" || exit 1"}) {
        CAPTURE(body);
        FakeToolkit probe("");
        const FakeToolkit toolkit("SECRET=" + probe.secret + "\n" + body);
        const auto started = std::chrono::steady_clock::now();
        const auto result = compile_solution(toolkit.solution, toolkit.options());
        CAPTURE(result.diagnostics);
        CHECK_FALSE(result.ok);
        CHECK(contains(result.diagnostics, "Permission denied"));
        CHECK_FALSE(contains(result.diagnostics, "8675309"));
        CHECK(read_text_file(probe.secret) == secret_text);
        CHECK(seconds_since(started) < 10);
    }
}

TEST_CASE("nvcc gets a private TMPDIR, removed when it is done") {
    const FakeToolkit toolkit("echo \"tmpdir=$TMPDIR\"; head -c 100000 /dev/urandom > \"$TMPDIR/tmpxft_1.ii\"; "
                              "ls -ld \"$TMPDIR\"; exit 1");
    const auto result = compile_solution(toolkit.solution, toolkit.options());
    CAPTURE(result.diagnostics);
    const auto at = result.diagnostics.find("tmpdir=");
    REQUIRE(at != std::string::npos);
    const std::string tmpdir = result.diagnostics.substr(at + 7, result.diagnostics.find('\n', at) - at - 7);
    CHECK(contains(tmpdir, "gemm-judge-nvcc-"));
    CHECK(contains(result.diagnostics, "drwx------"));
    CHECK_FALSE(fs::exists(tmpdir));
}

TEST_CASE("nvcc opens no network socket") {
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
    REQUIRE(listen(listener, 4) == 0);
    socklen_t size = sizeof address;
    getsockname(listener, reinterpret_cast<sockaddr *>(&address), &size);
    const FakeToolkit toolkit("bash -c 'echo hello > /dev/tcp/127.0.0.1/" + std::to_string(ntohs(address.sin_port)) +
                              "' || exit 1");
    const auto result = compile_solution(toolkit.solution, toolkit.options());
    CAPTURE(result.diagnostics);
    CHECK_FALSE(result.ok);
    const int connection = accept(listener, nullptr, nullptr);
    CHECK(connection < 0);
    if (connection >= 0) close(connection);
    close(listener);
}

TEST_CASE("a full disk is a setup error naming the folder, not the solution's CE, and leaves no partial file") {
    const FakeToolkit cache_full("echo \"nvcc fatal   : Could not write $out: No space left on device\"; : > \"$out\"; "
                                 "exit 1");
    CHECK_THROWS_WITH_AS(compile_solution(cache_full.solution, cache_full.options()),
                         doctest::Contains(("the disk of " + cache_full.folder.at("cache") + " is full").c_str()),
                         SetupError);
    CHECK(partial_files(cache_full.folder.at("cache")).empty());
    const FakeToolkit tmp_full("echo \"error writing to $TMPDIR/ccX.s: No space left on device\"; exit 1");
    CHECK_THROWS_WITH_AS(compile_solution(tmp_full.solution, tmp_full.options()),
                         doctest::Contains(("the disk of " + fs::temp_directory_path().string()).c_str()), SetupError);
}

TEST_CASE("a manifest the cache cannot write whole is removed, never left half-written") {
    TempFolder folder;
    CompileCache cache(folder.at("cache"));
    const auto input = folder.write("sol.cu", solution_text);
    const std::string entry = cache_entry_name(input, {"-O3"}, "v1");
    const pid_t child = fork();
    if (child == 0) { // a child: the file size limit would end the test runner too
        signal(SIGXFSZ, SIG_IGN);
        const std::string built = cache.scratch_path(entry, ".so");
        std::ofstream(built) << "library";
        const rlimit small{64, 64}; // smaller than any manifest
        setrlimit(RLIMIT_FSIZE, &small);
        bool refused = false;
        try {
            cache.store(entry, built, {input}, fs::file_time_type::clock::now() + std::chrono::hours(1));
        } catch (const SetupError &e) {
            refused = contains(e.what(), "cannot write");
        }
        _exit(refused && partial_files(folder.at("cache")).empty() ? 0 : 1);
    }
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("the real nvcc ends `#include \"/dev/zero\"` and a header linked to /dev/zero as CE within seconds") {
    if (skip_without_nvcc()) return;
    TempFolder folder;
    fs::create_symlink("/dev/zero", folder.at("zero.h"));
    for (const std::string include : {"/dev/zero", "zero.h"}) {
        CAPTURE(include);
        const auto source = folder.write("sol.cu", "#include \"" + include + "\"\n" + solution_text);
        CompileOptions o;
        o.nvcc = GEMM_NVCC;
        o.cache_dir = folder.at("cache");
        o.limits.wall_seconds = 60;
        const auto started = std::chrono::steady_clock::now();
        const auto result = compile_solution(source, o);
        CAPTURE(result.diagnostics);
        CHECK_FALSE(result.ok);
        CHECK(contains(result.diagnostics, include));
        CHECK(seconds_since(started) < 30);
    }
}

TEST_CASE("the real nvcc does not show a file outside the solution's folders in its messages") {
    if (skip_without_nvcc()) return;
    if (!have_landlock()) {
        std::printf("[skipped: no Landlock]\n");
        return;
    }
    TempFolder folder;
    const auto secret = folder.write("decoys/secret.case", secret_text);
    const auto source = folder.write("solution/sol.cu", "#include \"" + secret + "\"\n" + solution_text);
    CompileOptions o;
    o.nvcc = GEMM_NVCC;
    o.cache_dir = folder.at("cache");
    const auto result = compile_solution(source, o);
    CAPTURE(result.diagnostics);
    CHECK_FALSE(result.ok);
    CHECK(contains(result.diagnostics, "Permission denied"));
    CHECK_FALSE(contains(result.diagnostics, "8675309"));
}
