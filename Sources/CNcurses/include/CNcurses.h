// What Swift 6 cannot import from ncurses by itself: stdscr (a mutable global), the A_* attribute macros,
// COLOR_PAIR, wide-character I/O with attributes, and signal handling that restores the terminal.
#ifndef IDP_TUI_CNCURSES_H
#define IDP_TUI_CNCURSES_H

#include <stdint.h>
#include <wchar.h>

typedef struct {
    int status;      // OK, ERR
    int isKeyCode;   // 1: `value` is a KEY_* code; 0: a character
    uint32_t value;
} idp_key;

// Terminal set-up and tear-down. `escapeDelayMs` is ESCDELAY. Returns 0 on success.
int idp_curses_start(int mouse);
void idp_plain_begin(void);
/// The columns of the terminal on standard output (TIOCGWINSZ); 0 when it is not a terminal or does not say.
int idp_output_columns(void);
void idp_curses_stop(void);
int idp_curses_has_colors(void);
int idp_curses_colors(void);
void idp_curses_init_pair(short pair, short fg, short bg);
int idp_curses_lines(void);
int idp_curses_cols(void);

// Non-blocking read of one key or character (wget_wch on stdscr).
idp_key idp_curses_read(void);

// Key codes idp-tui needs that are plain numbers in ncurses but come through macros in Swift.
int idp_key_code(const char *name);
// The codes ncurses returns for the bracketed-paste start and end sequences (define_key).

// Attributes.
uint32_t idp_attr_bold(void);
uint32_t idp_attr_underline(void);
uint32_t idp_attr_reverse(void);
uint32_t idp_attr_dim(void);
uint32_t idp_attr_standout(void);
uint32_t idp_attr_italic(void);

// Drawing on stdscr.
void idp_curses_put(int y, int x, const wchar_t *text, int length, uint32_t attributes, short pair);
void idp_curses_move(int y, int x);
void idp_curses_cursor(int visible);
void idp_curses_refresh(void);
void idp_curses_clear(void);
void idp_curses_resize(void);

// Signals: SIGTERM, SIGHUP and SIGINT write their number to `fd` (a pipe the main loop polls); crash signals
// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) restore the terminal and then die as before.
void idp_signals_install(int fd);
// Stops forwarding signals to the descriptor given to idp_signals_install (before it is closed).
void idp_signals_detach(void);
// Suspends the process (Ctrl-Z in raw mode): leaves curses, stops, and re-enters curses on SIGCONT.
/// 1: resumed in the foreground, curses drawn again; 0: a signal that ends the session came while the job
/// was stopped in the background: curses is left, and nothing more may be drawn.
int idp_curses_suspend(void);
// After a SIGCONT from outside (a stop this process did not make): the terminal's modes taken back and everything
// drawn again, or, in the background, stopped as after Ctrl-Z until `fg`. 0: ended while stopped (as suspend).
int idp_curses_continued(void);

#endif
