#include "batch/lanes.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace gemm::batch {

namespace {

class Queue {
  public:
    Queue(std::size_t jobs, std::size_t lookahead) : jobs_(jobs), lookahead_(lookahead) {}

    // The next submission for a lane, or false when none is left. A submission a compiler
    // has begun is the lane's once that compile ends: its judge finds the library cached
    // instead of compiling it a second time beside the first.
    bool next_to_judge(std::size_t &job) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (judged_ >= jobs_) return false;
        job = judged_++;
        changed_.notify_all();
        const std::size_t mine = job;
        changed_.wait(lock, [&] { return compiling_.count(mine) == 0; });
        return true;
    }

    // The next submission to compile ahead, waiting while the compilers are far enough
    // ahead; false when none is left to compile before a lane takes it.
    bool next_to_compile(std::size_t &job) {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            if (compiled_ < judged_) compiled_ = judged_; // the lanes overtook: theirs compile themselves
            if (compiled_ >= jobs_) return false;
            if (compiled_ < judged_ + lookahead_) {
                job = compiled_++;
                compiling_.insert(job);
                return true;
            }
            changed_.wait(lock);
        }
    }

    void compiled(std::size_t job) {
        std::lock_guard<std::mutex> lock(mutex_);
        compiling_.erase(job);
        changed_.notify_all();
    }

    void finish() {
        std::lock_guard<std::mutex> lock(mutex_);
        judged_ = jobs_;
        changed_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    const std::size_t jobs_, lookahead_;
    std::size_t judged_ = 0, compiled_ = 0;
    std::set<std::size_t> compiling_; // handed to a compiler, its compile not yet ended
};

} // namespace

void run_lanes(std::size_t jobs, std::size_t lanes, std::size_t compilers, const LaneWork &work) {
    Queue queue(jobs, lanes + compilers);
    std::vector<std::thread> lane_threads, compiler_threads;
    for (std::size_t lane = 0; lane < lanes; ++lane)
        lane_threads.emplace_back([&, lane] {
            for (std::size_t job; queue.next_to_judge(job);) {
                try {
                    work.judge(job, lane);
                } catch (const std::exception &e) {
                    if (work.failed) work.failed(job, lane, e.what());
                } catch (...) {
                    if (work.failed) work.failed(job, lane, "an unknown error");
                }
            }
        });
    if (work.compile_ahead)
        for (std::size_t i = 0; i < compilers; ++i)
            compiler_threads.emplace_back([&] {
                for (std::size_t job; queue.next_to_compile(job);) {
                    try {
                        work.compile_ahead(job);
                    } catch (...) {
                        // Compiling ahead only saves time: the lane's judge compiles it again.
                    }
                    queue.compiled(job);
                }
            });
    for (auto &thread : lane_threads) thread.join();
    queue.finish();
    for (auto &thread : compiler_threads) thread.join();
}

} // namespace gemm::batch
