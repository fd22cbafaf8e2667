// The wire of `tg dap` (docs/debugging.md "VS Code"): Debug Adapter Protocol
// messages, each a JSON text after a `Content-Length: N` header and a blank
// line, over stdin/stdout or one TCP connection.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tg::cli {

class Transport {
public:
    // Reads from `in_fd`, writes to `out_fd`; closes both when they differ
    // from 0, 1 and 2.
    Transport(int in_fd, int out_fd);
    ~Transport();
    Transport(const Transport&) = delete;
    Transport& operator=(const Transport&) = delete;

    // The next message's text; std::nullopt at the end of the input. A frame
    // it cannot read (no Content-Length, a malformed or huge length) is
    // reported on stderr and skipped: a client's mistake never ends the session.
    std::optional<std::string> read_message();

    // Writes `message` with the next `seq`. Safe from any thread: the reader
    // answers requests while the interpreter's thread sends events.
    void send(nlohmann::json message);

private:
    bool fill();  // reads more input into buffer_; false at its end
    std::optional<size_t> content_length(const std::string& header);
    int in_, out_;
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
std::unique_ptr<Transport> open_transport(int port, std::string& error);

// A response to `request`: success with `body`, or failure with `message`.
nlohmann::json response_to(const nlohmann::json& request, nlohmann::json body);
nlohmann::json error_response_to(const nlohmann::json& request, const std::string& message);
nlohmann::json event_message(const std::string& name, nlohmann::json body = nlohmann::json::object());

// A message of the adapter itself (not of the program) on stderr.
void log_problem(const std::string& text);

}  // namespace tg::cli
