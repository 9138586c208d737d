#include "channel/entry_plan.hpp"

#include <algorithm>
#include <cctype>

namespace gemm {

namespace {

struct TypeText {
    ParameterType type;
    const char *text;
};

constexpr TypeText dim_types[] = {{ParameterType::Int, "int"}, {ParameterType::SizeT, "size_t"}};
constexpr TypeText scalar_types[] = {
    {ParameterType::Int, "int"}, {ParameterType::SizeT, "size_t"}, {ParameterType::Float, "float"}};

// The scalars the referee sets on every call (CallOrder::scalars): A's count of non-zeros, the
// epilogue's, α and β, an int8 problem's scales and zero points; the others would need the
// referee to know their meaning first.
bool runner_can_pass(const std::string &role) {
    for (const char *known : {"nnz", "slope", "scale", "alpha", "beta", "scale_A", "scale_B", "scale_C", "zero_point_A",
                              "zero_point_B", "zero_point_C"})
        if (role == known) return true;
    return false;
}

// The operands beside A, B and C, by role and by their word in the plan's text.
struct OperandRole {
    const char *role, *text;
    EntryArgument::Source source;
};
constexpr OperandRole extra_operands[] = {{"bias", "bias", EntryArgument::Source::Bias},
                                          {"E", "factor", EntryArgument::Source::Factor}};

const TypeText *type_named(const TypeText *begin, const TypeText *end, const std::string &text) {
    const auto found = std::find_if(begin, end, [&](const TypeText &t) { return text == t.text; });
    return found == end ? nullptr : found;
}

const char *type_text(ParameterType type) {
    for (const auto &t : scalar_types)
        if (t.type == type) return t.text;
    return "int";
}

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
        } else if (const auto extra = std::find_if(std::begin(extra_operands), std::end(extra_operands),
                                                   [&](const OperandRole &o) {
                                                       const auto role = problem.roles.find(o.role);
                                                       return role != problem.roles.end() &&
                                                              role->second == parameter.name;
                                                   });
                   extra != std::end(extra_operands)) {
            argument.source = extra->source;
        } else {
            const auto role = std::find_if(problem.roles.begin(), problem.roles.end(),
                                           [&](const auto &r) { return r.second == parameter.name; });
            if (role == problem.roles.end() || !runner_can_pass(role->first))
                throw ProblemError(problem.name + ": the runner cannot pass " + parameter.name + " yet");
            argument.source = EntryArgument::Source::Scalar;
            argument.role = role->first;
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
        case EntryArgument::Source::Bias:
        case EntryArgument::Source::Factor:
            for (const OperandRole &o : extra_operands)
                if (o.source == a.source) text += o.text;
            break;
        case EntryArgument::Source::Dim:
            text += std::to_string(a.dim) + "/" + (a.type == ParameterType::SizeT ? "size_t" : "int");
            break;
        case EntryArgument::Source::Scalar: text += "=" + a.role + "/" + type_text(a.type); break;
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
        } else if (const auto extra = std::find_if(std::begin(extra_operands), std::end(extra_operands),
                                                   [&](const OperandRole &o) { return part == o.text; });
                   extra != std::end(extra_operands)) {
            a.source = extra->source;
        } else if (!part.empty() && part[0] == '=') {
            // "=nnz/int": the call's scalar of that role
            const auto slash = part.find('/');
            if (slash == std::string::npos || slash < 2) return std::nullopt;
            const std::string role = part.substr(1, slash - 1);
            if (!std::all_of(role.begin(), role.end(), [](char c) { return std::isalnum(c) || c == '_'; }))
                return std::nullopt;
            const TypeText *type = type_named(std::begin(scalar_types), std::end(scalar_types), part.substr(slash + 1));
            if (!type) return std::nullopt;
            a.source = EntryArgument::Source::Scalar;
            a.role = role;
            a.type = type->type;
        } else {
            const auto slash = part.find('/');
            if (slash == std::string::npos || slash == 0) return std::nullopt;
            const std::string index = part.substr(0, slash), type = part.substr(slash + 1);
            if (!std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
                index.size() > 2)
                return std::nullopt;
            const TypeText *known = type_named(std::begin(dim_types), std::end(dim_types), type);
            if (!known) return std::nullopt;
            a.source = EntryArgument::Source::Dim;
            a.dim = std::stoi(index);
            a.type = known->type;
        }
        plan.arguments.push_back(a);
    }
    return plan;
}

} // namespace gemm
