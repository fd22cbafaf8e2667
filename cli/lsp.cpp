// The loop of `tg lsp` (docs/editors.md): messages from the transport to the
// protocol engine (lsp/server.hpp) and its answers back. Diagnostics wait
// until the client has been quiet for the server's delay: a burst of
// keystrokes is analysed once, after the last of them.
#include "cli/lsp.hpp"

#include "cli/rpc_transport.hpp"
#include "lsp/server.hpp"

namespace tg::cli {

int lsp() {
    std::string error;
    std::unique_ptr<Transport> transport = open_transport(0, error, Wire::json_rpc("tg lsp"));
    if (!transport) {
        log_problem("tg lsp", error);
        return 1;
    }
    lsp::Server server;
    for (;;) {
        if (server.diagnostics_due() && !transport->input_within(server.diagnostics_delay_ms()))
            for (nlohmann::json& m : server.publish_diagnostics()) transport->send(std::move(m));
        std::optional<std::string> message = transport->read_message();
        if (!message) return server.exit_code();  // the client went away
        for (nlohmann::json& m : server.handle(*message)) transport->send(std::move(m));
        if (server.exited()) return server.exit_code();
    }
}

}  // namespace tg::cli
