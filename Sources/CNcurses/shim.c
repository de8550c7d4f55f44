#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include "CNcurses.h"

// A fresh machine without the ncurses headers: say which Debian package has them (the compiler said only
// "curses.h not found"); libssl-dev and libsqlite3-dev are named by their module maps' apt providers.
#if !__has_include(<curses.h>)
#error "curses.h not found: install Debian's libncurses-dev (apt-get install -y libncurses-dev), or run .ci/run, which installs what is missing"
#else
#include <curses.h>
#include <term.h>
#endif
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t curses_active = 0;
static struct termios saved_termios;
static int saved_termios_valid = 0;
static int signal_fd = -1;

// Bracketed paste on, and its start/end sequences as key codes.
static const char *PASTE_ON = "\033[?2004h";
static const char *PASTE_OFF = "\033[?2004l";
// Mouse reporting: clicks and the wheel (1000), in the SGR encoding (1006). Off again on every way out.
static const char *MOUSE_ON = "\033[?1000h\033[?1006h";
static const char *MOUSE_OFF = "\033[?1006l\033[?1000l";
static int mouse_wanted = 0;

static void write_all(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, text, length);
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void forward_signal(int signal_number);
static struct sigaction curses_winch;

// Runs the handler `previous` held (ncurses' own); false when it held none (the default action, or ignore).
static int call_previous(const struct sigaction *previous, int signal_number) {
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction == NULL) return 0;
        previous->sa_sigaction(signal_number, NULL, NULL);
        return 1;
    }
    if (previous->sa_handler == SIG_DFL || previous->sa_handler == SIG_IGN || previous->sa_handler == NULL) return 0;
    previous->sa_handler(signal_number);
    return 1;
}

// ncurses' own SIGWINCH handler notes the new size for its next getch; this one also wakes the main loop through
// the signal pipe. The kernel gives a process's signal to any thread that does not block it: when a service thread
// took it, the main thread's poll went on waiting, and the new size was drawn only at the next key.
static void winch_forward(int signal_number) {
    int saved = errno;
    call_previous(&curses_winch, signal_number);
    forward_signal(signal_number);
    errno = saved;
}

// A SIGTSTP from outside (`kill -TSTP`, a job-control tool; Ctrl-Z is read as a key): only noted, through the signal
// pipe, so that the main loop suspends as it does for Ctrl-Z (idp_curses_suspend: paste and mouse modes off, curses
// left, stopped until `fg`). ncurses' own handler left the paste and mouse modes on in the shell the job was
// stopped back to (a click there typed "\e[<0;…M"), and ran curses on whichever thread the signal reached.
static void tstp_forward(int signal_number) {
    int saved = errno;
    forward_signal(signal_number);
    errno = saved;
}

int idp_curses_start(int mouse) {
    mouse_wanted = mouse;
    // Only the character type matters to curses (UTF-8 in and out); loading every category costs start-up
    // time. A non-UTF-8 environment falls back to C.UTF-8 so that wide characters still work.
    setlocale(LC_CTYPE, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset == NULL || strcmp(codeset, "UTF-8") != 0) setlocale(LC_CTYPE, "C.UTF-8");
    if (tcgetattr(STDIN_FILENO, &saved_termios) == 0) saved_termios_valid = 1;
    // The terminal's own size (TIOCGWINSZ) wins over an exported LINES or COLUMNS: a stale COLUMNS=200 drew past
    // an 80-column window, and COLUMNS=100000 made newterm fail (reported as an unknown TERM). With use_tioctl(TRUE)
    // and use_env left TRUE, ncurses (man use_tioctl; _nc_get_screensize) overwrites each of LINES and COLUMNS
    // that is set, in this process's environment, with the size it got from the ioctl (from terminfo when the
    // ioctl fails), then reads them back, so an exported value never decides the size, not even as a fallback:
    // a terminal that reports no size (0x0) gets terminfo's lines and cols, then 24x80. It does the same on
    // every resize.
    use_tioctl(TRUE);
    // Inside tmux or screen with another terminal's TERM (TERM=xterm-256color, a common tmux.conf setting), the
    // VT100 line set breaks: xterm's sgr sends \e(0 before \e[0m, tmux resets the line set on that SGR 0, and the
    // borders read "qqqq". There the lines go as Unicode, as ncurses' NCURSES_NO_UTF8_ACS asks (3 bytes a cell).
    const char *term = getenv("TERM");
    int multiplexed = getenv("TMUX") != NULL || getenv("STY") != NULL;
    if (multiplexed && term != NULL && strncmp(term, "tmux", 4) != 0 && strncmp(term, "screen", 6) != 0)
        setenv("NCURSES_NO_UTF8_ACS", "1", 0);
    // newterm, not initscr: an unknown TERM then returns NULL instead of printing and exiting the process.
    if (newterm(NULL, stdout, stdin) == NULL) return -1;
    curses_active = 1;
    struct sigaction winch;
    memset(&winch, 0, sizeof winch);
    winch.sa_handler = winch_forward;
    sigemptyset(&winch.sa_mask);
    winch.sa_flags = SA_RESTART;
    sigaction(SIGWINCH, &winch, &curses_winch);
    struct sigaction tstp;
    memset(&tstp, 0, sizeof tstp);
    tstp.sa_handler = tstp_forward;
    sigemptyset(&tstp.sa_mask);
    tstp.sa_flags = SA_RESTART;
    sigaction(SIGTSTP, &tstp, NULL);
    raw();
    noecho();
    nonl();
    // No keypad translation: idp-tui decodes every escape sequence itself (KeyDecoder), so that one it does not
    // know is dropped whole instead of arriving as Esc and letters.
    keypad(stdscr, FALSE);
    nodelay(stdscr, TRUE);
    // ncurses 6.4 writes its buffer out at every cursor move until the screen has once been suspended and
    // resumed (its "initial" state, meant for low-level terminfo programs), so a frame left in dozens of
    // writes. One suspend and resume now, before anything is drawn, makes every frame one write.
    // The cursor is hidden before the suspend, so that the resume hides it again in its own write, and the
    // paste and mouse modes go into curses' buffer (putp) rather than out in writes of their own: what the
    // terminal gets before the first frame is one burst, not five writes and then a sixth for the cursor.
    curs_set(0);
    endwin();
    putp(PASTE_ON);
    if (mouse_wanted) putp(MOUSE_ON);
    refresh();
    // Colours after the resume: with them on, the resume sent the terminal's orig_colors (xterm's OSC 104), which
    // resets a palette the user set (pywal, base16-shell) for good; it undoes init_color, which idp-tui never calls.
    // (A resume after Ctrl-Z still sends it: ncurses does so whenever colours are on.)
    if (has_colors()) {
        start_color();
        use_default_colors();
    }
    fflush(stdout);
    return 0;
}

static void blank_main_screen(void);

void idp_curses_stop(void) {
    if (!curses_active) return;
    curses_active = 0;
    // Curses' own SIGWINCH handler back: the signal pipe closes with the session, and its number may then be
    // another file's (the state file's), which a late resize would write into. SIGTSTP's default: curses is over.
    sigaction(SIGWINCH, &curses_winch, NULL);
    signal(SIGTSTP, SIG_DFL);
    // A terminal without an alternate screen (the Linux console, vt100) would keep the last frame, and the shell's
    // next lines would be written over it: clear it first.
    // Line by line (EL), not with the clear that curses would send for a blank screen: tmux keeps a cleared
    // screen in its scrollback (scroll-on-clear), and with it the last frame, a card number typed included.
    blank_main_screen();
    curs_set(1);
    write_all(PASTE_OFF);
    if (mouse_wanted) write_all(MOUSE_OFF);
    endwin();
    write_all("\033[?25h");
}

int idp_curses_has_colors(void) { return has_colors() ? 1 : 0; }
int idp_curses_colors(void) { return COLORS; }
void idp_curses_init_pair(short pair, short fg, short bg) { init_pair(pair, fg, bg); }
int idp_curses_lines(void) { return LINES; }
int idp_curses_cols(void) { return COLS; }

// Horizontal lines as curses' (narrow) line-drawing character: ncurses then sends the terminal's 1-byte
// VT100 line set where the terminal has one, and the Unicode ─ where it has not (the Linux console,
// screen; NCURSES_NO_UTF8_ACS=1 forces Unicode). A run of them costs 1 byte a cell plus 6 for the switch,
// against 3 a cell in UTF-8; a lone corner or vertical bar is cheaper as UTF-8, so those stay Unicode.
// (The wide WACS_ characters would always be Unicode in a UTF-8 locale.)
static chtype line_drawing(wchar_t character) {
    return character == 0x2500 ? ACS_HLINE : 0;
}

void idp_curses_put(int y, int x, const wchar_t *text, int length, uint32_t attributes, short pair) {
    attr_set((attr_t)attributes, pair, NULL);
    move(y, x);
    int start = 0;
    for (int i = 0; i < length; i++) {
        chtype line = line_drawing(text[i]);
        if (line == 0) continue;
        if (i > start) addnwstr(text + start, i - start);
        addch(line);
        start = i + 1;
    }
    if (length > start) addnwstr(text + start, length - start);
}

void idp_curses_move(int y, int x) { move(y, x); }
void idp_curses_cursor(int visible) { curs_set(visible ? 1 : 0); }
void idp_curses_refresh(void) { refresh(); }
// Whether the terminal has no alternate screen (vt100, the Linux console): what curses draws is on the main one.
static int without_alternate_screen(void) {
    const char *alternate = tigetstr("smcup");
    return alternate == NULL || alternate == (char *)-1;
}

// The whole screen drawn again at the next refresh. Without an alternate screen, line by line rather than after a
// clear: tmux keeps a cleared screen in its scrollback (scroll-on-clear), a card number shown whole included.
static void repaint_all(void) {
    if (without_alternate_screen()) redrawwin(stdscr);
    else clearok(stdscr, TRUE);
}

// Blanks the main screen line by line (EL), for the same reason, before curses leaves it (exit, Ctrl-Z).
static void blank_main_screen(void) {
    if (!without_alternate_screen()) return;
    write_all("\033[0m");
    char line[32];
    for (int row = 1; row <= LINES; row++) {
        snprintf(line, sizeof line, "\033[%d;1H\033[2K", row);
        write_all(line);
    }
    write_all("\033[1;1H");
}

void idp_curses_clear(void) { repaint_all(); }
void idp_curses_resize(void) {
    // After a SIGWINCH ncurses already knows the new size (KEY_RESIZE); this only makes the next refresh
    // repaint everything.
    repaint_all();
}

// A signal that ends the session came (not a resize nor a stop): the loop that keeps a job resumed in the
// background stopped (idp_curses_suspend) leaves it for the main loop to read from the pipe.
// Atomic: set by a handler on whichever thread the signal reaches, read by the main thread as it suspends.
static _Atomic int ending_signal = 0;

static void forward_signal(int signal_number) {
    // The interrupted code's errno is left as it was (write may set it).
    int saved = errno;
    if (signal_number != SIGWINCH && signal_number != SIGTSTP && signal_number != SIGCONT) ending_signal = 1;
    if (signal_fd >= 0) {
        unsigned char byte = (unsigned char)signal_number;
        ssize_t ignored = write(signal_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

static struct sigaction previous_actions[NSIG];

// Runs on a crash: put the terminal back (async-signal-safe calls only), then hand the signal to whoever
// handled it before (the Swift runtime's backtracer, or the default action), so the crash is still reported.
static volatile sig_atomic_t plain_active = 0;

int idp_output_columns(void) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

void idp_plain_begin(void) {
    // The plain front end turns echo off for secrets: a crash must give it back as well.
    if (tcgetattr(STDIN_FILENO, &saved_termios) == 0) saved_termios_valid = 1;
    plain_active = 1;
}

static void restore_and_die(int signal_number) {
    if (plain_active && saved_termios_valid) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    if (curses_active) {
        curses_active = 0;
        write_all("\033[?2004l\033[?1006l\033[?1000l\033[0m\033[?25h\033[?1049l\r\n");
        if (saved_termios_valid) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    }
    sigaction(signal_number, &previous_actions[signal_number], NULL);
    raise(signal_number);
}

void idp_signals_detach(void) { signal_fd = -1; }

void idp_signals_install(int fd) {
    signal_fd = fd;
    // A parent may hand us a blocked signal mask (threads of test runners and supervisors often block
    // everything); the UI depends on these arriving.
    sigset_t wanted;
    sigemptyset(&wanted);
    int needed[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT};
    for (unsigned i = 0; i < sizeof needed / sizeof needed[0]; i++) {
        sigaddset(&wanted, needed[i]);
        signal(needed[i], SIG_DFL);
    }
    pthread_sigmask(SIG_UNBLOCK, &wanted, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGQUIT, &action, NULL);
    // Continued after a stop this process did not make (kill -STOP, a debugger attaching): the terminal was the
    // shell's meanwhile, which set its own modes back; the main loop takes it back (idp_curses_continued). After
    // Ctrl-Z the loop hears it too, harmlessly. (It was not heard: after `fg` keys echoed and waited for Enter.)
    sigaction(SIGCONT, &action, NULL);
    // The other signals whose default ends the process end it as SIGTERM does: the terminal given back, the flow
    // recorded as cancelled, exit 128 + N (kill -USR1 left the alternate screen and mouse reporting on, and the
    // flow out of the history). One a parent ignores stays ignored.
    // Only one at its default: a handler already there (a profiler's SIGPROF or SIGALRM) keeps it. (SIGXFSZ is
    // ignored by main, so that a write past the file-size limit fails as a write error.)
    int ending[] = {SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO};
    for (unsigned i = 0; i < sizeof ending / sizeof ending[0]; i++) {
        struct sigaction inherited;
        if (sigaction(ending[i], NULL, &inherited) != 0 || (inherited.sa_flags & SA_SIGINFO) || inherited.sa_handler != SIG_DFL) continue;
        sigaction(ending[i], &action, NULL);
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, ending[i]);
        pthread_sigmask(SIG_UNBLOCK, &one, NULL);
    }
    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    crash.sa_handler = restore_and_die;
    sigemptyset(&crash.sa_mask);
    int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (unsigned i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        sigaction(fatal[i], &crash, &previous_actions[fatal[i]]);
    }
}

// Whether a signal that ends the session waits, not yet handled (a handler on another thread will write it to the
// pipe, which the main loop reads).
static int ending_pending(void) {
    sigset_t pending;
    if (sigpending(&pending) != 0) return 0;
    return sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGHUP) == 1 || sigismember(&pending, SIGINT) == 1
        || sigismember(&pending, SIGQUIT) == 1;
}

// Stops the job (SIGTSTP's default action, so that the shell reports it stopped) until `fg` makes this process
// group the terminal's; `stop_first`: at once, before looking (Ctrl-Z in the foreground), else only while in the
// background. Resumed in the background (`bg`), the terminal is not ours to draw on, nor to turn the paste and mouse
// modes on in (they were, in the shell's foreground, before a tty write stopped the job): stopped again.
// Not for ever: the kernel drops a stop sent to an orphaned process group (its shell gone), and kill returns at
// once; nor past a signal that ends the session (a SIGTERM, the SIGHUP an orphaned group gets), which the main loop
// then reads. 0 when such a signal came while the terminal is the shell's: curses is left for good (below).
static int stop_until_foreground(int stop_first) {
    struct sigaction ours;
    sigaction(SIGTSTP, NULL, &ours);
    signal(SIGTSTP, SIG_DFL);
    sigset_t tstp;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &tstp, NULL);
    for (int tries = 0; tries < 20 && !ending_signal; tries++) {
        pid_t foreground = tcgetpgrp(STDIN_FILENO);
        if (!stop_first || tries > 0) {
            if (foreground <= 0 || foreground == getpgrp()) break;
            // `kill %1` sends SIGTERM, then SIGCONT: the SIGTERM's handler may run on another thread a moment after
            // this one wakes. One still pending, or given that moment, is heard before the job is stopped again.
            if (ending_pending()) break;
            if (tries > 0) usleep(5000);
        }
        kill(0, SIGTSTP);
    }
    sigaction(SIGTSTP, &ours, NULL);
    // Ended while stopped in the background (`kill %1` sends SIGTERM, then SIGCONT): the terminal is the shell's.
    // Curses stays left and its modes off (they were turned back on in the shell, and a tty write stopped the job
    // again: "Stopped (tty output)", the SIGTERM unheard until `fg`); the end path writes nothing more to the
    // terminal, and a background write or tcsetattr (the closing line on standard error) no longer stops the job.
    if ((ending_signal || ending_pending()) && tcgetpgrp(STDIN_FILENO) != getpgrp()) {
        curses_active = 0;
        sigaction(SIGWINCH, &curses_winch, NULL);
        signal(SIGTSTP, SIG_DFL);
        signal(SIGTTOU, SIG_IGN);
        signal(SIGTTIN, SIG_IGN);
        return 0;
    }
    return 1;
}

int idp_curses_suspend(void) {
    write_all(PASTE_OFF);
    if (mouse_wanted) write_all(MOUSE_OFF);
    blank_main_screen();
    endwin();
    if (!stop_until_foreground(1)) return 0;
    // Back after SIGCONT (`fg`): curses state is intact; repaint everything.
    write_all(PASTE_ON);
    if (mouse_wanted) write_all(MOUSE_ON);
    refresh();
    repaint_all();
    return 1;
}

// A terminfo string capability written out, if the terminal has it.
static void write_capability(const char *name) {
    char *value = tigetstr(name);
    if (value != NULL && value != (char *)-1) write_all(value);
}

int idp_curses_continued(void) {
    pid_t foreground = tcgetpgrp(STDIN_FILENO);
    if (foreground > 0 && foreground != getpgrp()) {
        // In the background (`kill -CONT` while the shell keeps the terminal): our modes off in the shell's terminal
        // (a write is allowed in the background; a tcsetattr, as endwin makes, stops the job, and `fg` then found
        // it stopping again), then stopped until `fg`, as the shell expects of a job it reported stopped.
        write_all(PASTE_OFF);
        if (mouse_wanted) write_all(MOUSE_OFF);
        // The cursor shown and the keypad's mode left, as endwin leaves them (the shell's cursor stayed hidden).
        write_capability("cnorm");
        write_capability("rmkx");
        write_capability("rmcup");
        if (!stop_until_foreground(0)) return 0;
        write_capability("smcup");
        write_capability("smkx");
        // Curses' cursor as it was (it did not see it shown): set the other way, then back, so that it is sent.
        int was = curs_set(1);
        if (was != ERR) curs_set(was);
    }
    // In the foreground: the terminal's modes are ours again (no echo, no line editing), and everything is drawn.
    reset_prog_mode();
    write_all(PASTE_ON);
    if (mouse_wanted) write_all(MOUSE_ON);
    refresh();
    repaint_all();
    return 1;
}
