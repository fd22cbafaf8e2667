// save/load of .tgx graphs go through the embedding's file checks
// (allow_files, file_root), like every file builtin.
#include <doctest/doctest.h>

#include <tg/tg.hpp>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

std::string error_of(tg::Interpreter& in, const std::string& code) {
    try {
        in.run_source(code);
    } catch (const tg::Error& e) {
        return e.message();
    }
    return "";
}

}  // namespace

TEST_CASE("tgx files: save and load stay inside file_root") {
    char tmpl[] = "/tmp/tg-tgx-XXXXXX";
    const fs::path base = mkdtemp(tmpl);
    fs::create_directories(base / "root");
    tg::Options o;
    o.file_root = (base / "root").string();
    tg::Interpreter in(o);
    in.run_source("g = concrete(lambda x: x * 3, spec((2,)))\nsave('m.tgx', g)\nh = load('m.tgx')\ny = h(tensor([1.0, 2.0]))\n");
    CHECK(fs::exists(base / "root" / "m.tgx"));
    CHECK(in.get("y").str() == "[3.0, 6.0]");
    CHECK(error_of(in, "save('../out.tgx', g)").find("outside the file root") != std::string::npos);
    CHECK(error_of(in, "load('" + (base / "x.tgx").string() + "')").find("outside the file root") != std::string::npos);
    CHECK(!fs::exists(base / "out.tgx"));
    fs::remove_all(base);
}

TEST_CASE("tgx files: allow_files = false refuses save and load") {
    tg::Options o;
    o.allow_files = false;
    tg::Interpreter in(o);
    in.run_source("g = concrete(lambda x: x, spec(()))\n");
    CHECK(error_of(in, "save('m.tgx', g)").find("files are disabled") != std::string::npos);
    CHECK(error_of(in, "load('m.tgx')").find("files are disabled") != std::string::npos);
}
