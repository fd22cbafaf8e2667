// PLplot draws the figures (docs/notebooks.md "Plots" says why PLplot): its svg
// driver for SVG, its cairo driver (pngcairo) for PNG.
#include "plot/figure.hpp"
#include "plot/frame.hpp"

#include "plot/plplot.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unistd.h>

namespace tg::plot {

const Plplot& plplot() {
    try {
        static const Plplot p;
        return p;
    } catch (const std::runtime_error& e) {
        throw PlotError(std::string("figures need PLplot: ") + e.what());
    }
}

namespace {

// PLplot keeps one current stream per process: every use of it takes this
// lock (the process's only PLplot state is PLplot's own).
std::mutex& plplot_lock() {
    static std::mutex m;
    return m;
}

// The bytes of a temporary file PLplot wrote, which is then removed.
std::string take_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    ::unlink(path.c_str());
    return bytes.str();
}

// One stream of PLplot's, made current while alive; the stream that was
// current before is current again after.
class Stream {
public:
    Stream(Format format, const std::string& file) {
        plplot().plgstrm(&previous_);
        plplot().plmkstrm(&stream_);
        plplot().plsdev(format == Format::Svg ? "svg" : "pngcairo");
        plplot().plsfnam(file.c_str());
        plplot().plspage(0, 0, 720, 480, 0, 0);
        plplot().plscolbg(255, 255, 255);
        plplot().plscol0(15, 0, 0, 0);  // black for the frame and the text
        plplot().plsetopt("verbose", "0");
        plplot().plinit();
    }
    ~Stream() {
        plplot().plend1();
        plplot().plsstrm(previous_);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

private:
    PLINT previous_ = 0, stream_ = 0;
};

}  // namespace

std::string render(const Figure& fig, Format format) {
    const Frame frame = frame_of(fig);  // checks the data before PLplot sees it
    char path[] = "/tmp/tg-plot-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd < 0) throw PlotError("cannot make a temporary file for the picture");
    ::close(fd);
    {
        std::lock_guard<std::mutex> lock(plplot_lock());
        Stream stream(format, path);
        draw(fig, frame);
    }
    return take_file(path);
}

}  // namespace tg::plot
