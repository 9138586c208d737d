// Both ends of the judge ↔ referee channel: what one end sends, the other reads as whole
// lines, however the bytes arrive, and a closed end is told apart from a quiet one.
#include <doctest/doctest.h>

#include "channel/channel.hpp"
#include "channel/judge_channel.hpp"

#include <string>
#include <unistd.h>
#include <vector>

using namespace gemm;

TEST_CASE("the judge's end and the referee's end of the channel understand each other") {
    JudgeChannel judge;
    int referee_in = -1, referee_out = -1;
    REQUIRE(judge.open(referee_in, referee_out));
    RefereeChannel referee(referee_in, referee_out);

    REQUIRE(judge.send({{"nonce", 7}, {"calibrate", nlohmann::json::array()}}));
    const auto request = referee.receive();
    REQUIRE(request);
    CHECK(request->at("nonce") == 7);

    referee.set_nonce(7);
    referee.send({{"event", "call"}});
    referee.send({{"event", "judge"}});
    std::vector<std::string> lines;
    CHECK(judge.read_lines(lines)); // still open: nothing more yet
    REQUIRE(lines.size() == 2);
    CHECK(JudgeChannel::parse(lines[0])->at("event") == "call");
    CHECK(JudgeChannel::parse(lines[1])->at("nonce") == 7);

    close(referee_out);
    close(referee_in);
    lines.clear();
    CHECK_FALSE(judge.read_lines(lines));
    CHECK(lines.empty());
}

TEST_CASE("a partial line waits for its end, and lines put back are read first") {
    JudgeChannel judge;
    int referee_in = -1, referee_out = -1;
    REQUIRE(judge.open(referee_in, referee_out));
    const std::string half = "{\"event\":";
    REQUIRE(write(referee_out, half.data(), half.size()) == ssize_t(half.size()));
    std::vector<std::string> lines;
    CHECK(judge.read_lines(lines));
    CHECK(lines.empty());
    const std::string rest = "\"result\"}\n";
    REQUIRE(write(referee_out, rest.data(), rest.size()) == ssize_t(rest.size()));
    CHECK(judge.read_lines(lines));
    REQUIRE(lines.size() == 1);

    judge.unread({"{\"a\":1}", "{\"b\":2}"});
    std::vector<std::string> again;
    CHECK(judge.read_lines(again));
    CHECK(again == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"});
    close(referee_in);
    close(referee_out);
}

TEST_CASE("a line that is not a JSON object is no message") {
    CHECK_FALSE(JudgeChannel::parse("not json"));
    CHECK_FALSE(JudgeChannel::parse("[1, 2]"));
    CHECK(JudgeChannel::parse("{\"event\": \"hello\"}"));
}
