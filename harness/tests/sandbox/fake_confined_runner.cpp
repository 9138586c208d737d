// A fake runner: confines itself as the runner will (confine_self), hands its
// seccomp listener to the test over descriptor SOCKET_FD, then makes one escape attempt and
// prints how it ended: "result: ok" or "result: errno N". test_sandbox.cpp checks that each
// attempt failed, changed nothing and was named by the monitor. Two attempts come from a
// thread started before confine_self, as CUDA's are: one after restrict_filesystem (the
// runner's order), one without it.
//   fake_confined_runner SOCKET_FD SCRATCH ATTEMPT DECOY_FOLDER PORT
#include "confined_policy.hpp"
#include "sandbox/confine.hpp"

#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <map>
#include <memory>
#include <netinet/in.h>
#include <sched.h>
#include <string>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

std::string scratch, decoys;
int port = 0;

// -1 with errno set on failure, as the system calls do.
int write_file(const std::string &path, int flags) {
    const int fd = open(path.c_str(), flags, 0644);
    if (fd < 0) return -1;
    const bool written = write(fd, "escaped\n", 8) == 8;
    close(fd);
    return written ? 0 : -1;
}

int read_file(const std::string &path) {
    const int fd = open(path.c_str(), O_RDONLY);
    if (fd < 0) return -1;
    char buffer[64];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    close(fd);
    return n < 0 ? -1 : 0;
}

int open_socket() {
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int rc = connect(s, reinterpret_cast<sockaddr *>(&address), sizeof address);
    close(s);
    return rc;
}

// A Unix socket of the user's, as the session bus is: at a path, or abstract (a leading NUL).
int connect_unix(const std::string &name, bool abstract) {
    const int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s < 0) return -1;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path + (abstract ? 1 : 0), name.c_str(), sizeof address.sun_path - 2);
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + (abstract ? 1 : 0) + name.size());
    const int rc = connect(s, reinterpret_cast<sockaddr *>(&address), length);
    close(s);
    return rc;
}

// A datagram to a Unix socket at a path: sendto names its address itself, without connect.
int send_unix_datagram(const std::string &path) {
    const int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    if (s < 0) return -1;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    const ssize_t sent = sendto(s, "x", 1, 0, reinterpret_cast<sockaddr *>(&address), sizeof address);
    close(s);
    return sent == 1 ? 0 : -1;
}

int read_parent_memory() {
    long value = 0;
    iovec local{&value, sizeof value};
    iovec remote{reinterpret_cast<void *>(&port), sizeof value};
    return process_vm_readv(getppid(), &local, 1, &remote, 1, 0) < 0 ? -1 : 0;
}

void on_usr1(int) {}

int signal_own_group() {
    signal(SIGUSR1, on_usr1);
    if (raise(SIGUSR1) != 0) return -1;
    return kill(0, SIGUSR1);
}

void report(const char *who, int rc) {
    if (rc == 0)
        std::printf("%s: ok\n", who);
    else
        std::printf("%s: errno %d (%s)\n", who, errno, std::strerror(errno));
    std::fflush(stdout);
}

int socket_from_child() {
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        report("child result", open_socket());
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return 0;
}

// A child (a group leader cannot make a session anyway) that leaves the group the judge stops.
int leave_group_from_child() {
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        report("child setsid", setsid() < 0 ? -1 : 0);
        report("child setpgid", setpgid(0, 0));
        report("child stays", setpgid(0, getpgid(0)));
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return 0;
}

const std::map<std::string, std::function<int()>> attempts = {
    {"write-outside", [] { return write_file(decoys + "/history.sqlite", O_WRONLY | O_TRUNC); }},
    {"create-outside", [] { return write_file(decoys + "/planted.so", O_WRONLY | O_CREAT | O_EXCL); }},
    {"read-secret", [] { return read_file(decoys + "/secret.case"); }},
    {"read-secret-relative", [] { return chdir(decoys.c_str()) == 0 ? read_file("secret.case") : -1; }},
    {"write-through-dirfd",
     [] {
         const int folder = open(decoys.c_str(), O_PATH | O_DIRECTORY);
         const int fd = openat(folder, "history.sqlite", O_WRONLY | O_APPEND);
         return fd < 0 ? -1 : (write(fd, "x", 1) == 1 ? 0 : -1);
     }},
    {"remove-outside", [] { return unlink((decoys + "/secret.case").c_str()); }},
    {"chmod-outside", [] { return chmod((decoys + "/history.sqlite").c_str(), 0777); }},
    {"socket", open_socket},
    {"connect-unix-socket", [] { return connect_unix(decoys + "/bus", false); }},
    {"connect-abstract-socket", [] { return connect_unix(decoys, true); }},
    {"unix-datagram", [] { return send_unix_datagram(decoys + "/log"); }},
    {"socket-from-child", socket_from_child},
    {"ptrace-parent", [] { return ptrace(PTRACE_ATTACH, getppid(), nullptr, nullptr) < 0 ? -1 : 0; }},
    {"read-parent-memory", read_parent_memory},
    {"open-parent-mem", [] { return read_file("/proc/" + std::to_string(getppid()) + "/mem"); }},
    {"kill-parent", [] { return kill(getppid(), SIGTERM); }},
    {"unshare", [] { return unshare(CLONE_NEWUSER | CLONE_NEWNS); }},
    {"write-scratch", [] { return write_file(scratch + "/out.txt", O_WRONLY | O_CREAT | O_TRUNC); }},
    {"read-own-proc", [] { return read_file("/proc/self/status"); }},
    {"signal-own-group", signal_own_group},
    {"leave-group-from-child", leave_group_from_child},
    {"thread-after-restrict", nullptr}, // EarlyThread
    {"thread-before-confine", nullptr},
};

// A thread that exists before confine_self (as cuInit's do) and reads the secret when told.
class EarlyThread {
  public:
    EarlyThread()
        : thread_([this] {
              while (!go_) std::this_thread::yield();
              result_ = read_file(decoys + "/secret.case");
              error_ = errno;
          }) {}
    int attempt() {
        go_ = true;
        thread_.join();
        errno = error_;
        return result_;
    }

  private:
    std::atomic<bool> go_{false};
    int result_ = 0, error_ = 0;
    std::thread thread_;
};

} // namespace

int main(int argc, char **argv) {
    if (argc != 6 || attempts.count(argv[3]) == 0) {
        std::fprintf(stderr, "usage: fake_confined_runner SOCKET_FD SCRATCH ATTEMPT DECOY_FOLDER PORT\n");
        return 64;
    }
    const int socket_fd = std::atoi(argv[1]);
    scratch = argv[2];
    decoys = argv[4];
    port = std::atoi(argv[5]);
    const std::string attempt = argv[3];
    const auto policy = gemm::test::confined_runner_policy(scratch, getpid());
    std::vector<std::string> unconfined;
    if (attempt == "thread-after-restrict") unconfined = gemm::sandbox::restrict_filesystem(policy).unconfined;
    std::unique_ptr<EarlyThread> early;
    if (attempt.rfind("thread-", 0) == 0) early = std::make_unique<EarlyThread>();
    for (auto &gap : gemm::sandbox::confine_self(policy, socket_fd).unconfined) unconfined.push_back(gap);
    for (const auto &gap : unconfined) std::printf("unconfined: %s\n", gap.c_str());
    std::printf("uid: %d\n", static_cast<int>(getuid()));
    close(socket_fd);
    report("result", early ? early->attempt() : attempts.at(attempt)());
    return 0;
}
