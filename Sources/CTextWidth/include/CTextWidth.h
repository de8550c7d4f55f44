// The C library's idea of how many columns a character takes, under a UTF-8 locale: the same answer ncurses
// gets, so the in-memory screen and the terminal agree.
#ifndef IDP_TUI_CTEXTWIDTH_H
#define IDP_TUI_CTEXTWIDTH_H
#include <stdint.h>
int idp_wcwidth(uint32_t scalar);
#endif
