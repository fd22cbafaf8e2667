#include "codegen/background.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>

namespace tg::codegen {

void CompileJob::abandon() {
    JitSession::ModuleId made = 0;
    {
        std::lock_guard lock(mutex);
        abandoned = true;
        if (state == State::Done) made = module;  // else the worker releases it
    }
    if (made) session->remove(made);
}

CompileWorker::~CompileWorker() {
    std::deque<std::shared_ptr<CompileJob>> dropped;  // never started: nothing waits for them any more
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        dropped.swap(queue_);
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void CompileWorker::submit(std::shared_ptr<CompileJob> job) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(job));
        if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    }
    wake_.notify_one();
}

void CompileWorker::loop() {
    for (;;) {
        std::shared_ptr<CompileJob> job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping, and nothing left to do
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        {
            std::lock_guard lock(job->mutex);
            job->state = CompileJob::State::Running;
        }
        JitSession::ModuleId module = 0;
        void* fn = nullptr;
        ModuleTimes times;
        std::string error;
        try {
            module = job->session->add_ir(job->ir, job->cache_key, &times);
            fn = job->session->lookup(job->entry);
        } catch (const std::exception& e) {
            error = e.what();
        }
        bool release = false;
        {
            std::lock_guard lock(job->mutex);
            job->module = module;
            job->fn = fn;
            job->times = times;
            job->error = std::move(error);
            job->state = job->error.empty() ? CompileJob::State::Done : CompileJob::State::Failed;
            job->finished.store(true, std::memory_order_release);
            release = job->abandoned && module;
        }
        if (release) {
            try {
                job->session->remove(module);
            } catch (...) {
                // releasing code cannot fail in a way anyone could act on
            }
        }
    }
}

namespace {
// a + b, saturating: only comparisons against a limit follow
int64_t add_work(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

int64_t region_work(const tracer::Graph& g, tracer::RegionId r) {
    int64_t work = 0;
    for (tracer::NodeId n : g.region(r).nodes) {
        const tracer::Node& node = g.node(n);
        if (node.erased) continue;
        if (node.op == tracer::Op::While) return -1;
        for (tracer::RegionId inner : node.regions) {
            const int64_t w = region_work(g, inner);
            if (w < 0) return -1;
            work = add_work(work, w);
        }
        for (tracer::ValueId v : node.results) {
            if (g.type(v).token) continue;
            if (g.has_dynamic_dims(v)) return -1;  // its size is known only when it runs: not bounded
            int64_t elements = g.tensor_type(v).shape.numel();
            // a contraction (matmul): each result element is a dot product of the inner dim
            if (node.op == tracer::Op::Apply && node.def && node.def->cost == stdlib::Cost::Contraction &&
                !node.operands.empty()) {
                const auto& a = g.tensor_type(node.operands[0]).shape;
                const int64_t k = a.rank() > 0 ? std::max<int64_t>(1, a[a.rank() - 1]) : 1;
                elements = elements > INT64_MAX / k ? INT64_MAX : elements * k;
            }
            work = add_work(work, std::max<int64_t>(1, elements));
        }
    }
    return work;
}
}  // namespace

int64_t bounded_work(const tracer::Graph& g) { return region_work(g, tracer::Graph::kBody); }

}  // namespace tg::codegen
