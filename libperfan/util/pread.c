/* util/pread.c: N bytes of a file at an offset (util/pread.h). */
#include "util/pread.h"

#include <errno.h>
#include <unistd.h>

ssize_t perfan__pread_full(int fd, void *dst, size_t n, uint64_t off)
{
	char *d = dst;
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, d + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}
