// The tg command (SPEC §7): a thin client of the public API <tg/tg.hpp>.
//   tg FILE [ARGS...]            same as `tg run FILE [ARGS...]`
//   tg run FILE [--eager] [--trace] [--no-jit] [--verify] [--dump-graphs DIR] [ARGS...]
//   tg check FILE [--ast]
//   tg repl                      (also: `tg` with no arguments)
// Exit status: 0 ok, 1 the script failed, 2 a usage error.
#include <tg/tg.hpp>

#include "interp/tool_api.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#include "cli/repl.hpp"

namespace {

void write_stdout(std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// Errors go to stderr after everything printed so far (SPEC §2.2).
void report(const tg::Error& e) {
    std::fflush(stdout);
    std::fputs(e.rendered().c_str(), stderr);
    std::fflush(stderr);
}

int run(const std::string& file, const std::vector<std::string>& args, tg::Options opts) {
    opts.write_output = write_stdout;
    opts.write_log = [](std::string_view s) {
        std::fflush(stdout);
        std::fwrite(s.data(), 1, s.size(), stderr);
    };
    opts.argv = args;
    std::string text;
    try {
        text = tg::read_file(file);
    } catch (const tg::Error& e) {
        std::fprintf(stderr, "tg: %s\n", e.message().c_str());
        return 2;
    }
    try {
        tg::Interpreter interp(opts);
        interp.run_file(file);
    } catch (const tg::Error& e) {
        report(e);
        return 1;
    }
    std::fflush(stdout);
    return 0;
}

int check(const std::string& file, bool ast) {
    std::string text;
    try {
        text = tg::read_file(file);
    } catch (const tg::Error& e) {
        std::fprintf(stderr, "tg: %s\n", e.message().c_str());
        return 2;
    }
    tg::CheckResult r = tg::check_source(text, file, ast);
    if (ast) write_stdout(r.ast);
    std::fflush(stdout);
    std::fputs(r.report.c_str(), stderr);
    return r.errors ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    // `tg FILE ...` is `tg run FILE ...`
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) args.push_back("repl");
    if (args[0] != "run" && args[0] != "check" && args[0] != "repl" && !args[0].empty() && args[0][0] != '-')
        args.insert(args.begin(), "run");

    CLI::App app{"tg: a tensor scripting language", "tg"};
    app.footer("\n  tg FILE [ARGS...] is short for tg run FILE [ARGS...]; tg alone starts the REPL.");
    app.set_version_flag("--version", std::string("tg ") + TG_VERSION);
    app.require_subcommand(0, 1);

    tg::Options opts;
    // Imports go through the embedding API's module loader, as in any host.
    opts.load_module = tg::file_module_loader(opts.module_paths, opts.use_tg_path);
    std::string file;
    std::vector<std::string> script_args;
    auto* run_cmd = app.add_subcommand("run", "run a script");
    run_cmd->add_option("file", file, "the .tg script")->required();
    run_cmd->add_option("args", script_args, "arguments for the script (the list `argv`)");
    // The graph switches of SPEC §5.4, shared by `run` and `repl`.
    auto graph_flags = [&opts](CLI::App* cmd) {
        cmd->add_flag("--eager", opts.eager, "run @graph functions eagerly");
        cmd->add_flag("--trace", opts.trace, "log every trace and retrace");
        cmd->add_flag("--no-jit", opts.no_jit, "run graphs with the reference graph interpreter");
        cmd->add_flag("--no-cache", opts.no_cache, "do not use the persistent cache of compiled code");
        cmd->add_flag("--sync-jit", opts.sync_jit,
                      "compile every graph before its first call (default: small graphs start on the graph "
                      "interpreter while they compile in the background)");
        cmd->add_flag("--verify", opts.verify, "run every @graph call both ways and compare");
        cmd->add_option("--dump-graphs", opts.dump_graphs_dir, "write every traced graph into DIR");
    };
    graph_flags(run_cmd);

    std::string check_file;
    bool want_ast = false;
    auto* check_cmd = app.add_subcommand("check", "parse and resolve only; report every syntax error");
    check_cmd->add_option("file", check_file, "the .tg script")->required();
    check_cmd->add_flag("--ast", want_ast, "print the AST");

    auto* repl_cmd = app.add_subcommand("repl", "interactive session");
    graph_flags(repl_cmd);

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
    if (run_cmd->parsed()) return run(file, script_args, opts);
    if (check_cmd->parsed()) return check(check_file, want_ast);
    if (repl_cmd->parsed()) return tg::cli::repl(opts);
    std::cerr << app.help();
    return 2;
}
