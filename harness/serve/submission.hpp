// One solution sent to be judged, and everything that has happened to it so far: the
// events a browser reads, in order, as many times and from whichever point it asks
// (a page reloaded in the middle of a run catches up, then follows).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gemm::serve {

// What a submission asks for: Run (the sample cases), Submit (the default suite) or Rank.
enum class JudgingKind { run, submit, rank };

// "run" → JudgingKind::run …; false for any other word.
bool parse_judging_kind(const std::string &word, JudgingKind &kind);
const char *judging_kind_name(JudgingKind kind);

class Submission {
  public:
    Submission(long long id, std::string token, JudgingKind kind, std::string file_name, std::string source,
               std::string problem)
        : id(id), token(std::move(token)), kind(kind), file_name(std::move(file_name)), source(std::move(source)),
          problem(std::move(problem)) {}

    const long long id;
    const std::string token; // whose it is: the per-browser cap counts by it
    const JudgingKind kind;
    const std::string file_name; // as the user named it: "tiled.cu"
    const std::string source;
    const std::string problem; // the judge's --problem; empty: the judge chooses, as ./judge FILE does

    // Adds an event (an object with an "event" key); every reader waiting is woken.
    void add(nlohmann::json event);
    // The last event: nothing is added after it.
    void finish(nlohmann::json event);
    // The events from `from` on (as JSON text, one per element), waiting up to `wait` for
    // one when there is none yet. `finished`: no more will come after these.
    std::vector<std::string> events_from(std::size_t from, std::chrono::milliseconds wait, bool &finished) const;
    bool finished() const;

  private:
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::vector<std::string> events_;
    bool finished_ = false;
};

} // namespace gemm::serve
