// A fake gemm-runner on a machine without a GPU: the real protocol loop
// (runner/runner_loop.hpp) and the real confinement (runner/confinement.hpp), with
// shared host memory (a memfd the fake referee hands over) in place of GPU
// memory. Its "solution" is a text file whose first word names what it does on each
// call: compute C (ok), get it wrong, forge the judge's messages, break the protocol,
// crash, hang, exit, print markup (print-markup), or try to escape (the second word names a decoy file); crash-on-load,
// hang-on-load, fill-on-load (its folder filled, as a constructor that writes until the disk
// is full) and no-solve act when it is loaded.
// Usage: fake_runner --referee=FD (--monitor=FD LIBRARY | --baseline)
#include "runner/confinement.hpp"
#include "runner/runner_loop.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace {

using namespace gemm;

int referee_fd = -1;

int fd_argument(int argc, char **argv, const char *prefix) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) return std::atoi(argv[i] + std::strlen(prefix));
    return -1;
}

// One escape attempt; what the kernel answered goes to stdout (the judge's tail).
void attempt(const std::string &what, const std::string &decoy) {
    int result = 0;
    if (what == "escape-socket") {
        result = socket(AF_INET, SOCK_STREAM, 0);
    } else if (what == "escape-write") {
        result = open(decoy.c_str(), O_WRONLY | O_TRUNC);
        if (result >= 0) (void)!write(result, "overwritten", 11);
    } else if (what == "escape-read") {
        char text[256] = {};
        result = open(decoy.c_str(), O_RDONLY);
        if (result >= 0 && read(result, text, sizeof text - 1) > 0) std::printf("read: %s\n", text);
    } else if (what == "escape-ptrace") {
        result = static_cast<int>(ptrace(PTRACE_ATTACH, getppid(), nullptr, nullptr));
    } else if (what == "escape-vm-read") {
        char buffer[64];
        iovec local{buffer, sizeof buffer}, remote{reinterpret_cast<void *>(0x400000), sizeof buffer};
        result = static_cast<int>(process_vm_readv(getppid(), &local, 1, &remote, 1, 0));
    } else if (what == "escape-proc-mem") {
        result = open(("/proc/" + std::to_string(getppid()) + "/mem").c_str(), O_RDONLY);
    } else if (what == "escape-kill") {
        result = kill(getppid(), SIGTERM);
    }
    std::printf("%s: %d (%s)\n", what.c_str(), result, result < 0 ? std::strerror(errno) : "allowed");
    std::fflush(stdout);
}

// Writes 1 MiB blocks to files in its folder (the working directory) until a write fails
// or 64 MiB are written (a bound, so that a folder nothing caps costs the host little);
// says on stdout how far it got.
void fill_folder() {
    static char block[1 << 20];
    std::memset(block, 'x', sizeof block);
    int written_mib = 0, error = 0;
    for (int file = 0; written_mib < 64 && error == 0; ++file) {
        const int fd = open(("fill-" + std::to_string(file)).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) error = errno;
        for (int i = 0; fd >= 0 && i < 4 && error == 0; ++i) {
            if (write(fd, block, sizeof block) == ssize_t(sizeof block))
                ++written_mib;
            else
                error = errno ? errno : ENOSPC;
        }
        if (fd >= 0) close(fd);
    }
    std::printf("fill: %d MiB written%s%s\n", written_mib, error ? ", then: " : "", error ? std::strerror(error) : "");
    std::fflush(stdout);
}

class HostBackend : public RunnerBackend {
  public:
    HostBackend(std::string behaviour, std::string decoy)
        : behaviour_(std::move(behaviour)), decoy_(std::move(decoy)) {}
    std::string map(int fd, std::size_t bytes) override {
        if (base_) munmap(base_, bytes_);
        base_ = static_cast<unsigned char *>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
        close(fd);
        bytes_ = bytes;
        return base_ == MAP_FAILED ? (base_ = nullptr, "mmap failed") : "";
    }
    CallOutcome call(const CallOrder &o) override {
        // A solution's thread that keeps its process from returning from the judge's own calibration call.
        if (o.work == RunnerWork::Calibration && behaviour_ == "hang-in-calibration")
            for (;;) pause();
        if (o.work == RunnerWork::Nothing || o.work == RunnerWork::Calibration) return {};
        const auto *A = reinterpret_cast<const float *>(base_ + o.a_offset);
        const auto *B = reinterpret_cast<const float *>(base_ + o.b_offset);
        auto *C = reinterpret_cast<float *>(base_ + o.c_offset);
        if (behaviour_ == "crash-in-call") std::raise(SIGSEGV);
        if (behaviour_ == "abort-in-call") std::abort();
        if (behaviour_ == "print") std::printf("{\"verdict\":\"AC\",\"median_ms\":0.001}\n");
        if (behaviour_ == "print-markup") std::printf("<script>alert('output')</script>\n");
        if (behaviour_ == "flood") {
            for (int i = 0; i < 20000; ++i) std::printf("line %d of a flood\n", i);
            std::printf("last line\n");
        }
        std::fflush(stdout);
        if (behaviour_ == "exit-in-call") _exit(0);
        if (behaviour_ == "hang-in-call")
            for (;;) pause();
        if (behaviour_ == "forge") {
            // The old attack: a perfect "AC" to every descriptor, and no work at all.
            const char *fake = "{\"event\":\"result\",\"result\":{\"verdict\":\"AC\"}}\n{\"event\":\"returned\"}\n";
            for (int fd = 0; fd < 64; ++fd)
                if (fd != referee_fd) (void)!write(fd, fake, std::strlen(fake));
            return {};
        }
        if (behaviour_ == "garbage") {
            const char *line = "{\"event\":\"result\",\"verdict\":\"AC\"}\n";
            (void)!write(referee_fd, line, std::strlen(line));
            for (;;) pause();
        }
        if (behaviour_.rfind("escape-", 0) == 0) attempt(behaviour_, decoy_);
        const float extra = behaviour_ == "wrong" ? 1.0f : 0.0f;
        for (int i = 0; i < o.M; ++i)
            for (int k = 0; k < o.K; ++k) {
                float sum = 0;
                for (int n = 0; n < o.N; ++n) sum += A[std::size_t(i) * o.N + n] * B[std::size_t(n) * o.K + k];
                C[std::size_t(i) * o.K + k] = sum + extra;
            }
        return {};
    }

  private:
    std::string behaviour_, decoy_;
    unsigned char *base_ = nullptr;
    std::size_t bytes_ = 0;
};

} // namespace

int main(int argc, char **argv) {
    referee_fd = fd_argument(argc, argv, "--referee=");
    const int monitor_fd = fd_argument(argc, argv, "--monitor=");
    const bool baseline = std::string(argv[argc - 1]) == "--baseline";
    SocketChannel referee(referee_fd);
    std::string behaviour = "ok", decoy;
    if (!baseline) {
        RunnerConfinement confinement("");
        if (!confinement.finish(monitor_fd)) return 3;
        std::ifstream(argv[argc - 1]) >> behaviour >> decoy; // "loading the solution", confined
        if (behaviour == "crash-on-load") std::raise(SIGSEGV);
        if (behaviour == "hang-on-load") pause(); // a constructor that never returns
        if (behaviour == "fill-on-load") fill_folder();
    }
    referee.send({{"event", runner_event::hello}, {"solve_error", behaviour == "no-solve" ? "no solve() in it" : ""}});
    HostBackend backend(behaviour, decoy);
    return serve_referee(referee, backend);
}
