// tg's Jupyter kernel on xeus 2.x (docs/notebooks.md): the xeus::xinterpreter
// that answers the shell requests with a Session. Written against xeus 2.4's
// API (Debian's xeus-dev); xeus 3 moved the ZeroMQ server out and later
// versions changed this interface, so the build asks for xeus 2.x.
#pragma once

#include "cli/kernel/session.hpp"

#include <xeus/xinterpreter.hpp>

#include <atomic>
#include <memory>

namespace tg::kernel {

class KernelInterpreter : public xeus::xinterpreter, private Publisher {
public:
    // `interrupt` is set when Jupyter interrupts the kernel (kernel_main.cpp).
    KernelInterpreter(Options options, std::atomic<bool>* interrupt);

private:
    void configure_impl() override {}
    nl::json execute_request_impl(int execution_counter, const std::string& code, bool silent, bool store_history,
                                  nl::json user_expressions, bool allow_stdin) override;
    nl::json complete_request_impl(const std::string& code, int cursor_pos) override;
    nl::json inspect_request_impl(const std::string& code, int cursor_pos, int detail_level) override;
    nl::json is_complete_request_impl(const std::string& code) override;
    nl::json kernel_info_request_impl() override;
    void shutdown_request_impl() override {}

    // Publisher: IOPub messages while a cell runs
    void stream(const std::string& name, std::string_view text) override;
    void display(const nlohmann::json& bundle) override;
    void result(const nlohmann::json& bundle) override;

    std::atomic<bool>* interrupt_;
    int count_ = 0;
    bool silent_ = false;
    std::unique_ptr<Session> session_;
};

}  // namespace tg::kernel
