// The storage of a Value (interp/values/value.hpp): a tagged union of a few
// trivially copied alternatives (markers, a Scalar, a dtype, a module
// pointer) and shared_ptrs, in 24 bytes.
//
// Why not std::variant: libstdc++'s variant copies, moves and destroys
// through a table of functions, one indirect call per operation, even when
// the value is a Scalar or None. Every variable read, argument, return and
// list item pays it (~15 % of a call-heavy program's time, docs/performance.md
// "Ordinary programs"). Here a Scalar is copied inline field by field (see
// Scalar: no store-forwarding stall), other trivial alternatives as a word,
// and only a shared_ptr alternative takes the typed path.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <variant>

namespace tg::interp {

template <class T>
inline constexpr bool kIsSharedPtr = false;
template <class T>
inline constexpr bool kIsSharedPtr<std::shared_ptr<T>> = true;

// Ts: the alternatives, in index order. Each is a shared_ptr or trivially
// destructible and at most 16 bytes; `Inline` (the Scalar) is copied with its
// own copy constructor, the other trivial ones bytewise.
template <class Inline, class... Ts>
class ValueStorage {
    static constexpr size_t kSize = std::max({sizeof(Ts)...});
    static_assert(kSize <= 16, "a Value is 24 bytes");
    static_assert(((kIsSharedPtr<Ts> || std::is_trivially_destructible_v<Ts>) && ...));
    // A trivial alternative other than Inline is copied as one word.
    static constexpr size_t kWord = 8;
    static_assert(((kIsSharedPtr<Ts> || std::is_same_v<Ts, Inline> || sizeof(Ts) <= kWord) && ...));

    static constexpr uint8_t kNone = 255;  // not an alternative
    template <class T, size_t I = 0>
    static constexpr uint8_t find_index() {
        if constexpr (I == sizeof...(Ts)) {
            return kNone;
        } else if constexpr (std::is_same_v<T, std::variant_alternative_t<I, std::variant<Ts...>>>) {
            return I;
        } else {
            return find_index<T, I + 1>();
        }
    }
    static constexpr bool kShared[] = {kIsSharedPtr<Ts>...};
    static constexpr uint8_t kInline = find_index<Inline>();
    template <size_t I>
    using At = std::variant_alternative_t<I, std::variant<Ts...>>;

public:
    static constexpr size_t kCount = sizeof...(Ts);
    template <class T>
        requires(find_index<T>() != kNone)
    static constexpr uint8_t index_of = find_index<T>();

    ValueStorage() noexcept : index_(0) {
        std::memset(buf_, 0, kWord);  // what copy_from copies of a trivial alternative
        new (buf_) At<0>();
    }
    template <class T, class D = std::decay_t<T>, uint8_t I = find_index<D>()>
        requires(I != kNone)
    ValueStorage(T&& x) noexcept(std::is_nothrow_constructible_v<D, T&&>) : index_(I) {  // NOLINT: like variant's
        if constexpr (!kIsSharedPtr<D> && I != kInline) std::memset(buf_, 0, kWord);
        new (buf_) D(std::forward<T>(x));
    }
    ValueStorage(const ValueStorage& o) noexcept { copy_from(o); }
    ValueStorage(ValueStorage&& o) noexcept { move_from(o); }
    ~ValueStorage() { destroy(); }

    ValueStorage& operator=(const ValueStorage& o) noexcept {
        if (this == &o) return *this;
        if (!kShared[index_] && !kShared[o.index_]) {  // no reference counts change: overwrite
            copy_from(o);
            return *this;
        }
        ValueStorage keep(std::move(*this));  // o may be owned by what this holds
        copy_from(o);
        return *this;
    }
    ValueStorage& operator=(ValueStorage&& o) noexcept {
        if (this == &o) return *this;
        if (!kShared[index_]) {
            move_from(o);
            return *this;
        }
        ValueStorage keep(std::move(*this));
        move_from(o);
        return *this;
    }
    template <class T, class D = std::decay_t<T>, uint8_t I = find_index<D>()>
        requires(I != kNone)
    ValueStorage& operator=(T&& x) {
        ValueStorage made(std::forward<T>(x));
        return *this = std::move(made);
    }

    uint8_t index() const { return index_; }

    template <class T>
    T* get_if() {
        return index_ == index_of<T> ? std::launder(reinterpret_cast<T*>(buf_)) : nullptr;
    }
    template <class T>
    const T* get_if() const {
        return index_ == index_of<T> ? std::launder(reinterpret_cast<const T*>(buf_)) : nullptr;
    }
    template <class T>
    T& get() {
        if (index_ != index_of<T>) throw std::bad_variant_access();
        return *std::launder(reinterpret_cast<T*>(buf_));
    }
    template <class T>
    const T& get() const {
        if (index_ != index_of<T>) throw std::bad_variant_access();
        return *std::launder(reinterpret_cast<const T*>(buf_));
    }

    // f(alternative) for the one held.
    template <class F>
    decltype(auto) visit(F&& f) const {
        return visit_at<0>(f);
    }

private:
    template <size_t I, class F>
    decltype(auto) visit_at(F& f) const {
        if constexpr (I + 1 == sizeof...(Ts)) {
            return f(*std::launder(reinterpret_cast<const At<I>*>(buf_)));
        } else {
            if (index_ == I) return f(*std::launder(reinterpret_cast<const At<I>*>(buf_)));
            return visit_at<I + 1>(f);
        }
    }

    // On raw storage (nothing held, or a trivial alternative). A move
    // leaves o's shared_ptr empty (o still holds that alternative).
    void copy_from(const ValueStorage& o) noexcept { take_from<false>(const_cast<ValueStorage&>(o)); }
    void move_from(ValueStorage& o) noexcept { take_from<true>(o); }
    template <bool Move>
    void take_from(ValueStorage& o) noexcept {
        index_ = o.index_;
        if (index_ == kInline) [[likely]] {
            new (buf_) Inline(*std::launder(reinterpret_cast<const Inline*>(o.buf_)));
        } else if (kShared[index_]) {
            typed<0>(o, [](void* to, const auto& from) {
                using P = std::decay_t<decltype(from)>;
                if constexpr (Move) new (to) P(std::move(const_cast<P&>(from)));
                else new (to) P(from);
            });
        } else {
            std::memcpy(buf_, o.buf_, kWord);
        }
    }
    void destroy() noexcept {
        if (kShared[index_]) typed<0>(*this, [](void*, const auto& held) {
            using P = std::decay_t<decltype(held)>;
            const_cast<P&>(held).~P();
        });
    }
    // f(buf_, o's alternative) for o's shared_ptr alternative.
    template <size_t I, class F>
    void typed(const ValueStorage& o, F&& f) {
        if constexpr (I < sizeof...(Ts)) {
            if constexpr (kIsSharedPtr<At<I>>) {
                if (o.index_ == I) {
                    f(buf_, *std::launder(reinterpret_cast<const At<I>*>(o.buf_)));
                    return;
                }
            }
            typed<I + 1>(o, f);
        }
    }

    alignas(8) unsigned char buf_[kSize];
    uint8_t index_;
};

}  // namespace tg::interp
