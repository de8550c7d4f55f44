#include "CSignalFD.h"

#include <sys/signalfd.h>
#include <unistd.h>

int idp_signalfd_open(const sigset_t *mask) {
    return signalfd(-1, mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

int idp_signalfd_take(int fd) {
    struct signalfd_siginfo info;
    return read(fd, &info, sizeof info) == (ssize_t)sizeof info ? (int)info.ssi_signo : 0;
}
