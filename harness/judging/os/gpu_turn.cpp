#include "judging/os/gpu_turn.hpp"
#include "common/terminal_text.hpp"
#include "judging/os/gpu_identity.hpp"
#include "judging/os/lock_file.hpp"
#include "measurement/gpu_sharing.hpp"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

namespace gemm {

namespace {

// " (PID 4242: gemm-judge)", or "" when the kernel does not name the holder.
std::string describe_holder(int fd) {
    const auto pid = flock_holder(fd);
    if (!pid) return "";
    const auto stat = process_stat(*pid);
    return " (PID " + std::to_string(*pid) + (stat && !stat->name.empty() ? ": " + stat->name : "") + ")";
}

} // namespace

std::unique_ptr<GpuTurn> GpuTurn::lock(const std::string &path, const Tell &tell, double poll_s, bool wait,
                                       int operation) {
    std::unique_ptr<GpuTurn> turn(new GpuTurn);
    const int fd = open_shared_lock_file(path);
    if (fd < 0) {
        turn->why_not_ = "its lock file " + path + " cannot be opened: " + std::strerror(errno);
        return turn;
    }
    const auto start = std::chrono::steady_clock::now();
    bool told = false, waited = false;
    // Polled, not a blocking flock: an interrupt then ends the judge at once, whatever its
    // handler does with restarted system calls.
    while (flock(fd, operation | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            turn->why_not_ = "its lock file " + path + " cannot be locked: " + std::strerror(errno);
            close(fd);
            return turn;
        }
        if (!wait) {
            turn->held_by_another_ = true;
            turn->why_not_ = "another judge" + describe_holder(fd) + " holds it";
            close(fd);
            return turn;
        }
        waited = true;
        if (!told && tell) {
            tell("waiting for the GPU: another judge" + describe_holder(fd) +
                 " is using it, and judges on one machine take turns so that neither times the other's work "
                 "(GEMM_JUDGE_GPU_TURNS=0 turns this off)");
            told = true;
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(poll_s));
    }
    turn->fd_ = fd;
    turn->waited_s_ = waited ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() : 0.0;
    return turn;
}

std::unique_ptr<GpuTurn> GpuTurn::take(const std::string &path, const Tell &tell, double poll_s) {
    return lock(path, tell, poll_s, true, LOCK_EX);
}

std::unique_ptr<GpuTurn> GpuTurn::try_take(const std::string &path) { return lock(path, nullptr, 0, false, LOCK_EX); }

std::unique_ptr<GpuTurn> GpuTurn::take_on_gpu(const std::string &machine_path, const std::string &gpu_path,
                                              const Tell &tell, bool wait, double poll_s) {
    auto machine = lock(machine_path, tell, poll_s, wait, LOCK_SH);
    if (!machine->held()) return machine;
    auto turn = lock(gpu_path, tell, poll_s, wait, LOCK_EX);
    if (turn->held()) turn->machine_share_ = std::move(machine);
    return turn;
}

std::shared_ptr<const GpuTurn> GpuTurn::for_this_judge(bool wait) {
    static std::shared_ptr<const GpuTurn> judge_wide;
    if (judge_wide) return judge_wide;
    if (!gpu_turns_wanted()) {
        std::shared_ptr<GpuTurn> none(new GpuTurn);
        none->why_not_ = "not taken";
        return judge_wide = none;
    }
    // Broken at spaces: the holder's name and the way out make the wait's note two lines long.
    const auto tell = [](const std::string &text) {
        std::cerr << wrap_to_width("judge: " + text, console_width, 7) << "\n";
    };
    const auto own_gpu = gpu_turn_lock_path_of_own_gpu();
    std::shared_ptr<const GpuTurn> turn = own_gpu ? take_on_gpu(gpu_turn_lock_path(), *own_gpu, tell, wait)
                                          : wait  ? take(gpu_turn_lock_path(), tell)
                                                  : try_take(gpu_turn_lock_path());
    if (turn->held_by_another_) return nullptr;
    // Judging goes on without a turn, but not silently: another judge could then time this one's work.
    if (!turn->held())
        std::cerr << wrap_to_width("judge: judges on this machine cannot take turns on the GPU: " + turn->why_not(),
                                   console_width, 7)
                  << "\n";
    return judge_wide = turn;
}

GpuTurn::~GpuTurn() {
    if (fd_ >= 0) close(fd_); // closing releases the flock
}

std::string gpu_turn_lock_path() { return "/tmp/gemm-judge-gpu.lock"; }

std::optional<std::string> gpu_turn_lock_path_of_own_gpu() {
    const auto gpu = gpu_in_use(std::getenv("CUDA_VISIBLE_DEVICES"), std::getenv("CUDA_DEVICE_ORDER"), listed_gpus());
    if (!gpu) return std::nullopt;
    std::string name;
    for (const char c : *gpu) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
    return "/tmp/gemm-judge-gpu-" + name + ".lock";
}

bool gpu_turns_wanted() {
    const char *setting = std::getenv("GEMM_JUDGE_GPU_TURNS");
    if (setting && std::strcmp(setting, "0") == 0) return false;
    if (no_gpu_visible(std::getenv("CUDA_VISIBLE_DEVICES"))) return false;
    if (setting && std::strcmp(setting, "1") == 0) return true;
    return access("/dev/nvidiactl", F_OK) == 0;
}

} // namespace gemm
