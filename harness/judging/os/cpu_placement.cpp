#include "judging/os/cpu_placement.hpp"
#include "judging/os/lock_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sys/file.h>
#include <unistd.h>

namespace gemm {

namespace {

constexpr int fewest_cpus = 3; // the pair, and one for the supervisor and the system

std::optional<int> parse_number(const std::string &text) {
    if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoi(text);
}

std::vector<int> allowed_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    return cpus;
}

// The hyperthreads that share `cpu`'s core, itself included; none where the kernel does not say.
std::vector<int> thread_siblings(int cpu) {
    std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/thread_siblings_list");
    std::string text;
    if (!std::getline(in, text)) return {};
    return parse_cpu_list(text).value_or(std::vector<int>{});
}

// A lock file per CPU, shared by every judge on the machine (judging/os/lock_file.hpp).
int open_lock(const std::string &lock_dir, int cpu) {
    return open_shared_lock_file(lock_dir + "/gemm-judge-cpu-" + std::to_string(cpu) + ".lock");
}

} // namespace

std::optional<std::vector<int>> parse_cpu_list(const std::string &text) {
    std::vector<int> cpus;
    std::string rest = text;
    while (!rest.empty() && (rest.back() == '\n' || rest.back() == ' ')) rest.pop_back();
    if (rest.empty()) return std::nullopt;
    std::size_t start = 0;
    while (start <= rest.size()) {
        const std::size_t comma = std::min(rest.find(',', start), rest.size());
        const std::string item = rest.substr(start, comma - start);
        const std::size_t dash = item.find('-');
        const auto first = parse_number(item.substr(0, dash));
        const auto last = dash == std::string::npos ? first : parse_number(item.substr(dash + 1));
        if (!first || !last || *last < *first) return std::nullopt;
        for (int cpu = *first; cpu <= *last; ++cpu) cpus.push_back(cpu);
        start = comma + 1;
    }
    return cpus;
}

std::optional<CpuPair> choose_cpu_pair(std::vector<int> allowed, const std::function<bool(int)> &claim,
                                       const std::function<void(int)> &release,
                                       const std::function<std::vector<int>(int)> &siblings) {
    std::sort(allowed.rbegin(), allowed.rend());
    allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
    if (static_cast<int>(allowed.size()) < fewest_cpus) return std::nullopt;
    std::vector<int> granted;
    CpuPair pair;
    for (int cpu : allowed) {
        if (!claim(cpu)) continue;
        if (pair.runners < 0) {
            pair.runners = cpu;
            continue;
        }
        const std::vector<int> shared = siblings(pair.runners);
        if (std::find(shared.begin(), shared.end(), cpu) == shared.end()) {
            pair.referee = cpu;
            break;
        }
        granted.push_back(cpu); // a sibling of the runners': the referee's if nothing better is free
    }
    if (pair.referee < 0 && !granted.empty()) {
        pair.referee = granted.front();
        granted.erase(granted.begin());
    }
    for (int cpu : granted) release(cpu);
    if (pair.referee < 0) {
        if (pair.runners >= 0) release(pair.runners);
        return std::nullopt;
    }
    return pair;
}

std::unique_ptr<CpuClaim> CpuClaim::claim(const std::string &lock_dir) { return claim_among(allowed_cpus(), lock_dir); }

std::unique_ptr<CpuClaim> CpuClaim::claim_among(const std::vector<int> &allowed, const std::string &lock_dir) {
    std::unique_ptr<CpuClaim> c(new CpuClaim);
    std::vector<std::pair<int, int>> held; // cpu, fd
    int unopened = 0, open_error = 0;
    const auto take = [&](int cpu) {
        const int fd = open_lock(lock_dir, cpu);
        if (fd < 0) {
            ++unopened;
            open_error = errno;
            return false;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            close(fd);
            return false;
        }
        held.emplace_back(cpu, fd);
        return true;
    };
    const auto give_back = [&](int cpu) {
        for (auto it = held.begin(); it != held.end(); ++it)
            if (it->first == cpu) {
                close(it->second);
                held.erase(it);
                return;
            }
    };
    c->pair_ = choose_cpu_pair(allowed, take, give_back, thread_siblings);
    for (const auto &[cpu, fd] : held) c->lock_fds_.push_back(fd);
    if (!c->pair_)
        c->why_not_ =
            static_cast<int>(allowed.size()) < fewest_cpus ? "the judge may use " + std::to_string(allowed.size()) +
                                                                 " CPU(s), fewer than " + std::to_string(fewest_cpus)
            : unopened > 0 ? "its lock files in " + lock_dir + " cannot be opened: " + std::strerror(open_error)
                           : "no two of its CPUs were free of other judges (lock files in " + lock_dir + ")";
    return c;
}

std::shared_ptr<const CpuClaim> CpuClaim::none(std::string why) {
    std::shared_ptr<CpuClaim> c(new CpuClaim);
    c->why_not_ = std::move(why);
    return c;
}

std::shared_ptr<const CpuClaim> CpuClaim::for_this_judge() {
    static const std::shared_ptr<const CpuClaim> judge_wide = claim();
    return judge_wide;
}

CpuClaim::~CpuClaim() {
    for (int fd : lock_fds_) close(fd);
}

std::string CpuClaim::describe() const {
    if (!pair_) return "not pinned: " + why_not_;
    return "referee on CPU " + std::to_string(pair_->referee) + ", runners on CPU " + std::to_string(pair_->runners);
}

bool cpu_pinning_wanted() {
    const char *setting = std::getenv("GEMM_JUDGE_PIN_CPUS");
    return !setting || std::strcmp(setting, "0") != 0;
}

bool pin_to_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0;
}

} // namespace gemm
