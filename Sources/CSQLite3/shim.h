#ifndef CSQLITE3_SHIM_H
#define CSQLITE3_SHIM_H

// SQLite from Debian's libsqlite3-dev, for the PhotoLibrary module only. SQLITE_TRANSIENT is a cast
// macro Swift cannot import, so the bind call that needs it is wrapped here.

#include <sqlite3.h>

/// Binds `length` bytes of UTF-8 text that SQLite copies before returning (SQLITE_TRANSIENT).
static inline int csqlite3_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

#endif
