// The wire `tg dap` (docs/debugging.md "VS Code") and `tg lsp`
// (docs/editors.md) share: JSON messages, each after a `Content-Length: N`
// header and a blank line, over stdin/stdout or one TCP connection. The Debug
// Adapter Protocol numbers every message (`seq`); JSON-RPC (the Language
// Server Protocol) does not.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tg::cli {

// Who speaks on a transport: the name its problems are logged under, and
// whether each message sent gets the next `seq` (DAP) or goes as it is.
struct Wire {
    std::string name = "tg dap";
    bool numbered = true;
    static Wire dap() { return {}; }
    static Wire json_rpc(std::string name) { return {std::move(name), false}; }
};

class Transport {
public:
    // Reads from `in_fd`, writes to `out_fd`; closes both when they differ
    // from 0, 1 and 2.
    Transport(int in_fd, int out_fd, Wire wire = Wire::dap());
    ~Transport();
    Transport(const Transport&) = delete;
    Transport& operator=(const Transport&) = delete;

    // The next message's text; std::nullopt at the end of the input. A frame
    // it cannot read (no Content-Length, a malformed or huge length) is
    // reported on stderr and skipped: a client's mistake never ends the session.
    std::optional<std::string> read_message();

    // Whether a message may be read without waiting longer than
    // `timeout_ms`: one is buffered, or input (or its end) arrived in time.
    // The language server waits so before it publishes diagnostics, so
    // that a burst of edits is analysed once (debouncing).
    bool input_within(int timeout_ms);

    // Writes `message` (DAP: with the next `seq`). Safe from any thread: the
    // reader answers requests while the interpreter's thread sends events.
    void send(nlohmann::json message);

    // A problem of the server itself (not of the program) on stderr.
    void log(const std::string& text) const;

private:
    bool fill();  // reads more input into buffer_; false at its end
    std::optional<size_t> content_length(const std::string& header);
    int in_, out_;
    Wire wire_;
    std::string buffer_;
    std::mutex write_mutex_;
    int seq_ = 1;
    bool broken_ = false;  // the client went away: later writes are dropped
};

// port 0: stdin and stdout. Nothing else may reach stdout then, so the real
// stdout is kept on a private descriptor and descriptor 1 becomes stderr
// (a stray write of a library lands in the log, not in the protocol).
// port N: listens on 127.0.0.1:N and accepts one client.
// Null, with `error` set, when neither works.
std::unique_ptr<Transport> open_transport(int port, std::string& error, Wire wire = Wire::dap());

// A message of `who` itself (not of the program) on stderr: "who: text".
void log_problem(const std::string& who, const std::string& text);

}  // namespace tg::cli
