#include "channel/judge_channel.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace gemm {

bool JudgeChannel::open(int &referee_in, int &referee_out) {
    close();
    int command[2], result[2];
    if (pipe2(command, O_CLOEXEC) != 0) return false;
    if (pipe2(result, O_CLOEXEC) != 0) {
        ::close(command[0]);
        ::close(command[1]);
        return false;
    }
    referee_in = command[0];
    referee_out = result[1];
    out_fd_ = command[1];
    in_fd_ = result[0];
    fcntl(in_fd_, F_SETFL, O_NONBLOCK);
    return true;
}

void JudgeChannel::close() {
    for (int *fd : {&out_fd_, &in_fd_}) {
        if (*fd >= 0) ::close(*fd);
        *fd = -1;
    }
    pending_.clear();
}

bool JudgeChannel::send(const nlohmann::json &message) {
    const std::string line = message.dump() + "\n";
    for (std::size_t written = 0; written < line.size();) {
        const ssize_t n = write(out_fd_, line.data() + written, line.size() - written);
        if (n > 0)
            written += static_cast<std::size_t>(n);
        else if (errno != EINTR)
            return false;
    }
    return true;
}

bool JudgeChannel::read_lines(std::vector<std::string> &lines) {
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(in_fd_, buffer, sizeof buffer);
        if (n > 0) {
            pending_.append(buffer, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        const bool open = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        for (std::size_t newline; (newline = pending_.find('\n')) != std::string::npos;) {
            lines.push_back(pending_.substr(0, newline));
            pending_.erase(0, newline + 1);
        }
        return open;
    }
}

void JudgeChannel::unread(const std::vector<std::string> &lines) {
    std::string before;
    for (const auto &line : lines) before += line + "\n";
    pending_.insert(0, before);
}

std::optional<nlohmann::json> JudgeChannel::parse(const std::string &line) {
    auto message = nlohmann::json::parse(line, nullptr, false);
    if (message.is_discarded() || !message.is_object()) return std::nullopt;
    return message;
}

} // namespace gemm
