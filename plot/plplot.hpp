// PLplot, loaded by the first figure drawn (stdlib/shared_library.hpp):
// linked, it and the libraries it needs cost every tg process ~1 ms of
// start-up (docs/performance.md "Start-up").
#pragma once

#include <plplot/plplot.h>

#include "stdlib/shared_library.hpp"

namespace tg::plot {

// PLplot's functions tg calls (plplot.h names most of them as macros:
// `plinit` is `c_plinit`; the members get the real names, and calls spelled
// plplot().plinit(...) reach them).
struct Plplot {
    stdlib::SharedLibrary lib{"PLplot", {TG_PLPLOT_SONAME, TG_PLPLOT_PATH}};
    TG_LIBRARY_FUNCTION(pladv);
    TG_LIBRARY_FUNCTION(plbin);
    TG_LIBRARY_FUNCTION(plbox);
    TG_LIBRARY_FUNCTION(plcol0);
    TG_LIBRARY_FUNCTION(plend1);
    TG_LIBRARY_FUNCTION(plgstrm);
    TG_LIBRARY_FUNCTION(plimage);
    TG_LIBRARY_FUNCTION(plinit);
    TG_LIBRARY_FUNCTION(pllab);
    TG_LIBRARY_FUNCTION(pllegend);
    TG_LIBRARY_FUNCTION(plline);
    TG_LIBRARY_FUNCTION(plmkstrm);
    TG_LIBRARY_FUNCTION(plpoin);
    TG_LIBRARY_FUNCTION(plscmap1);
    TG_LIBRARY_FUNCTION(plscmap1n);
    TG_LIBRARY_FUNCTION(plscol0);
    TG_LIBRARY_FUNCTION(plscolbg);
    TG_LIBRARY_FUNCTION(plsdev);
    TG_LIBRARY_FUNCTION(plsetopt);
    TG_LIBRARY_FUNCTION(plsfnam);
    TG_LIBRARY_FUNCTION(plspage);
    TG_LIBRARY_FUNCTION(plsstrm);
    TG_LIBRARY_FUNCTION(plvpas);
    TG_LIBRARY_FUNCTION(plvpor);
    TG_LIBRARY_FUNCTION(plwidth);
    TG_LIBRARY_FUNCTION(plwind);
};

// Loads PLplot on first use; throws PlotError when it cannot.
const Plplot& plplot();

}  // namespace tg::plot
