#include "channel/runner_protocol.hpp"

#include <chrono>
#include <cmath>
#include <csignal>
#include <poll.h>
#include <stdexcept>
#include <unistd.h>

namespace gemm {

using nlohmann::json;

namespace {

const char *work_name(RunnerWork w) {
    switch (w) {
    case RunnerWork::Solve: return "solve";
    case RunnerWork::Cublas: return "cublas";
    case RunnerWork::Nothing: return "nothing";
    case RunnerWork::Calibration: return "stand-in";
    }
    return "solve";
}

RunnerWork parse_work(const std::string &name) {
    if (name == "solve") return RunnerWork::Solve;
    if (name == "cublas") return RunnerWork::Cublas;
    if (name == "nothing") return RunnerWork::Nothing;
    if (name == "stand-in") return RunnerWork::Calibration;
    throw std::invalid_argument("unknown work " + name);
}

} // namespace

void to_json(json &j, const ProductLayout &l) {
    j = json{
        {"batch", l.batch}, {"a_t", l.a_transposed}, {"b_t", l.b_transposed},           {"a_diagonal", l.a_diagonal},
        {"bias", l.bias},   {"factor", l.factor},    {"scalar_output", l.scalar_output}};
    if (l.element_bytes != 4) j["element_bytes"] = l.element_bytes;
    if (l.c_read) j["c_read"] = true;
    if (l.bfloat16) j["bf16"] = true;
}

void from_json(const json &j, ProductLayout &l) {
    j.at("batch").get_to(l.batch);
    j.at("a_t").get_to(l.a_transposed);
    j.at("b_t").get_to(l.b_transposed);
    j.at("a_diagonal").get_to(l.a_diagonal);
    l.bias = j.value("bias", false);
    l.factor = j.value("factor", false);
    l.scalar_output = j.value("scalar_output", false);
    l.element_bytes = j.value("element_bytes", 4);
    l.c_read = j.value("c_read", false);
    l.bfloat16 = j.value("bf16", false);
    if (l.element_bytes != 1 && l.element_bytes != 2 && l.element_bytes != 4)
        throw std::invalid_argument("elements of 1, 2 or 4 bytes only");
    if (l.bfloat16 && l.element_bytes != 2) throw std::invalid_argument("BF16 elements of other than 2 bytes");
    if (l.batch < 1) throw std::invalid_argument("a batch of fewer than one product");
}

void to_json(json &j, const Epilogue &e) {
    j = json::array();
    for (int i = 0; i < e.count; ++i)
        j.push_back({{"op", static_cast<int>(e.steps[i].op)}, {"parameter", e.steps[i].parameter}});
}

void from_json(const json &j, Epilogue &e) {
    e = Epilogue{};
    if (!j.is_array() || j.size() > std::size_t(Epilogue::max_steps))
        throw std::invalid_argument("an epilogue is a list of at most 4 steps");
    for (const auto &step : j) {
        const int op = step.at("op").get<int>();
        if (op < 0 || op > static_cast<int>(EpilogueOp::SigmoidSum))
            throw std::invalid_argument("unknown epilogue step");
        e.steps[e.count++] = {static_cast<EpilogueOp>(op), step.at("parameter").get<double>()};
    }
}

void to_json(json &j, const CallOrder &o) {
    j = json{
        {"M", o.M},        {"N", o.N},        {"K", o.K},       {"layout", o.layout},   {"a", o.a_offset},
        {"b", o.b_offset}, {"c", o.c_offset}, {"dims", o.dims}, {"scalars", o.scalars}, {"work", work_name(o.work)}};
    if (o.layout.bias) j["bias"] = o.bias_offset;
    if (o.layout.factor) j["factor"] = o.factor_offset;
    if (!o.epilogue.empty()) j["epilogue"] = o.epilogue;
    if (o.work == RunnerWork::Calibration) {
        j["stand_in_ns"] = o.calibration_ns;
        j["stand_in_kind"] = calibration_kind_name(o.calibration_kind);
    }
}

void from_json(const json &j, CallOrder &o) {
    j.at("M").get_to(o.M);
    j.at("N").get_to(o.N);
    j.at("K").get_to(o.K);
    j.at("a").get_to(o.a_offset);
    j.at("b").get_to(o.b_offset);
    j.at("c").get_to(o.c_offset);
    o.layout = j.value("layout", ProductLayout{});
    o.bias_offset = j.value("bias", std::size_t{0});
    o.factor_offset = j.value("factor", std::size_t{0});
    o.epilogue = j.value("epilogue", Epilogue{});
    o.dims = j.value("dims", std::vector<long long>{});
    o.scalars = j.value("scalars", std::map<std::string, double>{});
    o.work = parse_work(j.at("work").get<std::string>());
    o.calibration_ns = j.value("stand_in_ns", 0ULL);
    const std::string kind = j.value("stand_in_kind", std::string(calibration_kind_name(CalibrationKind::Light)));
    const auto parsed = parse_calibration_kind(kind);
    if (!parsed) throw std::invalid_argument("unknown stand-in kind " + kind);
    o.calibration_kind = *parsed;
}

void RunnerLink::stop_between_exchanges(pid_t process_group) {
    group_ = process_group;
    pause();
}

void RunnerLink::resume() {
    if (group_ > 0) kill(-group_, SIGCONT);
}

void RunnerLink::pause() {
    if (group_ > 0) kill(-group_, SIGSTOP);
}

RunnerReply RunnerLink::await(const char *expected, double spin_ms) {
    RunnerReply reply;
    std::optional<json> message;
    try {
        if (spin_ms > 0) channel_.await_readable(spin_ms);
        message = channel_.receive();
    } catch (const std::exception &e) {
        reply.kind = RunnerReply::Kind::Violation;
        reply.why = e.what();
        return reply;
    }
    if (!message) return reply; // Lost
    const std::string event = message->value("event", "");
    if (event == runner_event::failed) {
        reply.kind = RunnerReply::Kind::Failed;
        const auto why = message->find("why");
        reply.why = why != message->end() && why->is_string() ? why->get<std::string>() : "the call failed";
        return reply;
    }
    if (event != expected) {
        reply.kind = RunnerReply::Kind::Violation;
        reply.why = "expected \"" + std::string(expected) + "\", got: " + message->dump().substr(0, 120);
        return reply;
    }
    reply.kind = RunnerReply::Kind::Done;
    if (event == runner_event::returned) {
        const auto own = message->find("own_ms");
        if (own != message->end() && own->is_number()) {
            const double ms = own->get<double>();
            if (std::isfinite(ms) && ms >= 0) reply.own_events_ms = ms;
        }
    }
    if (event == runner_event::hello) {
        const auto error = message->find("solve_error");
        if (error == message->end() || !error->is_string()) {
            reply.kind = RunnerReply::Kind::Violation;
            reply.why = "a hello without solve_error";
        } else {
            reply.solve_error = error->get<std::string>();
        }
    }
    return reply;
}

RunnerReply RunnerLink::exchange(const json &message, const char *expected, int fd) {
    resume();
    RunnerReply reply;
    if (channel_.send(message, fd)) reply = await(expected);
    pause();
    return reply;
}

RunnerReply RunnerLink::hello() { return await(runner_event::hello); }

RunnerReply RunnerLink::map(int allocation_fd, std::size_t bytes) {
    return exchange({{"event", runner_event::map}, {"bytes", bytes}}, runner_event::mapped, allocation_fd);
}

void RunnerLink::arm(const CallOrder &order) {
    resume();
    int fd = -1;
    if (!doorbell_.attached()) {
        if (!doorbell_.create()) throw std::runtime_error("cannot make the runner's doorbell (memfd)");
        fd = doorbell_.share();
    }
    armed_ = channel_.send({{"event", runner_event::call}, {"order", order}, {"seq", ++seq_}}, fd);
    if (fd >= 0) close(fd);
}

void RunnerLink::go() {
    if (!armed_) return; // its end closed before the order: answer() says Lost
    doorbell_.ring_go(seq_);
    // "done" lies between the referee's stamps: a sleeping referee wakes up to 0.1 ms late
    // after a long call (measured on the H200), so it spins for it, for a second at most
    // (a call that long has TLE to fear more than lateness), and looks at the socket now
    // and then for a message (a failure, or the runner's end closing).
    using clock = std::chrono::steady_clock;
    const auto until = clock::now() + std::chrono::seconds(1);
    for (unsigned spins = 1;; ++spins) {
        if (doorbell_.done_rung(seq_)) return;
        if (spins % 256 == 0 && (channel_.readable_now() || clock::now() >= until)) break;
    }
    // Never back before the runner said something (an answer stamp made while its call
    // still runs would snapshot C half written): asleep now, as "returned" follows "done".
    while (!doorbell_.done_rung(seq_) && !channel_.readable_now()) {
        pollfd readable{channel_.fd(), POLLIN, 0};
        poll(&readable, 1, 100);
    }
}

RunnerReply RunnerLink::answer() {
    if (!armed_) return RunnerReply{}; // Lost: its end closed before the order
    armed_ = false;
    return await(runner_event::returned, 1000);
}

RunnerReply RunnerLink::call(const CallOrder &order) {
    arm(order);
    go();
    const RunnerReply reply = answer();
    rest();
    return reply;
}

} // namespace gemm
