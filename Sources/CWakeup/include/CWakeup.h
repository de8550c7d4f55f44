// The front end's wake-up descriptor: an epoll set that becomes readable when a byte is written to its pipe
// (at once) or when its timer fires (later), so that a front end polls one descriptor for both.
#ifndef IDP_CWAKEUP_H
#define IDP_CWAKEUP_H

typedef struct {
    int poll_fd;     // the epoll set: what the front end polls
    int pipe_read;
    int pipe_write;
    int timer_fd;
} idp_wakeup;

// Opens the descriptors. Returns 0, or the errno of the call that failed (nothing is left open).
int idp_wakeup_open(idp_wakeup *wakeup);
void idp_wakeup_close(idp_wakeup *wakeup);
// Makes the set readable now.
void idp_wakeup_signal(const idp_wakeup *wakeup);
// Makes the set readable after `nanoseconds` (one shot; a later call replaces it).
void idp_wakeup_arm(const idp_wakeup *wakeup, long nanoseconds);
// Cancels the timer.
void idp_wakeup_disarm(const idp_wakeup *wakeup);
// Empties the pipe and the timer's count, so that the set is not readable until the next signal or expiry.
void idp_wakeup_clear(const idp_wakeup *wakeup);
// Nanoseconds until the timer fires: 0 when it is not set.
long idp_wakeup_timer_remaining(const idp_wakeup *wakeup);

// Copies up to `length` bytes waiting in the pipe or socket `fd` into `buffer` without taking them out of it (a
// socket's MSG_PEEK; a pipe's tee(2) into a pipe of its own), so that whoever reads it next still gets them. Never
// blocks. Returns the count, 0 when nothing waits, -1 when `fd` is neither.
long idp_pipe_peek(int fd, char *buffer, unsigned long length);


// The main dispatch queue, run by a thread that has its own event loop (as CFRunLoop does): the main queue's
// descriptor joins the set, so that the set is also readable while work waits on the main queue, and
// idp_main_queue_run() runs that work. Only for the process's main thread, and only where nothing called
// dispatch_main(). Returns 0, or the errno of epoll_ctl.
int idp_wakeup_watch_main_queue(const idp_wakeup *wakeup);
// Runs what waits on the main dispatch queue (and the main actor), on the calling thread: the main thread.
void idp_main_queue_run(void);

#endif
