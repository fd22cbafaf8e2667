// The tg command (docs/repl.md): a thin client of the public API <tg/tg.hpp>.
//   tg FILE [ARGS...]            same as `tg run FILE [ARGS...]`
//   tg run FILE [--eager] [--trace] [--no-jit] [--verify] [--dump-graphs DIR] [ARGS...]
//   tg debug FILE [--debug-nans] [ARGS...]   under the terminal debugger (docs/debugging.md)
//   tg check FILE [--ast]
//   tg repl                      (also: `tg` with no arguments)
//   tg export FILE --function NAME --args "f32[3,4] i64[]" -o model.tgx
//   tg export FILE --function NAME --args "f32[3,4]" --format onnx [--drop-prints] -o model.onnx
//   tg export FILE --function NAME --params ckpt.npz [--params-as-inputs] --args "f32[batch,4]" -o model.tgx
//   tg dap [--port N]            the Debug Adapter Protocol server (docs/debugging.md "VS Code")
//   tg kernel -f CONNECTION_FILE the Jupyter kernel (docs/notebooks.md)
//   tg kernel install [--user | --prefix P]   registers it with Jupyter
//   tg lsp                       the Language Server Protocol server (docs/editors.md)
// Exit status: 0 ok, 1 the script failed, 2 a usage error.
#include <tg/tg.hpp>

#include "api/tool_api.hpp"

#include <CLI/CLI.hpp>
#include <pthread.h>
#include <sys/stat.h>

#include <csignal>

#include <cctype>
#include <charconv>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "cli/debug_command.hpp"
#include "cli/terminal_debugger.hpp"
#include "cli/dap.hpp"
#include "cli/kernel/plugin.hpp"
#include "cli/kernel/kernelspec.hpp"
#include "cli/lsp.hpp"
#include "cli/fault_for_tests.hpp"
#include "cli/repl.hpp"

namespace {

// "" when `s` is a valid --threads / TG_NUM_THREADS value, else the message.
std::string threads_error(const std::string& s) {
    int n = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec == std::errc() && end == s.data() + s.size() && n >= 1 && n <= 4096) return "";
    return "--threads N and TG_NUM_THREADS take a whole number from 1 to 4096, got '" + s + "'";
}

std::map<std::string, tg::DynamicShapes> dynamic_shapes_names() {
    return {{"auto", tg::DynamicShapes::Auto}, {"always", tg::DynamicShapes::Always}, {"never", tg::DynamicShapes::Never}};
}

// On a terminal, a write that does not end its line (a progress bar's "\r...", print(end=""))
// is flushed: C's line buffering would hold it until the next newline.
void write_stdout(std::string_view s) {
    static const bool terminal = ::isatty(1) != 0;
    std::fwrite(s.data(), 1, s.size(), stdout);
    if (terminal && !s.empty() && s.back() != '\n') std::fflush(stdout);
}

// Errors go to stderr after everything printed so far (docs/language.md "Values"). The
// report is written whole (fputs would stop at a NUL).
void report(const tg::Error& e) {
    std::fflush(stdout);
    std::fwrite(e.rendered().data(), 1, e.rendered().size(), stderr);
    std::fflush(stderr);
}

// A usage error of the command line: "tg: MESSAGE", exit status 2. Control
// characters (from a file name) are written as escapes.
int usage_error(const std::string& message) {
    std::string shown;
    for (unsigned char c : message) {
        if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            shown += buf;
        } else {
            shown += static_cast<char>(c);
        }
    }
    std::fprintf(stderr, "tg: %s\n", shown.c_str());
    return 2;
}

// --dump-graphs DIR: DIR must be a writable directory; a missing DIR is
// created, but not its parents (a typo in the path is an error, not a tree
// of new folders). Returns an error message, or "" when DIR is usable.
std::string prepare_dump_dir(const std::string& dir) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) {
        if (errno != ENOENT) return "--dump-graphs: cannot use '" + dir + "': " + std::strerror(errno);
        if (::mkdir(dir.c_str(), 0777) != 0)
            return "--dump-graphs: cannot create the directory '" + dir + "': " + std::strerror(errno);
        return "";
    }
    if (!S_ISDIR(st.st_mode)) return "--dump-graphs: '" + dir + "' exists and is not a directory";
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return "--dump-graphs: cannot write into '" + dir + "': " + std::strerror(errno);
    return "";
}

int run(const std::string& file, const std::vector<std::string>& args, tg::Options opts) {
    opts.write_output = write_stdout;
    opts.output_is_terminal = ::isatty(1) != 0;
    opts.write_log = [](std::string_view s) {
        std::fflush(stdout);
        std::fwrite(s.data(), 1, s.size(), stderr);
    };
    opts.argv = args;
    std::string text;
    try {
        text = tg::read_file(file);
    } catch (const tg::Error& e) {
        return usage_error(e.message());
    }
    text = {};
    if (!opts.dump_graphs_dir.empty())
        if (std::string problem = prepare_dump_dir(opts.dump_graphs_dir); !problem.empty()) return usage_error(problem);
    int status = 0;
    std::unique_ptr<tg::Interpreter> interp;
    // breakpoint() stops `tg run` when it has a terminal to ask (docs/debugging.md)
    tg::cli::DebuggerOnBreakpoint on_breakpoint(true, file);
    if (opts.breakpoints && ::isatty(0) && ::isatty(1)) opts.on_breakpoint = on_breakpoint.hook();
    try {
        interp = std::make_unique<tg::Interpreter>(opts);
        on_breakpoint.set_interpreter(interp.get());
        tg::cli::add_fault_for_tests(*interp);
        interp->run_file(file);
    } catch (const tg::Error& e) {
        if (!tg::cli::TerminalDebugger::is_quit(e)) report(e);
        status = 1;
    }
    std::fflush(stdout);
    std::fflush(stderr);
#ifndef TG_SANITIZE_BUILD
    // The process ends here, without destroying the interpreter: that would
    // wait for a background compile no call will use any more (LLVM cannot
    // be stopped halfway; a script calling a @graph function once waited
    // ~50 ms at exit), and the OS frees the rest faster. Output is flushed
    // above; the object cache only ever holds whole files (each is written
    // under a temporary name, then renamed). Sanitizer builds destroy it, so
    // LeakSanitizer still checks every run.
    std::_Exit(status);
#endif
    return status;
}

int check(const std::string& file, bool ast) {
    std::string text;
    try {
        text = tg::read_file(file);
    } catch (const tg::Error& e) {
        return usage_error(e.message());
    }
    tg::CheckResult r = tg::check_source(text, file, ast);
    if (ast) write_stdout(r.ast);
    std::fflush(stdout);
    std::fwrite(r.report.data(), 1, r.report.size(), stderr);
    return r.errors ? 1 : 0;
}

bool is_identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (unsigned char c : s)
        if (!std::isalnum(c) && c != '_') return false;
    return true;
}

// One dimension of an --args spec as tg source: "3", "None" for `?` (a
// dimension of any size), "'batch'" for a named one (docs/deploying.md
// "Dynamic dimensions"); "" when malformed. Static sizes multiply into
// `elements`; `too_large` when that overflows.
std::string dim_source(const std::string& d, int64_t& elements, bool& too_large) {
    if (d == "?") return "None";
    if (is_identifier(d)) return "'" + d + "'";
    if (d.empty() || d.find_first_not_of("0123456789") != std::string::npos) return "";
    // a dimension, and all of them together, must fit the element count tg can index
    int64_t v = 0;
    if (std::from_chars(d.data(), d.data() + d.size(), v).ec != std::errc() ||
        __builtin_mul_overflow(elements, v, &elements))
        too_large = true;
    return d;
}

// --args "f32[3,4] i64[] f32[?,4] f32[batch,4]": one spec per parameter, as tg
// source ("spec((3, 4), f32), spec((), i64), spec((None, 4), f32), ..."); ""
// and a message when malformed.
std::string specs_source(const std::string& text, std::string& problem) {
    std::string out;
    size_t i = 0;
    int count = 0;
    while (i < text.size()) {
        if (std::isspace(static_cast<unsigned char>(text[i]))) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
        const std::string item = text.substr(i, end - i);
        i = end;
        const size_t open = item.find('[');
        const std::string dtype = item.substr(0, open);
        const bool known = dtype == "f32" || dtype == "f64" || dtype == "i32" || dtype == "i64" || dtype == "bool";
        std::string dims;
        bool ok = known && open != std::string::npos && item.back() == ']';
        bool too_large = false;
        if (ok) {
            const std::string inner = item.substr(open + 1, item.size() - open - 2);
            size_t k = 0;
            int n = 0;
            int64_t elements = 1;
            while (ok && k < inner.size()) {
                size_t comma = inner.find(',', k);
                if (comma == std::string::npos) comma = inner.size();
                const std::string d = dim_source(inner.substr(k, comma - k), elements, too_large);
                ok = !d.empty();
                dims += (n++ ? ", " : "") + d;
                k = comma + 1;
                if (comma + 1 == inner.size()) ok = false;  // "f32[3,]"
            }
            if (n == 1) dims += ",";
        }
        if (ok && too_large) {
            problem = "--args: '" + item + "' is too large: its element count does not fit in a 64-bit integer";
            return "";
        }
        if (!ok) {
            problem = "--args: '" + item +
                      "' is not a spec like f32[3,4], f32[?,4], f32[batch,4] or i64[] (dtypes: bool, i32, i64, f32, "
                      "f64; a dimension is a size, ? or a name)";
            return "";
        }
        out += (count++ ? ", " : "") + std::string("spec((") + dims + "), " + dtype + ")";
    }
    return out;
}

// tg export: runs FILE as a module (its __name__ is the file's name, so an
// `if __name__ == "__main__":` block does not run), traces NAME for the specs with concrete() and saves
// the graph (docs/language.md "Graphs as values"). Mistakes in the command line are usage errors (2),
// also a wrong number of specs; errors of the program are its own (1).
// `tg export`'s arguments.
struct ExportArgs {
    std::string file, function, args, out, format = "tgx";
    std::string params;  // a checkpoint (.npz) for the function's first parameter
    bool params_as_inputs = false;  // its tensors inputs of the graph, not constants
    bool drop_prints = false;
};

int export_graph(const ExportArgs& ex, tg::Options opts) {
    const std::string& file = ex.file;
    const std::string& function = ex.function;
    const std::string& out_path = ex.out;
    const std::string& format = ex.format;
    const bool drop_prints = ex.drop_prints;
    const std::string& args_text = ex.args;
    std::string problem;
    const std::string specs = specs_source(args_text, problem);
    if (!problem.empty()) return usage_error(problem);
    if (!is_identifier(function)) return usage_error("--function: '" + function + "' is not a function name");
    const std::string ext = format == "onnx" ? ".onnx" : ".tgx";
    if (out_path.size() < ext.size() || out_path.compare(out_path.size() - ext.size(), ext.size(), ext) != 0)
        return usage_error("-o: a --format " + format + " file must end in " + ext + ", not '" + out_path + "'");
    if (drop_prints && format != "onnx") return usage_error("--drop-prints: applies to --format onnx only");
    if (ex.params_as_inputs && ex.params.empty()) return usage_error("--params-as-inputs: applies with --params only");
    try {
        (void)tg::read_file(file);
    } catch (const tg::Error& e) {
        return usage_error(e.message());
    }
    opts.write_output = write_stdout;
    opts.no_jit = true;  // the graph is saved, not run
    try {
        tg::Interpreter interp(opts);
        // imported, not run: a script's `if __name__ == "__main__":` block (its training) is skipped
        interp.set("__name__", tg::Value(std::filesystem::path(file).stem().string()));
        interp.run_file(file);
        tg::Value f;
        try {
            f = interp.get(function);
        } catch (const tg::Error&) {
            return usage_error("--function: " + file + " defines no function `" + function + "`");
        }
        if (f.kind() != tg::Value::Kind::Function)
            return usage_error("--function: `" + function + "` in " + file + " is not a function");
        interp.set("__export_path", tg::Value(out_path));
        std::string all = specs;
        if (!ex.params.empty()) {  // the weights, baked into the graph as constants (or kept as inputs)
            interp.set("__export_params", tg::Value(ex.params));
            try {
                interp.run_source("__export_tree = load(__export_params)\n", "<tg export>");
            } catch (const tg::Error& e) {
                return usage_error("--params: " + e.message());
            }
            all = "__export_tree" + std::string(specs.empty() ? "" : ", ") + specs;
        }
        try {
            interp.run_source("save(__export_path, concrete(" + function + (all.empty() ? "" : ", ") + all +
                                  (ex.params_as_inputs ? ", params_as_inputs=True" : "") + ")" +
                                  (drop_prints ? ", drop_prints=True" : "") + ")\n",
                              "<tg export>");
        } catch (const tg::Error& e) {
            const std::string& m = e.message();
            if (m.rfind("concrete: `" + function + "` takes", 0) == 0 || m.rfind("concrete: missing a spec", 0) == 0)
                return usage_error("--args: " + m.substr(std::string("concrete: ").size()));
            throw;
        }
    } catch (const tg::Error& e) {
        report(e);
        return 1;
    }
    std::fflush(stdout);
    return 0;
}

// The command line with `tg FILE ...` spelled `tg run FILE ...` and bare
// `tg` as `tg repl`; `after_file` gets what follows a `run`'s script name,
// also what starts with `-`, as in Python (`tg run a.tg --verbose`): it is
// the script's own `argv`.
std::vector<std::string> command_line(int argc, char** argv, std::vector<std::string>& after_file) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) args.push_back("repl");
    if (args[0] != "run" && args[0] != "check" && args[0] != "repl" && args[0] != "export" && args[0] != "debug" &&
        args[0] != "dap" && args[0] != "kernel" && args[0] != "lsp" && !args[0].empty() && args[0][0] != '-')
        args.insert(args.begin(), "run");
    if (args[0] != "run" && args[0] != "debug") return args;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--dump-graphs" || args[i] == "--threads" || args[i] == "--dynamic-shapes") {
            ++i;  // its value
        } else if (args[i] == "--") {
            if (i + 1 < args.size()) after_file.assign(args.begin() + static_cast<long>(i) + 2, args.end());
            args.resize(std::min(args.size(), i + 2));
            break;
        } else if (args[i].empty() || args[i][0] != '-') {
            after_file.assign(args.begin() + static_cast<long>(i) + 1, args.end());
            args.resize(i + 1);
            break;
        }
    }
    return args;
}

// TG_NUM_THREADS and TG_DYNAMIC_SHAPES, read before the flags so that a flag
// overrides them (with CLI11's envname the variable overrode the flag).
// False (after a message) when one is malformed.
bool options_from_environment(tg::Options& opts) {
    if (const char* env = std::getenv("TG_NUM_THREADS"); env && *env) {
        if (std::string why = threads_error(env); !why.empty()) {
            std::fprintf(stderr, "--threads: %s\nRun with --help for more information.\n", why.c_str());
            return false;
        }
        opts.threads = std::atoi(env);
    }
    if (const char* env = std::getenv("TG_DYNAMIC_SHAPES"); env && *env) {
        const auto names = dynamic_shapes_names();
        const auto it = names.find(env);
        if (it == names.end()) {
            std::fprintf(stderr, "tg: TG_DYNAMIC_SHAPES takes auto, always or never, got '%s'\n", env);
            return false;
        }
        opts.dynamic_shapes = it->second;
    }
    // Python's PYTHONBREAKPOINT=0
    if (const char* env = std::getenv("TG_BREAKPOINT"); env && std::string(env) == "0") opts.breakpoints = false;
    if (const char* env = std::getenv("TG_DEBUG_NANS"); env && *env && std::string(env) != "0") opts.debug_nans = true;
    return true;
}

// The debugging switches of `run`, `debug` and `repl` (docs/debugging.md).
void add_debug_flags(CLI::App* cmd, tg::Options& opts) {
    cmd->add_flag("--debug-nans", opts.debug_nans,
                  "the first operation making a NaN or inf its inputs did not have is an error at its line "
                  "(also $TG_DEBUG_NANS=1)");
    cmd->add_flag("!--no-breakpoints", opts.breakpoints, "breakpoint() does nothing (also $TG_BREAKPOINT=0)");
}

// The graph switches shared by `run` and `repl` (docs/graph.md).
void add_graph_flags(CLI::App* cmd, tg::Options& opts) {
    cmd->add_flag("--eager", opts.eager, "run @graph functions eagerly");
    cmd->add_flag("--trace", opts.trace, "log every trace and retrace");
    cmd->add_flag("--no-jit", opts.no_jit, "run graphs with the reference graph interpreter");
    cmd->add_flag("--no-cache", opts.no_cache, "do not use the persistent cache of compiled code");
    cmd->add_flag("--sync-jit", opts.sync_jit,
                  "compile every graph before its first call (default: small graphs start on the graph "
                  "interpreter while they compile in the background)");
    cmd->add_option("--threads", opts.threads,
                    "threads a large compiled loop may use (default: $TG_NUM_THREADS, else the machine's)")
        ->check(CLI::Validator([](std::string& s) { return threads_error(s); }, "1..4096"));
    cmd->add_option("--dynamic-shapes", opts.dynamic_shapes,
                    "trace a @graph function called with varying sizes once with those dimensions dynamic: "
                    "auto (after 3 traces that differ only in sizes; the default), always (testing), never "
                    "(default: $TG_DYNAMIC_SHAPES, else auto)")
        ->transform(CLI::CheckedTransformer(dynamic_shapes_names()));
    cmd->add_flag("--verify", opts.verify, "run every @graph call both ways and compare");
    cmd->add_option("--dump-graphs", opts.dump_graphs_dir, "write every traced graph into DIR");
}

CLI::App* add_export_command(CLI::App& app, ExportArgs& e) {
    auto* cmd = app.add_subcommand("export", "trace a function of FILE for the given specs and save the graph");
    cmd->add_option("file", e.file, "the .tg script that defines the function")->required();
    cmd->add_option("--function", e.function, "the function to export")->required();
    cmd->add_option("--args", e.args, "one spec per parameter, e.g. \"f32[3,4] i64[]\"")->required();
    cmd->add_option("-o,--output", e.out, "the file to write (.tgx, or .onnx with --format onnx)")->required();
    cmd->add_option("--format", e.format, "the file format: tgx (default) or onnx")->check(CLI::IsMember({"tgx", "onnx"}));
    cmd->add_flag("--drop-prints", e.drop_prints, "ONNX: leave the function's print calls out");
    cmd->add_option("--params", e.params,
                    "a checkpoint (.npz, as save writes a tree) for the function's first parameter, baked in as constants; "
                    "--args then gives the specs of the others");
    cmd->add_flag("--params-as-inputs", e.params_as_inputs,
                  "keep the --params tensors as inputs of the graph (named by their path, e.g. l1/w), not constants");
    return cmd;
}

// `tg kernel` and `tg kernel install`: their arguments, registered with the
// command line when made (docs/notebooks.md).
struct KernelArgs {
    std::string connection_file, prefix;
    bool user = false;
    CLI::App* cmd = nullptr;
    CLI::App* install = nullptr;

    KernelArgs(CLI::App& app, tg::Options& opts) {
        cmd = app.add_subcommand("kernel", "serve a Jupyter notebook (docs/notebooks.md)");
        cmd->add_option("-f,--connection-file", connection_file, "the connection file Jupyter gives");
        add_graph_flags(cmd, opts);
        install = cmd->add_subcommand("install", "register the tg kernel with Jupyter");
        auto* u = install->add_flag("--user", user, "in ~/.local/share/jupyter (default: /usr/local/share/jupyter)");
        install->add_option("--prefix", prefix, "in PREFIX/share/jupyter")->excludes(u);
    }
    KernelArgs(const KernelArgs&) = delete;  // CLI11 holds pointers into it
    KernelArgs& operator=(const KernelArgs&) = delete;
};

int kernel_command(const KernelArgs& k, const tg::Options& opts) {
    if (k.install->parsed()) return tg::kernel::install_kernelspec(k.user, k.prefix);
    if (k.connection_file.empty()) {
        std::cerr << k.cmd->help();
        return usage_error("kernel: -f CONNECTION_FILE is required (Jupyter starts `tg kernel -f FILE`)");
    }
    return tg::kernel::run_kernel_plugin(k.connection_file, opts);
}

// Parses `args` into `app`'s subcommands: nothing when tg goes on, else the
// exit status (0 after --help or --version, 2 for a usage error).
std::optional<int> parse_command_line(CLI::App& app, const std::vector<std::string>& args) {
    std::vector<std::string> rev(args.rbegin(), args.rend());
    try {
        app.parse(rev);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }
    return std::nullopt;
}

int tg_main(int argc, char** argv) {
    // A crash of tg itself is reported (the tg line running, its traceback,
    // "this is a bug in tg") after the output so far, not silent
    // (docs/embedding.md "Crashes"). Here, not in main: in sanitizer builds
    // this is the thread that runs the scripts (its alternate signal stack).
    tg::install_fault_handler();
    std::vector<std::string> after_file;
    std::vector<std::string> args = command_line(argc, argv, after_file);

    CLI::App app{"tg: a tensor scripting language", "tg"};
    app.footer("\n  tg FILE [ARGS...] is short for tg run FILE [ARGS...]; tg alone starts the REPL.");
    app.set_version_flag("--version", std::string("tg ") + TG_VERSION);
    app.require_subcommand(0, 1);

    tg::Options opts;
    if (!options_from_environment(opts)) return 2;
    // Imports go through the embedding API's module loader, as in any host.
    opts.load_module = tg::file_module_loader(opts.module_paths, opts.use_tg_path);
    std::string file;
    std::vector<std::string> script_args;
    auto* run_cmd = app.add_subcommand("run", "run a script");
    run_cmd->add_option("file", file, "the .tg script")->required();
    run_cmd->add_option("args", script_args, "arguments for the script (the list `argv`)");
    add_graph_flags(run_cmd, opts);
    add_debug_flags(run_cmd, opts);

    auto* debug_cmd = app.add_subcommand("debug", "run a script under the terminal debugger (docs/debugging.md)");
    debug_cmd->add_option("file", file, "the .tg script")->required();
    debug_cmd->add_option("args", script_args, "arguments for the script (the list `argv`)");
    add_graph_flags(debug_cmd, opts);
    add_debug_flags(debug_cmd, opts);

    std::string check_file;
    bool want_ast = false;
    auto* check_cmd = app.add_subcommand("check", "parse and resolve only; report every syntax error");
    check_cmd->add_option("file", check_file, "the .tg script")->required();
    check_cmd->add_flag("--ast", want_ast, "print the AST");

    auto* repl_cmd = app.add_subcommand("repl", "interactive session");
    add_graph_flags(repl_cmd, opts);
    add_debug_flags(repl_cmd, opts);

    ExportArgs ex;
    auto* export_cmd = add_export_command(app, ex);

    int dap_port = 0;
    auto* dap_cmd = app.add_subcommand("dap", "serve the Debug Adapter Protocol to an editor (stdin/stdout)");
    dap_cmd->add_option("--port", dap_port, "listen on 127.0.0.1:PORT for one client instead")
        ->check(CLI::Range(0, 65535));

    KernelArgs kernel(app, opts);
    auto* lsp_cmd = app.add_subcommand("lsp", "serve the Language Server Protocol to an editor (stdin/stdout)");
    // clients that start servers the npm way add --stdio (vscode-languageclient's
    // TransportKind.stdio, docs/editors.md): stdin/stdout is the only transport
    lsp_cmd->add_flag("--stdio")->description("talk over stdin/stdout (the default; accepted for clients that add it)");

    if (std::optional<int> status = parse_command_line(app, args)) return *status;
    if (run_cmd->parsed()) {
        script_args.insert(script_args.end(), after_file.begin(), after_file.end());
        return run(file, script_args, opts);
    }
    if (debug_cmd->parsed()) {
        script_args.insert(script_args.end(), after_file.begin(), after_file.end());
        opts.argv = script_args;
        return tg::cli::debug_script(file, opts);
    }
    if (check_cmd->parsed()) return check(check_file, want_ast);
    if (export_cmd->parsed()) return export_graph(ex, opts);
    if (repl_cmd->parsed()) return tg::cli::repl(opts);
    if (dap_cmd->parsed()) return tg::cli::dap(opts, dap_port);
    if (kernel.cmd->parsed()) return kernel_command(kernel, opts);
    if (lsp_cmd->parsed()) return tg::cli::lsp();
    std::cerr << app.help();
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef TG_SANITIZE_BUILD
    // Under ASan a tg call takes several times the native stack, and scripts
    // that recurse to the 1,000-frame limit would meet the stack guard first
    // (another message). Run on a thread with a 256 MiB stack instead; SIGINT
    // is blocked here so that it reaches that thread (the REPL's Ctrl-C).
    struct Job {
        int argc;
        char** argv;
        int status;
    } job{argc, argv, 2};
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t{256} << 20);
    pthread_t thread;
    auto body = [](void* p) -> void* {
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, SIGINT);
        pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
        auto* j = static_cast<Job*>(p);
        j->status = tg_main(j->argc, j->argv);
        return nullptr;
    };
    if (pthread_create(&thread, &attr, body, &job) == 0) {
        pthread_join(thread, nullptr);
        std::fflush(stdout);
        return job.status;
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
#endif
    return tg_main(argc, argv);
}
