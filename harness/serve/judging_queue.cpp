#include "serve/judging_queue.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

namespace gemm::serve {

namespace fs = std::filesystem;

JudgingQueue::JudgingQueue(JudgeProgram program, std::string solutions_folder, std::size_t per_token_limit)
    : program_(std::move(program)), solutions_folder_(std::move(solutions_folder)), per_token_limit_(per_token_limit),
      worker_([this] { judge_in_turn(); }) {}

JudgingQueue::~JudgingQueue() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    work_.notify_all();
    worker_.join();
}

std::variant<JudgingQueue::Accepted, std::string> JudgingQueue::submit(const std::string &token, JudgingKind kind,
                                                                       const std::string &file_name,
                                                                       const std::string &source,
                                                                       const std::string &problem) {
    std::lock_guard<std::mutex> lock(mutex_);
    // One whose last event is out is no longer anyone's, though the worker may not have let go of it yet.
    const bool busy = judging_ && !judging_->finished();
    std::size_t held = busy && judging_->token == token ? 1 : 0;
    for (const auto &s : waiting_) held += s->token == token;
    if (held >= per_token_limit_)
        return fmt::format("the queue already holds {} of your submissions, the most one browser may have waiting; "
                           "submit again when one of them has been judged",
                           held);
    auto submission = std::make_shared<Submission>(next_id_++, token, kind, file_name, source, problem);
    const std::size_t ahead = waiting_.size() + (busy ? 1 : 0);
    submission->add({{"event", "queued"},
                     {"position", ahead},
                     {"kind", judging_kind_name(kind)},
                     {"file", file_name},
                     {"problem", problem.empty() ? nlohmann::json() : nlohmann::json(problem)}});
    waiting_.push_back(submission);
    all_[submission->id] = submission;
    work_.notify_all();
    return Accepted{submission, ahead};
}

std::shared_ptr<Submission> JudgingQueue::find(long long id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = all_.find(id);
    return found == all_.end() ? nullptr : found->second;
}

void JudgingQueue::tell_positions() {
    std::size_t ahead = judging_ ? 1 : 0;
    for (const auto &s : waiting_) s->add({{"event", "queued"}, {"position", ahead++}});
}

void JudgingQueue::judge_in_turn() {
    for (;;) {
        std::shared_ptr<Submission> next;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            work_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
            if (stopping_) return;
            next = judging_ = waiting_.front();
            waiting_.pop_front();
            tell_positions();
        }
        // The file the judge reads, written only now: while one judging runs, the next
        // submission of the same name waits in memory.
        const fs::path source = fs::path(solutions_folder_) / next->file_name;
        try {
            std::ofstream(source, std::ios::binary | std::ios::trunc) << next->source;
            const auto ending = judge_submission(program_, *next, source.string());
            next->finish(
                {{"event", "judge_exited"}, {"exit_status", ending.shell_status()}, {"console", ending.output}});
        } catch (const std::exception &e) {
            next->finish({{"event", "judge_exited"}, {"exit_status", -1}, {"console", e.what()}});
        }
        std::lock_guard<std::mutex> lock(mutex_);
        judging_.reset();
        tell_positions();
    }
}

} // namespace gemm::serve
