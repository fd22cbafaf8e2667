// .tgx writing and reading (docs/tgx-format.md). Layout:
//
//   0   magic "\x89TGX\r\n\x1a\n"        8 bytes (PNG's trick: catches text-mode and 7-bit damage)
//   8   u32 format version (1; 2 for a graph with dynamic dims or a dict argument)
//   12  u32 flags (0)
//   16  u64 meta offset (64)   24 u64 meta size
//   32  u64 data offset        40 u64 data size   (data offset a multiple of 64)
//   48  16 zero bytes
//   64  meta: the graph function, its graph IR, source lines, call sites
//       (zero padding to the data offset)
//   data: every constant's raw little-endian elements, each 64-byte aligned
//   end-4: u32 CRC-32 (zlib) of every byte before it
//
// The graph IR is written region by region in program order; values are
// numbered in the order their definitions appear (region arguments, then
// the nodes' results; a cond's or while's results after its regions), and
// operands refer to those numbers. Reading rebuilds the graph through the
// Graph builder and then runs the verifier, so a file can only ever produce
// a graph the rest of tg accepts.
#include "tracer/tgx.hpp"

#include <zlib.h>

#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <map>

#include "tracer/verifier.hpp"

#ifndef TG_VERSION
#define TG_VERSION "unknown"
#endif

namespace tg::tracer {

static_assert(std::endian::native == std::endian::little, "tgx stores little-endian data: add byte swapping here");

namespace {

using stdlib::DType;
using stdlib::Tensor;
using stdlib::TensorType;

constexpr unsigned char kMagic[8] = {0x89, 'T', 'G', 'X', '\r', '\n', 0x1a, '\n'};
constexpr size_t kHeader = 64;
constexpr size_t kAlign = 64;
constexpr uint32_t kMaxLine = 1u << 20;      // source lines a file may refer to
constexpr int64_t kMaxElements = int64_t{1} << 34;  // of any value's type (bounds what running may allocate)

uint32_t crc32_of(const std::byte* p, size_t n) {
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {  // zlib takes uInt lengths
        const uInt chunk = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
        crc = crc32(crc, reinterpret_cast<const Bytef*>(p), chunk);
        p += chunk;
        n -= chunk;
    }
    return static_cast<uint32_t>(crc);
}

uint8_t dtype_code(DType d) {
    switch (d) {
    case DType::Bool: return 0;
    case DType::I32: return 1;
    case DType::I64: return 2;
    case DType::F32: return 3;
    case DType::F64: return 4;
    }
    return 255;
}

// ------------------------------------------------------------------ writing

class Writer {
public:
    explicit Writer(const GraphFunction& f) : f_(f), g_(*f.graph) {
        bool dicts = has_dict(f.result);
        for (const Structure& a : f.args) dicts = dicts || has_dict(a);
        // the lowest version that holds the graph, so older readers read what they can
        version_ = dicts || g_.num_dim_symbols() > 0 ? 2 : 1;
    }

    std::vector<std::byte> run() {
        str(TG_VERSION);
        str(f_.name);
        u32(static_cast<uint32_t>(f_.params.size()));
        for (size_t i = 0; i < f_.params.size(); ++i) {
            str(f_.params[i]);
            structure(f_.args.at(i));
        }
        structure(f_.result);
        specs(f_.inputs);
        specs(f_.outputs);
        // the graph first (into a buffer), so the sources and call sites it uses are known
        std::vector<std::byte> meta_head = std::move(out_);
        out_.clear();
        region(Graph::kBody);
        if (version_ >= 2) dynamic_dims();
        std::vector<std::byte> graph = std::move(out_);
        out_.clear();
        u32(static_cast<uint32_t>(sources_.size()));
        for (const lang::Source* s : sources_) {
            str(s->name());
            const std::map<uint32_t, bool>& lines = lines_[s];
            u32(static_cast<uint32_t>(lines.size()));
            for (const auto& [line, unused] : lines) {
                u32(line);
                str(std::string(s->line_text(line)));
            }
        }
        u32(static_cast<uint32_t>(sites_.size()));
        for (const CallSite* c : sites_) {
            str(c->function);
            u8(c->is_graph ? 1 : 0);
            u32(source_ref(c->source.get(), {}));
            u32(c->loc.line);
            u32(c->loc.col);
            u32(c->outer ? site_index_.at(c->outer.get()) + 1 : 0);
        }
        std::vector<std::byte> meta = std::move(meta_head);
        meta.insert(meta.end(), out_.begin(), out_.end());
        meta.insert(meta.end(), graph.begin(), graph.end());

        const size_t data_offset = (kHeader + meta.size() + kAlign - 1) / kAlign * kAlign;
        out_.clear();
        out_.insert(out_.end(), reinterpret_cast<const std::byte*>(kMagic), reinterpret_cast<const std::byte*>(kMagic) + 8);
        u32(version_);
        u32(0);
        u64(kHeader);
        u64(meta.size());
        u64(data_offset);
        u64(data_.size());
        out_.resize(kHeader);
        out_.insert(out_.end(), meta.begin(), meta.end());
        out_.resize(data_offset);
        out_.insert(out_.end(), data_.begin(), data_.end());
        const uint32_t crc = crc32_of(out_.data(), out_.size());
        u32(crc);
        return std::move(out_);
    }

private:
    void u8(uint8_t v) { out_.push_back(std::byte{v}); }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
    }
    void u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
    }
    void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
    void str(const std::string& s) {
        u32(static_cast<uint32_t>(s.size()));
        for (char c : s) u8(static_cast<uint8_t>(c));
    }
    void tensor_type(const TensorType& t) {
        u8(dtype_code(t.dtype));
        u8(t.weak ? 1 : 0);
        u8(static_cast<uint8_t>(t.shape.rank()));
        for (int64_t d : t.shape) i64(d);
    }
    void value_type(const ValueType& t) {
        u8(t.token ? 1 : 0);
        if (!t.token) tensor_type(t.tensor);
    }
    static bool has_dict(const Structure& s) {
        if (s.kind == Structure::Dict) return true;
        for (const Structure& x : s.items)
            if (has_dict(x)) return true;
        return false;
    }
    void structure(const Structure& s) {
        u8(s.kind);
        if (s.kind == Structure::Tuple || s.kind == Structure::List || s.kind == Structure::Dict) {
            u32(static_cast<uint32_t>(s.items.size()));
            for (size_t i = 0; i < s.items.size(); ++i) {
                if (s.kind == Structure::Dict) str(s.keys.at(i));
                structure(s.items[i]);
            }
        }
    }
    // Version 2's last meta section: the symbols, the marked dims, the size
    // constants and the shape attributes (docs/tgx-format.md "Dynamic dimensions").
    void dynamic_dims() {
        u32(static_cast<uint32_t>(g_.symbol_sources().size()));
        for (const SymbolSource& k : g_.symbol_sources()) {
            str(k.name);
            i64(k.min_size);
            u32(static_cast<uint32_t>(k.input));
            u32(static_cast<uint32_t>(k.axis));
        }
        std::vector<std::array<uint32_t, 3>> marks;  // value, axis, symbol
        for (const auto& [v, id] : ids_)
            for (int a = 0; !g_.type(v).token && a < g_.tensor_type(v).shape.rank(); ++a)
                if (const int k = g_.dim_symbol(v, a); k >= 0)
                    marks.push_back({id, static_cast<uint32_t>(a), static_cast<uint32_t>(k)});
        u32(static_cast<uint32_t>(marks.size()));
        for (const auto& m : marks)
            for (uint32_t x : m) u32(x);
        // (of the nodes still in the graph: the optimizer may have removed some)
        auto live = [&](NodeId n) { return !g_.node(n).erased && ids_.count(g_.node(n).results.at(0)) > 0; };
        std::vector<Graph::SizeConstant> constants;
        for (const Graph::SizeConstant& c : g_.size_constants())
            if (live(c.node)) constants.push_back(c);
        u32(static_cast<uint32_t>(constants.size()));
        for (const Graph::SizeConstant& c : constants) {
            u32(ref(g_.node(c.node).results.at(0)));
            u32(static_cast<uint32_t>(c.symbol));
            i64(c.factor);
        }
        std::vector<Graph::ShapeAttr> attrs;
        for (const Graph::ShapeAttr& a : g_.shape_attrs())
            if (live(a.node)) attrs.push_back(a);
        u32(static_cast<uint32_t>(attrs.size()));
        for (const Graph::ShapeAttr& a : attrs) {
            u32(ref(g_.node(a.node).results.at(0)));
            u32(static_cast<uint32_t>(a.attr));
        }
    }
    void specs(const std::vector<IoSpec>& v) {
        u32(static_cast<uint32_t>(v.size()));
        for (const IoSpec& s : v) {
            str(s.name);
            tensor_type(s.type);
        }
    }

    // Source and call-site tables: index + 1, 0 for none.
    uint32_t source_ref(const lang::Source* s, lang::Loc loc) {
        if (!s) return 0;
        auto [it, fresh] = source_index_.emplace(s, static_cast<uint32_t>(sources_.size()));
        if (fresh) sources_.push_back(s);
        if (loc.known() && !s->line_text(loc.line).empty()) lines_[s][loc.line] = true;
        return it->second + 1;
    }
    uint32_t site_ref(const CallSite* c) {
        if (!c) return 0;
        if (auto it = site_index_.find(c); it != site_index_.end()) return it->second + 1;
        site_ref(c->outer.get());  // outer sites first: a site refers only to earlier ones
        source_ref(c->source.get(), c->loc);
        site_index_.emplace(c, static_cast<uint32_t>(sites_.size()));
        sites_.push_back(c);
        return static_cast<uint32_t>(sites_.size());
    }
    void loc(const SrcLoc& l) {
        u32(source_ref(l.source.get(), l.loc));
        u32(l.loc.line);
        u32(l.loc.col);
        u32(site_ref(l.inlined_in.get()));
    }

    uint32_t define(ValueId v) {
        ids_[v] = next_id_;
        return next_id_++;
    }
    uint32_t ref(ValueId v) const { return ids_.at(v); }

    void attr(const stdlib::Attr& a) {
        u8(static_cast<uint8_t>(a.index()));
        std::visit(
            [&](const auto& x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, int64_t>) i64(x);
                else if constexpr (std::is_same_v<T, double>) u64(std::bit_cast<uint64_t>(x));
                else if constexpr (std::is_same_v<T, bool>) u8(x ? 1 : 0);
                else if constexpr (std::is_same_v<T, DType>) u8(dtype_code(x));
                else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
                    u32(static_cast<uint32_t>(x.size()));
                    for (int64_t d : x) i64(d);
                }
            },
            a);
    }

    void constant(const Tensor& t0) {
        const Tensor t = t0.contiguous();
        if (t.weak() && t.dtype() != DType::I64 && t.dtype() != DType::F32)
            throw TgxError("cannot save: a weak constant of dtype " + std::string(stdlib::dtype_name(t.dtype())));
        tensor_type(type_of(t));
        const size_t bytes = static_cast<size_t>(t.numel()) * stdlib::dtype_size(t.storage_dtype());
        const size_t at = (data_.size() + kAlign - 1) / kAlign * kAlign;
        data_.resize(at);
        const auto* p = static_cast<const std::byte*>(t.raw_data());
        data_.insert(data_.end(), p, p + bytes);
        u64(at);
        u64(bytes);
    }

    void payload(const Node& n) {
        const Payload& p = n.payload;
        u8(static_cast<uint8_t>(p.index()));
        if (const Tensor* t = std::get_if<Tensor>(&p)) {
            constant(*t);
        } else if (const Template* t = std::get_if<Template>(&p)) {
            u32(static_cast<uint32_t>(t->size()));
            for (const TextPiece& piece : *t) {
                u8(piece.kind);
                str(piece.text);
                u32(piece.operand);
            }
        } else if (const IndexSpec* s = std::get_if<IndexSpec>(&p)) {
            u32(static_cast<uint32_t>(s->items.size()));
            for (size_t i = 0; i < s->items.size(); ++i) {
                const stdlib::IndexItem& it = s->items[i];
                u8(it.kind);
                i64(it.index);
                for (const std::optional<int64_t>* o : {&it.lo, &it.hi, &it.step}) {
                    u8(o->has_value() ? 1 : 0);
                    i64(o->value_or(0));
                }
                u8(i < s->dynamic.size() && s->dynamic[i] ? 1 : 0);
            }
        } else if (const HostFn* h = std::get_if<HostFn>(&p)) {
            throw TgxError("cannot save: the graph calls the host function `" + h->name +
                           "` (a saved graph runs without its host)");
        }
    }

    void region(RegionId r) {
        const Region& reg = g_.region(r);
        u32(static_cast<uint32_t>(reg.args.size()));
        for (ValueId a : reg.args) {
            value_type(g_.type(a));
            str(g_.value(a).name);
            define(a);
        }
        u32(static_cast<uint32_t>(reg.nodes.size()));
        for (NodeId id : reg.nodes) {
            const Node& n = g_.node(id);
            u8(static_cast<uint8_t>(n.op));
            if (n.op == Op::Apply) str(std::string(n.def->name));
            u32(static_cast<uint32_t>(n.operands.size()));
            for (ValueId v : n.operands) u32(ref(v));
            u32(static_cast<uint32_t>(n.attrs.size()));
            for (const stdlib::Attr& a : n.attrs) attr(a);
            payload(n);
            loc(n.loc);
            u32(static_cast<uint32_t>(n.results.size()));
            for (ValueId v : n.results) value_type(g_.type(v));
            u32(static_cast<uint32_t>(n.regions.size()));
            for (RegionId sub : n.regions) region(sub);
            for (ValueId v : n.results) define(v);
        }
    }

    const GraphFunction& f_;
    const Graph& g_;
    uint32_t version_ = 1;
    std::vector<std::byte> out_, data_;
    std::map<ValueId, uint32_t> ids_;
    uint32_t next_id_ = 0;
    std::vector<const lang::Source*> sources_;
    std::map<const lang::Source*, uint32_t> source_index_;
    std::map<const lang::Source*, std::map<uint32_t, bool>> lines_;
    std::vector<const CallSite*> sites_;
    std::map<const CallSite*, uint32_t> site_index_;
};

// ------------------------------------------------------------------ reading

class Reader {
public:
    Reader(std::span<const std::byte> file, uint32_t version, size_t meta_begin, size_t meta_end, size_t data_begin,
           size_t data_end)
        : file_(file), version_(version), pos_(meta_begin), end_(meta_end), data_begin_(data_begin), data_end_(data_end) {}

    GraphFunction run() {
        GraphFunction f;
        writer_version_ = str();
        f.name = str();
        const uint32_t np = count(5);
        for (uint32_t i = 0; i < np; ++i) {
            f.params.push_back(str());
            f.args.push_back(structure(0));
        }
        f.result = structure(0);
        f.inputs = specs();
        f.outputs = specs();
        const uint32_t ns = count(8);
        for (uint32_t i = 0; i < ns; ++i) {
            std::string name = str();
            const uint32_t nl = count(8);
            std::vector<std::string> text;
            uint32_t last = 0;
            for (uint32_t k = 0; k < nl; ++k) {
                const uint32_t line = u32();
                if (line <= last || line > kMaxLine) fail("source line numbers out of order or too large");
                last = line;
                text.resize(line);
                text[line - 1] = str();
                if (text[line - 1].find('\n') != std::string::npos) fail("a source line holds a line break");
            }
            std::string joined;
            for (const std::string& l : text) joined += l + "\n";
            sources_.push_back(std::make_shared<const lang::Source>(std::move(name), std::move(joined)));
        }
        const uint32_t nc = count(17);
        for (uint32_t i = 0; i < nc; ++i) {
            CallSite c;
            c.function = str();
            c.is_graph = flag();
            c.source = source(u32());
            c.loc.line = u32();
            c.loc.col = u32();
            const uint32_t outer = u32();
            if (outer > i) fail("a call site refers to a later one");
            if (outer) c.outer = sites_[outer - 1];
            sites_.push_back(std::make_shared<const CallSite>(std::move(c)));
        }
        auto g = std::make_shared<Graph>(f.name);
        g_ = g.get();
        region_body();
        if (version_ >= 2) dynamic_dims();
        if (pos_ != end_) fail("unexpected bytes after the graph");
        try {
            verify(*g);
        } catch (const VerifyError& e) {
            throw TgxError(std::string("the graph in the file is not valid: ") + e.what());
        }
        check_interface(f, *g);
        f.graph = std::move(g);
        return f;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw TgxError("corrupted .tgx file: " + why + " (at byte " + std::to_string(pos_) + ")");
    }
    void need(size_t n) const {
        if (n > end_ - pos_) fail("a record runs past the end of its section");
    }
    uint8_t u8() {
        need(1);
        return static_cast<uint8_t>(file_[pos_++]);
    }
    uint32_t u32() {
        need(4);
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= uint32_t(static_cast<uint8_t>(file_[pos_++])) << (8 * i);
        return v;
    }
    uint64_t u64() {
        need(8);
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<uint8_t>(file_[pos_++])) << (8 * i);
        return v;
    }
    int64_t i64() { return static_cast<int64_t>(u64()); }
    bool flag() {
        const uint8_t b = u8();
        if (b > 1) fail("a flag is neither 0 nor 1");
        return b == 1;
    }
    // A count of records that take at least `min_bytes` each: bounded by
    // what is left, so a corrupted count cannot make us allocate much.
    uint32_t count(size_t min_bytes) {
        const uint32_t n = u32();
        if (uint64_t(n) * min_bytes > end_ - pos_) fail("a count larger than the rest of the file");
        return n;
    }
    std::string str() {
        const uint32_t n = u32();
        need(n);
        std::string s(reinterpret_cast<const char*>(file_.data() + pos_), n);
        pos_ += n;
        return s;
    }
    DType dtype() {
        switch (u8()) {
        case 0: return DType::Bool;
        case 1: return DType::I32;
        case 2: return DType::I64;
        case 3: return DType::F32;
        case 4: return DType::F64;
        default: fail("unknown dtype code");
        }
    }
    TensorType tensor_type() {
        TensorType t;
        t.dtype = dtype();
        t.weak = flag();
        const uint8_t rank = u8();
        if (rank > stdlib::kMaxRank) fail("a shape of rank " + std::to_string(rank));
        std::vector<int64_t> dims;
        int64_t numel = 1;
        for (uint8_t i = 0; i < rank; ++i) {
            const int64_t d = i64();
            if (d < 0 || d > kMaxElements) fail("a dimension out of range");
            dims.push_back(d);
            if (d && numel > kMaxElements / d) fail("a shape with too many elements");
            numel *= d;
        }
        t.shape = stdlib::Shape(std::span<const int64_t>(dims));
        if (t.weak && rank != 0) fail("a weak tensor that is not 0-d");
        return t;
    }
    ValueType value_type() { return flag() ? ValueType::token_type() : ValueType::of(tensor_type()); }
    Structure structure(int depth) {
        if (depth > 64) fail("structures nested too deep");
        Structure s;
        const uint8_t k = u8();
        if (k > (version_ >= 2 ? Structure::Dict : Structure::None)) fail("unknown structure kind");
        s.kind = static_cast<Structure::Kind>(k);
        if (s.kind == Structure::Tuple || s.kind == Structure::List || s.kind == Structure::Dict) {
            const uint32_t n = count(1);
            for (uint32_t i = 0; i < n; ++i) {
                if (s.kind == Structure::Dict) s.keys.push_back(str());
                s.items.push_back(structure(depth + 1));
            }
        }
        return s;
    }
    std::vector<IoSpec> specs() {
        std::vector<IoSpec> out;
        const uint32_t n = count(7);
        for (uint32_t i = 0; i < n; ++i) {
            IoSpec s;
            s.name = str();
            s.type = tensor_type();
            out.push_back(std::move(s));
        }
        return out;
    }
    lang::SourcePtr source(uint32_t ref) {
        if (ref > sources_.size()) fail("a reference to an unknown source");
        return ref ? sources_[ref - 1] : nullptr;
    }
    SrcLoc loc() {
        SrcLoc l;
        l.source = source(u32());
        l.loc.line = u32();
        l.loc.col = u32();
        const uint32_t site = u32();
        if (site > sites_.size()) fail("a reference to an unknown call site");
        if (site) l.inlined_in = sites_[site - 1];
        return l;
    }
    ValueId value(uint32_t id) {
        if (id >= ids_.size()) fail("an operand refers to a value not defined before it");
        return ids_[id];
    }
    stdlib::Attr attr() {
        switch (u8()) {
        case 0: return std::monostate{};
        case 1: return i64();
        case 2: return std::bit_cast<double>(u64());
        case 3: return flag();
        case 4: return dtype();
        case 5: {
            const uint32_t n = count(8);
            std::vector<int64_t> v;
            for (uint32_t i = 0; i < n; ++i) v.push_back(i64());
            return v;
        }
        default: fail("unknown attribute kind");
        }
    }
    Tensor constant() {
        const TensorType t = tensor_type();
        const uint64_t at = u64(), bytes = u64();
        const DType storage = t.weak ? (stdlib::is_float(t.dtype) ? DType::F64 : DType::I64) : t.dtype;
        if (t.weak && t.dtype != DType::I64 && t.dtype != DType::F32) fail("a weak constant of an unexpected dtype");
        if (bytes != uint64_t(t.shape.numel()) * stdlib::dtype_size(storage)) fail("a constant's size does not match its shape");
        if (at % kAlign || at > data_end_ - data_begin_ || bytes > data_end_ - data_begin_ - at)
            fail("a constant's data lies outside the data section");
        const std::byte* p = file_.data() + data_begin_ + at;
        if (t.weak) {
            if (t.dtype == DType::F32) {
                double v;
                std::memcpy(&v, p, 8);
                return Tensor::weak_float(v);
            }
            int64_t v;
            std::memcpy(&v, p, 8);
            return Tensor::weak_int(v);
        }
        if (t.dtype == DType::Bool)
            for (uint64_t i = 0; i < bytes; ++i)
                if (static_cast<uint8_t>(p[i]) > 1) fail("a bool constant holding a value other than 0 or 1");
        Tensor out = Tensor::empty(t.dtype, t.shape);
        if (bytes) std::memcpy(out.raw_data(), p, bytes);
        return out;
    }
    Payload payload() {
        switch (u8()) {
        case 0: return std::monostate{};
        case 1: return constant();
        case 2: {
            Template t;
            const uint32_t n = count(9);
            for (uint32_t i = 0; i < n; ++i) {
                TextPiece p;
                const uint8_t k = u8();
                if (k > TextPiece::Format) fail("unknown text piece kind");
                p.kind = static_cast<TextPiece::Kind>(k);
                p.text = str();
                p.operand = u32();
                t.push_back(std::move(p));
            }
            return t;
        }
        case 3: {
            IndexSpec s;
            const uint32_t n = count(35);
            for (uint32_t i = 0; i < n; ++i) {
                stdlib::IndexItem it;
                const uint8_t k = u8();
                if (k > stdlib::IndexItem::Ellipsis) fail("unknown index item kind");
                it.kind = static_cast<stdlib::IndexItem::Kind>(k);
                it.index = i64();
                for (std::optional<int64_t>* o : {&it.lo, &it.hi, &it.step}) {
                    const bool has = flag();
                    const int64_t v = i64();
                    if (has) *o = v;
                }
                if (it.kind == stdlib::IndexItem::Slice && it.step == 0) fail("a slice with step 0");
                s.items.push_back(it);
                s.dynamic.push_back(flag());
            }
            return s;
        }
        default: fail("unknown payload kind (host calls cannot be saved)");
        }
    }

    // Region 0: the graph's inputs (one token first, then tensors) and body.
    void region_body() {
        const uint32_t na = count(2);
        for (uint32_t i = 0; i < na; ++i) {
            const ValueType t = value_type();
            std::string name = str();
            if (t.token != (i == 0)) fail("the graph's first input must be its token, and only the first");
            ids_.push_back(t.token ? g_->add_input_token() : g_->add_input(t.tensor, std::move(name)));
        }
        if (na == 0) fail("the graph has no token input");
        nodes(0);
    }
    // A nested region whose arguments the builder made already.
    void region(RegionId r, int depth) {
        const uint32_t na = count(2);
        const std::span<const ValueId> args = g_->args(r);
        if (na != args.size()) fail("a region's arguments do not match its node's operands");
        for (uint32_t i = 0; i < na; ++i) {
            if (!(value_type() == g_->type(args[i]))) fail("a region argument's type does not match its operand");
            g_->set_name(args[i], str());  // names are only printed
            ids_.push_back(args[i]);
        }
        g_->enter(r);
        nodes(depth);
        g_->exit();
    }
    void nodes(int depth) {
        if (depth > 256) fail("regions nested too deep");
        const uint32_t nn = count(26);
        bool yielded = false;
        for (uint32_t i = 0; i < nn; ++i) {
            if (yielded) fail("nodes after a region's yield");
            const uint8_t code = u8();
            if (code > static_cast<uint8_t>(Op::HostCall)) fail("unknown node kind");
            const Op op = static_cast<Op>(code);
            const stdlib::OpDef* def = nullptr;
            if (op == Op::Apply) {
                const std::string name = str();
                def = stdlib::find_op(name);
                if (!def) fail("unknown op `" + name + "` (written by a newer tg?)");
            }
            std::vector<ValueId> operands;
            const uint32_t no = count(4);
            for (uint32_t k = 0; k < no; ++k) operands.push_back(value(u32()));
            std::vector<stdlib::Attr> attrs;
            const uint32_t nat = count(1);
            for (uint32_t k = 0; k < nat; ++k) attrs.push_back(attr());
            // an op given an optional parameter since the file was written: its default
            if (def && attrs.size() < def->params.size()) stdlib::complete_attrs(*def, attrs);
            Payload p = payload();
            SrcLoc l = loc();
            std::vector<ValueType> results;
            const uint32_t nr = count(1);
            for (uint32_t k = 0; k < nr; ++k) results.push_back(value_type());
            const uint32_t nreg = u32();
            if (op == Op::Cond || op == Op::While) {
                if (nreg != 2) fail("a cond or while without its two regions");
                if (op == Op::Cond && operands.empty()) fail("a cond without a predicate");
                const NodeId n = op == Op::Cond
                                     ? g_->add_cond(operands[0], std::span<const ValueId>(operands).subspan(1), std::move(l))
                                     : g_->add_while(operands, std::move(l));
                const std::vector<RegionId> regions = g_->node(n).regions;
                for (RegionId r : regions) region(r, depth + 1);
                const std::vector<ValueId> made = g_->finish(n);
                if (made.size() != results.size()) fail("a cond or while with the wrong number of results");
                for (size_t k = 0; k < made.size(); ++k) {
                    if (!(g_->type(made[k]) == results[k])) fail("a cond or while result of the wrong type");
                    ids_.push_back(made[k]);
                }
                continue;
            }
            if (nreg != 0) fail("only cond and while own regions");
            if (op == Op::Yield) {
                if (!results.empty()) fail("a yield with results");
                g_->yield(operands);
                yielded = true;
                continue;
            }
            const NodeId n = g_->create(op, def, std::move(operands), results, std::move(attrs), std::move(p), std::move(l));
            g_->append(n);
            for (ValueId v : g_->node(n).results) ids_.push_back(v);
        }
        if (!yielded) fail("a region without a yield");
    }

    // A value number of the file as a tensor value of the graph.
    ValueId tensor_value(uint32_t id) {
        const ValueId v = value(id);
        if (g_->type(v).token) fail("a dynamic dimension on a token");
        return v;
    }
    // Version 2: the symbols and what depends on them (docs/tgx-format.md).
    void dynamic_dims() {
        const uint32_t ns = count(20);
        if (ns > uint32_t(std::numeric_limits<int16_t>::max())) fail("too many dynamic dimensions");
        std::vector<SymbolSource> symbols;
        const std::vector<ValueId> inputs = g_->inputs();
        for (uint32_t k = 0; k < ns; ++k) {
            SymbolSource s;
            s.name = str();
            s.min_size = i64();
            s.input = u32();
            s.axis = static_cast<int>(u32());
            if (s.min_size < 1 || s.min_size > 2) fail("a dynamic dimension's smallest size is not 1 or 2");
            if (s.input >= inputs.size() || s.axis < 0 || s.axis >= g_->tensor_type(inputs[s.input]).shape.rank())
                fail("a dynamic dimension's source is not an input's axis");
            symbols.push_back(std::move(s));
        }
        const uint32_t nm = count(12);
        for (uint32_t i = 0; i < nm; ++i) {
            const ValueId v = tensor_value(u32());
            const uint32_t axis = u32(), k = u32();
            if (axis >= uint32_t(g_->tensor_type(v).shape.rank()) || k >= ns) fail("a dynamic dimension out of range");
            g_->set_dim_symbol(v, static_cast<int>(axis), static_cast<int>(k));
        }
        for (uint32_t k = 0; k < ns; ++k)
            if (g_->dim_symbol(inputs[symbols[k].input], symbols[k].axis) != static_cast<int>(k))
                fail("a dynamic dimension's source axis does not carry it");
        const uint32_t nc = count(16);
        for (uint32_t i = 0; i < nc; ++i) {
            const ValueId v = tensor_value(u32());
            const uint32_t k = u32();
            const int64_t factor = i64();
            const NodeId n = g_->value(v).def;
            if (n == kNoId || g_->node(n).op != Op::Constant || g_->tensor_type(v).shape.rank() != 0 || k >= ns ||
                factor < 1)
                fail("a size constant that is not a 0-d constant times a dynamic dimension");
            g_->add_size_constant({n, static_cast<int>(k), factor});
        }
        const uint32_t na = count(8);
        for (uint32_t i = 0; i < na; ++i) {
            const ValueId v = tensor_value(u32());
            const uint32_t attr = u32();
            const NodeId n = g_->value(v).def;
            if (n == kNoId || g_->node(n).op != Op::Apply || attr >= g_->node(n).attrs.size() ||
                !std::holds_alternative<std::vector<int64_t>>(g_->node(n).attrs[attr]))
                fail("a shape attribute that is not an op's list of ints");
            g_->add_shape_attr({n, attr});
        }
        g_->set_symbol_sources(std::move(symbols));
    }

    // The specs and structures in the file must describe the graph.
    void check_interface(GraphFunction& f, const Graph& g) const {
        if (f.args.size() != f.params.size()) fail("parameters and their structures differ in number");
        size_t leaves = 0;
        for (const Structure& s : f.args) leaves += s.leaves();
        if (leaves != f.inputs.size() || f.result.leaves() != f.outputs.size())
            throw TgxError("corrupted .tgx file: the inputs or outputs do not match the arguments or the result");
        // the specs' dynamic dims are the graph's marks (they are not written twice)
        const std::vector<IoSpec> ins = input_specs(g);
        for (size_t i = 0; i < f.inputs.size() && i < ins.size(); ++i) f.inputs[i].dims = ins[i].dims;
        if (ins != f.inputs) throw TgxError("corrupted .tgx file: the input specs do not match the graph");
        std::vector<IoSpec> outs = output_specs(g, f.result);
        for (size_t i = 0; i < outs.size() && i < f.outputs.size(); ++i) {
            outs[i].name = f.outputs[i].name;
            f.outputs[i].dims = outs[i].dims;
        }
        if (outs != f.outputs) throw TgxError("corrupted .tgx file: the output specs do not match the graph");
    }

    std::span<const std::byte> file_;
    uint32_t version_;
    size_t pos_, end_, data_begin_, data_end_;
    std::string writer_version_;
    std::vector<lang::SourcePtr> sources_;
    std::vector<std::shared_ptr<const CallSite>> sites_;
    std::vector<ValueId> ids_;  // file value number -> graph value
    Graph* g_ = nullptr;
};

uint64_t le64(std::span<const std::byte> b, size_t at) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<uint8_t>(b[at + i])) << (8 * i);
    return v;
}
uint32_t le32(std::span<const std::byte> b, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(static_cast<uint8_t>(b[at + i])) << (8 * i);
    return v;
}

}  // namespace

std::vector<std::byte> write_tgx(const GraphFunction& f) { return Writer(f).run(); }

GraphFunction read_tgx(std::span<const std::byte> b, const TgxReadOptions& options) {
    if (b.size() < 8 || std::memcmp(b.data(), kMagic, 8) != 0) throw TgxError("not a .tgx file (no tgx magic number)");
    if (b.size() < kHeader + 4) throw TgxError("truncated .tgx file (" + std::to_string(b.size()) + " bytes)");
    const uint32_t version = le32(b, 8);
    if (version > kTgxFormatVersion)
        throw TgxError("the .tgx file has format version " + std::to_string(version) + ", newer than this tg reads (" +
                       std::to_string(kTgxFormatVersion) + "): it was written by a newer tg");
    if (version == 0) throw TgxError("corrupted .tgx file: format version 0");
    const uint64_t meta_at = le64(b, 16), meta_size = le64(b, 24), data_at = le64(b, 32), data_size = le64(b, 40);
    const uint64_t body = b.size() - 4;
    if (meta_at != kHeader || data_at % kAlign || data_at < meta_at || meta_size > data_at - meta_at ||
        data_size > std::numeric_limits<uint64_t>::max() - data_at)
        throw TgxError("corrupted .tgx file: its header's offsets and sizes are inconsistent");
    if (data_at + data_size > body)
        throw TgxError("truncated .tgx file: " + std::to_string(b.size()) + " bytes, its header says " +
                       std::to_string(data_at + data_size + 4));
    if (data_at + data_size < body) throw TgxError("corrupted .tgx file: bytes after its data");
    if (options.verify_checksum && crc32_of(b.data(), body) != le32(b, body))
        throw TgxError("corrupted .tgx file: checksum mismatch");
    if (le32(b, 12) != 0) throw TgxError("corrupted .tgx file: unknown flags");
    try {
        return Reader(b, version, meta_at, meta_at + meta_size, data_at, data_at + data_size).run();
    } catch (const TgxError&) {
        throw;
    } catch (const std::exception& e) {  // a builder or shape rule rejecting what the file says
        throw TgxError(std::string("corrupted .tgx file: ") + e.what());
    }
}

}  // namespace tg::tracer
