#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro over a cast function pointer, which Swift cannot import.
static inline sqlite3_destructor_type idp_sqlite_transient(void) { return SQLITE_TRANSIENT; }
