#define _XOPEN_SOURCE 700
#include "CTextWidth.h"
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <string.h>
#include <wchar.h>

static pthread_once_t locale_once = PTHREAD_ONCE_INIT;

// wcwidth answers -1 for every non-ASCII character under the C locale: make sure the character type is UTF-8,
// once, before any thread asks.
static void ensure_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    if (codeset == NULL || strcmp(codeset, "UTF-8") != 0) setlocale(LC_CTYPE, "C.UTF-8");
}

int idp_wcwidth(uint32_t scalar) {
    pthread_once(&locale_once, ensure_utf8);
    return wcwidth((wchar_t)scalar);
}
