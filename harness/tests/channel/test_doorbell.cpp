// The doorbell (channel/doorbell.hpp) and the call it carries: "go" and "done" rung in
// one page seen in another mapping of it, and a referee's end that comes back only once
// the runner rang "done" or said something, never while its call runs.
#include <doctest/doctest.h>

#include "channel/doorbell.hpp"
#include "channel/runner_protocol.hpp"
#include "runner/runner_loop.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace gemm;

namespace {

// A runner's backend that takes `call_ms` over each call and counts them.
class SlowBackend : public RunnerBackend {
  public:
    explicit SlowBackend(int call_ms) : call_ms_(call_ms) {}
    std::string map(int fd, std::size_t) override {
        close(fd);
        return "";
    }
    CallOutcome call(const CallOrder &) override {
        std::this_thread::sleep_for(std::chrono::milliseconds(call_ms_));
        ++calls;
        return CallOutcome{"", 0.25};
    }
    std::atomic<int> calls{0};

  private:
    int call_ms_;
};

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST_CASE("a doorbell rung in one mapping is seen in another, call by call") {
    Doorbell referee_end, runner_end;
    REQUIRE(referee_end.create());
    REQUIRE(runner_end.attach(referee_end.share()));
    CHECK_FALSE(runner_end.go_rung(1));
    referee_end.ring_go(1);
    CHECK(runner_end.go_rung(1));
    CHECK_FALSE(runner_end.go_rung(2));
    CHECK_FALSE(referee_end.done_rung(1));
    runner_end.ring_done(1);
    CHECK(referee_end.done_rung(1));
    runner_end.ring_done(7); // a runner ringing for another call rings nothing for this one
    CHECK_FALSE(referee_end.done_rung(1));
}

TEST_CASE("the doorbell's page cannot be shrunk or grown by the runner it is handed to") {
    Doorbell referee_end;
    REQUIRE(referee_end.create());
    const int handed = referee_end.share();
    REQUIRE(handed >= 0);
    CHECK(ftruncate(handed, 0) != 0);
    CHECK(errno == EPERM);
    CHECK(ftruncate(handed, 1 << 20) != 0);
    close(handed);
    referee_end.ring_go(3); // the referee's page is still there
    CHECK(referee_end.go_rung(3));
}

TEST_CASE("a call through the doorbell waits for the runner's call and reads its answer after it") {
    int pair[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
    SlowBackend backend(30);
    std::thread runner([&] {
        SocketChannel channel(pair[1]);
        serve_referee(channel, backend);
    });
    {
        RunnerLink link(pair[0]);
        for (int call = 1; call <= 3; ++call) {
            CallOrder order;
            order.M = order.N = order.K = 1;
            link.arm(order);
            const auto start = std::chrono::steady_clock::now();
            link.go();
            CHECK(ms_since(start) >= 25); // not back while the call runs
            CHECK(backend.calls == call);
            const RunnerReply reply = link.answer();
            CHECK(reply.kind == RunnerReply::Kind::Done);
            REQUIRE(reply.own_events_ms);
            CHECK(*reply.own_events_ms == doctest::Approx(0.25));
            link.rest();
        }
    }
    close(pair[0]); // the referee's end closes: the runner's loop ends
    runner.join();
    close(pair[1]);
}

TEST_CASE("a runner that answers on its socket without ringing is heard, and one that dies is lost") {
    int pair[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
    std::thread runner([&] {
        SocketChannel channel(pair[1]);
        channel.await_readable(100);
        REQUIRE(channel.receive()); // the first order; "returned" at once, nothing rung
        channel.send({{"event", runner_event::returned}});
        channel.await_readable(100);
        REQUIRE(channel.receive()); // the second order: gone without a word
    });
    RunnerLink link(pair[0]);
    CallOrder order;
    link.arm(order);
    link.go();
    CHECK(link.answer().kind == RunnerReply::Kind::Done);
    link.arm(order);
    runner.join();
    close(pair[1]);
    link.go();
    CHECK(link.answer().kind == RunnerReply::Kind::Lost);
}
