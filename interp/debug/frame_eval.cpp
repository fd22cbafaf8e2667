// Code run on a stopped frame's variables: `p EXPR`, `!x = 1`, a breakpoint's
// condition, a watch in an editor (docs/debugging.md "Commands").
//
// In a function's frame the text runs as the body of a function whose
// parameters are the frame's defined variables (its own, then its enclosing
// functions'), bound to their values; what it assigns to them is written
// back. At a module's top level it runs as more of the module. The parsed,
// resolved text is kept per frame shape (a condition runs at every hit, and
// a function it defines must outlive the evaluation).
#include <algorithm>

#include "interp/control.hpp"
#include "interp/evaluator.hpp"
#include "interp/resolver.hpp"
#include "lang/parser.hpp"

namespace tg::interp {

std::vector<std::pair<std::string, Value*>> visible_variables(Env* env) {
    std::vector<std::pair<std::string, Value*>> v;
    for (Env* e = env; e; e = e->parent.get()) {
        if (!e->facts) continue;
        for (size_t i = 0; i < e->slots.size() && i < e->facts->slots.size(); ++i) {
            const std::string& name = e->facts->slots[i].name;
            if (!e->slots[i].defined() || name.empty() || name.front() == '$') continue;
            if (std::any_of(v.begin(), v.end(), [&](const auto& p) { return p.first == name; })) continue;
            v.emplace_back(name, &e->slots[i]);
        }
    }
    return v;
}

bool Evaluator::truth_of(const Value& v) { return truth(v); }

Value Evaluator::run_in_frame(Frame& f, std::string_view text, std::string_view name) {
    ModuleState& m = *f.module;
    const auto vis = visible_variables(f.env);
    std::vector<std::string> names;
    std::string key = m.name + '\n' + std::string(text) + '\n';
    for (const auto& [n, slot] : vis) {
        names.push_back(n);
        key += n + ',';
    }
    if (f.env && f.env->facts) key += f.env->facts->name;
    auto it = rt_.frame_code.find(key);
    if (it == rt_.frame_code.end()) {
        auto source = std::make_shared<lang::Source>(std::string(name), std::string(text));
        lang::ParseResult parsed = lang::parse(source);
        if (!parsed.ok()) throw syntax_error(parsed, source);
        if (!parsed.module->source) parsed.module->source = source;
        auto code = std::make_unique<Runtime::FrameCode>();
        if (f.env) {
            code->facts = std::make_unique<FunctionFacts>();
            code->facts->name = f.function ? *f.function : "<frame>";
            resolve_as_function(*parsed.module, names, *code->facts, m, rt_);
        } else {
            resolve(*parsed.module, m, rt_);
        }
        code->chunk = std::move(parsed.module);
        it = rt_.frame_code.emplace(std::move(key), std::move(code)).first;
    }
    const Runtime::FrameCode& code = *it->second;

    Value last = Value::none();
    std::function<void(const Value&)> echo = [&last](const Value& v) { last = v; };
    if (!f.env) {
        Evaluator(rt_).run_module(m, *code.chunk, &echo);
        return last;
    }
    auto env = std::make_shared<Env>();
    env->slots.resize(static_cast<size_t>(code.facts->num_slots()));
    env->facts = code.facts.get();
    env->traced = f.env->traced;  // a traced frame's: its reads are not captures
    for (size_t i = 0; i < vis.size(); ++i) env->slots[i] = *vis[i].second;
    Frame frame{env.get(), &env, &m, &code.chunk->source};
    frame.function = f.function;
    frame.is_graph = f.is_graph;
    Evaluator ev(rt_);
    ev.f_ = &frame;
    ev.echo_ = &echo;
    ev.echo_frame_ = &frame;
    OnCallStack on_stack(rt_, frame);
    ev.exec_block(code.chunk->body);
    // assignments to the frame's variables (`!x = 0`, setVariable)
    for (size_t i = 0; i < vis.size(); ++i) *vis[i].second = env->slots[i];
    return last;
}

}  // namespace tg::interp
