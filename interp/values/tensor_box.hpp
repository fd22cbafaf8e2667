// The allocation of a tensor value's box (Value holds a tensor of rank >= 1
// by a shared pointer, interp/values/value.hpp): boxes freed on this thread
// are kept and reused, so a tensor op's result costs no malloc — the small
// tensors of eager code (a 4-element add) were 10% slower with a malloc per
// result. Like malloc's thread caches (and stdlib's small-block cache), this
// is allocator state, invisible to tg.
#pragma once

#include <cstddef>
#include <new>

namespace tg::interp {

template <class T>
class BoxAllocator {
public:
    using value_type = T;
    BoxAllocator() = default;
    template <class U>
    BoxAllocator(const BoxAllocator<U>&) {}  // NOLINT: rebinding, as std::allocator
    T* allocate(size_t n) {
        if (n == 1 && !Cache::dead)
            if (void* p = cache().take()) return static_cast<T*>(p);
        return static_cast<T*>(::operator new(n * sizeof(T)));
    }
    void deallocate(T* p, size_t n) {
        if (n == 1 && !Cache::dead && cache().give(p)) return;
        ::operator delete(p);
    }
    friend bool operator==(const BoxAllocator&, const BoxAllocator&) { return true; }

private:
    // This thread's freed blocks of sizeof(T) bytes.
    struct Cache {
        static constexpr int kKept = 32;
        void* blocks[kKept];
        int count = 0;
        void* take() { return count > 0 ? blocks[--count] : nullptr; }
        bool give(void* p) {
            if (count == kKept) return false;
            blocks[count++] = p;
            return true;
        }
        ~Cache() {
            dead = true;  // a box freed later (a value in a thread_local) goes to operator delete
            while (count > 0) ::operator delete(blocks[--count]);
        }
        static inline thread_local bool dead = false;
    };
    static Cache& cache() {
        thread_local Cache c;
        return c;
    }
};

}  // namespace tg::interp
