/* sources/sqlite_fd.c: a read-only SQLite VFS over a file descriptor
 * already open, so that a database spooled from a stream into an unlinked
 * temporary file (which has no name to open, and leaves nothing behind
 * when a signal ends the process) reads as a named file would. */
#include "sources/sqlite_fd.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/pread.h"

struct fd_file {
	sqlite3_file base;
	int fd;
};

static int fd_close(sqlite3_file *f)
{
	(void)f; /* the descriptor is the caller's */
	return SQLITE_OK;
}

static int fd_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off)
{
	struct fd_file *ff = (struct fd_file *)f;
	char *p = buf;
	size_t want = amt > 0 ? (size_t)amt : 0;
	ssize_t n = perfan__pread_full(ff->fd, p, want, (uint64_t)off);
	if (n < 0)
		return SQLITE_IOERR_READ;
	size_t got = (size_t)n;
	if (got < want) {
		memset(p + got, 0, want - got); /* as SQLite asks */
		return SQLITE_IOERR_SHORT_READ;
	}
	return SQLITE_OK;
}

static int fd_write(sqlite3_file *f, const void *buf, int amt,
		    sqlite3_int64 off)
{
	(void)f, (void)buf, (void)amt, (void)off;
	return SQLITE_READONLY;
}

static int fd_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	(void)f, (void)size;
	return SQLITE_READONLY;
}

static int fd_sync(sqlite3_file *f, int flags)
{
	(void)f, (void)flags;
	return SQLITE_OK;
}

static int fd_size(sqlite3_file *f, sqlite3_int64 *size)
{
	struct stat sb;
	if (fstat(((struct fd_file *)f)->fd, &sb))
		return SQLITE_IOERR_FSTAT;
	*size = (sqlite3_int64)sb.st_size;
	return SQLITE_OK;
}

static int fd_lock(sqlite3_file *f, int level)
{
	(void)f, (void)level; /* immutable: nobody writes it */
	return SQLITE_OK;
}

static int fd_reserved(sqlite3_file *f, int *out)
{
	(void)f;
	*out = 0;
	return SQLITE_OK;
}

static int fd_control(sqlite3_file *f, int op, void *arg)
{
	(void)f, (void)op, (void)arg;
	return SQLITE_NOTFOUND;
}

static int fd_sector(sqlite3_file *f)
{
	(void)f;
	return 4096;
}

static int fd_device(sqlite3_file *f)
{
	(void)f;
	return SQLITE_IOCAP_IMMUTABLE;
}

static const sqlite3_io_methods fd_methods = {
	.iVersion = 1,
	.xClose = fd_close,
	.xRead = fd_read,
	.xWrite = fd_write,
	.xTruncate = fd_truncate,
	.xSync = fd_sync,
	.xFileSize = fd_size,
	.xLock = fd_lock,
	.xUnlock = fd_lock,
	.xCheckReservedLock = fd_reserved,
	.xFileControl = fd_control,
	.xSectorSize = fd_sector,
	.xDeviceCharacteristics = fd_device,
};

/* The database's name is "fd:N"; anything else SQLite would open (a
 * journal, a WAL) does not exist. */
static int vfs_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f,
		    int flags, int *out_flags)
{
	(void)vfs;
	struct fd_file *ff = (struct fd_file *)f;
	ff->base.pMethods = NULL;
	char *end;
	long fd;
	if (!(flags & SQLITE_OPEN_MAIN_DB) || !name ||
	    strncmp(name, "fd:", 3) || (fd = strtol(name + 3, &end, 10)) < 0 ||
	    *end || fd > 1 << 30)
		return SQLITE_CANTOPEN;
	ff->fd = (int)fd;
	ff->base.pMethods = &fd_methods;
	if (out_flags)
		*out_flags = SQLITE_OPEN_READONLY;
	return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *vfs, const char *name, int sync)
{
	(void)vfs, (void)name, (void)sync;
	return SQLITE_OK;
}

static int vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	(void)vfs, (void)name, (void)flags;
	*out = 0;
	return SQLITE_OK;
}

static int vfs_full(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	(void)vfs;
	if ((int)strlen(name) >= n)
		return SQLITE_CANTOPEN;
	strcpy(out, name);
	return SQLITE_OK;
}

static sqlite3_vfs fd_vfs;
static int fd_vfs_rc = SQLITE_ERROR;

/* Time, randomness and sleep are the default VFS's. */
static void vfs_register(void)
{
	sqlite3_vfs *def = sqlite3_vfs_find(NULL);
	if (!def)
		return;
	fd_vfs.iVersion = 1;
	fd_vfs.szOsFile = sizeof(struct fd_file);
	fd_vfs.mxPathname = 64;
	fd_vfs.zName = "perfan-fd";
	fd_vfs.pAppData = def;
	fd_vfs.xOpen = vfs_open;
	fd_vfs.xDelete = vfs_delete;
	fd_vfs.xAccess = vfs_access;
	fd_vfs.xFullPathname = vfs_full;
	fd_vfs.xDlOpen = def->xDlOpen;
	fd_vfs.xDlError = def->xDlError;
	fd_vfs.xDlSym = def->xDlSym;
	fd_vfs.xDlClose = def->xDlClose;
	fd_vfs.xRandomness = def->xRandomness;
	fd_vfs.xSleep = def->xSleep;
	fd_vfs.xCurrentTime = def->xCurrentTime;
	fd_vfs.xGetLastError = def->xGetLastError;
	fd_vfs_rc = sqlite3_vfs_register(&fd_vfs, 0);
}

int perfan__sqlite_open_fd(int fd, sqlite3 **db)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	*db = NULL;
	int rc = sqlite3_initialize();
	if (rc != SQLITE_OK)
		return rc;
	pthread_once(&once, vfs_register);
	if (fd_vfs_rc != SQLITE_OK)
		return fd_vfs_rc;
	char name[32];
	snprintf(name, sizeof(name), "fd:%d", fd);
	rc = sqlite3_open_v2(name, db, SQLITE_OPEN_READONLY, "perfan-fd");
	if (rc == SQLITE_OK) {
		/* a damaged or hostile schema runs nothing of its own */
		sqlite3_db_config(*db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
		sqlite3_db_config(*db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	}
	return rc;
}
