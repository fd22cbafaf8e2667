// Tensor: dtype + shape + strides over a reference-counted, 64-byte-aligned
// buffer with copy-on-write (docs/language.md "Values": value semantics). Transposes, slices
// and broadcasts are views that share the buffer. A 0-d tensor keeps its one
// element inline (no buffer, no heap allocation), which is what makes scalar
// arithmetic in the interpreter cheap.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>

#include "stdlib/dtype.hpp"
#include "stdlib/errors.hpp"
#include "stdlib/shape.hpp"

namespace tg::stdlib {

class Budget;

// The storage of a non-0-d tensor. Either owned (64-byte aligned, large ones
// get madvise(MADV_HUGEPAGE)) or wrapped host memory released by `release`.
class Buffer {
public:
    // Allocates `bytes` (uninitialized). Throws OpError("cannot allocate N bytes ...")
    // past the allocation limit instead of aborting.
    static Buffer* allocate(size_t bytes);
    // Wraps memory the host owns; `release` (may be empty) runs when the last
    // tensor using it goes away.
    static Buffer* wrap(void* data, size_t bytes, std::function<void()> release);

    void* data() const { return data_; }
    size_t bytes() const { return bytes_; }
    bool unique() const { return refs_.load(std::memory_order_acquire) == 1; }
    bool wrapped() const { return static_cast<bool>(release_) || !owned_; }
    void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release();  // deletes at zero
    // True when the memory is known to be all zero bytes (a fresh mapping):
    // zeros() then skips the memset.
    bool zero_filled() const { return zero_filled_; }

    // The largest allocation allowed: the machine's physical memory.
    static size_t allocation_limit();

private:
    enum class Kind : uint8_t { Inline, Mapped, Host };
    Buffer() = default;
    // cache_of: the budget whose cache of large mappings to reuse (null: none)
    static Buffer* allocate_uncharged(size_t bytes, Budget* cache_of = nullptr);
    ~Buffer();
    void* data_ = nullptr;
    size_t bytes_ = 0;
    bool owned_ = true;
    bool zero_filled_ = false;
    Kind kind_ = Kind::Inline;  // Inline: header and data in one aligned block
    void* map_base_ = nullptr;  // Mapped: the mapping to give back
    size_t map_len_ = 0;
    std::function<void()> release_;
    Budget* budget_ = nullptr;  // charged for bytes_ (stdlib/budget.hpp); null: not counted
    std::atomic<int32_t> refs_{1};
};

// C-contiguous strides (in elements) of a shape.
Strides contiguous_strides(const Shape& shape);

class Tensor {
public:
    // The default tensor is the f32 scalar 0.0.
    Tensor();
    Tensor(const Tensor&);
    Tensor(Tensor&&) noexcept;
    Tensor& operator=(const Tensor&);
    Tensor& operator=(Tensor&&) noexcept;
    ~Tensor();

    // ---- creation
    static Tensor scalar(bool v);
    static Tensor scalar(int32_t v);
    static Tensor scalar(int64_t v, DType dtype = DType::I64);  // cast to dtype
    static Tensor scalar(double v, DType dtype = DType::F32);   // cast to dtype
    // Weak scalars (literals, docs/language.md "Values"): the exact value is kept (as i64 or
    // f64); dtype() reports the default dtype (i64 or f32).
    static Tensor weak_int(int64_t v);
    static Tensor weak_float(double v);
    // Uninitialized / zero-filled storage of the given shape. Throw OpError
    // for huge sizes or shapes whose product overflows.
    static Tensor empty(DType dtype, const Shape& shape);
    static Tensor zeros(DType dtype, const Shape& shape);
    // Wraps host memory without copying (strides in elements; empty strides
    // mean C-contiguous). `release` runs when the last view is gone.
    static Tensor wrap(void* data, DType dtype, const Shape& shape, const Strides& strides,
                       std::function<void()> release);

    // ---- description
    DType dtype() const { return dtype_; }
    bool weak() const { return weak_; }
    const Shape& shape() const { return shape_; }
    const Strides& strides() const { return strides_; }
    int rank() const { return shape_.rank(); }
    int64_t numel() const;
    bool is_contiguous() const;

    // Pointer to element 0 (honouring the view's offset). For weak scalars the
    // storage dtype is i64/f64: use the item_* accessors or `weak_value_*`.
    void* raw_data();
    const void* raw_data() const;
    template <class T> T* data() { return static_cast<T*>(raw_data()); }
    template <class T> const T* data() const { return static_cast<const T*>(raw_data()); }

    // The single element (numel() must be 1), converted.
    double item_f64() const;
    int64_t item_i64() const;
    bool item_bool() const;

    // ---- views and copies
    // A view sharing the buffer; `offset_elems` is relative to this tensor's
    // element 0. A 0-d view copies its element inline; a view of an inline
    // 0-d tensor with a larger shape (strides 0) first moves it to a buffer.
    Tensor view(const Shape& shape, const Strides& strides, int64_t offset_elems) const;
    Tensor contiguous() const;  // itself if already C-contiguous, else a copy
    Tensor copy() const;        // always a fresh contiguous buffer
    // Copy-on-write: before an in-place write, make the storage unique to this
    // tensor (copying if the buffer is shared or wrapped read-only).
    void make_unique();

    // Strong version of a weak scalar (itself otherwise).
    Tensor strong() const;

    // The dtype of the stored elements: i64 / f64 for weak scalars, dtype() otherwise.
    DType storage_dtype() const { return weak_ ? (is_float(dtype_) ? DType::F64 : DType::I64) : dtype_; }
    // True for 0-d tensors holding their element inline (no buffer).
    bool is_inline() const { return buffer_ == nullptr; }
    // True when both tensors use the same buffer (for tests of copy-on-write).
    bool shares_buffer_with(const Tensor& o) const { return buffer_ && buffer_ == o.buffer_; }

private:
    DType dtype_ = DType::F32;
    bool weak_ = false;
    Shape shape_;
    Strides strides_;
    int64_t offset_ = 0;        // in elements, into buffer_
    Buffer* buffer_ = nullptr;  // null for 0-d tensors with inline storage
    union {
        bool b;
        int32_t i32;
        int64_t i64;
        float f32;
        double f64;
    } inline_{};
};

// A contiguous tensor with the given values (mostly for tests and kernels):
//   make_tensor<float>({2, 2}, {1, 2, 3, 4})
template <class T>
Tensor make_tensor(const Shape& shape, std::initializer_list<T> values) {
    Tensor t = Tensor::empty(DTypeOf<T>::value, shape);
    if (static_cast<int64_t>(values.size()) != t.numel())
        throw OpError("make_tensor: " + std::to_string(values.size()) + " values for shape " + shape.to_string());
    T* p = t.data<T>();
    for (T v : values) *p++ = v;
    return t;
}

}  // namespace tg::stdlib
