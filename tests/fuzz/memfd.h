/* tests/fuzz/memfd.h: a fuzz input as a file: a memfd holding its bytes,
 * at offset 0, opened the way a regular file would be. */
#ifndef PERFAN_FUZZ_MEMFD_H
#define PERFAN_FUZZ_MEMFD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* The descriptor (to close), or -1 when the machine cannot make one. */
static inline int fuzz_memfd(const char *name, const uint8_t *data, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	for (size_t off = 0; off < size;) {
		ssize_t n = write(fd, data + off, size - off);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

#endif
