// Where the kernel's session sends what a cell shows (docs/notebooks.md): the
// xeus interpreter publishes it on IOPub; tests may collect it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace tg::kernel {

class Publisher {
public:
    virtual ~Publisher() = default;
    // "stdout" or "stderr", sent while the cell runs
    virtual void stream(const std::string& name, std::string_view text) = 0;
    // a mime bundle shown now (display(), %graph)
    virtual void display(const nlohmann::json& bundle) = 0;
    // the cell's value (Out[N])
    virtual void result(const nlohmann::json& bundle) = 0;
};

}  // namespace tg::kernel
