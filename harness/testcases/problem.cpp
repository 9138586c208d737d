#include "testcases/problem.hpp"
#include "common/nearest_name.hpp"
#include "common/terminal_text.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace gemm {

namespace {

using nlohmann::json;

const std::vector<std::string> &known_keys() {
    static const std::vector<std::string> keys{"name",         "site",      "title",     "url",      "entry",
                                               "parameters",   "roles",     "dims",      "gemm",     "batch",
                                               "op",           "dtype",     "scaling",   "c_read",   "epilogue",
                                               "quantization", "structure", "tolerance", "baseline", "scalars"};
    return keys;
}

struct TypeName {
    const char *text;
    ParameterType kind;
};

const std::vector<TypeName> &type_names() {
    static const std::vector<TypeName> names{
        {"const float *", ParameterType::ConstFloatPointer},
        {"float *", ParameterType::FloatPointer},
        {"const half *", ParameterType::OtherPointer},
        {"half *", ParameterType::OtherPointer},
        {"const __nv_bfloat16 *", ParameterType::OtherPointer},
        {"__nv_bfloat16 *", ParameterType::OtherPointer},
        // FP8 is listed (a problem can name it) though not yet judged.
        {"const __nv_fp8_e4m3 *", ParameterType::OtherPointer},
        {"__nv_fp8_e4m3 *", ParameterType::OtherPointer},
        {"const __nv_fp8_e5m2 *", ParameterType::OtherPointer},
        {"__nv_fp8_e5m2 *", ParameterType::OtherPointer},
        {"const int8_t *", ParameterType::OtherPointer},
        {"int8_t *", ParameterType::OtherPointer},
        {"int", ParameterType::Int},
        {"size_t", ParameterType::SizeT},
        {"float", ParameterType::Float},
    };
    return names;
}

class Reader {
  public:
    Reader(const json &j, std::string path) : j_(j), path_(std::move(path)) {}

    [[noreturn]] void fail(const std::string &why) const {
        throw ProblemError(escape_for_terminal(path_) + ":0: " + escape_for_terminal(why));
    }
    std::string text(const char *key, bool required = true) const {
        if (!j_.contains(key)) {
            if (required) fail(std::string("missing \"") + key + "\"");
            return "";
        }
        if (!j_.at(key).is_string() || j_.at(key).get<std::string>().empty())
            fail(std::string("\"") + key + "\" must be a non-empty string");
        return j_.at(key).get<std::string>();
    }
    const json &at(const char *key) const {
        if (!j_.contains(key)) fail(std::string("missing \"") + key + "\"");
        return j_.at(key);
    }

  private:
    const json &j_;
    std::string path_;
};

std::vector<std::string> factors(const std::string &expression) {
    std::vector<std::string> names;
    std::string current;
    for (char c : expression) {
        if (c == ' ') continue;
        if (c == '*') {
            names.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    names.push_back(current);
    if (names.size() == 1 && names[0] == "1") return {};
    return names;
}

// The value of a product of dims (a batch's count, an axis of the product) for a case's dims;
// a name that is no dim counts 1 (the descriptor's check refuses such names where they matter).
long long product_of(const ProblemDescriptor &p, const std::vector<std::string> &names,
                     const std::vector<long long> &values) {
    long long product = 1;
    for (const auto &name : names) {
        const auto at = static_cast<std::size_t>(std::find(p.dims.begin(), p.dims.end(), name) - p.dims.begin());
        if (at < values.size()) product *= values[at];
    }
    return product;
}

// A batch this judge lays out: each operand's stride is one whole product's operand (the
// dims of its two axes, in any order), so the products lie one right after another.
bool batch_is_contiguous(const ProblemDescriptor &p) {
    const json &batch = p.rest.at("batch");
    if (!batch.is_object() || !batch.contains("count") || !batch.at("count").is_string()) return false;
    const auto stride_is = [&](const char *key, int first_axis, int second_axis) {
        if (!batch.contains(key) || !batch.at(key).is_string()) return false;
        auto stride = factors(batch.at(key).get<std::string>());
        auto whole = p.gemm[first_axis];
        whole.insert(whole.end(), p.gemm[second_axis].begin(), p.gemm[second_axis].end());
        std::sort(stride.begin(), stride.end());
        std::sort(whole.begin(), whole.end());
        return stride == whole;
    };
    return stride_is("stride_A", 0, 1) && stride_is("stride_B", 1, 2) && stride_is("stride_C", 0, 2);
}

// The roles the judge gives a meaning: the operands, the epilogue's own operands and scalars.
bool judged_role(const std::string &role) {
    for (const char *known : {"A", "B", "C", "nnz", "bias", "E", "slope", "scale", "alpha", "beta", "scale_A",
                              "scale_B", "scale_C", "zero_point_A", "zero_point_B", "zero_point_C"})
        if (role == known) return true;
    return false;
}

// FP16 or BF16 storage, FP32 accumulation (LeetGPU #22, #57 for FP16; no shipped problem is BF16).
const std::string half_dtypes = "fp16 in, fp32 accumulate, fp16 out";
const std::string bf16_dtypes = "bf16 in, fp32 accumulate, bf16 out";
bool two_byte_floats(const std::string &dtypes) { return dtypes == half_dtypes || dtypes == bf16_dtypes; }

// INT8 in and out with exact int32 sums, requantized (LeetGPU #32; common/requantization.hpp).
const std::string int8_dtypes = "int8 in, int32 accumulate, int8 out";

// The requantization the judge judges: the three scales and three zero points in their roles,
// listed in the order A, B, C, rounded half to even and clamped to int8's range.
bool quantization_is_judged(const ProblemDescriptor &p) {
    const json &q = p.rest.at("quantization");
    if (!q.is_object()) return false;
    const auto lists_roles = [&](const char *key, const char *prefix) {
        const json &names = q.value(key, json());
        if (!names.is_array() || names.size() != 3) return false;
        for (int i = 0; i < 3; ++i) {
            const auto role = p.roles.find(std::string(prefix) + "ABC"[i]);
            if (role == p.roles.end() || !names[i].is_string() || names[i].get<std::string>() != role->second)
                return false;
        }
        return true;
    };
    return lists_roles("scales", "scale_") && lists_roles("zero_points", "zero_point_") &&
           q.value("rounding", "") == "half_even" && q.value("clamp", json()) == json::array({-128, 127});
}

// α·A·B + β·C₀ the judge judges: both scalars in their roles and C read (LeetGPU #22's form),
// with no epilogue after it.
bool scaling_is_judged(const ProblemDescriptor &p) {
    const json &scaling = p.rest.value("scaling", json::object());
    return scaling.is_object() && scaling.value("c_read", p.rest.value("c_read", false)) && p.roles.count("alpha") &&
           p.roles.count("beta") && !p.rest.contains("epilogue");
}

struct StepName {
    const char *text;
    EpilogueOp op;
};
constexpr StepName step_names[] = {{"bias", EpilogueOp::Bias},
                                   {"relu", EpilogueOp::Relu},
                                   {"leaky_relu", EpilogueOp::LeakyRelu},
                                   {"multiply", EpilogueOp::Multiply},
                                   {"swish", EpilogueOp::Swish},
                                   {"scale", EpilogueOp::Scale},
                                   {"sigmoid_sum", EpilogueOp::SigmoidSum}};

std::optional<EpilogueOp> step_op(const std::string &text) {
    for (const StepName &s : step_names)
        if (text == s.text) return s.op;
    return std::nullopt;
}

// A step's scalar is named by its role ("slope") or by the parameter in that role ("alpha").
std::string role_named(const ProblemDescriptor &p, const std::string &name) {
    if (p.roles.count(name)) return name;
    for (const auto &[role, parameter] : p.roles)
        if (parameter == name) return role;
    return "";
}

// The key of a step that names its scalar, where the step has one.
const char *scalar_key(EpilogueOp op) {
    return op == EpilogueOp::LeakyRelu ? "slope" : op == EpilogueOp::Scale ? "by" : nullptr;
}

// Why the judge cannot judge the problem's epilogue ("" when it can): the ops it knows, at most
// Epilogue::max_steps of them, a sum only last, a scalar that is a role, no batch beside it.
std::string epilogue_problem(const ProblemDescriptor &p) {
    const json &steps = p.rest.at("epilogue");
    std::string ops;
    for (const auto &step : steps) ops += (ops.empty() ? "" : ", ") + step.value("op", "?");
    if (!steps.is_array() || steps.empty() || steps.size() > std::size_t(Epilogue::max_steps)) return ops;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto op = step_op(steps[i].value("op", ""));
        if (!op || (*op == EpilogueOp::SigmoidSum && i + 1 != steps.size())) return ops;
        if (const char *key = scalar_key(*op); key && role_named(p, steps[i].value(key, "")).empty()) return ops;
    }
    if (p.rest.contains("batch")) return ops + " over a batch";
    return "";
}

ProblemDescriptor make_default_problem() {
    ProblemDescriptor p;
    p.name = "leetgpu/2-matrix-multiplication";
    p.site = "LeetGPU";
    p.title = "Matrix Multiplication";
    p.url = "https://leetgpu.com/challenges/matrix-multiplication";
    p.entry = "solve";
    p.parameters = {{"A", "const float *", ParameterType::ConstFloatPointer},
                    {"B", "const float *", ParameterType::ConstFloatPointer},
                    {"C", "float *", ParameterType::FloatPointer},
                    {"M", "int", ParameterType::Int},
                    {"N", "int", ParameterType::Int},
                    {"K", "int", ParameterType::Int}};
    p.roles = {{"A", "A"}, {"B", "B"}, {"C", "C"}};
    p.dims = {"M", "N", "K"};
    p.gemm = {std::vector<std::string>{"M"}, {"N"}, {"K"}};
    p.baseline = "cublasSgemm";
    // LeetGPU's checker's, as testcases/problem.json says (a CPU test holds the two equal).
    p.rest["tolerance"] = {{"atol", 1e-4}, {"rtol", 1e-4}};
    p.is_default = true;
    return p;
}

} // namespace

std::string ProblemDescriptor::signature() const {
    std::string s = "extern \"C\" void " + entry + "(";
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const auto &p = parameters[i];
        const bool pointer = !p.type.empty() && p.type.back() == '*';
        s += (i ? ", " : "") + p.type + (pointer ? "" : " ") + p.name;
    }
    return s + ")";
}

std::string ProblemDescriptor::dtypes() const {
    if (!rest.contains("dtype")) return "fp32";
    const json &d = rest.at("dtype");
    const std::string in = d.value("A", "fp32"), acc = d.value("accumulate", in), out = d.value("C", in);
    if (in == acc && acc == out) return in;
    return in + " in, " + acc + " accumulate, " + out + " out";
}

std::vector<std::string> ProblemDescriptor::not_yet_judged() const {
    std::vector<std::string> missing;
    if (dtypes() != "fp32" && !two_byte_floats(dtypes()) && dtypes() != int8_dtypes)
        missing.push_back(dtypes() + " operands");
    const ProductLayout stored = layout({});
    if (two_byte_floats(dtypes()) && (stored.a_transposed || stored.b_transposed || stored.a_diagonal ||
                                      rest.contains("epilogue") || rest.contains("structure")))
        missing.push_back(dtypes().substr(0, 4) +
                          " operands stored other than row-major and dense, or with an epilogue");
    if (rest.contains("op")) {
        const json &op = rest.at("op");
        for (const char *operand : {"A", "B"})
            if (op.value(operand, "N") != "N" && op.value(operand, "N") != "T")
                missing.push_back(std::string("op ") + operand + " = " + op.value(operand, "?"));
    }
    if (rest.contains("batch") && !batch_is_contiguous(*this))
        missing.push_back("batch strides other than one product after another");
    if ((rest.contains("scaling") || rest.value("c_read", false)) && !scaling_is_judged(*this))
        missing.push_back("alpha and beta");
    // A triangle kept of the product of two such triangles is the product itself.
    const bool triangle_of_triangles =
        rest.contains("epilogue") && rest.at("epilogue").size() == 1 &&
        rest.at("epilogue")[0].value("op", "") == "triangle" && rest.contains("structure") &&
        rest.at("structure").value("A", "") == rest.at("epilogue")[0].value("keep", "?") &&
        rest.at("structure").value("B", "") == rest.at("epilogue")[0].value("keep", "?");
    if (rest.contains("epilogue") && !triangle_of_triangles) {
        const std::string why = epilogue_problem(*this);
        if (!why.empty()) missing.push_back("an epilogue (" + why + ")");
    }
    if (dtypes() == int8_dtypes &&
        (!stored.plain() || rest.contains("epilogue") || rest.contains("structure") || rest.contains("scaling")))
        missing.push_back("int8 operands stored other than row-major and dense, or with an epilogue or scaling");
    if (dtypes() == int8_dtypes && (!rest.contains("quantization") || !quantization_is_judged(*this)))
        missing.push_back("an int8 requantization other than LeetGPU's (scales and zero points of A, B and C, "
                          "half to even, clamped to [-128, 127])");
    if (rest.contains("quantization") && dtypes() != int8_dtypes) missing.push_back("quantization of " + dtypes());
    if (rest.contains("structure"))
        for (const auto &[operand, kind] : rest.at("structure").items())
            if (kind.is_string() && !structure_of(kind.get<std::string>()) &&
                !(kind.get<std::string>() == "diagonal" && operand == "A"))
                missing.push_back(kind.get<std::string>() + " " + operand);
    for (const auto &[role, parameter] : roles)
        if (!judged_role(role)) missing.push_back("a parameter in the role " + role);
    return missing;
}

std::array<long long, 3> ProblemDescriptor::gemm_shape(const std::vector<long long> &values) const {
    std::array<long long, 3> shape{1, 1, 1};
    for (int axis = 0; axis < 3; ++axis) shape[axis] = product_of(*this, gemm[axis], values);
    return shape;
}

std::optional<Structure> structure_of(const std::string &name) {
    if (name == "general") return Structure::General;
    if (name == "masked") return Structure::Masked;
    if (name == "lower") return Structure::Lower;
    if (name == "upper") return Structure::Upper;
    if (name == "symmetric") return Structure::Symmetric;
    return std::nullopt;
}

Structure ProblemDescriptor::structure(const char *operand) const {
    if (!rest.contains("structure") || !rest.at("structure").is_object()) return Structure::General;
    return structure_of(rest.at("structure").value(operand, "general")).value_or(Structure::General);
}

double ProblemDescriptor::mask_density() const {
    if (!rest.contains("structure") || !rest.at("structure").is_object()) return 1.0;
    const json &density = rest.at("structure").value("density", json(1.0));
    return density.is_number() ? density.get<double>() : 1.0;
}

std::optional<SiteTolerance> ProblemDescriptor::site_tolerance() const {
    const auto found = rest.find("tolerance");
    if (found == rest.end() || !found->is_object()) return std::nullopt;
    const json atol = found->value("atol", json()), rtol = found->value("rtol", json());
    if (!atol.is_number() || !rtol.is_number()) return std::nullopt;
    return SiteTolerance{atol.get<double>(), rtol.get<double>()};
}

ProductLayout ProblemDescriptor::layout(const std::vector<long long> &values) const {
    ProductLayout l;
    if (rest.contains("batch") && rest.at("batch").is_object() && rest.at("batch").contains("count") &&
        rest.at("batch").at("count").is_string())
        l.batch = product_of(*this, factors(rest.at("batch").at("count").get<std::string>()), values);
    if (rest.contains("op") && rest.at("op").is_object()) {
        l.a_transposed = rest.at("op").value("A", "N") == "T";
        l.b_transposed = rest.at("op").value("B", "N") == "T";
    }
    l.a_diagonal = rest.contains("structure") && rest.at("structure").is_object() &&
                   rest.at("structure").value("A", "") == "diagonal";
    if (two_byte_floats(dtypes())) l.element_bytes = 2;
    l.bfloat16 = dtypes() == bf16_dtypes;
    if (dtypes() == int8_dtypes) l.element_bytes = 1;
    l.c_read = scaling_is_judged(*this);
    const Epilogue e = epilogue(default_scalars());
    l.bias = e.reads_bias();
    l.factor = e.reads_factor();
    l.scalar_output = e.sums();
    return l;
}

std::string ProblemDescriptor::default_data() const {
    return dtypes() == int8_dtypes ? "integers -128 127" : "uniform -1 1";
}

std::map<std::string, double> ProblemDescriptor::default_scalars() const {
    std::map<std::string, double> scalars;
    const auto found = rest.find("scalars");
    if (found == rest.end() || !found->is_object()) return scalars;
    for (const auto &[role, value] : found->items())
        if (value.is_number() && roles.count(role)) scalars[role] = value.get<double>();
    return scalars;
}

Epilogue ProblemDescriptor::epilogue(const std::map<std::string, double> &scalars) const {
    Epilogue e;
    if (!rest.contains("epilogue") || !epilogue_problem(*this).empty()) return e;
    for (const auto &step : rest.at("epilogue")) {
        EpilogueStep s;
        s.op = *step_op(step.value("op", ""));
        if (const char *key = scalar_key(s.op)) {
            const auto value = scalars.find(role_named(*this, step.value(key, "")));
            s.parameter = value != scalars.end() ? value->second : 0;
        }
        e.steps[e.count++] = s;
    }
    return e;
}

const ProblemDescriptor &default_problem() {
    static const ProblemDescriptor p = make_default_problem();
    return p;
}

ProblemDescriptor parse_problem(const std::string &text, const std::string &path) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error &e) {
        throw ProblemError(escape_for_terminal(path) + ":0: is not JSON: " + e.what());
    }
    Reader r(j, path);
    if (!j.is_object()) r.fail("must be a JSON object");
    for (const auto &[key, value] : j.items())
        if (std::find(known_keys().begin(), known_keys().end(), key) == known_keys().end()) {
            const auto near = nearest_name(key, known_keys());
            r.fail("unknown key \"" + key + "\"" + (near ? "; did you mean \"" + *near + "\"?" : ""));
        }
    ProblemDescriptor p;
    p.name = r.text("name");
    p.site = r.text("site");
    p.title = r.text("title");
    p.url = r.text("url", false);
    p.entry = r.text("entry");
    p.baseline = r.text("baseline");
    const json &parameters = r.at("parameters");
    if (!parameters.is_array() || parameters.empty()) r.fail("\"parameters\" must be a non-empty list");
    std::set<std::string> names;
    for (const auto &item : parameters) {
        if (!item.is_object() || !item.contains("name") || !item.contains("type") || !item.at("name").is_string() ||
            !item.at("type").is_string())
            r.fail("each parameter is {\"name\": …, \"type\": …}");
        ProblemParameter parameter{item.at("name").get<std::string>(), item.at("type").get<std::string>()};
        const auto type = std::find_if(type_names().begin(), type_names().end(),
                                       [&](const TypeName &t) { return parameter.type == t.text; });
        if (type == type_names().end()) {
            std::vector<std::string> known;
            for (const auto &t : type_names()) known.push_back(t.text);
            const auto near = nearest_name(parameter.type, known);
            r.fail("parameter " + parameter.name + ": unknown type \"" + parameter.type + "\"" +
                   (near ? "; did you mean \"" + *near + "\"?" : ""));
        }
        parameter.kind = type->kind;
        if (!names.insert(parameter.name).second) r.fail("parameter " + parameter.name + " appears twice");
        p.parameters.push_back(parameter);
    }
    const json &roles = r.at("roles");
    if (!roles.is_object()) r.fail("\"roles\" must map each role to a parameter");
    for (const auto &[role, parameter] : roles.items()) {
        if (!parameter.is_string() || !names.count(parameter.get<std::string>()))
            r.fail("role " + role + " names no parameter");
        p.roles[role] = parameter.get<std::string>();
    }
    for (const char *operand : {"A", "B", "C"})
        if (!p.roles.count(operand)) r.fail(std::string("\"roles\" has no ") + operand);
    const json &dims = r.at("dims");
    if (!dims.is_array() || dims.empty()) r.fail("\"dims\" must be a non-empty list of parameter names");
    for (const auto &d : dims) {
        if (!d.is_string()) r.fail("\"dims\" must list parameter names");
        const std::string dim = d.get<std::string>();
        const auto parameter = std::find_if(p.parameters.begin(), p.parameters.end(),
                                            [&](const ProblemParameter &q) { return q.name == dim; });
        if (parameter == p.parameters.end()) r.fail("dim " + dim + " names no parameter");
        if (parameter->kind != ParameterType::Int && parameter->kind != ParameterType::SizeT)
            r.fail("dim " + dim + " must be an int or size_t parameter");
        p.dims.push_back(dim);
    }
    const json &gemm = r.at("gemm");
    const char *axes[] = {"M", "N", "K"};
    for (int axis = 0; axis < 3; ++axis) {
        if (!gemm.is_object() || !gemm.contains(axes[axis]) || !gemm.at(axes[axis]).is_string())
            r.fail(std::string("\"gemm\" needs \"") + axes[axis] + "\" as a product of dims");
        p.gemm[axis] = factors(gemm.at(axes[axis]).get<std::string>());
        for (const auto &factor : p.gemm[axis])
            if (std::find(p.dims.begin(), p.dims.end(), factor) == p.dims.end())
                r.fail(std::string("gemm ") + axes[axis] + ": " + factor + " is not one of the dims");
    }
    // Every dimension parameter comes from the case, every other integer from a role.
    for (const auto &parameter : p.parameters) {
        const bool is_dim = std::find(p.dims.begin(), p.dims.end(), parameter.name) != p.dims.end();
        const bool has_role = std::any_of(p.roles.begin(), p.roles.end(),
                                          [&](const auto &role) { return role.second == parameter.name; });
        if (!is_dim && !has_role) r.fail("parameter " + parameter.name + " is neither a dim nor in a role");
    }
    for (const auto &[key, value] : j.items())
        if (key != "name" && key != "entry" && key != "parameters" && key != "roles" && key != "dims" &&
            key != "gemm" && key != "baseline")
            p.rest[key] = value;
    p.folder = std::filesystem::path(path).parent_path().string();
    // The seed's problem keeps its own case format (`shape M N K`, explicit matrices).
    p.is_default = p.name == default_problem().name;
    return p;
}

ProblemDescriptor load_problem(const std::string &path) {
    const auto text = read_text_file(path);
    if (!text) throw ProblemError(escape_for_terminal(path) + ":0: cannot be read");
    return parse_problem(*text, path);
}

std::string problem_file_of(const std::string &folder) {
    return (std::filesystem::path(folder) / "problem.json").string();
}

const ProblemDescriptor &suite_problem(const std::string &suite_root) {
    static std::map<std::string, ProblemDescriptor> read;
    const std::string file = problem_file_of(suite_root);
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return default_problem();
    const std::string key = std::filesystem::weakly_canonical(file, ec).string();
    if (auto found = read.find(key); found != read.end()) return found->second;
    return read.emplace(key, load_problem(file)).first->second;
}

} // namespace gemm
