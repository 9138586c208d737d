#include "serve/submission.hpp"

namespace gemm::serve {

bool parse_judging_kind(const std::string &word, JudgingKind &kind) {
    for (const JudgingKind k : {JudgingKind::run, JudgingKind::submit, JudgingKind::rank})
        if (word == judging_kind_name(k)) {
            kind = k;
            return true;
        }
    return false;
}

const char *judging_kind_name(JudgingKind kind) {
    switch (kind) {
    case JudgingKind::run: return "run";
    case JudgingKind::submit: return "submit";
    case JudgingKind::rank: return "rank";
    }
    return "?";
}

void Submission::add(nlohmann::json event) {
    const std::string text = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (finished_) return;
        events_.push_back(text);
    }
    changed_.notify_all();
}

void Submission::finish(nlohmann::json event) {
    add(std::move(event));
    {
        std::lock_guard<std::mutex> lock(mutex_);
        finished_ = true;
    }
    changed_.notify_all();
}

std::vector<std::string> Submission::events_from(std::size_t from, std::chrono::milliseconds wait,
                                                 bool &finished) const {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, wait, [&] { return finished_ || events_.size() > from; });
    finished = finished_;
    if (from >= events_.size()) return {};
    return {events_.begin() + static_cast<long>(from), events_.end()};
}

bool Submission::finished() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return finished_;
}

} // namespace gemm::serve
