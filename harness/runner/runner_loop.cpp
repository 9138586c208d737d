#include "runner/runner_loop.hpp"

#include <unistd.h>

namespace gemm {

namespace {
constexpr double order_spin_ms = 20;
} // namespace

int serve_referee(SocketChannel &referee, RunnerBackend &backend) {
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
            // The order comes before the referee's clock starts; the call is made at "go".
            std::optional<nlohmann::json> go;
            try {
                referee.await_readable(order_spin_ms);
                go = referee.receive();
            } catch (const std::exception &) {
                return 2;
            }
            if (!go) return 0;
            if (go->value("event", "") != runner_event::go) return 2;
            const CallOutcome outcome = backend.call(order);
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
