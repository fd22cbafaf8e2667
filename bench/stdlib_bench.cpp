// Eager stdlib kernels: per-op overhead on 0-d and 4-element tensors and
// element-wise throughput on 10M f32. Prints "name nanoseconds" lines that
// bench/run_stdlib_bench puts beside NumPy's and PyTorch's (stdlib_bench.py).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

#include "stdlib/elementwise.hpp"
#include "stdlib/op_table.hpp"
#include "stdlib/tensor.hpp"

using namespace tg::stdlib;

// Thread CPU time: the machine is shared, so wall-clock time would measure
// the other processes too (the Python side uses time.thread_time_ns).
struct Clock {
    using duration = std::chrono::nanoseconds;
    using time_point = std::chrono::time_point<Clock, duration>;
    static time_point now() {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return time_point(duration(int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec));
    }
};

namespace {

// Median of `reps` timings of `iters` calls of f, in ns per call.
template <class F>
double time_ns(int iters, int reps, F&& f) {
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        auto t0 = Clock::now();
        for (int i = 0; i < iters; ++i) f();
        auto t1 = Clock::now();
        t.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / iters);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

volatile float sink;

}  // namespace

int main() {
    // ---- per-op overhead
    Tensor a = Tensor::scalar(1.5, DType::F32), b = Tensor::scalar(2.25, DType::F32);
    std::printf("scalar_add %.1f\n", time_ns(2000000, 7, [&] {
                    Tensor c = binary(BinaryKind::Add, a, b);
                    sink = *c.data<float>();
                }));
    std::printf("scalar_mul_weak %.1f\n", time_ns(2000000, 7, [&] {
                    Tensor c = binary(BinaryKind::Mul, a, Tensor::weak_float(0.5));
                    sink = *c.data<float>();
                }));
    std::printf("scalar_exp %.1f\n", time_ns(2000000, 7, [&] {
                    Tensor c = unary(UnaryKind::Exp, a);
                    sink = *c.data<float>();
                }));
    {
        const OpDef* add = find_op("add");
        OpContext ctx;
        Tensor ins[] = {a, b};
        Attr attrs[2];
        std::printf("scalar_add_table %.1f\n", time_ns(2000000, 7, [&] {
                        Tensor c = add->eager(ctx, OpArgs{ins, attrs});
                        sink = *c.data<float>();
                    }));
    }
    Tensor v4 = make_tensor<float>({4}, {1, 2, 3, 4}), w4 = make_tensor<float>({4}, {5, 6, 7, 8});
    std::printf("vec4_add %.1f\n", time_ns(1000000, 7, [&] {
                    Tensor c = binary(BinaryKind::Add, v4, w4);
                    sink = c.data<float>()[0];
                }));
    std::printf("vec4_exp %.1f\n", time_ns(1000000, 7, [&] {
                    Tensor c = unary(UnaryKind::Exp, v4);
                    sink = c.data<float>()[0];
                }));

    // ---- throughput on 10M f32 (ns per whole op)
    const int64_t n = 10'000'000;
    Tensor x = Tensor::empty(DType::F32, Shape{n}), y = Tensor::empty(DType::F32, Shape{n});
    for (int64_t i = 0; i < n; ++i) {
        x.data<float>()[i] = static_cast<float>(i % 1000) * 0.001f - 0.5f;
        y.data<float>()[i] = static_cast<float>(i % 777) * 0.002f;
    }
    std::printf("big_add %.0f\n", time_ns(1, 15, [&] { sink = *binary(BinaryKind::Add, x, y).data<float>(); }));
    std::printf("big_mul_scalar %.0f\n", time_ns(1, 15, [&] {
                    sink = *binary(BinaryKind::Mul, x, Tensor::weak_float(2.0)).data<float>();
                }));
    std::printf("big_exp %.0f\n", time_ns(1, 9, [&] { sink = *unary(UnaryKind::Exp, x).data<float>(); }));
    std::printf("big_tanh %.0f\n", time_ns(1, 9, [&] { sink = *unary(UnaryKind::Tanh, x).data<float>(); }));
    // tanh(x * 0.5 + 1) * sigmoid(x) - x * x, eagerly (one temporary per op)
    std::printf("big_expr %.0f\n", time_ns(1, 9, [&] {
                    Tensor t = unary(UnaryKind::Tanh, binary(BinaryKind::Add, binary(BinaryKind::Mul, x, Tensor::weak_float(0.5)),
                                                             Tensor::weak_float(1.0)));
                    Tensor r = binary(BinaryKind::Sub, binary(BinaryKind::Mul, t, unary(UnaryKind::Sigmoid, x)),
                                      binary(BinaryKind::Mul, x, x));
                    sink = *r.data<float>();
                }));
    return 0;
}
