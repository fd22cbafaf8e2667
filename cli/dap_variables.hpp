// What `tg dap` shows of a stopped program's values (docs/debugging.md "VS Code"):
// the Debug Adapter Protocol's variable references. Everything that can be
// expanded — a frame's scope, a tensor, a list, a tuple, a dict — gets a
// number the client asks for its children with. The numbers are valid only
// while the program stays stopped: the store is cleared when it resumes,
// and numbers are never reused, so a stale one is an error, not another
// value. Used only on the interpreter's thread, while it is stopped.
#pragma once

#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace tg::cli {

class VariableStore {
public:
    // A scope of the stop's frame `frame` (an index into DebugStop::frames):
    // its local variables, or (`globals`) its module's.
    struct Scope {
        size_t frame;
        bool globals;
    };
    int add_scope(Scope s);
    std::optional<Scope> scope(int ref) const;

    // A DAP Variable for `value` shown as `name` (with a reference when it
    // has children).
    nlohmann::json variable(const std::string& name, const Value& value);
    // The body of an evaluate response: result (repr in the REPL, else as
    // the Variables view shows it), type, variablesReference.
    nlohmann::json evaluated(const Value& value, bool repl);
    // The children of `ref` as a DAP variables body. `filter` is "named",
    // "indexed" or "" (both); indexed children from `start`, at most
    // `count` (0: all, up to a cap). Throws std::runtime_error for a
    // reference that is not (or no longer) there.
    nlohmann::json children(int ref, const DebugStop& stop, const std::string& filter, size_t start, size_t count);

    void clear();  // the program resumes

private:
    struct Entry {
        std::optional<Scope> scope;
        Value value;  // when not a scope
    };
    nlohmann::json scope_children(const Scope& s, const DebugStop& stop);
    nlohmann::json value_children(const Value& v, const std::string& filter, size_t start, size_t count);
    nlohmann::json tensor_children(const Tensor& t, bool named, bool indexed, size_t start, size_t count);
    std::map<int, Entry> entries_;
    int next_ = 1;
};

}  // namespace tg::cli
