#include "channel/entry_plan.hpp"

#include <algorithm>

namespace gemm {

namespace {

struct TypeText {
    ParameterType type;
    const char *text;
};

constexpr TypeText dim_types[] = {{ParameterType::Int, "int"}, {ParameterType::SizeT, "size_t"}};

std::vector<std::string> split(const std::string &text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1)
        parts.push_back(text.substr(start, end - start));
    parts.push_back(text.substr(start));
    return parts;
}

} // namespace

EntryPlan entry_plan_of(const ProblemDescriptor &problem) {
    EntryPlan plan;
    plan.symbol = problem.entry;
    for (const auto &parameter : problem.parameters) {
        EntryArgument argument;
        argument.type = parameter.kind;
        const auto dim = std::find(problem.dims.begin(), problem.dims.end(), parameter.name);
        if (dim != problem.dims.end()) {
            argument.source = EntryArgument::Source::Dim;
            argument.dim = static_cast<int>(dim - problem.dims.begin());
        } else if (parameter.name == problem.roles.at("A")) {
            argument.source = EntryArgument::Source::A;
        } else if (parameter.name == problem.roles.at("B")) {
            argument.source = EntryArgument::Source::B;
        } else if (parameter.name == problem.roles.at("C")) {
            argument.source = EntryArgument::Source::C;
        } else {
            throw ProblemError(problem.name + ": the runner cannot pass " + parameter.name + " yet");
        }
        plan.arguments.push_back(argument);
    }
    return plan;
}

std::string entry_plan_text(const EntryPlan &plan) {
    std::string text = plan.symbol + ":";
    for (std::size_t i = 0; i < plan.arguments.size(); ++i) {
        const auto &a = plan.arguments[i];
        text += i ? "," : "";
        switch (a.source) {
        case EntryArgument::Source::A: text += "A"; break;
        case EntryArgument::Source::B: text += "B"; break;
        case EntryArgument::Source::C: text += "C"; break;
        case EntryArgument::Source::Dim:
            text += std::to_string(a.dim) + "/" + (a.type == ParameterType::SizeT ? "size_t" : "int");
            break;
        }
    }
    return text;
}

std::optional<EntryPlan> parse_entry_plan(const std::string &text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0) return std::nullopt;
    EntryPlan plan;
    plan.symbol = text.substr(0, colon);
    for (const auto &part : split(text.substr(colon + 1), ',')) {
        EntryArgument a;
        if (part == "A" || part == "B") {
            a.source = part == "A" ? EntryArgument::Source::A : EntryArgument::Source::B;
        } else if (part == "C") {
            a.source = EntryArgument::Source::C;
            a.type = ParameterType::FloatPointer;
        } else {
            const auto slash = part.find('/');
            if (slash == std::string::npos || slash == 0) return std::nullopt;
            const std::string index = part.substr(0, slash), type = part.substr(slash + 1);
            if (!std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
                index.size() > 2)
                return std::nullopt;
            const auto known = std::find_if(std::begin(dim_types), std::end(dim_types),
                                            [&](const TypeText &t) { return type == t.text; });
            if (known == std::end(dim_types)) return std::nullopt;
            a.source = EntryArgument::Source::Dim;
            a.dim = std::stoi(index);
            a.type = known->type;
        }
        plan.arguments.push_back(a);
    }
    return plan;
}

} // namespace gemm
