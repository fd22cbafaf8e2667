// The convolution kernel decision, measured (docs/performance.md,
// "Convolution"): forward, backward-data and backward-weights of f32 conv2d
// on bench/run_cnn_bench's shapes with
//   tg      stdlib::conv (im2col + OpenBLAS SGEMM), as every mode calls it;
//   dnnl    oneDNN's convolution primitives in the layouts oneDNN picks
//           (format tag `any`, blocked), NCHW / OIHW user tensors reordered
//           in and out on every call, as tg would have to;
//   dnnl-nchw  oneDNN's primitives on the plain NCHW / OIHW tensors (no
//           reorders; oneDNN's implementation for plain layouts).
// Wall-clock median of REPS calls after two warm-ups, in ms. The thread
// counts come from the environment (OPENBLAS_NUM_THREADS for tg's GEMM,
// OMP_NUM_THREADS for oneDNN); bench/run_cnn_bench runs this at 1 and 2.
// Before timing, each oneDNN result is compared with tg's (max |diff| over
// max |tg|). Built only when oneDNN is found (bench/CMakeLists.txt); tg
// itself does not depend on it.
// usage: tg_conv_kernels_bench [REPS] [CASE]     (CASE: conv1, conv2 or conv32; default all)
// Prints per case and pass `kernel SHAPE PASS tg_ms dnnl_ms dnnl_nchw_ms`,
// `impl SHAPE PASS blocked | nchw` (oneDNN's implementations) and `bits
// SHAPE PASS tg dnnl dnnl_nchw` (a hash of each result's bytes, to compare
// between thread counts), and per case `setup SHAPE ms` (creating oneDNN's
// six primitives and their reorders: what a first call would pay).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "stdlib/budget.hpp"
#include "stdlib/conv.hpp"
#include "stdlib/tensor.hpp"

namespace {

using tg::stdlib::DType;
using tg::stdlib::Tensor;
namespace conv = tg::stdlib::conv;
using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

struct Case {
    const char* name;
    int64_t n, c, h, w, o, k, pad;
};
// bench/cnn.py's OPS: LeNet-5's two convolutions at batch 64, and a larger one.
const Case kCases[] = {{"conv1", 64, 1, 28, 28, 6, 5, 2}, {"conv2", 64, 6, 14, 14, 16, 5, 0},
                       {"conv32", 16, 32, 64, 64, 32, 3, 1}};

double median_ms(int reps, const std::function<void()>& f) {
    f();
    f();
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

Tensor random_tensor(const tg::stdlib::Shape& s, std::mt19937& rng, float scale) {
    Tensor t = Tensor::empty(DType::F32, s);
    std::normal_distribution<float> dist(0.0f, scale);
    float* p = t.data<float>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = dist(rng);
    return t;
}

// FNV-1a of the bytes of n floats.
uint64_t bits_hash(const float* p, int64_t n) {
    uint64_t h = 1469598103934665603ull;
    const auto* b = reinterpret_cast<const unsigned char*>(p);
    for (int64_t i = 0; i < n * int64_t(sizeof(float)); ++i) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

float rel_diff(const float* a, const float* b, int64_t n) {
    float diff = 0, big = 0;
    for (int64_t i = 0; i < n; ++i) {
        diff = std::max(diff, std::abs(a[i] - b[i]));
        big = std::max(big, std::abs(a[i]));
    }
    return big > 0 ? diff / big : diff;
}

// One oneDNN primitive with its arguments: user (plain) memories, reordered
// into the primitive's layouts before it runs (inputs) and out of them after
// (outputs) when they differ.
class Prepared {
public:
    Prepared(const dnnl::engine& eng, dnnl::primitive prim, const char* impl) : eng_(eng), prim_(std::move(prim)), impl_(impl) {}
    // `arg` with user data `data` in plain layout `user`, the primitive's layout `want`.
    void add(int arg, const dnnl::memory::desc& user, const dnnl::memory::desc& want, float* data, bool output) {
        dnnl::memory u(user, eng_, data);
        if (user == want) {
            args_[arg] = u;
            return;
        }
        dnnl::memory m(want, eng_);
        args_[arg] = m;
        if (output) after_.push_back({dnnl::reorder(m, u), m, u});
        else before_.push_back({dnnl::reorder(u, m), u, m});
    }
    void run(dnnl::stream& s) {
        for (auto& r : before_) r.prim.execute(s, r.from, r.to);
        prim_.execute(s, args_);
        for (auto& r : after_) r.prim.execute(s, r.from, r.to);
        s.wait();
    }
    const std::string& impl() const { return impl_; }

private:
    struct Reorder {
        dnnl::reorder prim;
        dnnl::memory from, to;
    };
    dnnl::engine eng_;
    dnnl::primitive prim_;
    std::string impl_;
    std::unordered_map<int, dnnl::memory> args_;
    std::vector<Reorder> before_, after_;
};

// The three oneDNN passes of one case, on user buffers x, w, y, dy, dx, dw.
struct DnnlConv {
    Prepared fwd, bwd_data, bwd_weights;
};

DnnlConv make_dnnl(const dnnl::engine& eng, const Case& c, bool blocked, float* x, float* w, float* y, float* dy,
                   float* dx, float* dw) {
    using md = dnnl::memory::desc;
    const int64_t ho = c.h + 2 * c.pad - c.k + 1, wo = c.w + 2 * c.pad - c.k + 1;
    const dnnl::memory::dims xd{c.n, c.c, c.h, c.w}, wd{c.o, c.c, c.k, c.k}, yd{c.n, c.o, ho, wo};
    const dnnl::memory::dims strides{1, 1}, pads{c.pad, c.pad};
    const md ux(xd, dt::f32, tag::nchw), uw(wd, dt::f32, tag::oihw), uy(yd, dt::f32, tag::nchw);
    const tag t = blocked ? tag::any : tag::nchw, tw = blocked ? tag::any : tag::oihw;
    const md ax(xd, dt::f32, t), aw(wd, dt::f32, tw), ay(yd, dt::f32, t);
    const auto alg = dnnl::algorithm::convolution_direct;

    dnnl::convolution_forward::primitive_desc fpd(
        {dnnl::prop_kind::forward_training, alg, ax, aw, ay, strides, pads, pads}, eng);
    Prepared f(eng, dnnl::convolution_forward(fpd), fpd.impl_info_str());
    f.add(DNNL_ARG_SRC, ux, fpd.src_desc(), x, false);
    f.add(DNNL_ARG_WEIGHTS, uw, fpd.weights_desc(), w, false);
    f.add(DNNL_ARG_DST, uy, fpd.dst_desc(), y, true);

    dnnl::convolution_backward_data::primitive_desc dpd({alg, ax, aw, ay, strides, pads, pads}, eng, fpd);
    Prepared d(eng, dnnl::convolution_backward_data(dpd), dpd.impl_info_str());
    d.add(DNNL_ARG_DIFF_DST, uy, dpd.diff_dst_desc(), dy, false);
    d.add(DNNL_ARG_WEIGHTS, uw, dpd.weights_desc(), w, false);
    d.add(DNNL_ARG_DIFF_SRC, ux, dpd.diff_src_desc(), dx, true);

    dnnl::convolution_backward_weights::primitive_desc wpd({alg, ax, aw, ay, strides, pads, pads}, eng, fpd);
    Prepared g(eng, dnnl::convolution_backward_weights(wpd), wpd.impl_info_str());
    g.add(DNNL_ARG_SRC, ux, wpd.src_desc(), x, false);
    g.add(DNNL_ARG_DIFF_DST, uy, wpd.diff_dst_desc(), dy, false);
    g.add(DNNL_ARG_DIFF_WEIGHTS, uw, wpd.diff_weights_desc(), dw, true);
    return {std::move(f), std::move(d), std::move(g)};
}

void run_case(const dnnl::engine& eng, dnnl::stream& s, const Case& c, int reps) {
    std::mt19937 rng(7);
    const conv::Params p{1, 1, c.pad, c.pad, c.pad, c.pad, 1, 1, 1};
    const Tensor x = random_tensor({c.n, c.c, c.h, c.w}, rng, 1.0f);
    const Tensor w = random_tensor({c.o, c.c, c.k, c.k}, rng, 0.1f);
    const conv::Geom g = conv::conv_geom("conv2d", x.shape(), w.shape(), p);
    const Tensor dy = random_tensor({g.n, g.o, g.ho, g.wo}, rng, 1.0f);
    const Tensor ty = conv::forward(g, x, w), tdx = conv::input_grad(g, dy, w), tdw = conv::weight_grad(g, x, dy);

    std::vector<float> y(ty.numel()), dx(tdx.numel()), dw(tdw.numel());
    float* px = const_cast<float*>(x.data<float>());
    float* pw = const_cast<float*>(w.data<float>());
    float* pdy = const_cast<float*>(dy.data<float>());
    const auto t0 = std::chrono::steady_clock::now();
    DnnlConv blocked = make_dnnl(eng, c, true, px, pw, y.data(), pdy, dx.data(), dw.data());
    std::printf("setup %s %.3f\n", c.name,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    DnnlConv plain = make_dnnl(eng, c, false, px, pw, y.data(), pdy, dx.data(), dw.data());

    struct Pass {
        const char* name;
        std::function<Tensor()> tg;
        Prepared *blocked, *plain;
        const Tensor* want;
        const float* got;
    };
    Pass passes[] = {{"forward", [&] { return conv::forward(g, x, w); }, &blocked.fwd, &plain.fwd, &ty, y.data()},
                     {"backward-data", [&] { return conv::input_grad(g, dy, w); }, &blocked.bwd_data, &plain.bwd_data,
                      &tdx, dx.data()},
                     {"backward-weights", [&] { return conv::weight_grad(g, x, dy); }, &blocked.bwd_weights,
                      &plain.bwd_weights, &tdw, dw.data()}};
    for (Pass& ps : passes) {
        const int64_t n = ps.want->numel();
        uint64_t hash[2];
        for (int k = 0; k < 2; ++k) {
            (k == 0 ? ps.blocked : ps.plain)->run(s);
            const float d = rel_diff(ps.want->data<float>(), ps.got, n);
            if (d > 1e-4f) {
                std::fprintf(stderr, "conv_kernels_bench: oneDNN's %s of %s differs from tg's (%g)\n", ps.name, c.name, d);
                std::exit(1);
            }
            hash[k] = bits_hash(ps.got, n);
        }
        std::printf("bits %s %s %016llx %016llx %016llx\n", c.name, ps.name,
                    static_cast<unsigned long long>(bits_hash(ps.want->data<float>(), n)),
                    static_cast<unsigned long long>(hash[0]), static_cast<unsigned long long>(hash[1]));
        const double t_tg = median_ms(reps, [&] { (void)ps.tg(); });
        const double t_blocked = median_ms(reps, [&] { ps.blocked->run(s); });
        const double t_plain = median_ms(reps, [&] { ps.plain->run(s); });
        std::printf("kernel %s %s %.4f %.4f %.4f\n", c.name, ps.name, t_tg, t_blocked, t_plain);
        std::printf("impl %s %s %s | %s\n", c.name, ps.name, ps.blocked->impl().c_str(), ps.plain->impl().c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 20;
    // tg's large buffers come from its interpreter's cache of mappings, as in a tg program.
    tg::stdlib::Budget* budget = tg::stdlib::Budget::create();
    {
        tg::stdlib::Budget::Scope scope(budget);
        dnnl::engine eng(dnnl::engine::kind::cpu, 0);
        dnnl::stream s(eng);
        for (const Case& c : kCases)
            if (argc < 3 || std::string(argv[2]) == c.name) run_case(eng, s, c, reps);
    }
    budget->release();
    return 0;
}
