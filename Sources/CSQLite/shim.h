#include <sqlite3.h>
/* SQLITE_TRANSIENT is a macro with a cast, which Swift does not import. */
static inline sqlite3_destructor_type csqlite_transient(void) { return (sqlite3_destructor_type)-1; }
