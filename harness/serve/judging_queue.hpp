// One judging at a time from this server, in the order submitted: the GPU's time is what
// is being measured, and two judges sharing it would disturb each other's times (across
// processes the judges also take turns on the GPU: judging/os/gpu_turn.hpp). A waiting
// submission is told its position whenever it moves. One browser (one token) may have at
// most a few submissions waiting or being judged, so one page cannot fill the queue for
// everyone.
#pragma once

#include "serve/judging_events.hpp"
#include "serve/submission.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

namespace gemm::serve {

class JudgingQueue {
  public:
    // Submitted files are written into `solutions_folder`, one file per name, so that every
    // attempt at "tiled.cu" is one solution in the history.
    JudgingQueue(JudgeProgram program, std::string solutions_folder, std::size_t per_token_limit);
    ~JudgingQueue();
    JudgingQueue(const JudgingQueue &) = delete;
    JudgingQueue &operator=(const JudgingQueue &) = delete;

    struct Accepted {
        std::shared_ptr<Submission> submission;
        std::size_t position = 0; // submissions ahead of it: 0 when it is judged at once
    };
    // The submission queued, or why it was refused (the token's queue is full). `problem`: a
    // name of the problem list, or empty for the judge to choose.
    std::variant<Accepted, std::string> submit(const std::string &token, JudgingKind kind, const std::string &file_name,
                                               const std::string &source, const std::string &problem);
    std::shared_ptr<Submission> find(long long id) const;

  private:
    void judge_in_turn();
    void tell_positions(); // with mutex_ held
    JudgeProgram program_;
    std::string solutions_folder_;
    std::size_t per_token_limit_;
    mutable std::mutex mutex_;
    std::condition_variable work_;
    std::deque<std::shared_ptr<Submission>> waiting_;
    std::shared_ptr<Submission> judging_;
    std::map<long long, std::shared_ptr<Submission>> all_;
    long long next_id_ = 1;
    bool stopping_ = false;
    std::thread worker_;
};

} // namespace gemm::serve
