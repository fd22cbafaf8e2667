// The tg command (placeholder until the interpreter lands).
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
    CLI::App app{"tg: a tensor scripting language"};
    app.set_version_flag("--version", std::string("tg ") + TG_VERSION);
    CLI11_PARSE(app, argc, argv);
    return 0;
}
