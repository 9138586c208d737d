// A stand-in for gemm-worker that misbehaves on purpose, so the supervisor's handling
// of hanging, crashing, silent and babbling workers is tested without a GPU.
// Usage: stand_in_worker MODE --channel-in=FD --channel-out=FD
#include "channel/channel.hpp"
#include "channel/protocol.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

using namespace gemm;

int fd_argument(int argc, char **argv, const char *prefix) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) return std::atoi(argv[i] + std::strlen(prefix));
    return -1;
}

nlohmann::json accepted(const TestCase &tc, const CasePolicy &mode = {}) {
    CaseResult r;
    r.detail = std::string(mode.timed ? "timed" : "untimed") + " " + precision_name(mode.precision);
    r.name = tc.name;
    r.M = tc.M;
    r.N = tc.N;
    r.K = tc.K;
    r.verdict = Verdict::AC;
    return {{"event", event::result}, {"result", r}, {"worker_exits", false}};
}

void sleep_forever() {
    for (;;) pause();
}

} // namespace

int main(int argc, char **argv) {
    const std::string mode = argc > 1 ? argv[1] : "ok";
    const int out_fd = fd_argument(argc, argv, "--channel-out=");
    WorkerChannel channel(fd_argument(argc, argv, "--channel-in="), out_fd);
    const auto greeting = channel.receive();
    if (!greeting) return 2;
    channel.set_nonce(mode == "wrong-hello" ? 1 : greeting->at("nonce").get<std::uint64_t>());
    if (mode == "crash-on-start") std::raise(SIGSEGV);
    DeviceInfo device;
    device.present = true;
    device.name = "Stand-in GPU";
    channel.send({{"event", event::hello}, {"device", device}, {"solve_error", mode == "no-solve" ? "no solve" : ""}});
    int cases_seen = 0;
    while (auto message = channel.receive()) {
        const auto request = message->get<CaseRequest>();
        const TestCase &tc = request.testcase;
        channel.set_nonce(request.nonce);
        ++cases_seen;
        channel.send({{"event", event::judge}});
        if (mode == "hang-in-judge") sleep_forever();
        channel.send({{"event", event::call}});
        if (mode == "hang-in-call") sleep_forever();
        if (mode == "crash" || (mode == "crash-second-case" && cases_seen == 2)) std::raise(SIGSEGV);
        if (mode == "exit0") std::exit(0);
        if (mode == "abort") std::abort();
        if (mode == "close-channel") {
            close(out_fd);
            usleep(100000);
            std::exit(0);
        }
        if (mode == "garbage-channel") {
            const char garbage[] = "AC AC AC\n";
            write(out_fd, garbage, sizeof garbage - 1);
            sleep_forever();
        }
        if (mode == "forge-result") {
            // What a solution could write blindly to the judge's descriptor: a perfect
            // result, but without the request's nonce.
            WorkerChannel forger(-1, out_fd);
            forger.send(accepted(tc));
            sleep_forever();
        }
        if (mode == "write-every-fd") {
            // Everything but its own channel: a descriptor the judge left open would show it.
            for (int fd = 3; fd < 256; ++fd)
                if (fd != out_fd) (void)!write(fd, "leak\n", 5);
        }
        if (mode == "garbage-stdout") std::printf("{\"event\":\"result\",\"verdict\":\"AC\"}\nAC\n");
        if (mode == "flood") {
            std::string line(1023, 'x');
            for (int i = 0; i < 10240; ++i) std::printf("%s\n", line.c_str());
            std::printf("last line\n");
        }
        std::fflush(stdout);
        channel.send({{"event", event::judge}});
        channel.send(accepted(tc, request.policy));
    }
    return 0;
}
