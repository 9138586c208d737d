// The runner's confinement end to end: a fake runner (fake_confined_runner.cpp) confines itself
// with confine_self, hands its seccomp listener to this test, which runs the AttemptMonitor
// on it as the judge will, and then makes one escape attempt. Each attempt must fail, leave
// the decoy files byte for byte as they were, and be named by the monitor in words. The
// decoys are open to every user, so that only the sandbox can be what stops the fake
// (which, when the tests run as root, runs as nobody).
#include "confined_policy.hpp"
#include "sandbox/attempt_monitor.hpp"
#include "sandbox/fd_passing.hpp"
#include "sandbox/identity.hpp"
#include "sandbox/landlock.hpp"
#include "test_support.hpp"

#include <arpa/inet.h>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <functional>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;

namespace {

const std::string fake_runner = std::string(GEMM_BIN_DIR) + "/fake_confined_runner";
using namespace std::string_literals;
const std::string history_bytes = "SQLite format 3\0 the user's precious history"s;
const std::string secret_bytes = "shape 300 77 129\nseed 424242\n"s;

bool sandbox_available() {
    std::uint32_t notify = SECCOMP_RET_USER_NOTIF;
    return sandbox::landlock_abi() > 0 && syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &notify) == 0;
}

#define REQUIRE_SANDBOX()                                                                                              \
    if (!sandbox_available()) {                                                                                        \
        MESSAGE("[skipped: no Landlock] this kernel lacks Landlock or seccomp user notification");                     \
        return;                                                                                                        \
    }

std::string read_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A loopback listener: a connection reaching it would be an escape.
struct Listener {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int port = 0;
    Listener() {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
        listen(fd, 4);
        socklen_t size = sizeof address;
        getsockname(fd, reinterpret_cast<sockaddr *>(&address), &size);
        port = ntohs(address.sin_port);
    }
    ~Listener() { close(fd); }
    bool was_reached() const {
        const int connection = accept(fd, nullptr, nullptr);
        if (connection >= 0) close(connection);
        return connection >= 0;
    }
};

// A Unix socket of the user's, as the session bus is, that anyone may connect to: at
// `path`, or with `abstract` at the abstract name `path`.
struct UnixListener {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    UnixListener(const std::string &path, bool abstract) {
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path + (abstract ? 1 : 0), path.c_str(), sizeof address.sun_path - 2);
        const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + (abstract ? 1 : 0) + path.size());
        REQUIRE(bind(fd, reinterpret_cast<sockaddr *>(&address), length) == 0);
        if (!abstract) chmod(path.c_str(), 0777);
        listen(fd, 4);
    }
    ~UnixListener() { close(fd); }
    bool was_reached() const {
        const int connection = accept(fd, nullptr, nullptr);
        if (connection >= 0) close(connection);
        return connection >= 0;
    }
};

// The scratch folder (the fake runner's to write) and the decoys (everyone's to write, so
// only the sandbox stops it).
struct Files {
    TempFolder scratch{"gemm-sandbox-scratch"};
    TempFolder decoys{"gemm-sandbox-decoys"};
    std::string history = decoys.write("history.sqlite", history_bytes);
    std::string secret = decoys.write("secret.case", secret_bytes);
    Files() {
        chmod(decoys.path.c_str(), 0777);
        chmod(history.c_str(), 0666);
        chmod(secret.c_str(), 0666);
        chmod(scratch.path.c_str(), 0700);
        if (geteuid() == 0) REQUIRE(chown(scratch.path.c_str(), sandbox::nobody_uid, sandbox::nogroup_gid) == 0);
    }
    bool decoys_unchanged() const {
        return read_bytes(history) == history_bytes && read_bytes(secret) == secret_bytes &&
               !std::filesystem::exists(decoys.at("planted.so"));
    }
};

struct ConfinedRun {
    std::string output;                // what the fake runner printed: "result: errno 1 (…)"
    std::vector<std::string> attempts; // what the monitor named
    bool confined = false;             // the listener arrived
    bool exited = false;
};

// Runs the fake runner with one attempt and watches it as the judge will.
ConfinedRun run_confined(const std::string &attempt, const Files &files, int port = 0) {
    ConfinedRun run;
    int channel[2], out[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) == 0);
    REQUIRE(pipe2(out, O_CLOEXEC) == 0);
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); // a process group of its own: the one it may signal
        dup2(channel[1], 3);
        dup2(out[1], STDOUT_FILENO);
        execl(fake_runner.c_str(), fake_runner.c_str(), "3", files.scratch.path.c_str(), attempt.c_str(),
              files.decoys.path.c_str(), std::to_string(port).c_str(), static_cast<char *>(nullptr));
        _exit(127);
    }
    close(channel[1]);
    close(out[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    auto milliseconds_left = [&] {
        return static_cast<int>(std::max<long>(
            0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                   .count()));
    };
    pollfd first{channel[0], POLLIN, 0};
    std::string payload;
    const int listener = poll(&first, 1, milliseconds_left()) == 1 ? sandbox::receive_fd(channel[0], payload) : -1;
    close(channel[0]);
    run.confined = listener >= 0 && payload == "seccomp listener";
    std::unique_ptr<sandbox::AttemptMonitor> monitor;
    if (listener >= 0)
        monitor = std::make_unique<sandbox::AttemptMonitor>(listener,
                                                            test::confined_runner_policy(files.scratch.path, pid), pid);
    bool output_open = true, listening = monitor != nullptr;
    while ((output_open || listening) && milliseconds_left() > 0) {
        pollfd ready[2] = {{out[0], static_cast<short>(output_open ? POLLIN : 0), 0},
                           {listening ? monitor->fd() : -1, POLLIN, 0}};
        if (poll(ready, 2, milliseconds_left()) <= 0) continue;
        if (ready[1].revents & POLLIN) monitor->handle_ready();
        if (ready[1].revents & (POLLHUP | POLLERR | POLLNVAL)) listening = false; // no process left under it
        if (ready[0].revents & (POLLIN | POLLHUP)) {
            char buffer[4096];
            const ssize_t n = read(out[0], buffer, sizeof buffer);
            if (n > 0)
                run.output.append(buffer, static_cast<std::size_t>(n));
            else
                output_open = false;
        }
    }
    close(out[0]);
    if (monitor) run.attempts = monitor->take_attempts();
    kill(pid, SIGKILL); // only past the deadline is it still there
    int status = 0;
    waitpid(pid, &status, 0);
    run.exited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return run;
}

bool named(const ConfinedRun &run, const std::string &words) {
    for (const auto &attempt : run.attempts)
        if (contains(attempt, words)) return true;
    return false;
}

std::string attempts_text(const ConfinedRun &run) {
    std::string text;
    for (const auto &a : run.attempts) text += a + "\n";
    return text;
}

// The attempt failed with `error`, changed nothing, and the monitor named it with `words`
// (of the run's files).
void check_blocked(const std::string &attempt, const std::string &error,
                   const std::function<std::string(const Files &)> &words) {
    Files files;
    Listener listener;
    const auto run = run_confined(attempt, files, listener.port);
    CAPTURE(attempt);
    CAPTURE(run.output);
    INFO("named: ", attempts_text(run));
    REQUIRE(run.confined);
    CHECK(run.exited);
    CHECK(contains(run.output, "result: " + error));
    CHECK(files.decoys_unchanged());
    CHECK_FALSE(listener.was_reached());
    CHECK(named(run, words(files)));
    if (geteuid() == 0) CHECK(contains(run.output, "uid: 65534"));
}

} // namespace

TEST_CASE("a confined process cannot write a file outside its scratch folder, and the monitor names it") {
    REQUIRE_SANDBOX();
    check_blocked("write-outside", "errno 13",
                  [](const Files &f) { return "tried to write " + f.history + " (blocked)"; });
}

TEST_CASE("a confined process cannot create a file outside its scratch folder") {
    REQUIRE_SANDBOX();
    check_blocked("create-outside", "errno 13",
                  [](const Files &f) { return "tried to create " + f.decoys.at("planted.so") + " (blocked)"; });
}

TEST_CASE("a confined process cannot read a secret testcase, by absolute or relative path") {
    REQUIRE_SANDBOX();
    for (const char *attempt : {"read-secret", "read-secret-relative"})
        check_blocked(attempt, "errno 13", [](const Files &f) { return "tried to read " + f.secret + " (blocked)"; });
}

TEST_CASE("a path relative to a descriptor of a folder is named with the folder's path") {
    REQUIRE_SANDBOX();
    check_blocked("write-through-dirfd", "errno 13",
                  [](const Files &f) { return "tried to write " + f.history + " (blocked)"; });
}

TEST_CASE("a confined process cannot remove or chmod a file outside its scratch folder") {
    REQUIRE_SANDBOX();
    check_blocked("remove-outside", "errno 13",
                  [](const Files &f) { return "tried to remove " + f.secret + " (blocked)"; });
    check_blocked("chmod-outside", "errno 1",
                  [](const Files &f) { return "tried to change the permissions of " + f.history + " (blocked)"; });
}

TEST_CASE("a confined process and its children cannot open a network socket") {
    REQUIRE_SANDBOX();
    check_blocked("socket", "errno 1",
                  [](const Files &) { return std::string("tried to open a network socket (blocked)"); });
    Files files;
    Listener listener;
    const auto run = run_confined("socket-from-child", files, listener.port);
    CAPTURE(run.output);
    CHECK(contains(run.output, "child result: errno 1"));
    CHECK(named(run, "tried to open a network socket (blocked)"));
    CHECK_FALSE(listener.was_reached());
}

TEST_CASE("a confined process cannot connect to a Unix socket of the user's, at a path or abstract") {
    REQUIRE_SANDBOX();
    for (const bool abstract : {false, true}) {
        CAPTURE(abstract);
        Files files;
        const UnixListener bus(abstract ? files.decoys.path.string() : files.decoys.at("bus"), abstract);
        const auto run = run_confined(abstract ? "connect-abstract-socket" : "connect-unix-socket", files);
        CAPTURE(run.output);
        INFO("named: ", attempts_text(run));
        CHECK(contains(run.output, "result: errno 1"));
        CHECK_FALSE(bus.was_reached());
        CHECK(named(run, abstract
                             ? "tried to connect to the abstract socket @" + files.decoys.path.string() + " (blocked)"
                             : "tried to connect to the socket " + files.decoys.at("bus") + " (blocked)"));
    }
}

TEST_CASE("a confined process cannot send a datagram to a Unix socket of the user's") {
    REQUIRE_SANDBOX();
    Files files;
    // A datagram socket of the user's (as /dev/log or a notify socket would be), writable by all.
    const int log = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    REQUIRE(log >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string path = files.decoys.at("log");
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    REQUIRE(bind(log, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0);
    chmod(path.c_str(), 0777);
    const auto run = run_confined("unix-datagram", files);
    CAPTURE(run.output);
    INFO("named: ", attempts_text(run));
    char byte = 0;
    CHECK(recv(log, &byte, 1, 0) < 0); // nothing arrived
    close(log);
    CHECK(contains(run.output, "result: errno 1"));
    CHECK(named(run, "tried to open a Unix datagram socket (blocked)"));
}

TEST_CASE("a confined process cannot ptrace, read the memory of, or open /proc/PID/mem of its parent") {
    REQUIRE_SANDBOX();
    const std::string parent = std::to_string(getpid());
    check_blocked("ptrace-parent", "errno 1",
                  [&](const Files &) { return "tried to ptrace process " + parent + " (blocked)"; });
    check_blocked("read-parent-memory", "errno 1", [](const Files &) {
        return std::string("tried to read another process's memory (process_vm_readv, blocked)");
    });
    check_blocked("open-parent-mem", "errno 13",
                  [&](const Files &) { return "tried to read /proc/" + parent + "/mem (blocked)"; });
}

TEST_CASE("a confined process cannot signal its parent, but may signal itself and its own group") {
    REQUIRE_SANDBOX();
    check_blocked("kill-parent", "errno 1",
                  [](const Files &) { return std::string("tried to signal the judge's process (blocked)"); });
    Files files;
    const auto run = run_confined("signal-own-group", files);
    CAPTURE(run.output);
    CHECK(contains(run.output, "result: ok"));
    CHECK(run.attempts.empty());
}

TEST_CASE("refused signals are one attempt however many processes they went to, naming the judge among them") {
    using sandbox::signal_attempts;
    CHECK(signal_attempts({1}, 77) == "tried to signal process 1 (blocked)");
    CHECK(signal_attempts({77}, 77) == "tried to signal the judge's process (blocked)");
    std::set<pid_t> many;
    for (pid_t pid = 2; pid < 4096; ++pid) many.insert(pid);
    CHECK(signal_attempts(many, 77) == "tried to signal 4,094 processes (the judge's process among them; blocked)");
    CHECK(signal_attempts({5, 6}, 77) == "tried to signal 2 processes (blocked)");
}

TEST_CASE("a confined process's children cannot leave the process group the judge stops between calls") {
    REQUIRE_SANDBOX();
    Files files;
    const auto run = run_confined("leave-group-from-child", files);
    CAPTURE(run.output);
    INFO("named: ", attempts_text(run));
    CHECK(contains(run.output, "child setsid: errno 1"));
    CHECK(contains(run.output, "child setpgid: errno 1"));
    CHECK(contains(run.output, "child stays: ok"));
    CHECK(named(run, "tried to leave its process group (setsid, blocked)"));
    CHECK(named(run, "tried to leave its process group (setpgid, blocked)"));
}

TEST_CASE("a thread started after restrict_filesystem and before confine_self is confined too") {
    REQUIRE_SANDBOX();
    check_blocked("thread-after-restrict", "errno 13",
                  [](const Files &f) { return "tried to read " + f.secret + " (blocked)"; });
}

TEST_CASE("a thread started before confine_self alone is confined on Landlock ABI 8, and reported before it") {
    REQUIRE_SANDBOX();
    Files files;
    const auto run = run_confined("thread-before-confine", files);
    CAPTURE(run.output);
    REQUIRE(run.confined);
    if (sandbox::landlock_abi() >= 8) {
        CHECK(contains(run.output, "result: errno 13"));
    } else {
        CHECK(contains(run.output, "unconfined: Landlock binds only the calling thread on this kernel (ABI " +
                                       std::to_string(sandbox::landlock_abi()) +
                                       "; every thread needs ABI 8): 1 thread started earlier is outside it"));
    }
    CHECK(read_bytes(files.secret) == secret_bytes);
}

TEST_CASE("a confined process cannot make a new user namespace") {
    REQUIRE_SANDBOX();
    check_blocked("unshare", "errno 1", [](const Files &) { return std::string("tried to call unshare (blocked)"); });
}

TEST_CASE("a confined process writes its scratch folder and reads its own /proc, and nothing is named") {
    REQUIRE_SANDBOX();
    for (const char *attempt : {"write-scratch", "read-own-proc"}) {
        Files files;
        const auto run = run_confined(attempt, files);
        CAPTURE(attempt);
        CAPTURE(run.output);
        INFO("named: ", attempts_text(run));
        REQUIRE(run.confined);
        CHECK(contains(run.output, "result: ok"));
        CHECK_FALSE(contains(run.output, "unconfined:"));
        CHECK(run.attempts.empty());
        if (std::string(attempt) == "write-scratch") CHECK(read_bytes(files.scratch.at("out.txt")) == "escaped\n");
    }
}

TEST_CASE("descriptors pass over a unix socket with their payload, and a message without one gives -1") {
    int pair[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) == 0);
    TempFolder folder;
    const int file = open(folder.write("f", "bytes").c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(sandbox::send_fd(pair[0], file, "gpu buffer A"));
    std::string payload;
    const int received = sandbox::receive_fd(pair[1], payload);
    REQUIRE(received >= 0);
    CHECK(payload == "gpu buffer A");
    char buffer[8] = {};
    CHECK(pread(received, buffer, 5, 0) == 5);
    CHECK(std::string(buffer) == "bytes");
    CHECK((fcntl(received, F_GETFD) & FD_CLOEXEC) != 0);
    CHECK_FALSE(sandbox::send_fd(pair[0], file, "")); // a descriptor travels with at least one byte
    REQUIRE(write(pair[0], "plain", 5) == 5);
    CHECK(sandbox::receive_fd(pair[1], payload) == -1);
    CHECK(payload == "plain");
    close(received);
    close(file);
    close(pair[0]);
    close(pair[1]);
}

TEST_CASE("on a stream socket a descriptor travels with the first part of a long write, and every byte arrives") {
    int pair[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
    TempFolder folder;
    const int file = open(folder.write("g", "gpu").c_str(), O_RDONLY | O_CLOEXEC);
    const std::string line(300000, 'x'); // more than the socket's buffer: written in parts
    std::thread writer([&] { CHECK(sandbox::send_with_descriptor(pair[0], line.data(), line.size(), file)); });
    std::vector<int> fds;
    std::size_t bytes = 0;
    char buffer[65536];
    while (bytes < line.size()) {
        const sandbox::Received r = sandbox::receive_with_descriptors(pair[1], buffer, sizeof buffer, fds, 4);
        REQUIRE(r.bytes > 0);
        CHECK_FALSE(r.truncated);
        bytes += static_cast<std::size_t>(r.bytes);
    }
    writer.join();
    CHECK(bytes == line.size());
    REQUIRE(fds.size() == 1);
    char text[4] = {};
    CHECK(pread(fds[0], text, 3, 0) == 3);
    CHECK(std::string(text) == "gpu");
    CHECK((fcntl(fds[0], F_GETFD) & FD_CLOEXEC) != 0);
    close(fds[0]);
    close(file);
    close(pair[0]);
    close(pair[1]);
}

TEST_CASE("a child that becomes nobody still dies with its parent: the credentials' change keeps its death signal") {
    if (geteuid() != 0) {
        std::printf("[skipped: not root]\n");
        return;
    }
    int report[2];
    REQUIRE(pipe(report) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(report[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        int before = 0, after = 0;
        prctl(PR_GET_PDEATHSIG, &before, 0, 0, 0);
        const bool switched = gemm::sandbox::switch_user(gemm::sandbox::nobody_uid, gemm::sandbox::nogroup_gid);
        prctl(PR_GET_PDEATHSIG, &after, 0, 0, 0);
        const int answer[3] = {before, after, switched ? 1 : 0};
        _exit(write(report[1], answer, sizeof answer) == sizeof answer ? 0 : 1);
    }
    close(report[1]);
    int answer[3] = {-1, -1, -1};
    CHECK(read(report[0], answer, sizeof answer) == static_cast<ssize_t>(sizeof answer));
    close(report[0]);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(answer[2] == 1);
    CHECK(answer[0] == SIGKILL);
    CHECK(answer[1] == SIGKILL); // the kernel clears it on a change of user; switch_user sets it again
}
