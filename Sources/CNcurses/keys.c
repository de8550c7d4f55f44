#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include "CNcurses.h"

// Keys and attributes as curses numbers them, apart from the session's state in shim.c.
#if __has_include(<curses.h>)
#include <curses.h>
#endif
#include <string.h>

idp_key idp_curses_read(void) {
    wint_t value = 0;
    int status = wget_wch(stdscr, &value);
    idp_key key;
    key.status = status == ERR ? ERR : OK;
    key.isKeyCode = status == KEY_CODE_YES;
    key.value = (uint32_t)value;
    return key;
}

int idp_key_code(const char *name) {
    if (strcmp(name, "up") == 0) return KEY_UP;
    if (strcmp(name, "down") == 0) return KEY_DOWN;
    if (strcmp(name, "left") == 0) return KEY_LEFT;
    if (strcmp(name, "right") == 0) return KEY_RIGHT;
    if (strcmp(name, "home") == 0) return KEY_HOME;
    if (strcmp(name, "end") == 0) return KEY_END;
    if (strcmp(name, "backspace") == 0) return KEY_BACKSPACE;
    if (strcmp(name, "delete") == 0) return KEY_DC;
    if (strcmp(name, "backtab") == 0) return KEY_BTAB;
    if (strcmp(name, "enter") == 0) return KEY_ENTER;
    if (strcmp(name, "resize") == 0) return KEY_RESIZE;
    if (strcmp(name, "pageup") == 0) return KEY_PPAGE;
    if (strcmp(name, "pagedown") == 0) return KEY_NPAGE;
    if (strcmp(name, "f1") == 0) return KEY_F(1);
    if (strcmp(name, "f2") == 0) return KEY_F(2);
    if (strcmp(name, "f3") == 0) return KEY_F(3);
    return -1;
}


uint32_t idp_attr_bold(void) { return (uint32_t)A_BOLD; }
uint32_t idp_attr_underline(void) { return (uint32_t)A_UNDERLINE; }
uint32_t idp_attr_reverse(void) { return (uint32_t)A_REVERSE; }
uint32_t idp_attr_dim(void) { return (uint32_t)A_DIM; }
uint32_t idp_attr_standout(void) { return (uint32_t)A_STANDOUT; }
uint32_t idp_attr_italic(void) { return (uint32_t)A_ITALIC; }
