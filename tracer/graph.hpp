// The graph IR (docs/graph-ir.md): SSA values and nodes, with `cond` and
// `while` owning nested regions (MLIR scf.if / scf.while style) and a token
// threaded through every side-effecting node.
//
// Storage is three flat tables owned by the Graph — values, nodes, regions —
// addressed by 32-bit ids. Region 0 is the function body: its arguments are
// the function's inputs (and the entry token), its `yield` is the return.
// A node in a nested region may use any value that dominates it: earlier in
// its own region, an argument of an enclosing region, or defined earlier in
// an enclosing region (implicit capture) — except tokens, which must be passed
// explicitly through region arguments so that the order of effects is visible
// in the operands.
//
// Tensor ops refer to their `stdlib::OpDef` (one op table for eager, tracer
// and codegen); result types come from the op's `infer` rule.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "stdlib/op_table.hpp"
#include "tracer/errors.hpp"

namespace tg::tracer {

using ValueId = uint32_t;
using NodeId = uint32_t;
using RegionId = uint32_t;
inline constexpr uint32_t kNoId = UINT32_MAX;

// The type of a value: a tensor type (dtype, static shape, weak flag) or the
// side-effect token.
struct ValueType {
    bool token = false;
    stdlib::TensorType tensor;

    static ValueType of(const stdlib::TensorType& t) { return {false, t}; }
    static ValueType token_type() { return {true, {}}; }
    friend bool operator==(const ValueType& a, const ValueType& b);
};
bool same_type(const stdlib::TensorType& a, const stdlib::TensorType& b);
stdlib::TensorType type_of(const stdlib::Tensor& t);
// "f32[2,3]", "i64[]", "weak f32[]", "token".
std::string to_string(const ValueType& t);
std::string to_string(const stdlib::TensorType& t);
// With dynamic dimensions shown as their symbols: "f32[?0,3]".
std::string to_string(const stdlib::TensorType& t, std::span<const int16_t> dim_symbols);

enum class Op : uint8_t {
    Apply,        // a stdlib op (node.def); attrs = one per OpDef param; random ops take a token
    Constant,     // payload: the tensor
    Undef,        // a value of the result type with unspecified contents (zeros): an unassigned variable
    Truth,        // bool[] truth value of a one-element tensor (docs/language.md "Values")
    Index,        // x[items]; payload IndexSpec; operands: x, then one 0-d int per dynamic item
    IndexAssign,  // x with x[items] = v (a new value); operands: x, v, dynamic items
    Cond,         // operands: pred (bool[]), ins...; regions then/else take ins, yield results
    While,        // operands: inits...; regions cond (yields pred, carried...) and body (yields carried)
    Yield,        // region terminator; in region 0 it is the function's return
    Print,        // operands: token, values...; payload Template (the whole line incl. end); result: token
    Assert,       // operands: token, cond (bool[]), values...; payload: the failure message Template
    Raise,        // operands: token, values...; always raises the payload message
    HostCall,     // operands: token, args...; results: declared types..., token; payload HostFn
};
const char* op_name(Op op);

// Text for print / assert / raise: literal pieces and operand references.
struct TextPiece {
    enum Kind : uint8_t { Text, Str, Repr, Format } kind = Text;
    std::string text;        // Text: the literal; Format: the format spec (".4f")
    uint32_t operand = 0;    // Str/Repr/Format: index into the node's operands
    friend bool operator==(const TextPiece&, const TextPiece&) = default;
};
using Template = std::vector<TextPiece>;

// Static part of an index expression. An Int item with dynamic[i] set takes
// its value from the node's next dynamic operand (in item order).
struct IndexSpec {
    std::vector<stdlib::IndexItem> items;
    std::vector<bool> dynamic;
};

// A host function (docs/embedding.md) called from a graph; `id` is the caller's handle.
struct HostFn {
    uint32_t id = 0;
    std::string name;
};

using Payload = std::variant<std::monostate, stdlib::Tensor, Template, IndexSpec, HostFn>;

struct Node {
    Op op = Op::Apply;
    const stdlib::OpDef* def = nullptr;  // Apply only
    std::vector<ValueId> operands;
    std::vector<ValueId> results;
    std::vector<stdlib::Attr> attrs;     // Apply: one per def->params (monostate for tensor params)
    Payload payload;
    std::vector<RegionId> regions;       // Cond: then, else; While: cond, body
    RegionId parent = kNoId;             // region holding the node; kNoId once erased
    SrcLoc loc;
    bool erased = false;
};

struct Region {
    std::vector<ValueId> args;
    std::vector<NodeId> nodes;  // in program order; the last is a Yield once finished
    NodeId owner = kNoId;       // the Cond/While node; kNoId for region 0
};

struct ValueInfo {
    ValueType type;
    NodeId def = kNoId;          // defining node, or kNoId for a region argument
    RegionId region = kNoId;     // for region arguments
    uint32_t index = 0;          // result index / argument index
    std::string name;            // optional hint for printing (function parameter names)
    // A generalized trace's dynamic dimensions (docs/graph.md "Dynamic
    // dimensions"): per axis, the symbol whose run-time size that dimension
    // is, or -1 when it is the static size in `type`. Empty: all static.
    // Set on the traced graph before it is optimized: the passes keep them
    // (values keep their ids and types; the values passes create are
    // constants, whose shapes are static).
    std::vector<int16_t> dim_symbols;
};

// Where a symbol's run-time size comes from: axis `axis` of the graph's
// `input`-th tensor input (Graph::inputs() order). An exported graph
// (`concrete` with dynamic dims in its specs, docs/deploying.md) also names
// each symbol (`batch`; what ONNX calls a dim_param) and says the smallest
// size it runs at: 1 when the function computes the same graph at size 1,
// else 2 (as a @graph call's generalized trace, whose symbols are unnamed).
struct SymbolSource {
    SymbolSource() = default;
    SymbolSource(size_t in, int ax) : input(in), axis(ax) {}
    size_t input = 0;
    int axis = 0;
    std::string name;
    int64_t min_size = 2;
};

class Graph {
public:
    explicit Graph(std::string name = "graph");

    const std::string& name() const { return name_; }
    static constexpr RegionId kBody = 0;

    // ---- tables
    const Node& node(NodeId n) const { return nodes_[n]; }
    Node& node(NodeId n) { return nodes_[n]; }
    const Region& region(RegionId r) const { return regions_[r]; }
    Region& region(RegionId r) { return regions_[r]; }
    const ValueInfo& value(ValueId v) const { return values_[v]; }
    const ValueType& type(ValueId v) const { return values_[v].type; }
    const stdlib::TensorType& tensor_type(ValueId v) const { return values_[v].type.tensor; }
    size_t num_nodes() const { return nodes_.size(); }
    size_t num_values() const { return values_.size(); }
    size_t num_regions() const { return regions_.size(); }

    // ---- inputs of the function (arguments of region 0)
    ValueId add_input(const stdlib::TensorType& t, std::string name = {});
    ValueId add_input_token();
    // The body's tensor inputs, in order (tokens excluded).
    std::vector<ValueId> inputs() const;
    // A name for printing (the tg variable a region argument carries).
    void set_name(ValueId v, std::string name) { values_[v].name = std::move(name); }

    // ---- dynamic dimensions (a generalized trace, tracer/generalize.hpp).
    // The sizes in the types are those the graph was traced at; a dimension
    // marked with symbol k has, when the graph runs, the size of symbol k
    // (read from its source input) instead. Every symbol's size is >= 2 when
    // the graph runs (the generalized signature admits no other), so a
    // dynamic dimension never broadcasts. Set after the graph is optimized:
    // passes do not carry the marks to values they create.
    void set_dim_symbol(ValueId v, int axis, int symbol);
    // The symbol of v's dimension `axis`, or -1 when it is static.
    int dim_symbol(ValueId v, int axis) const {
        const auto& s = values_[v].dim_symbols;
        return static_cast<size_t>(axis) < s.size() ? s[static_cast<size_t>(axis)] : -1;
    }
    bool has_dynamic_dims(ValueId v) const;
    // v's type as text, dynamic dimensions as their symbols ("f32[?0,3]").
    std::string type_string(ValueId v) const;
    // Number of symbols (0 for a graph with static shapes only).
    int num_dim_symbols() const { return static_cast<int>(symbol_sources_.size()); }
    const std::vector<SymbolSource>& symbol_sources() const { return symbol_sources_; }
    void set_symbol_sources(std::vector<SymbolSource> s) { symbol_sources_ = std::move(s); }
    // Makes every dimension static again, at the sizes the graph was traced
    // at (what --dump-graphs saves of a generalized trace).
    void drop_dynamic_dims();
    // Nodes whose payload or attribute is a size (found by comparing two
    // traces, tracer/generalize.hpp): a 0-d Constant that is `factor` times
    // a symbol's size (a mean's count), and an Apply whose attribute `attr`
    // is its result's shape (reshape, broadcast_to: the gradient's).
    struct SizeConstant {
        NodeId node;
        int symbol;
        int64_t factor;
        // factor x the symbol's size; an untrusted .tgx can make the product
        // overflow i64, which is an error (stdlib::OpError), never a wrap.
        int64_t value(int64_t size) const;
    };
    struct ShapeAttr {
        NodeId node;
        size_t attr;
    };
    void add_size_constant(SizeConstant c) { size_constants_.push_back(c); }
    void add_shape_attr(ShapeAttr a) { shape_attrs_.push_back(a); }
    const std::vector<SizeConstant>& size_constants() const { return size_constants_; }
    const SizeConstant* size_constant(NodeId n) const {
        for (const SizeConstant& c : size_constants_)
            if (c.node == n) return &c;
        return nullptr;
    }
    bool is_size_constant(NodeId n) const { return size_constant(n) != nullptr; }
    const std::vector<ShapeAttr>& shape_attrs() const { return shape_attrs_; }
    // Node n's constant at sizes `sizes` (its payload unless it is a size constant).
    stdlib::Tensor constant_at(NodeId n, std::span<const int64_t> sizes) const;
    // Node n's attributes at sizes `sizes` (a shape attribute made the result's shape there).
    std::vector<stdlib::Attr> attrs_at(NodeId n, std::span<const int64_t> sizes) const;
    // The run-time size of every symbol, from the graph's tensor inputs.
    std::vector<int64_t> symbol_sizes(std::span<const stdlib::Tensor> inputs) const;
    // v's shape when the symbols have sizes `sizes` (its static shape when
    // the graph has no dynamic dimensions).
    stdlib::Shape shape_at(ValueId v, std::span<const int64_t> sizes) const;

    // ---- builder: nodes are appended to the region on top of the insertion stack
    RegionId insertion_region() const { return insert_stack_.back(); }
    void enter(RegionId r) { insert_stack_.push_back(r); }
    void exit();

    // A stdlib op. For ops flagged kRandom pass the token: it becomes operand 0
    // and the node gets a second result, the next token. Throws stdlib::OpError
    // when the op's shape rule rejects the operands (nothing is added then).
    std::vector<ValueId> apply(const stdlib::OpDef& def, std::span<const ValueId> inputs,
                               std::vector<stdlib::Attr> attrs = {}, SrcLoc loc = {},
                               ValueId token = kNoId);
    ValueId apply1(const stdlib::OpDef& def, std::span<const ValueId> inputs,
                   std::vector<stdlib::Attr> attrs = {}, SrcLoc loc = {});
    // By name, for tests and hand-built graphs: apply(*find_op(name), ...).
    ValueId apply1(std::string_view op, std::initializer_list<ValueId> inputs, SrcLoc loc = {},
                   std::vector<stdlib::Attr> attrs = {});
    ValueId constant(stdlib::Tensor value, SrcLoc loc = {});
    ValueId undef(const ValueType& t, SrcLoc loc = {});
    ValueId truth(ValueId x, SrcLoc loc = {});  // throws stdlib::OpError unless x has one element
    ValueId index(ValueId x, IndexSpec spec, std::span<const ValueId> dynamic, SrcLoc loc = {});
    ValueId index_assign(ValueId x, ValueId v, IndexSpec spec, std::span<const ValueId> dynamic,
                         SrcLoc loc = {});
    // Side effects: take a token, return the next token. Template pieces
    // refer to `values` by index from 0 (the node stores them shifted past its
    // leading operands). `text` is the whole output of one print call, incl. `end`.
    ValueId print(ValueId token, Template text, std::span<const ValueId> values, SrcLoc loc = {});
    ValueId assert_(ValueId token, ValueId cond, Template message, std::span<const ValueId> values,
                    SrcLoc loc = {});
    ValueId raise(ValueId token, Template message, std::span<const ValueId> values, SrcLoc loc = {});
    // Returns the results (typed `results`), then the next token.
    std::vector<ValueId> host_call(ValueId token, HostFn fn, std::span<const ValueId> args,
                                   std::span<const stdlib::TensorType> results, SrcLoc loc = {});

    // Control flow. add_cond/add_while create the node with its regions (region
    // arguments typed like `ins` / `inits`) and place it; then build each region
    // between enter(r) ... yield(...) ... exit(), and call finish(node) to create
    // the results: a cond's are typed like its then-region's yield, a while's
    // like its inits.
    NodeId add_cond(ValueId pred, std::span<const ValueId> ins, SrcLoc loc = {});
    NodeId add_while(std::span<const ValueId> inits, SrcLoc loc = {});
    std::vector<ValueId> finish(NodeId control);
    // Terminates the current region (a while's cond region yields pred, carried...).
    void yield(std::span<const ValueId> values);
    std::span<const ValueId> args(RegionId r) const { return regions_[r].args; }

    // ---- speculative building (the tracer tries a loop conversion, then
    // retries with other types or unrolls instead): everything appended after
    // a checkpoint can be dropped again.
    struct Checkpoint {
        size_t nodes, values, regions, stack;
    };
    Checkpoint checkpoint() const { return {nodes_.size(), values_.size(), regions_.size(), insert_stack_.size()}; }
    void rollback(const Checkpoint& cp);

    // ---- rewriting (passes)
    // Creates a node without placing it; results typed `result_types`.
    NodeId create(Op op, const stdlib::OpDef* def, std::vector<ValueId> operands,
                  std::span<const ValueType> result_types, std::vector<stdlib::Attr> attrs = {},
                  Payload payload = {}, SrcLoc loc = {});
    // Places `n` into region `r` before position `pos` of its node list.
    void insert(RegionId r, size_t pos, NodeId n);
    void append(NodeId n) { insert(insertion_region(), regions_[insertion_region()].nodes.size(), n); }
    // Removes `n` from its region (its results must be unused).
    void erase(NodeId n);
    // Marks `n` erased after the caller removed it from its region's list
    // itself (a pass removing many nodes of one region in one sweep).
    void mark_erased(NodeId n) {
        nodes_[n].parent = kNoId;
        nodes_[n].erased = true;
    }
    // Drops result i of n (it must be unused); later results shift down.
    void remove_result(NodeId n, size_t i);
    // Appends a result typed `t` to n / an argument typed `t` to region r
    // (a while node made to carry one more value: tracer/loop_rewrite.hpp).
    ValueId add_result(NodeId n, const ValueType& t);
    ValueId add_arg(RegionId r, const ValueType& t);
    // Every use of `from` (operands in all regions) now uses `to`.
    void replace_all_uses(ValueId from, ValueId to);
    // Number of uses of each value by live nodes.
    std::vector<uint32_t> use_counts() const;
    // Live node ids of region r and, recursively, of its nested regions (pre-order).
    void walk(RegionId r, const std::function<void(NodeId)>& f) const;
    size_t live_node_count() const;

private:
    ValueId new_value(const ValueType& t, NodeId def, RegionId region, uint32_t index);
    RegionId new_region(NodeId owner, std::span<const ValueId> typed_like);

    std::string name_;
    std::vector<Node> nodes_;
    std::vector<Region> regions_;
    std::vector<ValueInfo> values_;
    std::vector<RegionId> insert_stack_;
    std::vector<SymbolSource> symbol_sources_;
    std::vector<SizeConstant> size_constants_;
    std::vector<ShapeAttr> shape_attrs_;
};

// Side-effect classification, used by the verifier, DCE, CSE and folding.
bool has_side_effect(const Graph& g, NodeId n);  // takes a token (print, assert, raise, random, host call; cond/while carrying a token)
bool may_raise(const Graph& g, NodeId n);        // can fail at run time although its types are valid
bool is_pure(const Graph& g, NodeId n);          // neither: removable when unused, mergeable when equal

}  // namespace tg::tracer
