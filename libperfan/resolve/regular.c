/* resolve/regular.c: a found file opened only when it is a regular file
 * (resolve/regular.h). */
#include "resolve/regular.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfan/common.h>

int perfan__open_regular(const char *path, uint64_t *size)
{
	/* O_NONBLOCK: a FIFO named like a binary must not hang us. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOMEM ? PERFAN_ENOMEM : PERFAN_ENOTFOUND;
	struct stat sb;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return PERFAN_EFORMAT;
	}
	*size = (uint64_t)sb.st_size;
	return fd;
}
