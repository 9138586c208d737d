#include "command_line/options/help_format.hpp"
#include "common/terminal_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

namespace gemm {

namespace {

std::string upper(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

// "-h, --help" or "--no-shrink": the names as typed, without CLI11's "{false}" marks.
std::string option_names(const CLI::Option *opt) {
    std::string names;
    for (const auto &name : opt->get_snames()) names += (names.empty() ? "-" : ", -") + name;
    for (const auto &name : opt->get_lnames()) names += (names.empty() ? "--" : ", --") + name;
    return names;
}

bool takes_value(const CLI::Option *opt) { return opt->get_type_size() != 0 && opt->get_expected_max() != 0; }

// The value's name: the option's own (option_text: MxNxK, FILE, SECONDS), else VALUE; never
// CLI11's type and range ("FLOAT:FLOAT in [1 - 3600]").
std::string value_name(const CLI::Option *opt) {
    return opt->get_option_text().empty() ? std::string("VALUE") : opt->get_option_text();
}

class WrappingFormatter : public CLI::Formatter {
  public:
    explicit WrappingFormatter(std::size_t width) : width_(width) {
        column_width(std::min<std::size_t>(30, width / 3));
        label("Positionals", "Arguments");
    }

    std::string make_option_name(const CLI::Option *opt, bool is_positional) const override {
        return is_positional ? upper(opt->get_name(true, false)) : option_names(opt);
    }
    std::string make_option_opts(const CLI::Option *opt) const override {
        return takes_value(opt) ? " " + value_name(opt) : "";
    }
    // The description, then what the parser knows about the option, in words.
    std::string make_option_desc(const CLI::Option *opt) const override {
        std::string text = opt->get_description();
        if (opt->get_required() && !opt->get_positional()) text += " (required)";
        if (takes_value(opt) && !opt->get_default_str().empty())
            text += " (default: " + escape_for_terminal(opt->get_default_str()) + ")";
        return text;
    }
    std::string make_option_usage(const CLI::Option *opt) const override {
        std::string usage = make_option_name(opt, true);
        if (opt->get_expected_max() > 1) usage += "...";
        return opt->get_required() ? usage : "[" + usage + "]";
    }
    // "Usage: ./judge case new [OPTIONS] NAME"; the main command also names its commands.
    std::string make_usage(const CLI::App *app, std::string name) const override {
        const std::string program = "./" + name;
        std::string usage = "Usage: " + program;
        if (!app->get_options([](const CLI::Option *o) { return o->nonpositional(); }).empty()) usage += " [OPTIONS]";
        for (const CLI::Option *opt : app->get_options([](const CLI::Option *o) { return o->get_positional(); }))
            usage += " " + make_option_usage(opt);
        const bool has_commands =
            !app->get_subcommands([](const CLI::App *sub) { return !sub->get_name().empty(); }).empty();
        if (has_commands && app->get_parent() != nullptr)
            usage += app->get_require_subcommand_min() > 0 ? " COMMAND" : " [COMMAND]";
        usage = wrap_to_width(usage, width_, 7) + "\n";
        if (has_commands && app->get_parent() == nullptr)
            usage += wrap_to_width("       " + program + " COMMAND ...   (./judge help COMMAND: its help)", width_, 7) +
                     "\n";
        return usage;
    }

    std::string make_option(const CLI::Option *opt, bool is_positional) const override {
        return two_columns(make_option_name(opt, is_positional) + (is_positional ? "" : make_option_opts(opt)),
                           make_option_desc(opt));
    }
    std::string make_subcommand(const CLI::App *sub) const override {
        return two_columns(sub->get_display_name(true), sub->get_description());
    }
    std::string make_description(const CLI::App *app) const override {
        const std::string text = CLI::Formatter::make_description(app);
        return text.empty() ? text : wrap_to_width(text, width_);
    }
    // Wrapped; an indented line ("  64 bad command line …", a list's item) hangs its
    // continuation under its second word.
    std::string make_footer(const CLI::App *app) const override {
        std::istringstream lines(CLI::Formatter::make_footer(app));
        std::string out;
        for (std::string line; std::getline(lines, line);) {
            const bool item = line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ';
            const std::size_t hang = item ? line.find(' ', 2) + 1 : 0;
            out +=
                item && hang > 0 ? "  " + wrap_to_width(line.substr(2), width_, hang, 2) : wrap_to_width(line, width_);
            out += "\n";
        }
        return out;
    }

  private:
    // "  NAME OPTS   description": the description beside the name when the name fits in the
    // left column, else on the lines below it; both wrapped.
    std::string two_columns(const std::string &left, const std::string &description) const {
        const std::size_t column = get_column_width();
        std::string out = "  " + wrap_to_width(left, width_, 6, 2);
        if (!description.empty()) {
            if (display_width(out) + 1 <= column && out.find('\n') == std::string::npos)
                out = pad_to_width(out, column);
            else
                out += "\n" + std::string(column, ' ');
            out += wrap_to_width(description, width_, column);
        }
        return out + "\n";
    }

    std::size_t width_;
};

} // namespace

std::size_t help_width() {
    std::size_t width = 80;
    const char *columns = std::getenv("COLUMNS");
    winsize terminal{};
    if (columns && std::atoi(columns) > 0)
        width = static_cast<std::size_t>(std::atoi(columns));
    else if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &terminal) == 0 && terminal.ws_col > 0)
        width = terminal.ws_col;
    return std::clamp<std::size_t>(width, 40, 100);
}

std::shared_ptr<CLI::Formatter> wrapping_formatter(std::size_t width) {
    return std::make_shared<WrappingFormatter>(width);
}

std::string command_path(const CLI::App &command) {
    std::string path;
    for (const CLI::App *app = &command; app->get_parent() != nullptr; app = app->get_parent())
        path = app->get_name() + (path.empty() ? "" : " " + path);
    return path;
}

int print_help_or_version(const CLI::App &app, const CLI::Success &asked) {
    std::ostringstream out, err;
    app.exit(asked, out, err);
    std::cout << escape_for_terminal(out.str(), true) << std::flush;
    return 0;
}

} // namespace gemm
