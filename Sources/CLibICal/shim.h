#ifndef HORARI_CLIBICAL_SHIM_H
#define HORARI_CLIBICAL_SHIM_H
// The one C entry point into libical for Swift. Macros that Swift cannot
// import are wrapped here as inline functions.
#include <libical/ical.h>

/// `icalerrno` is a macro over a per-thread accessor; Swift cannot import it.
static inline icalerrorenum horari_icalerrno(void) { return icalerrno; }
static inline void horari_icalerror_clear(void) { icalerror_clear_errno(); }
#endif
