#include "serve/http_routes.hpp"
#include "judging/os/process.hpp"
#include "serve/access_token.hpp"
#include "serve/html_text.hpp"
#include "serve/machine_state.hpp"
#include "serve/problem_list.hpp"
#include "serve/views.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <httplib.h>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace gemm::serve {

namespace fs = std::filesystem;

namespace {

constexpr const char *cookie_name = "gemm_judge_token";

// A file name the server writes and the judge reads: a plain name ending in .cu, as a user
// names a solution; nothing that climbs out of its folder or hides.
bool is_solution_name(const std::string &name) {
    static const std::regex plain(R"([A-Za-z0-9_][A-Za-z0-9_.+-]{0,99}\.cu)");
    return std::regex_match(name, plain);
}

std::string cookie_token(const httplib::Request &req) {
    const std::string cookies = req.get_header_value("Cookie");
    const std::string key = std::string(cookie_name) + "=";
    for (std::size_t at = 0; at < cookies.size();) {
        const auto start = cookies.find_first_not_of(' ', at);
        if (start == std::string::npos) break;
        const auto end = std::min(cookies.find(';', start), cookies.size());
        if (cookies.compare(start, key.size(), key) == 0)
            return cookies.substr(start + key.size(), end - start - key.size());
        at = end + 1;
    }
    return "";
}

bool carries_token(const httplib::Request &req, const std::string &token) {
    if (req.method == "POST") return is_token(req.get_header_value("X-Judge-Token"), token);
    return is_token(req.get_header_value("X-Judge-Token"), token) || is_token(cookie_token(req), token) ||
           is_token(req.get_param_value("token"), token);
}

std::string read_file(const fs::path &path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

void send_json(httplib::Response &res, int status, const nlohmann::json &body) {
    res.status = status;
    res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

void send_html(httplib::Response &res, const std::string &html) { res.set_content(html, "text/html; charset=utf-8"); }

// The page: its template with the token put in, for the script's POST header. The token
// is 64 hexadecimal digits, so it needs no escaping.
void send_page(const PageSettings &settings, httplib::Response &res) {
    std::string page = read_file(fs::path(settings.static_dir) / "index.html");
    const auto put = [&page](const std::string &mark, const std::string &value) {
        for (std::size_t at; (at = page.find(mark)) != std::string::npos;) page.replace(at, mark.size(), value);
    };
    put("{{TOKEN}}", settings.token);
    put("{{CODEMIRROR}}", settings.codemirror_dir.empty() ? "absent" : "present");
    send_html(res, page);
}

// A judge command that reads the history (compare, history --plot): bounded in time, its
// output kept for the page.
CapturedRun run_judge_command(const PageSettings &settings, std::vector<std::string> args) {
    args.insert(args.begin(), settings.judge_program);
    args.insert(args.end(), {"--history", settings.history_path});
    ChildSetup setup;
    setup.wall_seconds = 120;
    setup.output_limit = 256 * 1024;
    return run_captured(args, setup);
}

void stream_events(std::shared_ptr<Submission> submission, std::size_t from, httplib::Response &res) {
    auto next = std::make_shared<std::size_t>(from);
    res.set_header("Cache-Control", "no-store");
    res.set_chunked_content_provider("text/event-stream", [submission, next](std::size_t, httplib::DataSink &sink) {
        bool finished = false;
        const auto events = submission->events_from(*next, std::chrono::seconds(15), finished);
        std::string text;
        for (const auto &event : events) text += "id: " + std::to_string(++*next) + "\ndata: " + event + "\n\n";
        if (events.empty() && !finished) text = ": still judging\n\n"; // keeps proxies and the browser waiting
        if (!text.empty() && !sink.write(text.data(), text.size())) return false;
        if (finished && events.empty()) sink.done();
        return true;
    });
}

// The problem a submission names: a name of the list, or "" where it names none (the judge
// then chooses, as ./judge FILE does); `refused` says why a name is not one.
struct ProblemField {
    std::string name;
    std::string refused;
};

ProblemField problem_field(const nlohmann::json &body, const std::string &problems_dir) {
    if (!body.contains("problem") || body["problem"].is_null()) return {};
    if (!body["problem"].is_string() || body["problem"].get<std::string>().empty())
        return {"", "problem must be a problem's name (GET /api/problems lists them)"};
    const std::string name = body["problem"].get<std::string>();
    try {
        const auto found = named_problem(problems_dir, name);
        if (const auto *why = std::get_if<std::string>(&found)) return {"", "problem " + *why};
    } catch (const ProblemError &e) {
        return {"", e.what()};
    }
    return {name, ""};
}

void add_submission_routes(httplib::Server &server, const PageSettings &settings, JudgingQueue &queue) {
    server.Post("/api/submit", [&settings, &queue](const httplib::Request &req, httplib::Response &res) {
        const auto body = nlohmann::json::parse(req.body, nullptr, false);
        if (!body.is_object() || !body.value("source", nlohmann::json()).is_string() ||
            !body.value("file_name", nlohmann::json()).is_string() || !body.value("kind", nlohmann::json()).is_string())
            return send_json(res, 400, {{"error", "expected JSON with kind, file_name and source"}});
        JudgingKind kind;
        if (!parse_judging_kind(body["kind"].get<std::string>(), kind))
            return send_json(res, 400, {{"error", "kind must be run, submit or rank"}});
        const auto file_name = body["file_name"].get<std::string>();
        if (!is_solution_name(file_name))
            return send_json(res, 400,
                             {{"error", "the file name must be a plain name ending in .cu (letters, digits, "
                                        "._+-; at most 100 characters)"}});
        const auto source = body["source"].get<std::string>();
        if (source.size() > largest_source_bytes)
            return send_json(res, 413, {{"error", "the solution is larger than 1 MiB"}});
        const auto problem = problem_field(body, settings.problems_dir);
        if (!problem.refused.empty()) return send_json(res, 400, {{"error", problem.refused}});
        const auto queued = queue.submit(req.get_header_value("X-Judge-Token"), kind, file_name, source, problem.name);
        if (const auto *why = std::get_if<std::string>(&queued)) return send_json(res, 429, {{"error", *why}});
        const auto &accepted = std::get<JudgingQueue::Accepted>(queued);
        send_json(res, 202, {{"id", accepted.submission->id}, {"position", accepted.position}});
    });
    server.Get(R"(/api/submissions/(\d+)/events)", [&queue](const httplib::Request &req, httplib::Response &res) {
        const auto submission = queue.find(std::stoll(req.matches[1]));
        if (!submission) return send_json(res, 404, {{"error", "no such submission"}});
        // A reconnecting EventSource says the last event it had.
        const std::string last = req.get_header_value("Last-Event-ID");
        const std::string from = last.empty() ? req.get_param_value("from") : last;
        stream_events(submission, from.empty() ? 0 : std::strtoull(from.c_str(), nullptr, 10), res);
    });
}

// The problem picker's list, and one problem's statement and starter: JSON, whose strings the
// page puts in as text.
void add_problem_routes(httplib::Server &server, const PageSettings &settings) {
    server.Get("/api/problems", [&settings](const httplib::Request &, httplib::Response &res) {
        try {
            send_json(res, 200, problems_json(settings.problems_dir));
        } catch (const ProblemError &e) {
            send_json(res, 500, {{"error", e.what()}});
        }
    });
    // A name is site/slug: the rest of the path, as the page sends it.
    server.Get(R"(/api/problems/(.+))", [&settings](const httplib::Request &req, httplib::Response &res) {
        try {
            const auto found = named_problem(settings.problems_dir, req.matches[1]);
            if (const auto *why = std::get_if<std::string>(&found)) return send_json(res, 404, {{"error", *why}});
            send_json(res, 200, problem_page_json(std::get<ProblemDescriptor>(found)));
        } catch (const ProblemError &e) {
            send_json(res, 500, {{"error", e.what()}});
        }
    });
}

void add_view_routes(httplib::Server &server, const PageSettings &settings) {
    server.Get("/api/verdicts",
               [](const httplib::Request &, httplib::Response &res) { send_json(res, 200, verdicts_json()); });
    server.Get("/api/machine",
               [](const httplib::Request &, httplib::Response &res) { send_json(res, 200, machine_json()); });
    server.Get("/api/solutions", [&settings](const httplib::Request &, httplib::Response &res) {
        std::vector<std::string> names;
        std::error_code ec;
        for (const auto &entry : fs::directory_iterator(settings.solutions_dir, ec))
            if (is_solution_name(entry.path().filename().string()) && entry.is_regular_file(ec))
                names.push_back(entry.path().filename().string());
        std::sort(names.begin(), names.end());
        send_json(res, 200, names);
    });
    server.Get(R"(/api/solutions/([^/]+))", [&settings](const httplib::Request &req, httplib::Response &res) {
        const std::string name = req.matches[1];
        const fs::path path = fs::path(settings.solutions_dir) / name;
        std::error_code ec;
        if (!is_solution_name(name) || !fs::is_regular_file(path, ec))
            return send_json(res, 404, {{"error", "no such solution"}});
        res.set_content(read_file(path), "text/plain; charset=utf-8");
    });
    // The suite serve was started with, or with ?problem=NAME that problem's (the picked one).
    server.Get("/api/testcases", [&settings](const httplib::Request &req, httplib::Response &res) {
        const std::string name = req.get_param_value("problem");
        if (name.empty()) return send_html(res, testcases_html(settings.testcases_dir));
        try {
            const auto found = named_problem(settings.problems_dir, name);
            if (const auto *why = std::get_if<std::string>(&found)) {
                res.status = 404;
                return send_html(res, "<p class=\"error\">" + html_escaped("problem " + *why) + "</p>");
            }
            send_html(res, testcases_html(std::get<ProblemDescriptor>(found).folder));
        } catch (const ProblemError &e) {
            res.status = 500;
            send_html(res, "<p class=\"error\">" + html_escaped(e.what()) + "</p>");
        }
    });
    server.Get("/api/history", [&settings](const httplib::Request &req, httplib::Response &res) {
        send_html(res, history_html(settings.history_path, req.get_param_value("solution")));
    });
    server.Get("/api/leaderboard", [&settings](const httplib::Request &, httplib::Response &res) {
        send_html(res, leaderboard_html(settings.history_path));
    });
    server.Get("/api/compare", [&settings](const httplib::Request &req, httplib::Response &res) {
        const std::regex id("[0-9]{1,18}");
        const std::string old_id = req.get_param_value("old"), new_id = req.get_param_value("new");
        if (!std::regex_match(old_id, id) || !std::regex_match(new_id, id))
            return send_html(res, "<p class=\"error\">Pick two attempts of the history to compare.</p>");
        const auto run = run_judge_command(settings, {"compare", "#" + old_id, "#" + new_id, "--no-history"});
        send_html(res, "<pre class=\"compare\">" + html_escaped(run.output) + "</pre>");
    });
    server.Get("/api/plot.svg", [&settings](const httplib::Request &req, httplib::Response &res) {
        char folder[] = "/tmp/gemm-judge-plot-XXXXXX";
        if (!mkdtemp(folder)) return send_json(res, 500, {{"error", "no temporary folder for the plot"}});
        const std::string svg = std::string(folder) + "/history.svg";
        std::vector<std::string> args{"history"};
        if (const auto solution = req.get_param_value("solution"); !solution.empty()) args.push_back(solution);
        args.insert(args.end(), {"--plot", svg});
        const auto run = run_judge_command(settings, args);
        std::error_code ec;
        if (fs::is_regular_file(svg, ec)) {
            // An <img> shows it: an SVG there runs no script, whatever text it holds.
            res.set_content(read_file(svg), "image/svg+xml");
        } else {
            send_json(res, 500, {{"error", run.output}});
        }
        fs::remove_all(folder, ec);
    });
}

} // namespace

void add_routes(httplib::Server &server, const PageSettings &settings, JudgingQueue &queue) {
    server.set_pre_routing_handler([&settings](const httplib::Request &req, httplib::Response &res) {
        if (carries_token(req, settings.token)) return httplib::Server::HandlerResponse::Unhandled;
        res.status = 403;
        res.set_content("403: this page needs the access token that ./judge serve printed with its URL\n",
                        "text/plain; charset=utf-8");
        return httplib::Server::HandlerResponse::Handled;
    });
    server.Get("/", [&settings](const httplib::Request &req, httplib::Response &res) {
        if (req.has_param("token")) {
            // The URL's token becomes a cookie this site alone sends, and leaves the address bar.
            res.set_header("Set-Cookie",
                           std::string(cookie_name) + "=" + settings.token + "; Path=/; HttpOnly; SameSite=Strict");
            res.set_redirect("/", 303);
            return;
        }
        send_page(settings, res);
    });
    server.set_mount_point("/static", settings.static_dir);
    if (!settings.codemirror_dir.empty()) server.set_mount_point("/codemirror", settings.codemirror_dir);
    add_submission_routes(server, settings, queue);
    add_problem_routes(server, settings);
    add_view_routes(server, settings);
}

} // namespace gemm::serve
