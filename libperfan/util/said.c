/* util/said.c: the messages each sink was told, as hashes of the sink, its
 * payload and the message: a warning given for every input of a command,
 * or by every reading of one input, reaches the sink once. */
#include "util/said.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "util/hash.h"

#define SLOTS 4096 /* warnings a process gives are few */

static uint64_t said[SLOTS];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

int perfan__said(const void *sink, size_t len, const void *payload,
		 const char *key)
{
	uint64_t h = perfan__hash_mem(sink, len);
	h = perfan__hash_u64(h ^ (uint64_t)(uintptr_t)payload);
	h = perfan__hash_u64(h ^ perfan__hash_mem(key, strlen(key)));
	h |= 1; /* 0 is an empty slot */
	int seen = 0;
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < SLOTS; i++) {
		uint64_t *s = &said[(h + i) & (SLOTS - 1)];
		if (*s == h) {
			seen = 1;
			break;
		}
		if (!*s) {
			*s = h;
			break;
		}
	}
	pthread_mutex_unlock(&mu);
	return seen;
}
