#include "judge/options/help_format.hpp"
#include "core/terminal_text.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

namespace gemm {

namespace {

class WrappingFormatter : public CLI::Formatter {
  public:
    explicit WrappingFormatter(std::size_t width) : width_(width) {
        column_width(std::min<std::size_t>(30, width / 3));
    }

    std::string make_option(const CLI::Option *opt, bool is_positional) const override {
        return two_columns(make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
    }
    std::string make_subcommand(const CLI::App *sub) const override {
        return two_columns(sub->get_display_name(true), sub->get_description());
    }
    std::string make_description(const CLI::App *app) const override {
        const std::string text = CLI::Formatter::make_description(app);
        return text.empty() ? text : wrap_to_width(text, width_);
    }
    std::string make_footer(const CLI::App *app) const override {
        const std::string text = CLI::Formatter::make_footer(app);
        return text.empty() ? text : wrap_to_width(text, width_);
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

} // namespace gemm
