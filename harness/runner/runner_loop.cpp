#include "runner/runner_loop.hpp"

#include "channel/doorbell.hpp"

#include <cstdint>
#include <unistd.h>

namespace gemm {

namespace {
constexpr double order_spin_ms = 20;
} // namespace

int serve_referee(SocketChannel &referee, RunnerBackend &backend) {
    Doorbell doorbell; // "go" and "done" (channel/doorbell.hpp), handed over with the first order
    for (;;) {
        std::optional<nlohmann::json> message;
        try {
            // Awake for the next order (the referee continues this process with it):
            // spinning, not sleeping, so that "go" is read without a wake-up's delay.
            referee.await_readable(order_spin_ms);
            message = referee.receive();
        } catch (const std::exception &) {
            return 2;
        }
        if (!message) return 0;
        const std::string event = message->value("event", "");
        std::string failure;
        nlohmann::json answer_data = nlohmann::json::object();
        const char *answer = nullptr;
        if (event == runner_event::map) {
            const int fd = referee.take_fd();
            failure = fd < 0 ? "the map order came without a descriptor"
                             : backend.map(fd, message->at("bytes").get<std::size_t>());
            answer = runner_event::mapped;
        } else if (event == runner_event::call) {
            const CallOrder order = message->at("order").get<CallOrder>();
            const std::uint64_t seq = message->value("seq", std::uint64_t{0});
            if (const int fd = referee.take_fd(); fd >= 0 && !doorbell.attach(fd)) return 2;
            // The order comes before the referee's clock starts; the call is made at "go",
            // spun for (a message instead, or the referee gone, ends this process).
            if (!doorbell.attached() || seq == 0) return 2;
            for (unsigned spins = 1; !doorbell.go_rung(seq); ++spins)
                if (spins % 256 == 0 && referee.readable_now()) return 2;
            const CallOutcome outcome = backend.call(order);
            if (outcome.failure.empty()) doorbell.ring_done(seq);
            failure = outcome.failure;
            if (outcome.own_events_ms) answer_data["own_ms"] = *outcome.own_events_ms;
            answer = runner_event::returned;
        } else {
            return 2;
        }
        if (!failure.empty()) {
            referee.send({{"event", runner_event::failed}, {"why", failure}});
            return 1; // the context may be unusable: the judge starts a fresh runner
        }
        answer_data["event"] = answer;
        if (!referee.send(answer_data)) return 0;
    }
}

} // namespace gemm
