/* event_counts.c: count the samples of a perf.data file per command and
 * event, the smallest useful client of libperfan.
 *
 *   event_counts perf.data     prints COUNT<TAB>COMM<TAB>EVENT, most first */
#include <perfan/perfan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Small tables searched linearly: an example, not a profiler. */
struct comm {
	uint32_t pid;
	char *name;
};
struct count {
	char *key; /* "COMM\tEVENT" */
	unsigned long n;
};
static struct comm *comms;
static struct count *counts;
static size_t ncomms, ncounts;

static void *xrealloc(void *p, size_t size)
{
	if (!(p = realloc(p, size))) {
		perror("event_counts");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xrealloc(NULL, strlen(s) + 1), s);
}

/* A COMM record names its process until the next one for the same pid. */
static void set_comm(uint32_t pid, const char *name)
{
	size_t i = 0;

	while (i < ncomms && comms[i].pid != pid)
		i++;
	if (i == ncomms) {
		comms = xrealloc(comms, ++ncomms * sizeof(*comms));
		comms[i].pid = pid;
	} else {
		free(comms[i].name);
	}
	comms[i].name = xstrdup(name);
}

static void count(uint32_t pid, const char *event)
{
	char key[512], *comm = NULL;
	size_t i;

	for (i = 0; i < ncomms && !comm; i++)
		if (comms[i].pid == pid)
			comm = comms[i].name;
	if (comm) /* perf shows a process it has no COMM for as ":PID" */
		snprintf(key, sizeof(key), "%s\t%s", comm, event);
	else
		snprintf(key, sizeof(key), ":%u\t%s", pid, event);
	for (i = 0; i < ncounts && strcmp(counts[i].key, key); i++)
		;
	if (i == ncounts) {
		counts = xrealloc(counts, ++ncounts * sizeof(*counts));
		counts[i] = (struct count){xstrdup(key), 0};
	}
	counts[i].n++;
}

static int by_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

int main(int argc, char **argv)
{
	perfan_perfdata *pd;
	const struct perfan_record *rec;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: event_counts PERF.DATA\n");
		return 2;
	}
	/* NULL options: the defaults (time order, compressed data expanded) */
	if (perfan_perfdata_open(&pd, argv[1], NULL) < 0) {
		fprintf(stderr, "event_counts: %s\n", perfan_error_last());
		return 1;
	}
	while ((err = perfan_perfdata_next(pd, &rec)) == 0) {
		if (rec->type == PERFAN_REC_COMM)
			set_comm(rec->u.comm.pid, rec->u.comm.comm);
		else if (rec->type == PERFAN_REC_SAMPLE)
			count(rec->u.sample.pid,
			      rec->event ? rec->event->name : "unknown");
	}
	if (err != PERFAN_ITEROVER)
		fprintf(stderr, "event_counts: %s\n", perfan_error_last());
	perfan_perfdata_free(pd);
	if (err != PERFAN_ITEROVER)
		return 1;

	qsort(counts, ncounts, sizeof(*counts), by_count);
	printf("COUNT\tCOMM\tEVENT\n");
	for (size_t i = 0; i < ncounts; i++)
		printf("%lu\t%s\n", counts[i].n, counts[i].key);
	return 0;
}
