#define _XOPEN_SOURCE 700
#include "CTextWidth.h"
#include <langinfo.h>
#include <locale.h>
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
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

// Whether a locale's name says UTF-8 ("en_US.UTF-8", "C.utf8"), whatever the case.
static int names_utf8(const char *name) {
    for (const char *at = name; *at; at++) {
        if (tolower((unsigned char)at[0]) == 'u' && tolower((unsigned char)at[1]) == 't' && tolower((unsigned char)at[2]) == 'f') {
            const char *digits = at[3] == '-' ? at + 4 : at + 3;
            if (digits[0] == '8' && !isdigit((unsigned char)digits[1])) return 1;
        }
    }
    return 0;
}

int idp_user_locale_is_utf8(void) {
    // The locale the user chose: the first of LC_ALL, LC_CTYPE and LANG that is set. Its name is asked first: a
    // static binary's newlocale loads C.UTF-8 but answers its codeset as ANSI_X3.4-1968 (glibc 2.36), and a
    // locale that is not installed here (LANG=en_US.UTF-8 in a container without it) still says what the
    // terminal was set up for.
    const char *variables[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (unsigned i = 0; i < sizeof variables / sizeof variables[0]; i++) {
        const char *value = getenv(variables[i]);
        if (value != NULL && value[0] != '\0') {
            if (names_utf8(value)) return 1;
            break;
        }
    }
    // A name without a codeset ("en_US", "de_DE@euro"): what the installed locale's codeset is. newlocale, not
    // setlocale: the process's own locale (C.UTF-8 for wcwidth) is left as it is, on any thread.
    locale_t user = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
    if (user == (locale_t)0) return 0;
    const char *codeset = nl_langinfo_l(CODESET, user);
    int utf8 = codeset != NULL && strcmp(codeset, "UTF-8") == 0;
    freelocale(user);
    return utf8;
}
