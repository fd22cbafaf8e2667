#include "lsp/server.hpp"

#include "lsp/diagnose.hpp"
#include "lsp/features.hpp"

namespace tg::lsp {

namespace {

using nlohmann::json;

// A request the server answers with an error (the code says which kind).
struct RpcError {
    int code;
    std::string message;
};

json error_response(const json& id, int code, const std::string& message) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json notification_message(const std::string& method, json params) {
    return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

json capabilities(bool utf16) {
    return {
        {"positionEncoding", utf16 ? "utf-16" : "utf-32"},
        {"textDocumentSync", {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"referencesProvider", true},
        {"documentSymbolProvider", true},
        {"completionProvider", {{"triggerCharacters", {"."}}}},
        {"signatureHelpProvider", {{"triggerCharacters", {"(", ","}}, {"retriggerCharacters", {"="}}}},
    };
}

// The folders of the workspace: workspaceFolders' URIs, else rootUri, else
// rootPath (the protocol's older field); what is not a string is ignored.
std::vector<std::string> workspace_roots(const json& params) {
    std::vector<std::string> out;
    if (!params.is_object()) return out;
    if (const auto folders = params.find("workspaceFolders"); folders != params.end() && folders->is_array())
        for (const json& f : *folders)
            if (f.is_object() && f.contains("uri") && f["uri"].is_string()) out.push_back(path_of_uri(f["uri"].get<std::string>()));
    if (!out.empty()) return out;
    if (const auto root = params.find("rootUri"); root != params.end() && root->is_string())
        return {path_of_uri(root->get<std::string>())};
    if (const auto root = params.find("rootPath"); root != params.end() && root->is_string()) return {root->get<std::string>()};
    return out;
}

}  // namespace

std::vector<json> Server::handle(std::string_view text) {
    json msg;
    try {
        msg = json::parse(text);
    } catch (const json::exception& e) {
        return {error_response(nullptr, rpc_error::kParseError, std::string("the message is not JSON: ") + e.what())};
    }
    if (!msg.is_object()) return {error_response(nullptr, rpc_error::kInvalidRequest, "a message must be a JSON object")};
    const auto id = msg.find("id");
    const bool has_id = id != msg.end() && (id->is_number_integer() || id->is_string());
    const auto method = msg.find("method");
    if (method == msg.end() || !method->is_string()) {
        if (msg.contains("result") || msg.contains("error")) return {};  // a response: the server asks nothing
        return {error_response(has_id ? *id : json(nullptr), rpc_error::kInvalidRequest, "a request needs a method")};
    }
    const json params = msg.contains("params") ? msg["params"] : json::object();
    if (!has_id) {
        if (id != msg.end()) return {error_response(nullptr, rpc_error::kInvalidRequest, "an id must be a number or a string")};
        try {
            notification(*method, params);
        } catch (const std::exception&) {
            // a notification has no answer: a malformed one is dropped
        }
        std::vector<json> out;
        out.swap(pending_);
        return out;
    }
    try {
        if (!initialized_ && *method != "initialize")
            throw RpcError{rpc_error::kServerNotInitialized, "the server is not initialized"};
        if (shutdown_) throw RpcError{rpc_error::kInvalidRequest, "the server is shut down: only exit is accepted"};
        json result = request(*method, params);
        return {{{"jsonrpc", "2.0"}, {"id", *id}, {"result", std::move(result)}}};
    } catch (const RpcError& e) {
        return {error_response(*id, e.code, e.message)};
    } catch (const json::exception& e) {
        return {error_response(*id, rpc_error::kInvalidParams, std::string("invalid params: ") + e.what())};
    } catch (const std::exception& e) {
        return {error_response(*id, rpc_error::kInternalError, e.what())};
    }
}

json Server::initialize(const json& params) {
    if (initialized_) throw RpcError{rpc_error::kInvalidRequest, "initialize was already sent"};
    initialized_ = true;
    const json encodings = params.is_object() ? params.value("/capabilities/general/positionEncodings"_json_pointer, json::array())
                                              : json::array();
    if (encodings.is_array())
        for (const json& e : encodings)
            if (e == "utf-32") positions_.utf16 = false;
    ws_.set_roots(workspace_roots(params));
    if (params.is_object() && params.contains("initializationOptions") && params["initializationOptions"].is_object()) {
        const json& options = params["initializationOptions"];
        if (options.contains("diagnosticsDelay") && options["diagnosticsDelay"].is_number_integer())
            delay_ms_ = std::clamp(options["diagnosticsDelay"].get<int>(), 0, 10000);
    }
    return {{"capabilities", capabilities(positions_.utf16)}, {"serverInfo", {{"name", "tg lsp"}}}};
}

std::string Server::path_of(const json& params) const {
    return path_of_uri(params.at("textDocument").at("uri").get<std::string>());
}

json Server::request(const std::string& method, const json& params) {
    if (method == "initialize") return initialize(params);
    if (method == "shutdown") {
        shutdown_ = true;
        return nullptr;
    }
    static const std::set<std::string> positional = {"textDocument/hover", "textDocument/definition", "textDocument/references",
                                                     "textDocument/completion", "textDocument/signatureHelp"};
    if (!positional.count(method) && method != "textDocument/documentSymbol")
        throw RpcError{rpc_error::kMethodNotFound, "tg lsp does not answer " + method};
    const std::shared_ptr<const Index> ix = ws_.index(path_of(params));
    if (!ix) return nullptr;
    const Context c{ws_, positions_};
    if (method == "textDocument/documentSymbol") return document_symbols(c, *ix);
    const lang::Loc loc = positions_.loc(*ix->source(), params.at("position"));
    if (method == "textDocument/hover") return hover(c, ix, loc);
    if (method == "textDocument/definition") return definition(c, ix, loc);
    if (method == "textDocument/completion") return completion(c, *ix, loc);
    if (method == "textDocument/signatureHelp") return signature_help(c, ix, loc);
    const bool declarations = params.value("/context/includeDeclaration"_json_pointer, true);
    return references(c, ix, loc, declarations);
}

void Server::notification(const std::string& method, const json& params) {
    if (method == "exit") {
        exited_ = true;
    } else if (!initialized_ || shutdown_) {
        return;  // before initialize and after shutdown, notifications are dropped
    } else if (method == "textDocument/didOpen") {
        const json& doc = params.at("textDocument");
        const std::string path = path_of_uri(doc.at("uri").get<std::string>());
        uris_[path] = doc.at("uri").get<std::string>();
        ws_.open(path, doc.at("text").get<std::string>());
        for (const std::string& p : ws_.open_paths()) dirty_.insert(p);  // its imports may resolve now
    } else if (method == "textDocument/didChange") {
        change(params);
    } else if (method == "textDocument/didSave") {
        for (const std::string& p : ws_.open_paths()) dirty_.insert(p);
    } else if (method == "textDocument/didClose") {
        const std::string path = path_of(params);
        ws_.close(path);
        dirty_.erase(path);
        pending_.push_back(notification_message(
            "textDocument/publishDiagnostics",
            {{"uri", params.at("textDocument").at("uri")}, {"diagnostics", json::array()}}));
    }
}

void Server::change(const json& params) {
    const std::string path = path_of(params);
    const std::string* old = ws_.text_of(path);
    if (!old) return;  // not open: nothing to change
    std::string text = *old;
    for (const json& edit : params.at("contentChanges")) {
        if (!edit.contains("range")) {
            text = edit.at("text").get<std::string>();
            continue;
        }
        const size_t start = positions_.offset(text, edit["range"].at("start"));
        const size_t end = std::max(start, positions_.offset(text, edit["range"].at("end")));
        text.replace(start, end - start, edit.at("text").get<std::string>());
    }
    ws_.open(path, std::move(text));
    dirty_.insert(path);
}

json Server::diagnostics_of(const std::string& path) {
    json out = json::array();
    const std::shared_ptr<const Index> ix = ws_.index(path);
    if (!ix) return out;
    for (const Problem& p : diagnose(*ix, ws_)) {
        json d = {{"range", positions_.range(*ix->source(), p.start, p.end)},
                  {"severity", static_cast<int>(p.severity)},
                  {"source", "tg"},
                  {"message", p.message}};
        if (p.unnecessary) d["tags"] = {1};
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<json> Server::publish_diagnostics() {
    std::vector<json> out;
    for (const std::string& path : dirty_) {
        if (!ws_.text_of(path)) continue;
        const auto uri = uris_.find(path);
        out.push_back(notification_message("textDocument/publishDiagnostics",
                                           {{"uri", uri == uris_.end() ? uri_of_path(path) : uri->second},
                                            {"diagnostics", diagnostics_of(path)}}));
    }
    dirty_.clear();
    return out;
}

}  // namespace tg::lsp
