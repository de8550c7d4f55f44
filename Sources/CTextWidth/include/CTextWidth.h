// The C library's idea of how many columns a character takes, under a UTF-8 locale: the same answer ncurses
// gets, so the in-memory screen and the terminal agree.
#ifndef IDP_TUI_CTEXTWIDTH_H
#define IDP_TUI_CTEXTWIDTH_H
#include <stdint.h>
int idp_wcwidth(uint32_t scalar);
// Whether the user's locale (LC_ALL, else LC_CTYPE, else LANG) has UTF-8 characters: 1 or 0. Asked without
// changing the process's locale.
int idp_user_locale_is_utf8(void);
#endif
