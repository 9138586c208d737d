// expect: RE
// cases: secret/04-primes
// detail: broke the runner protocol
// Forges an "AC" from what its own process knows. The old judge stamped every message
// with a per-case nonce that the worker — the process running the solution — kept in its
// memory next to the channel's descriptors, and in the raw request line it had read. This
// solution reads its own and its parent's command line, finds the channel's descriptors in
// /proc/self/fd, scans every readable mapping of its own memory for an 8-byte word beside
// those descriptor numbers and for `"nonce":<digits>` text, writes a well-formed AC result
// of the old protocol (harness/channel/protocol.cpp) with each candidate to every
// descriptor 3..63 (non-blocking), computes no GEMM and _exit(0)s.
// Why the judge must hold: the runner holds no nonce, seed or key; the referee believes
// only "returned" and checks C itself: the forged line on the runner's socket breaks its
// protocol (RE), and a runner ending in the middle of a call without answering would be RE
// too, whatever it wrote and whatever its exit status (reading the parent's command line
// is blocked and named as well).
#include "hostile.cuh"

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace {

// The descriptors that lead out of the process: pipes and sockets.
std::set<int> channel_descriptors() {
    std::set<int> fds;
    for (int fd = 3; fd < 1024; ++fd) {
        const std::string target = hostile::link_target("/proc/self/fd/" + std::to_string(fd));
        if (target.rfind("pipe:", 0) == 0 || target.rfind("socket:", 0) == 0) fds.insert(fd);
    }
    return fds;
}

struct Mapping {
    uint64_t begin, end;
    std::string name;
};

// Readable mappings, device memory (/dev/nvidia*) and the kernel's special pages left out.
std::vector<Mapping> readable_mappings() {
    std::vector<Mapping> mappings;
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
        std::istringstream fields(line);
        std::string range, perms, offset, device, inode, name;
        fields >> range >> perms >> offset >> device >> inode;
        std::getline(fields, name);
        name.erase(0, name.find_first_not_of(' '));
        if (perms.empty() || perms[0] != 'r') continue;
        if (name.rfind("/dev/", 0) == 0 || name == "[vvar]" || name == "[vvar_vclock]" || name == "[vsyscall]")
            continue;
        Mapping m{std::strtoull(range.c_str(), nullptr, 16),
                  std::strtoull(range.c_str() + range.find('-') + 1, nullptr, 16), name};
        mappings.push_back(m);
    }
    return mappings;
}

// Candidate nonces in one chunk of memory: a nonzero word right after two descriptor
// numbers (WorkerChannel{in_fd_, out_fd_, nonce_}), or the digits after "nonce":.
void scan(const unsigned char *bytes, size_t size, const std::set<int> &fds, std::set<uint64_t> &found) {
    for (size_t i = 0; i + 16 <= size; i += 4) {
        int32_t a, b;
        std::memcpy(&a, bytes + i, 4);
        std::memcpy(&b, bytes + i + 4, 4);
        if (!fds.count(a) || !fds.count(b)) continue;
        uint64_t word;
        std::memcpy(&word, bytes + i + 8, 8);
        if (word != 0) found.insert(word);
    }
    static const char key[] = "\"nonce\":";
    const auto *end = bytes + size;
    for (auto *at = std::search(bytes, end, key, key + 8); at != end; at = std::search(at + 1, end, key, key + 8)) {
        uint64_t value = 0;
        const unsigned char *digit = at + 8;
        for (; digit < end && *digit >= '0' && *digit <= '9'; ++digit) value = value * 10 + (*digit - '0');
        if (digit > at + 8 && value != 0) found.insert(value);
    }
}

// Reads through /proc/self/mem, which answers EIO for a page it cannot read instead of
// the SIGSEGV a direct read would raise. At most 64 MiB a mapping and 512 MiB in all.
std::set<uint64_t> candidate_nonces(const std::set<int> &fds) {
    std::set<uint64_t> found;
    const int mem = ::open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
    if (mem < 0) return found;
    std::vector<unsigned char> chunk(1 << 20);
    uint64_t budget = 512ull << 20;
    for (const auto &m : readable_mappings()) {
        const uint64_t end = std::min<uint64_t>(m.end, m.begin + (64ull << 20));
        for (uint64_t at = m.begin; at < end && budget > 0 && found.size() < 64; at += chunk.size()) {
            const size_t want = static_cast<size_t>(std::min<uint64_t>(chunk.size(), end - at));
            const ssize_t n = ::pread(mem, chunk.data(), want, static_cast<off_t>(at));
            if (n <= 0) break;
            budget -= std::min<uint64_t>(budget, static_cast<uint64_t>(n));
            scan(chunk.data(), static_cast<size_t>(n), fds, found);
        }
    }
    ::close(mem);
    return found;
}

// A result line as the old worker's WorkerChannel::send wrote it: AC, a perfect check and
// a time no GPU can reach.
std::string forged_result(uint64_t nonce, int M, int N, int K) {
    char line[2048];
    std::snprintf(line, sizeof line,
                  "{\"event\":\"result\",\"worker_exits\":false,\"nonce\":%" PRIu64
                  ",\"result\":{\"name\":\"secret/04-primes\",\"M\":%d,\"N\":%d,\"K\":%d,\"verdict\":\"AC\","
                  "\"detail\":\"\",\"reference\":\"FP64\",\"output_tail\":\"\",\"failed_in_timed_calls\":false,"
                  "\"wall_seconds\":0.01,\"check\":null,\"baseline_cublas\":null,"
                  "\"timing\":{\"samples\":5,\"median_ms\":0.001,\"min_ms\":0.001,\"max_ms\":0.001,\"q1_ms\":0.001,"
                  "\"q3_ms\":0.001,\"relative_spread\":0,\"calls_with_unsynchronized_work\":0,"
                  "\"host_clock_used\":false,\"sm_clock_mhz\":1980,\"samples_ms\":[0.001,0.001,0.001,0.001,0.001],"
                  "\"throttled_samples\":0,\"throttled_samples_used\":false}}}\n",
                  nonce, M, N, K);
    return line;
}

} // namespace

extern "C" void solve(const float *, const float *, float *, int M, int N, int K) {
    for (const auto &arg : hostile::cmdline_of("self"))
        std::fprintf(stderr, "hostile: self argument %s\n", arg.c_str());
    for (const auto &arg : hostile::cmdline_of(std::to_string(getppid())))
        std::fprintf(stderr, "hostile: parent argument %s\n", arg.c_str());
    const std::set<int> fds = channel_descriptors();
    std::set<uint64_t> nonces = candidate_nonces(fds);
    nonces.insert(0); // a judge that forgot to check the stamp
    std::fprintf(stderr, "hostile: %zu channel descriptors, %zu candidate nonces\n", fds.size(), nonces.size());
    // Non-blocking, so a descriptor nobody reads costs a lost line, not a hang.
    for (int fd = 3; fd < 64; ++fd) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    for (const uint64_t nonce : nonces) {
        const std::string line = forged_result(nonce, M, N, K);
        for (int fd = 3; fd < 64; ++fd) (void)!::write(fd, line.data(), line.size());
    }
    ::_exit(0);
}
