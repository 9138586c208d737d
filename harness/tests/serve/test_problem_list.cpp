// The problems ./judge serve offers (harness/serve/problem_list.hpp), read from the shipped
// testcases/: the picker's list and its order, one problem's statement and starter, a name
// refused with the judge's nearest name and never made into a path; and --problem in the
// command line the server starts the judge with.
#include "common/text.hpp"
#include "serve/judging_events.hpp"
#include "serve/problem_list.hpp"
#include "test_support.hpp"
#include "testcases/problem_catalog.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <filesystem>
#include <set>

using namespace gemm;
using gemm::test::contains;

namespace {

const std::string served_problems_root = std::string(GEMM_SOURCE_DIR) + "/testcases";

std::string refusal_of(const std::string &name) {
    const auto found = serve::named_problem(served_problems_root, name);
    const auto *why = std::get_if<std::string>(&found);
    return why ? *why : "";
}

} // namespace

TEST_CASE("serve's problem list: every problem, the default first, then by site, each judged or with what it lacks") {
    const auto list = serve::problems_json(served_problems_root);
    REQUIRE(list.size() == problems_below(served_problems_root).size());
    CHECK(list[0]["name"] == default_problem().name);
    CHECK(list[0]["default"] == true);
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto &p = list[i];
        names.insert(p["name"].get<std::string>());
        CHECK(contains(p["signature"].get<std::string>(), "extern \"C\" void "));
        CHECK(!p["title"].get<std::string>().empty());
        CHECK(p["judged"] == p["not_yet_judged"].empty());
        if (i >= 1) CHECK(p["default"] == false);
        if (i >= 2) {
            CHECK(list[i - 1]["site"] <= p["site"]);
            // Within a site, numbered problems in number order (2 before 10), others by name.
            const auto number = [](const std::string &name) {
                const std::string slug = name.substr(name.find('/') + 1);
                return slug.empty() || slug[0] < '0' || slug[0] > '9' ? -1 : std::stoi(slug);
            };
            const std::string before = list[i - 1]["name"], now = p["name"];
            if (list[i - 1]["site"] == p["site"])
                CHECK((number(before) < number(now) || (number(before) == number(now) && before < now)));
        }
    }
    CHECK(names.size() == list.size());
    const auto tensara = std::find_if(list.begin(), list.end(),
                                      [](const auto &p) { return p["name"] == "tensara/matrix-multiplication"; });
    REQUIRE(tensara != list.end());
    CHECK((*tensara)["site"] == "Tensara");
    CHECK((*tensara)["judged"] == true);
}

TEST_CASE("serve's problem list: a problem the judge cannot judge yet is listed with what it lacks") {
    // Every shipped problem is judged, so the root is a copy of testcases/ with the BF16 fixture.
    namespace fs = std::filesystem;
    const gemm::test::TempFolder folder;
    fs::copy(served_problems_root, folder.at("testcases"), fs::copy_options::recursive);
    fs::create_directories(folder.at("testcases/example"));
    fs::copy(std::string(GEMM_SOURCE_DIR) + "/harness/tests/support/unjudged-problem",
             folder.at("testcases/example/fp8-gemm"), fs::copy_options::recursive);
    const auto list = serve::problems_json(folder.at("testcases"));
    const auto fp8 =
        std::find_if(list.begin(), list.end(), [](const auto &p) { return p["name"] == "example/fp8-gemm"; });
    REQUIRE(fp8 != list.end());
    CHECK((*fp8)["judged"] == false);
    CHECK(contains((*fp8)["not_yet_judged"].dump(), "fp8_e4m3"));
    CHECK(std::count_if(list.begin(), list.end(), [](const auto &p) { return p["judged"] == false; }) == 1);
}

TEST_CASE("serve's page of one problem: its statement and starter as the files hold them, null where absent") {
    const auto found = serve::named_problem(served_problems_root, "tensara/matrix-multiplication");
    REQUIRE(std::holds_alternative<ProblemDescriptor>(found));
    const auto page = serve::problem_page_json(std::get<ProblemDescriptor>(found));
    const std::string folder = served_problems_root + "/tensara/matrix-multiplication/";
    CHECK(page["statement"] == *read_text_file(folder + "statement.md"));
    CHECK(page["starter"] == *read_text_file(folder + "starter.cu"));
    CHECK(page["signature"] == std::get<ProblemDescriptor>(found).signature());
    CHECK(page["url"] == std::get<ProblemDescriptor>(found).url);

    // The default problem's folder is the suite's root, which holds both too.
    const auto seed = serve::named_problem(served_problems_root, default_problem().name);
    REQUIRE(std::holds_alternative<ProblemDescriptor>(seed));
    const auto seed_page = serve::problem_page_json(std::get<ProblemDescriptor>(seed));
    CHECK(seed_page["default"] == true);
    CHECK(seed_page["statement"] == *read_text_file(served_problems_root + "/statement.md"));
    CHECK(seed_page["starter"] == *read_text_file(served_problems_root + "/starter.cu"));

    // A folder without them: null.
    gemm::test::TempFolder bare;
    bare.write("problem.json", *read_text_file(folder + "problem.json"));
    ProblemDescriptor without = std::get<ProblemDescriptor>(found);
    without.folder = bare.path.string();
    const auto bare_page = serve::problem_page_json(without);
    CHECK(bare_page["statement"].is_null());
    CHECK(bare_page["starter"].is_null());
}

TEST_CASE("serve refuses a problem's name no problem has with the judge's words, and never reads it as a path") {
    CHECK(refusal_of("tensara/matrix-multiplicaton") ==
          "tensara/matrix-multiplicaton: no problem has this name; did you mean tensara/matrix-multiplication?");
    CHECK(refusal_of("tensara/matrix-multiplicaton") ==
          unknown_problem(served_problems_root, "tensara/matrix-multiplicaton"));
    // A folder that holds a problem.json, reached by climbing or from the root: not a name of the list.
    CHECK(contains(refusal_of("tensara/../tensara/matrix-multiplication"), "no problem has this name"));
    CHECK(contains(refusal_of(served_problems_root + "/tensara/matrix-multiplication"), "no problem has this name"));
    CHECK(contains(refusal_of(""), "no problem has this name"));
    CHECK(refusal_of(std::string(100000, 'x')) == "no problem has a name this long");
}

TEST_CASE("serve starts the judge with --problem where a submission names one, without it otherwise, and with "
          "serve's --testcases for the default problem") {
    const serve::JudgeProgram judge{"gemm-judge", {"--history", "h.sqlite"}, ""};
    CHECK(serve::judge_command(judge, serve::JudgingKind::run, "a.cu", "tensara/matrix-multiplication") ==
          std::vector<std::string>{"gemm-judge", "a.cu", "--selection", "quick", "--problem",
                                   "tensara/matrix-multiplication", "--history", "h.sqlite"});
    CHECK(serve::judge_command(judge, serve::JudgingKind::rank, "a.cu", "kernelbench/1-square-matmul") ==
          std::vector<std::string>{"gemm-judge", "rank", "a.cu", "--problem", "kernelbench/1-square-matmul",
                                   "--history", "h.sqlite"});
    CHECK(serve::judge_command(judge, serve::JudgingKind::submit, "a.cu", "") ==
          std::vector<std::string>{"gemm-judge", "a.cu", "--history", "h.sqlite"});

    // serve --testcases: the default problem's judges read that suite, another problem's its own.
    const serve::JudgeProgram own_suite{"gemm-judge", {"--history", "h.sqlite"}, "/my/suite"};
    CHECK(serve::judge_command(own_suite, serve::JudgingKind::submit, "a.cu", "") ==
          std::vector<std::string>{"gemm-judge", "a.cu", "--testcases", "/my/suite", "--history", "h.sqlite"});
    CHECK(serve::judge_command(own_suite, serve::JudgingKind::submit, "a.cu", default_problem().name) ==
          std::vector<std::string>{"gemm-judge", "a.cu", "--problem", default_problem().name, "--testcases",
                                   "/my/suite", "--history", "h.sqlite"});
    CHECK(serve::judge_command(own_suite, serve::JudgingKind::submit, "a.cu", "tensara/matmul-3d") ==
          std::vector<std::string>{"gemm-judge", "a.cu", "--problem", "tensara/matmul-3d", "--history", "h.sqlite"});
}
