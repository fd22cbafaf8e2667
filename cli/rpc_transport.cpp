// Content-Length framing of JSON messages (DAP's and JSON-RPC's) over file
// descriptors (stdio or a socket).
#include "cli/rpc_transport.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace tg::cli {

namespace {

// A message larger than this is a broken header, not a real request.
constexpr size_t kMaxMessageBytes = size_t{64} << 20;

bool write_all(int fd, const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
    size_t start = 0;
    while (start < s.size() && (s[start] == ' ' || s[start] == '\t')) ++start;
    return s.substr(start);
}

}  // namespace

void log_problem(const std::string& who, const std::string& text) {
    const std::string line = who + ": " + text + "\n";
    (void)write_all(2, line);
}

Transport::Transport(int in_fd, int out_fd, Wire wire) : in_(in_fd), out_(out_fd), wire_(std::move(wire)) {}

void Transport::log(const std::string& text) const { log_problem(wire_.name, text); }

bool Transport::input_within(int timeout_ms) {
    if (!buffer_.empty()) return true;
    pollfd p{in_, POLLIN, 0};
    for (;;) {
        const int n = ::poll(&p, 1, timeout_ms);
        if (n < 0 && errno == EINTR) continue;
        return n != 0;  // readable, at its end, or an error: the next read says which
    }
}

Transport::~Transport() {
    if (in_ > 2) ::close(in_);
    if (out_ > 2 && out_ != in_) ::close(out_);
}

bool Transport::fill() {
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(in_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        buffer_.append(chunk, static_cast<size_t>(n));
        return true;
    }
}

// The Content-Length of a header block (its lines, without the blank one),
// or std::nullopt after reporting what is wrong with it.
std::optional<size_t> Transport::content_length(const std::string& header) {
    std::optional<size_t> length;
    size_t pos = 0;
    while (pos <= header.size()) {
        size_t end = header.find('\n', pos);
        if (end == std::string::npos) end = header.size();
        const std::string line = trimmed(header.substr(pos, end - pos));
        pos = end + 1;
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = trimmed(line.substr(0, colon));
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (name != "content-length") continue;
        const std::string value = trimmed(line.substr(colon + 1));
        size_t n = 0;
        const auto [stop, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec != std::errc() || stop != value.data() + value.size() || n > kMaxMessageBytes) {
            log("a message header with a malformed Content-Length ('" + value + "'): skipped");
            return std::nullopt;
        }
        length = n;
    }
    if (!length) log("a message header without Content-Length: skipped");
    return length;
}

std::optional<std::string> Transport::read_message() {
    for (;;) {
        // the header ends at a blank line; clients write \r\n, a hand-typed test may write \n
        size_t end = std::string::npos, skip = 0;
        while (end == std::string::npos) {
            const size_t crlf = buffer_.find("\r\n\r\n"), lf = buffer_.find("\n\n");
            if (crlf != std::string::npos && (lf == std::string::npos || crlf < lf)) end = crlf, skip = 4;
            else if (lf != std::string::npos) end = lf, skip = 2;
            else if (buffer_.size() > kMaxMessageBytes) buffer_.clear();  // no header in sight: garbage
            if (end == std::string::npos && !fill()) return std::nullopt;
        }
        const std::string header = buffer_.substr(0, end);
        buffer_.erase(0, end + skip);
        const std::optional<size_t> length = content_length(header);
        if (!length) continue;
        while (buffer_.size() < *length)
            if (!fill()) return std::nullopt;
        std::string body = buffer_.substr(0, *length);
        buffer_.erase(0, *length);
        return body;
    }
}

void Transport::send(nlohmann::json message) {
    std::lock_guard lock(write_mutex_);
    if (broken_) return;
    if (wire_.numbered) message["seq"] = seq_++;
    // invalid UTF-8 in a program's output (a byte string it printed) is
    // replaced, not a reason to drop the message
    const std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string frame = "Content-Length: " + std::to_string(text.size()) + "\r\n\r\n" + text;
    if (!write_all(out_, frame)) {
        broken_ = true;
        log(std::string("cannot write to the client: ") + std::strerror(errno));
    }
}

namespace {

std::unique_ptr<Transport> open_stdio(std::string& error, Wire wire) {
    const int protocol_out = ::dup(1);
    if (protocol_out < 0 || ::dup2(2, 1) < 0) {
        error = std::string("cannot set up stdout: ") + std::strerror(errno);
        return nullptr;
    }
    return std::make_unique<Transport>(0, protocol_out, std::move(wire));
}

std::unique_ptr<Transport> open_socket(int port, std::string& error, Wire wire) {
    const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (server < 0) {
        error = std::string("cannot make a socket: ") + std::strerror(errno);
        return nullptr;
    }
    const int on = 1;
    ::setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // never reachable from another machine
    if (::bind(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(server, 1) != 0) {
        error = "cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + std::strerror(errno);
        ::close(server);
        return nullptr;
    }
    log_problem(wire.name, "listening on 127.0.0.1:" + std::to_string(port));
    int client = -1;
    do client = ::accept4(server, nullptr, nullptr, SOCK_CLOEXEC);
    while (client < 0 && errno == EINTR);
    ::close(server);  // one client per adapter, as with stdio
    if (client < 0) {
        error = std::string("cannot accept a client: ") + std::strerror(errno);
        return nullptr;
    }
    return std::make_unique<Transport>(client, client, std::move(wire));
}

}  // namespace

std::unique_ptr<Transport> open_transport(int port, std::string& error, Wire wire) {
    return port == 0 ? open_stdio(error, std::move(wire)) : open_socket(port, error, std::move(wire));
}

}  // namespace tg::cli
