// `*args` and `**kwargs` (docs/language.md "Calls"): the arguments of a call
// site, with `f(*xs, **d)` unpacked, and binding a call to a function with
// star or keyword-only parameters.
//
// Python's rules: `*xs` takes anything a `for` loop walks (a list, a tuple,
// a string, a dict's keys, a set, a tensor along axis 0), `**d` a dict with
// string keys; a keyword given twice (written and in `d`, or in two dicts)
// is an error at the call site. A function's `*args` is the tuple of the
// extra positional arguments, its `**kwargs` the dict of the extra keywords
// (in the order given); parameters after `*args` or a bare `*` are
// keyword-only. Inside @graph a call with star arguments is traced like any
// other: the tuple and the dict are ordinary values, so a @graph function's
// signature counts the arguments actually passed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "interp/values/value.hpp"
#include "lang/source.hpp"

namespace tg::interp {

// Arguments evaluated at a call site (keeps the values alive for CallArgs).
struct EvaluatedArgs {
    std::vector<Value> positional;
    std::vector<Value> keyword_values;
    std::vector<KwArg> keywords;
    std::vector<Value> unpacked_dicts;  // the `**d` dicts, whose keys `keywords` views
    CallArgs view(lang::Loc loc) const { return CallArgs{positional, keyword_values, keywords, loc}; }
};

// The name a callee has in errors ("f", "print", "<lambda>").
std::string callee_name(const Value& callee);

// The call's environment for a function with star or keyword-only
// parameters (FunctionFacts::star_params): its slots filled from the
// arguments, Python's way; errors name the function and are located at the
// call (a keyword's error at the keyword).
std::shared_ptr<Env> bind_star_parameters(const FunctionObj& fn, const CallArgs& args, const lang::SourcePtr& call_source);

}  // namespace tg::interp
