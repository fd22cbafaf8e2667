#include "interp/star_args.hpp"

#include <optional>
#include <string_view>
#include <unordered_set>

#include "interp/control.hpp"
#include "interp/evaluator.hpp"
#include "interp/suggest.hpp"
#include "interp/values/dict.hpp"

namespace tg::interp {

using namespace lang;

std::string callee_name(const Value& callee) {
    switch (callee.kind()) {
    case Kind::Function: return callee.function().name;
    case Kind::Builtin: return callee.builtin().name;
    case Kind::BoundMethod: return callee_name(callee.bound().fn);
    case Kind::DType: return stdlib::dtype_name(callee.dtype());
    default: return kind_name(callee.kind());
    }
}

// f(a, *xs, k=v, **d): positional arguments and the items of each `*xs` in
// order, then the keywords and the entries of each `**d` in order.
void Evaluator::eval_unpacking_args(const Call& c, EvaluatedArgs& a, const std::string& fn) {
    for (const auto& x : c.args) {
        if (x->kind != ExprKind::Starred) {
            a.positional.push_back(eval(*x));
            continue;
        }
        const Starred& s = x->as<Starred>();
        const Value v = eval(*s.value);
        std::optional<Iterable> items;
        try {
            items.emplace(v, rt_);
        } catch (Error& e) {
            fail(fn + ": the argument after * must be iterable (" + e.message() + ")", s.loc);
        }
        for (int64_t i = 0; i < items->size(); ++i) {
            stdlib::spend_work(1);
            a.positional.push_back(items->item(i));
        }
    }
    std::unordered_set<std::string_view> seen;
    auto add = [&](std::string_view name, Value v, Loc loc) {
        if (!seen.insert(name).second) fail(fn + ": argument `" + std::string(name) + "` given twice", loc);
        a.keyword_values.push_back(std::move(v));
        a.keywords.push_back({name, loc});
    };
    for (const Keyword& k : c.keywords) {
        if (!k.unpack) {
            add(k.name, eval(*k.value), k.loc);
            continue;
        }
        const Value d = eval(*k.value);
        if (!d.is(Kind::Dict)) fail(fn + ": the argument after ** must be a dict, not " + kind_desc(d), k.loc);
        // (the dict is held, so the names viewed in its keys live as long as the arguments)
        a.unpacked_dicts.push_back(d);
        // (keys() squeezes out any holes now; shared, the dict gains none later, so its keys stay put)
        const std::vector<DictKey>& keys = d.dict().keys();
        const std::vector<Value>& values = d.dict().values();
        for (size_t i = 0; i < keys.size(); ++i) {
            if (keys[i].is_int())
                fail(fn + ": keywords must be strings, not " + key_repr(keys[i]) + " (a key of the dict after **)", k.loc);
            add(keys[i].s(), values[i], k.loc);
        }
    }
}

namespace {

// "takes 2 positional arguments but 3 were given" (Python's words when
// keyword-only parameters exist; tg's usual "takes 2 arguments" otherwise).
std::string takes(size_t n, size_t given, bool keyword_only) {
    return "takes " + std::to_string(n) + (keyword_only ? " positional" : "") + (n == 1 ? " argument" : " arguments") +
           " but " + std::to_string(given) + (given == 1 ? " was given" : " were given");
}

}  // namespace

std::shared_ptr<Env> bind_star_parameters(const FunctionObj& fn, const CallArgs& args, const SourcePtr& call_source) {
    auto* facts = static_cast<const FunctionFacts*>(fn.info);
    auto err_at = [&](std::string msg, Loc loc) { return Error(fn.name + ": " + std::move(msg), call_source, loc); };
    const auto& params = *fn.params;
    auto env = std::make_shared<Env>();
    env->slots.resize(static_cast<size_t>(facts->num_slots()));
    env->parent = fn.env;
    env->facts = facts;
    size_t positional = 0;  // the plain parameters come first
    while (positional < params.size() && params[positional].form == ParamForm::Plain) ++positional;
    std::optional<size_t> var_args, var_keywords;
    bool keyword_only = false;
    for (size_t i = positional; i < params.size(); ++i) {
        if (params[i].form == ParamForm::VarArgs) var_args = i;
        if (params[i].form == ParamForm::VarKeywords) var_keywords = i;
        keyword_only = keyword_only || params[i].form == ParamForm::KeywordOnly;
    }
    const size_t given = args.positional.size();
    if (given > positional && !var_args) throw err_at(takes(positional, given, keyword_only), args.loc);
    for (size_t i = 0; i < std::min(given, positional); ++i) env->slots[i] = args.positional[i];
    if (var_args)
        env->slots[*var_args] = Value::tuple(given > positional ? std::vector<Value>(args.positional.begin() + static_cast<std::ptrdiff_t>(positional), args.positional.end())
                                                                : std::vector<Value>{});
    DictObj extra;  // for **kwargs, in the order given
    for (size_t k = 0; k < args.keywords.size(); ++k) {
        const std::string_view kw = args.keywords[k].name;
        size_t i = 0;
        while (i < params.size() && (params[i].name != kw || params[i].form == ParamForm::VarArgs ||
                                     params[i].form == ParamForm::VarKeywords))
            ++i;
        if (i == params.size()) {
            if (var_keywords) {
                extra.set(DictKey::of_str(std::string(kw)), args.keyword_values[k]);
                continue;
            }
            std::vector<std::string_view> names;
            for (const auto& p : params)
                if (p.form == ParamForm::Plain || p.form == ParamForm::KeywordOnly) names.push_back(p.name);
            throw err_at("unknown keyword argument `" + std::string(kw) + "`" + did_you_mean(kw, names), args.keywords[k].loc);
        }
        if (env->slots[i].defined()) throw err_at("argument `" + std::string(kw) + "` given twice", args.keywords[k].loc);
        env->slots[i] = args.keyword_values[k];
    }
    if (var_keywords) env->slots[*var_keywords] = Value::dict(std::move(extra));
    for (size_t i = 0; i < params.size(); ++i) {
        if (env->slots[i].defined()) continue;
        if (!fn.defaults[i].defined())
            throw err_at(std::string(params[i].form == ParamForm::KeywordOnly ? "missing keyword-only argument `"
                                                                              : "missing argument `") +
                             params[i].name + "`",
                         args.loc);
        env->slots[i] = fn.defaults[i];
    }
    return env;
}

}  // namespace tg::interp
