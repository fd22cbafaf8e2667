// The internals behind the public tg::Tensor and tg::Error (include/tg/tg.hpp)
// that both halves of the API share: the interpreter's (api/interpreter.cpp) and
// tg::Graph's (api/graph.cpp), which runs saved graphs without the
// interpreter. Not installed.
#pragma once

#include <tg/debug.hpp>
#include <tg/tg.hpp>

#include <new>
#include <string>

#include "stdlib/op_table.hpp"
#include "stdlib/tensor.hpp"

namespace tg::interp {
class Value;
}

namespace tg {

struct Tensor::Impl {
    stdlib::Tensor t;
};

struct detail::Access {
    static Tensor wrap(stdlib::Tensor t) { return Tensor(std::make_shared<Tensor::Impl>(Tensor::Impl{std::move(t)})); }
    static const stdlib::Tensor& unwrap(const Tensor& t) { return t.impl_->t; }
    // Value's side, defined in api/interpreter.cpp
    static Value wrap(interp::Value v);
    static const interp::Value& unwrap(const Value& v);
    // A stopped frame (api/debug.cpp): an interp::Frame of an interp::Runtime
    static DebugFrame debug_frame(void* frame, void* runtime);
};

namespace detail {

inline stdlib::DType to_internal(DType d) { return static_cast<stdlib::DType>(d); }
inline DType to_public(stdlib::DType d) { return static_cast<DType>(d); }

// An error without a location: "error: MESSAGE".
inline Error plain_error(const std::string& message) { return Error(message, "", 0, 0, {}, "error: " + message + "\n"); }

// Runs `fn`, turning the library's exceptions into tg::Error (api/interpreter.cpp
// adds its own Error type on top).
template <class F>
auto guarded_plain(F&& fn) -> decltype(fn()) {
    try {
        return fn();
    } catch (const Error&) {
        throw;
    } catch (const stdlib::OpError& e) {
        throw plain_error(e.what());
    } catch (const std::bad_alloc&) {
        throw plain_error("out of memory");
    } catch (const std::exception& e) {
        throw plain_error(std::string("internal error: ") + e.what());
    }
}

}  // namespace detail
}  // namespace tg
