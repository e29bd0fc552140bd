/* sources/sqlite_fd.h: an SQLite database read from an open file
 * descriptor, read-only, never by its name. */
#ifndef PERFAN_SOURCES_SQLITE_FD_H
#define PERFAN_SOURCES_SQLITE_FD_H

#include <sqlite3.h>

/* The database in the regular file open on FD (FD stays the caller's, open
 * while the database is), read-only and immutable: no journal, no lock, no
 * other file looked for. *DB is set (to close with sqlite3_close) even on
 * an error; returns an SQLite result code. */
int perfan__sqlite_open_fd(int fd, sqlite3 **db);

#endif
