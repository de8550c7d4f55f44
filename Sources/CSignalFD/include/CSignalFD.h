// Signals taken through a descriptor (signalfd(2)), which Glibc's Swift module does not export: a signal sent stays
// pending, undelivered, until a read of the descriptor takes it, so that whoever reads it also knows it took it.
#ifndef IDP_CSIGNALFD_H
#define IDP_CSIGNALFD_H

#include <signal.h>

// A descriptor that is readable while one of `mask`'s signals is pending (non-blocking, closed on exec); -1, with
// errno set, when it cannot be made. The signals must be blocked in every thread, or they are delivered instead.
int idp_signalfd_open(const sigset_t *mask);
// Takes one pending signal of the descriptor's set: its number, or 0 when none is pending.
int idp_signalfd_take(int fd);

#endif
