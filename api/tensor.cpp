// tg::Error, tg::DType and tg::Tensor of the public API (include/tg/tg.hpp),
// below the interpreter: tg::Graph (api_graph.cpp) uses them without it.
#include "api/tensor.hpp"

#include <cstring>

#include "stdlib/format.hpp"

namespace tg {

// ---------------------------------------------------------------- Error, DType

Error::Error(std::string message, std::string file, int line, int col, std::vector<Frame> traceback,
             std::string rendered)
    : std::runtime_error(rendered), message_(std::move(message)), file_(std::move(file)), line_(line), col_(col),
      traceback_(std::move(traceback)), rendered_(std::move(rendered)) {}

const char* dtype_name(DType d) { return stdlib::dtype_name(detail::to_internal(d)); }
size_t dtype_size(DType d) { return stdlib::dtype_size(detail::to_internal(d)); }

// ---------------------------------------------------------------- Tensor

Tensor::Tensor() : impl_(std::make_shared<Impl>()) {}
Tensor::Tensor(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

Tensor Tensor::scalar(double v, DType dtype) {
    return Tensor(std::make_shared<Impl>(Impl{stdlib::Tensor::scalar(v, detail::to_internal(dtype))}));
}
Tensor Tensor::scalar(int64_t v, DType dtype) {
    return Tensor(std::make_shared<Impl>(Impl{stdlib::Tensor::scalar(v, detail::to_internal(dtype))}));
}
Tensor Tensor::scalar(bool v) { return Tensor(std::make_shared<Impl>(Impl{stdlib::Tensor::scalar(v)})); }

Tensor Tensor::copy_of(const void* data, DType dtype, std::vector<int64_t> shape) {
    return detail::guarded_plain([&] {
        stdlib::Shape s{std::span<const int64_t>(shape)};
        stdlib::Tensor t = stdlib::Tensor::empty(detail::to_internal(dtype), s);
        if (data == nullptr && s.numel() > 0) throw detail::plain_error("copy_of: the data pointer is null");
        std::memcpy(t.raw_data(), data, static_cast<size_t>(s.numel()) * stdlib::dtype_size(detail::to_internal(dtype)));
        return Tensor(std::make_shared<Impl>(Impl{std::move(t)}));
    });
}
Tensor Tensor::from_floats(std::span<const float> data, std::vector<int64_t> shape) {
    return detail::guarded_plain([&] {
        // the span's length is known: a shape it does not fill would read past it
        const int64_t n = stdlib::Shape{std::span<const int64_t>(shape)}.numel();
        if (static_cast<uint64_t>(n) != data.size())
            throw detail::plain_error("from_floats: the shape has " + std::to_string(n) + " elements but " +
                                      std::to_string(data.size()) + " floats were given");
        return copy_of(data.data(), DType::F32, std::move(shape));
    });
}
Tensor Tensor::wrap(void* data, DType dtype, std::vector<int64_t> shape, std::function<void()> release,
                    std::vector<int64_t> strides) {
    return detail::guarded_plain([&] {
        stdlib::Shape s{std::span<const int64_t>(shape)};
        stdlib::Strides st = strides.empty() ? stdlib::Strides{} : stdlib::Strides{std::span<const int64_t>(strides)};
        return Tensor(std::make_shared<Impl>(
            Impl{stdlib::Tensor::wrap(data, detail::to_internal(dtype), s, st, std::move(release))}));
    });
}

DType Tensor::dtype() const { return detail::to_public(impl_->t.dtype()); }
std::vector<int64_t> Tensor::shape() const {
    auto d = impl_->t.shape().dims();
    return {d.begin(), d.end()};
}
int Tensor::rank() const { return impl_->t.rank(); }
int64_t Tensor::size() const { return impl_->t.numel(); }
const void* Tensor::data() const {
    if (impl_->t.weak()) impl_->t = impl_->t.strong();
    if (!impl_->t.is_contiguous()) impl_->t = impl_->t.contiguous();
    return impl_->t.raw_data();
}
void Tensor::require_dtype(DType d) const {
    if (dtype() != d)
        throw detail::plain_error(std::string("data_as: the tensor's dtype is ") + dtype_name(dtype()) + ", not " + dtype_name(d));
}
double Tensor::item() const {
    return detail::guarded_plain([&] { return impl_->t.item_f64(); });
}
std::string Tensor::str() const {
    return detail::guarded_plain([&] { return stdlib::to_str(impl_->t); });
}
std::string Tensor::repr() const {
    return detail::guarded_plain([&] { return stdlib::to_repr(impl_->t); });
}

}  // namespace tg
