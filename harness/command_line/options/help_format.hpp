// ./judge --help laid out for the terminal it is read on: CLI11's layout (options left,
// descriptions right), with every line wrapped at spaces to the terminal's width, and
// nothing of the parser's own notation: an option shows its value's name (--shape MxNxK),
// never its type or range, and its default in words.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <memory>

namespace gemm {

// Columns of help text: $COLUMNS when set, else the width of the terminal on stdout, else
// 80; never below 40 nor above 100 (long lines read badly).
std::size_t help_width();

// A CLI11 formatter that wraps to `width` columns; subcommands inherit it.
std::shared_ptr<CLI::Formatter> wrapping_formatter(std::size_t width);

// --help or --version asked of `app` (CLI11 says so by throwing CLI::Success): prints it on
// stdout, escaped for the terminal (its help quotes the command line, where a file name may
// hold an escape sequence), and gives the exit status 0.
int print_help_or_version(const CLI::App &app, const CLI::Success &asked);

// "case new" for that subcommand; "" for the main command.
std::string command_path(const CLI::App &command);

} // namespace gemm
