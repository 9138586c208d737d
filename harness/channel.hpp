// The worker's end of the private channel: JSON lines over two inherited pipes.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace gemm {

class WorkerChannel {
  public:
    WorkerChannel(int in_fd, int out_fd) : in_fd_(in_fd), out_fd_(out_fd) {}
    // The next message, or nullopt when the supervisor closed the channel.
    std::optional<nlohmann::json> receive();
    void send(const nlohmann::json &message);

  private:
    int in_fd_, out_fd_;
    std::string pending_;
};

} // namespace gemm
