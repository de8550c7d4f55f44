#define _GNU_SOURCE
#include "CWakeup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

int idp_wakeup_open(idp_wakeup *wakeup) {
    int fds[2];
    wakeup->poll_fd = wakeup->pipe_read = wakeup->pipe_write = wakeup->timer_fd = -1;
    if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) return errno;
    wakeup->pipe_read = fds[0];
    wakeup->pipe_write = fds[1];
    wakeup->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    wakeup->poll_fd = epoll_create1(EPOLL_CLOEXEC);
    int failure = (wakeup->timer_fd < 0 || wakeup->poll_fd < 0) ? errno : 0;
    if (!failure) {
        struct epoll_event pipe_event = {.events = EPOLLIN, .data = {.fd = wakeup->pipe_read}};
        struct epoll_event timer_event = {.events = EPOLLIN, .data = {.fd = wakeup->timer_fd}};
        if (epoll_ctl(wakeup->poll_fd, EPOLL_CTL_ADD, wakeup->pipe_read, &pipe_event) != 0 ||
            epoll_ctl(wakeup->poll_fd, EPOLL_CTL_ADD, wakeup->timer_fd, &timer_event) != 0)
            failure = errno;
    }
    if (failure) {
        idp_wakeup_close(wakeup);
        return failure;
    }
    return 0;
}

void idp_wakeup_close(idp_wakeup *wakeup) {
    int *fds[] = {&wakeup->poll_fd, &wakeup->pipe_read, &wakeup->pipe_write, &wakeup->timer_fd};
    for (unsigned i = 0; i < sizeof fds / sizeof fds[0]; i++) {
        if (*fds[i] >= 0) close(*fds[i]);
        *fds[i] = -1;
    }
}

void idp_wakeup_signal(const idp_wakeup *wakeup) {
    const char byte = 1;
    // A full pipe is already readable: nothing is lost when this write fails with EAGAIN.
    (void)!write(wakeup->pipe_write, &byte, 1);
}

static void set_timer(const idp_wakeup *wakeup, long nanoseconds) {
    struct itimerspec spec = {
        .it_interval = {0, 0},
        .it_value = {.tv_sec = nanoseconds / 1000000000L, .tv_nsec = nanoseconds % 1000000000L},
    };
    timerfd_settime(wakeup->timer_fd, 0, &spec, NULL);
}

void idp_wakeup_arm(const idp_wakeup *wakeup, long nanoseconds) { set_timer(wakeup, nanoseconds > 0 ? nanoseconds : 1); }

void idp_wakeup_disarm(const idp_wakeup *wakeup) { set_timer(wakeup, 0); }

long idp_wakeup_timer_remaining(const idp_wakeup *wakeup) {
    struct itimerspec current;
    if (timerfd_gettime(wakeup->timer_fd, &current) != 0) return 0;
    return current.it_value.tv_sec * 1000000000L + current.it_value.tv_nsec;
}

void idp_wakeup_clear(const idp_wakeup *wakeup) {
    char buffer[64];
    while (read(wakeup->pipe_read, buffer, sizeof buffer) > 0) {}
    uint64_t expirations;
    (void)!read(wakeup->timer_fd, &expirations, sizeof expirations);
}

// libdispatch's hooks for a run loop that serves the main queue (exported on Linux for CoreFoundation).
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

int idp_wakeup_watch_main_queue(const idp_wakeup *wakeup) {
    int handle = _dispatch_get_main_queue_handle_4CF();
    struct epoll_event event = {.events = EPOLLIN, .data = {.fd = handle}};
    return epoll_ctl(wakeup->poll_fd, EPOLL_CTL_ADD, handle, &event) == 0 ? 0 : errno;
}

void idp_main_queue_run(void) {
    eventfd_t count;
    (void)eventfd_read(_dispatch_get_main_queue_handle_4CF(), &count);
    _dispatch_main_queue_callback_4CF(0);
}

long idp_pipe_peek(int fd, char *buffer, unsigned long length) {
    // A socket (Node's spawn gives its child socketpairs) is looked into as it is, MSG_PEEK taking nothing.
    ssize_t peeked = recv(fd, buffer, length, MSG_PEEK | MSG_DONTWAIT);
    if (peeked >= 0) return (long)peeked;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
    int scratch[2];
    if (pipe2(scratch, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
    long result = -1;
    ssize_t copied = tee(fd, scratch[1], length, SPLICE_F_NONBLOCK);
    if (copied > 0) {
        ssize_t got = read(scratch[0], buffer, (size_t)copied);
        result = got < 0 ? -1 : (long)got;
    } else if (copied == 0 || errno == EAGAIN) {
        result = 0;
    }
    close(scratch[0]);
    close(scratch[1]);
    return result;
}
