// Tensor storage: buffers (aligned, refcounted, huge pages for large ones,
// a cache of large blocks), views, copies and copy-on-write.
#include "stdlib/tensor.hpp"

#include "stdlib/budget.hpp"
#include "stdlib/mapping_cache.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "stdlib/broadcast.hpp"
#include "stdlib/cast.hpp"

namespace tg::stdlib {

// ----------------------------------------------------------------- Buffer

namespace {

constexpr size_t kAlign = 64;
constexpr size_t kHeader = 128;                  // Buffer header before inline data (keeps data 64-aligned)
constexpr size_t kHugePage = size_t(2) << 20;    // 2 MiB
constexpr size_t kMapThreshold = size_t(2) << 20;  // buffers this large are mapped with huge pages

size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

[[noreturn]] void cannot_allocate(size_t bytes, const char* why) {
    throw OpError("cannot allocate " + std::to_string(bytes) + " bytes (" + human_bytes(bytes) + ") for a tensor: " + why);
}

// A 2 MiB-aligned mapping of `len` bytes (a multiple of 2 MiB) with
// transparent huge pages requested, from the cache of `budget`'s interpreter
// when it has one of that size. Sets `fresh` when the memory is new (zero).
void* map_huge(size_t len, Budget* budget, bool& fresh) {
    if (void* p = budget ? budget->mappings().take(len) : nullptr) {
        fresh = false;
        return p;
    }
    const size_t over = len + kHugePage;
    void* raw = mmap(nullptr, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kHugePage - 1) & ~(uintptr_t(kHugePage) - 1);
    if (aligned > start) munmap(raw, aligned - start);
    const uintptr_t end = start + over, aligned_end = aligned + len;
    if (end > aligned_end) munmap(reinterpret_cast<void*>(aligned_end), end - aligned_end);
    void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE);
#endif
    fresh = true;
    return p;
}

// Recently freed small blocks of this thread, by size class (64-byte
// steps), reused by the next allocation of the same class: small tensors
// (the interpreter's 4-element vectors) then cost no malloc/free at all.
// Like malloc's thread caches, this is allocator state, invisible to tg.
class SmallBlockCache {
public:
    static constexpr size_t kClasses = 32;  // blocks up to 32 * 64 = 2 KiB
    static constexpr int kPerClass = 16;

    static size_t class_of(size_t block_bytes) { return block_bytes / kAlign - 1; }

    void* take(size_t cls) { return count_[cls] > 0 ? blocks_[cls][--count_[cls]] : nullptr; }
    bool give(size_t cls, void* p) {
        if (count_[cls] >= kPerClass) return false;
        blocks_[cls][count_[cls]++] = p;
        return true;
    }
    ~SmallBlockCache() {
        dead = true;
        for (size_t c = 0; c < kClasses; ++c)
            while (count_[c] > 0) std::free(blocks_[c][--count_[c]]);
    }
    static thread_local bool dead;  // set once this thread's cache is destroyed

private:
    void* blocks_[kClasses][kPerClass];
    int count_[kClasses] = {};
};
thread_local bool SmallBlockCache::dead = false;
thread_local SmallBlockCache small_cache;

void* alloc_small(size_t block_bytes) {
    const size_t cls = SmallBlockCache::class_of(block_bytes);
    if (cls < SmallBlockCache::kClasses && !SmallBlockCache::dead)
        if (void* p = small_cache.take(cls)) return p;
    return std::aligned_alloc(kAlign, block_bytes);
}

void free_small(void* p, size_t block_bytes) {
    const size_t cls = SmallBlockCache::class_of(block_bytes);
    if (cls < SmallBlockCache::kClasses && !SmallBlockCache::dead && small_cache.give(cls, p)) return;
    std::free(p);
}

}  // namespace

size_t Buffer::allocation_limit() {
    static const size_t limit = [] {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages <= 0 || page <= 0) return size_t(1) << 40;
        return static_cast<size_t>(pages) * static_cast<size_t>(page);
    }();
    return limit;
}

Buffer* Buffer::allocate(size_t bytes) {
    // Charged to the running interpreter's budget (stdlib/budget.hpp) before
    // any memory is taken; given back when this buffer is freed.
    Budget* budget = Budget::current();
    if (!budget) return allocate_uncharged(bytes);
    budget->charge(bytes);
    Buffer* b;
    try {
        b = allocate_uncharged(bytes, budget);
    } catch (...) {
        budget->credit(bytes);
        throw;
    }
    b->budget_ = budget;
    budget->retain();
    return b;
}

Buffer* Buffer::allocate_uncharged(size_t bytes, Budget* cache_of) {
    if (bytes > allocation_limit())
        cannot_allocate(bytes, ("more than this machine's memory (" + human_bytes(allocation_limit()) + ")").c_str());
    static_assert(sizeof(Buffer) <= kHeader, "Buffer header must fit before its inline data");
    if (bytes >= kMapThreshold) {
        const size_t len = round_up(bytes, kHugePage);
        bool fresh = false;
        void* p = map_huge(len, cache_of, fresh);
        if (!p) cannot_allocate(bytes, "out of memory");
        Buffer* b = new (std::nothrow) Buffer();
        if (!b) {
            munmap(p, len);
            cannot_allocate(bytes, "out of memory");
        }
        b->data_ = p;
        b->bytes_ = bytes;
        b->kind_ = Kind::Mapped;
        b->map_base_ = p;
        b->map_len_ = len;
        b->zero_filled_ = fresh;
        return b;
    }
    // Small: header and data in one 64-byte-aligned block (one malloc per tensor).
    void* block = alloc_small(kHeader + round_up(bytes, kAlign));
    if (!block) cannot_allocate(bytes, "out of memory");
    Buffer* b = new (block) Buffer();
    b->data_ = static_cast<char*>(block) + kHeader;
    b->bytes_ = bytes;
    b->kind_ = Kind::Inline;
    return b;
}

Buffer* Buffer::wrap(void* data, size_t bytes, std::function<void()> release) {
    Buffer* b = new Buffer();
    b->data_ = data;
    b->bytes_ = bytes;
    b->owned_ = false;
    b->kind_ = Kind::Host;
    b->release_ = std::move(release);
    return b;
}

void Buffer::release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    Budget* budget = budget_;
    if (budget) budget->credit(bytes_);
    // the budget is released last: a mapping goes back to its cache first
    struct Release {
        Budget* b;
        ~Release() {
            if (b) b->release();
        }
    } release_budget{budget};
    switch (kind_) {
        case Kind::Inline: {
            const size_t block_bytes = kHeader + round_up(bytes_, kAlign);
            this->~Buffer();
            free_small(this, block_bytes);
            return;
        }
        case Kind::Mapped:
            if (budget) budget->mappings().give(map_base_, map_len_);
            else munmap(map_base_, map_len_);
            delete this;
            return;
        case Kind::Host:
            delete this;  // the destructor runs the host's release
            return;
    }
}

Buffer::~Buffer() {
    if (release_) release_();
}

// ----------------------------------------------------------------- Tensor

Strides contiguous_strides(const Shape& shape) {
    Strides s = shape;
    int64_t step = 1;
    for (int i = shape.rank() - 1; i >= 0; --i) {
        s[i] = step;
        step *= shape[i] > 0 ? shape[i] : 1;
    }
    return s;
}

Tensor::Tensor() { inline_.f32 = 0.0f; }

Tensor::Tensor(const Tensor& o)
    : dtype_(o.dtype_), weak_(o.weak_), shape_(o.shape_), strides_(o.strides_), offset_(o.offset_),
      buffer_(o.buffer_), inline_(o.inline_) {
    if (buffer_) buffer_->retain();
}

Tensor::Tensor(Tensor&& o) noexcept
    : dtype_(o.dtype_), weak_(o.weak_), shape_(o.shape_), strides_(o.strides_), offset_(o.offset_),
      buffer_(o.buffer_), inline_(o.inline_) {
    o.buffer_ = nullptr;
    o.shape_ = Shape{};
    o.strides_ = Strides{};
    o.offset_ = 0;
}

Tensor& Tensor::operator=(const Tensor& o) {
    if (this == &o) return *this;
    if (o.buffer_) o.buffer_->retain();
    if (buffer_) buffer_->release();
    dtype_ = o.dtype_;
    weak_ = o.weak_;
    shape_ = o.shape_;
    strides_ = o.strides_;
    offset_ = o.offset_;
    buffer_ = o.buffer_;
    inline_ = o.inline_;
    return *this;
}

Tensor& Tensor::operator=(Tensor&& o) noexcept {
    if (this == &o) return *this;
    if (buffer_) buffer_->release();
    dtype_ = o.dtype_;
    weak_ = o.weak_;
    shape_ = o.shape_;
    strides_ = o.strides_;
    offset_ = o.offset_;
    buffer_ = o.buffer_;
    inline_ = o.inline_;
    o.buffer_ = nullptr;
    o.shape_ = Shape{};
    o.strides_ = Strides{};
    o.offset_ = 0;
    return *this;
}

Tensor::~Tensor() {
    if (buffer_) buffer_->release();
}

Tensor Tensor::scalar(bool v) {
    Tensor t;
    t.dtype_ = DType::Bool;
    t.inline_.b = v;
    return t;
}

Tensor Tensor::scalar(int32_t v) {
    Tensor t;
    t.dtype_ = DType::I32;
    t.inline_.i32 = v;
    return t;
}

namespace {
template <class From>
void store_inline(void* dst, DType dtype, From v) {
    dispatch_dtype(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T x = convert<T>(v);
        std::memcpy(dst, &x, sizeof x);
    });
}
}  // namespace

Tensor Tensor::scalar(int64_t v, DType dtype) {
    Tensor t;
    t.dtype_ = dtype;
    store_inline(&t.inline_, dtype, v);
    return t;
}

Tensor Tensor::scalar(double v, DType dtype) {
    Tensor t;
    t.dtype_ = dtype;
    store_inline(&t.inline_, dtype, v);
    return t;
}

Tensor Tensor::weak_int(int64_t v) {
    Tensor t;
    t.dtype_ = DType::I64;
    t.weak_ = true;
    t.inline_.i64 = v;
    return t;
}

Tensor Tensor::weak_float(double v) {
    Tensor t;
    t.dtype_ = DType::F32;
    t.weak_ = true;
    t.inline_.f64 = v;
    return t;
}

Tensor Tensor::empty(DType dtype, const Shape& shape) {
    const int64_t n = shape.numel();  // throws on negative dims and overflow
    Tensor t;
    t.dtype_ = dtype;
    if (shape.rank() == 0) {
        t.inline_.i64 = 0;
        return t;
    }
    size_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<size_t>(n), dtype_size(dtype), &bytes))
        throw OpError("cannot allocate a tensor of shape " + shape.to_string() + " and dtype " + dtype_name(dtype) +
                      ": its size in bytes overflows");
    t.buffer_ = Buffer::allocate(bytes);
    t.shape_ = shape;
    t.strides_ = contiguous_strides(shape);
    return t;
}

Tensor Tensor::zeros(DType dtype, const Shape& shape) {
    Tensor t = empty(dtype, shape);
    if (t.buffer_ && !t.buffer_->zero_filled()) std::memset(t.buffer_->data(), 0, t.buffer_->bytes());
    return t;
}

Tensor Tensor::wrap(void* data, DType dtype, const Shape& shape, const Strides& strides,
                    std::function<void()> release) {
    const int64_t n = shape.numel();
    Strides st = (strides.rank() == 0 && shape.rank() > 0) ? contiguous_strides(shape) : strides;
    if (st.rank() != shape.rank())
        throw OpError("wrap: strides " + st.to_string() + " do not match shape " + shape.to_string());
    // The buffer spans from the lowest to the highest element address.
    int64_t lo = 0, hi = 0;
    if (n > 0)
        for (int i = 0; i < shape.rank(); ++i) {
            const int64_t reach = (shape[i] - 1) * st[i];
            (reach < 0 ? lo : hi) += reach;
        }
    const size_t es = dtype_size(dtype);
    Tensor t;
    t.dtype_ = dtype;
    t.shape_ = shape;
    t.strides_ = st;
    t.offset_ = -lo;
    t.buffer_ = Buffer::wrap(static_cast<char*>(data) + lo * static_cast<int64_t>(es),
                             n > 0 ? static_cast<size_t>(hi - lo + 1) * es : 0, std::move(release));
    return t;
}

int64_t Tensor::numel() const {
    int64_t n = 1;
    for (int64_t d : shape_) n *= d;
    return n;
}

bool Tensor::is_contiguous() const {
    int64_t step = 1;
    for (int i = shape_.rank() - 1; i >= 0; --i) {
        if (shape_[i] == 0) return true;
        if (shape_[i] != 1 && strides_[i] != step) return false;
        step *= shape_[i];
    }
    return true;
}

void* Tensor::raw_data() {
    if (!buffer_) return &inline_;
    return static_cast<char*>(buffer_->data()) + offset_ * static_cast<int64_t>(dtype_size(dtype_));
}

const void* Tensor::raw_data() const { return const_cast<Tensor*>(this)->raw_data(); }

namespace {
void require_one(const Tensor& t, const char* what) {
    if (t.numel() != 1)
        throw OpError(std::string(what) + ": a tensor with " + std::to_string(t.numel()) +
                      " elements is not a scalar");
}
template <class To>
To read_one(const Tensor& t) {
    return dispatch_dtype(t.storage_dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T v;
        std::memcpy(&v, t.raw_data(), sizeof v);
        return convert<To>(v);
    });
}
}  // namespace

double Tensor::item_f64() const {
    require_one(*this, "item");
    return read_one<double>(*this);
}
int64_t Tensor::item_i64() const {
    require_one(*this, "item");
    return read_one<int64_t>(*this);
}
bool Tensor::item_bool() const {
    require_one(*this, "item");
    return read_one<bool>(*this);
}

Tensor Tensor::view(const Shape& shape, const Strides& strides, int64_t offset_elems) const {
    if (weak_) return strong().view(shape, strides, offset_elems);
    const size_t es = dtype_size(dtype_);
    if (shape.rank() == 0) {
        Tensor t;
        t.dtype_ = dtype_;
        std::memcpy(&t.inline_, static_cast<const char*>(raw_data()) + offset_elems * static_cast<int64_t>(es), es);
        return t;
    }
    if (!buffer_) {
        // An inline scalar seen with a larger shape (a broadcast): give it a buffer.
        Tensor holder;
        holder.dtype_ = dtype_;
        holder.buffer_ = Buffer::allocate(es);
        std::memcpy(holder.buffer_->data(), &inline_, es);
        holder.shape_ = Shape{1};
        holder.strides_ = Strides{1};
        return holder.view(shape, strides, 0);
    }
    Tensor t;
    t.dtype_ = dtype_;
    t.shape_ = shape;
    t.strides_ = strides;
    t.offset_ = offset_ + offset_elems;
    t.buffer_ = buffer_;
    buffer_->retain();
    return t;
}

Tensor Tensor::contiguous() const {
    if (is_contiguous()) return *this;
    return copy();
}

Tensor Tensor::copy() const {
    if (shape_.rank() == 0) {
        if (!buffer_) return *this;
        return view(Shape{}, Strides{}, 0);
    }
    Tensor out = empty(dtype_, shape_);
    const int64_t es = static_cast<int64_t>(dtype_size(dtype_));
    if (is_contiguous()) {
        std::memcpy(out.raw_data(), raw_data(), static_cast<size_t>(numel() * es));
        return out;
    }
    auto loop = make_loop<2>(shape_, {out.strides_, strides_});
    for_each_row(loop, {static_cast<char*>(out.raw_data()), const_cast<char*>(static_cast<const char*>(raw_data()))},
                 {es, es}, [es](std::array<char*, 2> p, int64_t n, const int64_t* s) {
                     const int64_t so = s[0] * es, si = s[1] * es;
                     for (int64_t i = 0; i < n; ++i) std::memcpy(p[0] + i * so, p[1] + i * si, static_cast<size_t>(es));
                 });
    return out;
}

void Tensor::make_unique() {
    if (weak_) {
        *this = strong();
        return;
    }
    if (!buffer_) return;
    if (buffer_->unique() && !buffer_->wrapped() && is_contiguous()) return;
    *this = copy();  // a fresh buffer (or inline storage for 0-d)
}

Tensor Tensor::strong() const {
    if (!weak_) return *this;
    if (is_float(dtype_)) return scalar(inline_.f64, DType::F32);
    return scalar(inline_.i64, DType::I64);
}

}  // namespace tg::stdlib
