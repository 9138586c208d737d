// The channel between the referee (trusted, never loads the solution) and a runner
// (the process that calls solve(), or cuBLAS, or nothing, on GPU memory the referee
// owns). The referee orders; the runner answers. The only answer believed is that the
// call returned: the referee decides everything else from what it observes itself.
//   referee → runner: map {bytes} + a descriptor of the CUDA allocation;
//                     call {order, seq} (+ the doorbell's descriptor, the first time)
//   runner → referee: hello {solve_error}; mapped; returned {own_ms}; failed {why}
// A call's order comes before the referee's clock starts; "go" (after the inputs exist)
// and "done" (the call returned) are rung on the doorbell (channel/doorbell.hpp), so
// that between the clock's stamps the host does as little as it can: its share of a
// call's time drifts with the machine's load (docs/perf-notes.md, runs W–Z). The
// runner's message ("returned" with its own events, or "failed") is read after "done".
#pragma once

#include "channel/doorbell.hpp"
#include "channel/socket_channel.hpp"
#include "common/epilogue.hpp"
#include "common/product_layout.hpp"
#include "measurement/calibration_kind.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace gemm {

// What a runner calls: the solution, cuBLAS SGEMM (the baseline), nothing (the empty
// call, whose cost is subtracted from every time), or a calibration call: a kernel of the
// baseline runner's own that keeps every SM busy for a set time and then writes C, the
// empty call for a solution of that length (what a call costs beyond its own work grows
// with the work's length: referee/case_referee.cpp, settle_offset).
enum class RunnerWork { Solve, Cublas, Nothing, Calibration };

// One call: the shape and where A, B and C start in the shared allocation, in bytes.
struct CallOrder {
    int M = 0, N = 0, K = 0;
    ProductLayout layout;                  // how A, B and C are stored (batch, transposes, a diagonal)
    std::vector<long long> dims;           // the case's own dims, the entry point's integer arguments (entry_plan.hpp)
    std::map<std::string, double> scalars; // the call's scalar arguments by role ("nnz")
    std::size_t a_offset = 0, b_offset = 0, c_offset = 0;
    std::size_t bias_offset = 0, factor_offset = 0; // where the layout has them
    Epilogue epilogue;                              // what the baseline does after cuBLAS's product
    RunnerWork work = RunnerWork::Solve;
    unsigned long long calibration_ns = 0;                     // Calibration: how long its kernel keeps the SMs busy
    CalibrationKind calibration_kind = CalibrationKind::Light; // Calibration: what its kernel does meanwhile
};

void to_json(nlohmann::json &j, const ProductLayout &l);
void from_json(const nlohmann::json &j, ProductLayout &l); // throws std::invalid_argument for batch < 1
void to_json(nlohmann::json &j, const Epilogue &e);
void from_json(const nlohmann::json &j, Epilogue &e); // throws for an unknown step or too many
void to_json(nlohmann::json &j, const CallOrder &o);
void from_json(const nlohmann::json &j, CallOrder &o);

namespace runner_event {
constexpr const char *hello = "hello";       // runner → referee: {solve_error}
constexpr const char *mapped = "mapped";     // runner → referee: the allocation is mapped
constexpr const char *returned = "returned"; // runner → referee: the call returned {own_ms: its own events}
constexpr const char *failed = "failed";     // runner → referee: {why}; the runner exits after it
constexpr const char *map = "map";           // referee → runner: {bytes} + descriptor
constexpr const char *call = "call";         // referee → runner: {order, seq}, before the clock starts
} // namespace runner_event

// A runner's answer, reduced to what the referee may conclude from it.
struct RunnerReply {
    enum class Kind {
        Done,      // "returned" / "mapped" / the hello
        Failed,    // the runner says its call failed (believed: it can only hurt itself)
        Lost,      // the runner's end closed: it died, exited or was killed
        Violation, // it said something that is not the protocol's answer
    };
    Kind kind = Kind::Lost;
    std::string why;         // Failed, Violation: in words
    std::string solve_error; // the hello's
    // "returned"'s own_ms: the runner's CUDA events around the call, as it tells them.
    // A cross-check the referee reports; a runner that lies about it changes no time.
    std::optional<double> own_events_ms;
};

// The referee's end of one runner. When a process group is set, the runner is stopped
// (SIGSTOP) between exchanges, so nothing it runs on the host can start GPU work while
// the referee measures or checks.
class RunnerLink {
  public:
    explicit RunnerLink(int socket_fd) : channel_(socket_fd) {}
    void stop_between_exchanges(pid_t process_group);
    pid_t process_group() const { return group_; } // 0 until stop_between_exchanges
    RunnerReply hello();
    RunnerReply map(int allocation_fd, std::size_t bytes);
    // Before the clock starts: continues the runner and gives it the order, which it
    // reads and then waits, spinning, for "go" (a process continued only at "go" would
    // wake tens of µs late, inside the clock's stamps).
    void arm(const CallOrder &order);
    // On the clock: rings "go", and returns once the runner rang "done" or has a
    // message (spinning for a second, then sleeping until then).
    void go();
    // The runner's message about the call: read after the stamp that ends its turn.
    RunnerReply answer();
    // After that: the runner stopped again.
    void rest() { pause(); }
    // Where no clock runs between them (tests): arm, go, answer, rest.
    RunnerReply call(const CallOrder &order);

  private:
    RunnerReply exchange(const nlohmann::json &message, const char *expected, int fd = -1);
    RunnerReply await(const char *expected, double spin_ms = 0);
    void resume();
    void pause();
    SocketChannel channel_;
    pid_t group_ = 0;
    bool armed_ = false;    // the last order reached the runner
    Doorbell doorbell_;     // made and handed over with the first order
    std::uint64_t seq_ = 0; // the call ordered last
};

} // namespace gemm
