#include "command_line/options/usage_errors.hpp"
#include "command_line/options/help_format.hpp"
#include "common/terminal_text.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>

namespace gemm {

namespace {

using Apps = std::vector<const CLI::App *>;

// The main command, then each command the parser entered: judge, case, new.
Apps entered_commands(const CLI::App &root) {
    Apps chain{&root};
    for (auto subs = root.get_subcommands(); !subs.empty(); subs = subs.front()->get_subcommands())
        chain.push_back(subs.front());
    return chain;
}

// Options a fallthrough command does not know are its parent's to take: `./judge rank X.cu
// --json r.json`. The commands whose options may be typed in `command`, nearest first.
Apps with_fallthrough_parents(const CLI::App *command) {
    Apps apps{command};
    while (apps.back()->get_fallthrough() && apps.back()->get_parent()) apps.push_back(apps.back()->get_parent());
    return apps;
}

std::vector<std::string> option_names_of(const Apps &apps) {
    std::vector<std::string> names;
    for (const CLI::App *app : apps)
        for (const CLI::Option *opt : app->get_options([](const CLI::Option *o) { return o->nonpositional(); })) {
            for (const auto &name : opt->get_lnames()) names.push_back("--" + name);
            for (const auto &name : opt->get_snames()) names.push_back("-" + name);
        }
    return names;
}

// Every command below `app`, itself included.
void each_command(const CLI::App &app, const std::function<void(const CLI::App &)> &visit) {
    visit(app);
    for (const CLI::App *sub : app.get_subcommands([](const CLI::App *s) { return !s->get_name().empty(); }))
        each_command(*sub, visit);
}

// "judge: " or "judge: case new: ".
std::string prefix(const CLI::App &command) {
    const std::string path = command_path(command);
    return "judge: " + (path.empty() ? "" : path + ": ");
}

std::string quoted(const std::string &word) { return "'" + escape_for_terminal(word) + "'"; }

// "a, b or c"
std::string listed(const std::vector<std::string> &words, const char *last = " or ") {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i)
        text += (i == 0 ? "" : i + 1 == words.size() ? last : ", ") + words[i];
    return text;
}

// The command in whose terms a word left over in `holder` was typed: the innermost entered
// command from which the parser passes unknown words up to `holder`.
const CLI::App *typed_in(const Apps &entered, const CLI::App *holder) {
    for (auto it = entered.rbegin(); it != entered.rend(); ++it) {
        const Apps reach = with_fallthrough_parents(*it);
        if (std::find(reach.begin(), reach.end(), holder) != reach.end()) return *it;
    }
    return holder;
}

std::string unknown_option(const CLI::App &root, const CLI::App &command, const std::string &typed) {
    const std::string name = typed.substr(0, typed.find('='));
    std::string text = prefix(command) + "unknown option " + escape_for_terminal(name);
    if (const auto near = nearest_name(name, option_names_of(with_fallthrough_parents(&command))))
        return text + "; did you mean " + *near + "?\n";
    std::vector<std::string> owners;
    each_command(root, [&](const CLI::App &other) {
        const auto names = option_names_of({&other});
        if (std::find(names.begin(), names.end(), name) != names.end())
            owners.push_back("./judge" + (command_path(other).empty() ? "" : " " + command_path(other)));
    });
    if (!owners.empty()) text += "; it is an option of " + listed(owners, " and ");
    return text + "\n";
}

bool has_commands(const CLI::App &app) { return !command_names(app).empty(); }

// A word the parser could not place: an unknown option, a mistyped command, or one argument
// too many.
std::string leftover(const CLI::App &root, const Apps &entered, const CLI::App *holder, const std::string &word) {
    const CLI::App &command = *typed_in(entered, holder);
    if (word.size() > 1 && word[0] == '-' && !std::isdigit(static_cast<unsigned char>(word[1])))
        return unknown_option(root, command, word);
    if (has_commands(command) && command.get_subcommands().empty() && command.get_parent())
        return unknown_command(command, word);
    return prefix(command) + "unexpected argument " + quoted(word) +
           (command.get_parent() ? "" : "; the judge takes one solution (./judge compare OLD NEW takes two)") + "\n";
}

// The first word left over anywhere, with the command that holds it.
std::optional<std::pair<const CLI::App *, std::string>> first_leftover(const Apps &entered) {
    for (const CLI::App *app : entered)
        if (const auto words = app->remaining(false); !words.empty()) return std::make_pair(app, words.front());
    return std::nullopt;
}

const CLI::Option *solution_option(const CLI::App &root) {
    try {
        return root.get_option("solution");
    } catch (const CLI::OptionNotFound &) {
        return nullptr;
    }
}

std::string value_name(const CLI::Option &opt) {
    if (opt.get_positional()) {
        std::string name = opt.get_name(true, false);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
        return name;
    }
    return opt.get_name() + (opt.get_option_text().empty() ? "" : " " + opt.get_option_text());
}

// A command that needs one of its own (case, cache) and got none; the word typed where it
// goes may have landed in the main command's solution (cache passes words up).
std::optional<std::string> missing_command(const CLI::App &root, const Apps &entered) {
    for (const CLI::App *app : entered) {
        if (app->get_require_subcommand_min() == 0 || !app->get_subcommands().empty()) continue;
        const CLI::Option *solution = solution_option(root);
        if (app->get_fallthrough() && solution && solution->count() > 0)
            return unknown_command(*app, solution->results().front());
        return prefix(*app) + "needs a command: " + listed(command_names(*app)) + "\n";
    }
    return std::nullopt;
}

std::optional<std::string> missing_required(const Apps &entered) {
    for (auto it = entered.rbegin(); it != entered.rend(); ++it)
        for (const CLI::Option *opt : (*it)->get_options())
            if (opt->get_required() && opt->count() == 0) {
                std::string text = prefix(**it) + value_name(*opt) + " is missing";
                if (opt->get_positional() && !opt->get_description().empty()) text += ": " + opt->get_description();
                return text + "\n";
            }
    return std::nullopt;
}

// Options given together that exclude each other, or one given without the one it needs.
std::optional<std::string> conflicting_options(const Apps &entered) {
    for (const CLI::App *app : entered)
        for (const CLI::Option *opt : app->get_options()) {
            if (opt->count() == 0) continue;
            for (const CLI::Option *other : opt->get_excludes())
                if (other->count() > 0)
                    return prefix(*app) + opt->get_name() + " cannot be used with " + other->get_name() + "\n";
            for (const CLI::Option *needed : opt->get_needs())
                if (needed->count() == 0) return prefix(*app) + opt->get_name() + " needs " + needed->get_name() + "\n";
        }
    return std::nullopt;
}

// The option a message of CLI11's names: the longest option name in it.
const CLI::Option *option_named_in(const std::string &message, const Apps &entered) {
    const CLI::Option *found = nullptr;
    std::size_t longest = 0;
    for (const CLI::App *app : entered)
        for (const CLI::Option *opt : app->get_options([](const CLI::Option *o) { return o->nonpositional(); })) {
            const std::string name = opt->get_name();
            if (name.size() > longest && message.find(name) != std::string::npos) {
                found = opt;
                longest = name.size();
            }
        }
    return found;
}

// A positional's validator speaks of it by its name ("in: …"): the name as --help shows it.
std::string validation_text(const std::string &message, const CLI::App &command) {
    for (const CLI::Option *opt : command.get_options([](const CLI::Option *o) { return o->get_positional(); })) {
        const std::string name = opt->get_name(true, false) + ": ";
        if (message.rfind(name, 0) == 0) return value_name(*opt) + ": " + message.substr(name.size());
    }
    return message;
}

std::string lowered_first(std::string text) {
    if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

std::string first_line(const CLI::ParseError &error, const CLI::App &root) {
    const Apps entered = entered_commands(root);
    // A word the parser could not place explains the rest: `case new x --shap 1 2 3` is
    // "unknown option --shap", not "--shape is missing".
    if (const auto solution = solution_option(root); solution && solution->count() > 0 && entered.size() == 1)
        if (const auto text = misread_command(solution->results().front(), root)) return *text;
    if (const auto left = first_leftover(entered)) return leftover(root, entered, left->first, left->second);
    const CLI::App &command = *entered.back();
    if (dynamic_cast<const CLI::RequiredError *>(&error)) {
        if (auto text = missing_command(root, entered)) return *text;
        if (auto text = missing_required(entered)) return *text;
    }
    if (dynamic_cast<const CLI::ExcludesError *>(&error) || dynamic_cast<const CLI::RequiresError *>(&error))
        if (auto text = conflicting_options(entered)) return *text;
    if (dynamic_cast<const CLI::ArgumentMismatch *>(&error))
        if (const CLI::Option *opt = option_named_in(error.what(), entered))
            return prefix(command) + opt->get_name() + " needs a value" +
                   (opt->get_option_text().empty() ? "" : ": " + opt->get_option_text()) + "\n";
    if (dynamic_cast<const CLI::ValidationError *>(&error))
        return prefix(command) + escape_for_terminal(validation_text(error.what(), command)) + "\n";
    return prefix(command) + escape_for_terminal(lowered_first(error.what())) + "\n";
}

} // namespace

std::vector<std::string> command_names(const CLI::App &app) {
    std::vector<std::string> names;
    for (const CLI::App *sub : app.get_subcommands([](const CLI::App *s) { return !s->get_name().empty(); }))
        names.push_back(sub->get_name());
    return names;
}

std::string unknown_command(const CLI::App &command, const std::string &word) {
    const auto names = command_names(command);
    std::string text = prefix(command) + "unknown command " + quoted(word);
    if (const auto near = nearest_name(word, names)) return text + "; did you mean '" + *near + "'?\n";
    return text + "; the commands are " + listed(names) + "\n";
}

std::string help_hint(const CLI::App &command) {
    const std::string path = command_path(command);
    return path.empty() ? "Run './judge --help' for the options and commands.\n"
                        : "Run './judge help " + path + "' for its options.\n";
}

std::optional<std::string> misread_command(const std::string &word, const CLI::App &app) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (word.empty() || fs::path(word).extension() == ".cu" || fs::exists(fs::symlink_status(word, ec))) return {};
    const auto names = command_names(app);
    if (const auto near = nearest_name(word, names))
        return "judge: unknown command " + quoted(word) + "; did you mean '" + *near + "'?\n";
    if (word.find('/') == std::string::npos && fs::path(word).extension().empty())
        return "judge: " + quoted(word) + " is neither a command (" + listed(names) + ") nor a .cu solution\n";
    return {};
}

std::string describe_parse_error(const CLI::ParseError &error, const CLI::App &app) {
    const Apps entered = entered_commands(app);
    return wrap_to_width(first_line(error, app), console_width, 2) + help_hint(*entered.back());
}

} // namespace gemm
