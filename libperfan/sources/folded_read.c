/* sources/folded_read.c: reading folded stacks: one input line by line (or,
 * pruned on two threads, sources/folded_pipe.c), or a pair of inputs
 * (before, after) as one stream of two-count lines merged in byte order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfan/folded.h>

#include "sources/folded_pipe.h"
#include "sources/folded_reader.h"
#include "util/error.h"
#include "util/lines.h"
#include "util/opts.h"

int perfan_folded_read(perfan_profile *p, FILE *fp, const char *name,
		       const char *column,
		       const struct perfan_folded_read_opts *opts)
{
	if (!p || !fp)
		return perfan__err_null(__func__, p ? "fp" : "profile");
	struct perfan_folded_read_opts o;
	int rc = PERFAN__OPTS_COPY(o, opts);
	if (rc)
		return rc;
	struct perfan__freader r;
	name = name ? name : "folded input";
	rc = perfan__freader_init(&r, p, name, column, o.before_column, &o, 0);
	if (rc)
		return perfan__freader_finish(&r, rc);
	struct perfan__lines l;
	if ((rc = perfan__lines_init(&l, fp, name, 0)))
		return perfan__freader_finish(&r, rc);
	perfan__lines_keep(&l);
	/* pruned: the tree on this thread, the rest on another */
	rc = r.prune && o.threads >= 2 ? perfan__folded_pipe(&r, &l) : 1;
	if (rc == 1)
		rc = perfan__freader_lines(&r, &l);
	perfan__lines_free(&l);
	return perfan__freader_finish(&r, rc);
}

/* One input of a pair read: its line ahead, S[0..N) with COUNT, or S
 * NULL at its end. */
struct side {
	struct perfan__lines l;
	const char *name;
	const char *s;
	size_t n;
	uint64_t count;
};

static int side_next(struct side *d)
{
	const char *s;
	size_t len;
	int rc;
	while ((rc = perfan__lines_next(&d->l, &s, &len)) == 1) {
		uint64_t before;
		rc = perfan__freader_parse(d->name, 0, s, len, d->l.lineno,
					   &d->n, &d->count, &before);
		if (rc)
			return rc;
		if (d->n) {
			d->s = s;
			return 0;
		}
	}
	d->s = NULL;
	return rc;
}

/* The byte order of two stacks as their lines sort, each followed by the
 * space before its count. */
static int cmp_stack(const char *a, size_t la, const char *b, size_t lb)
{
	size_t n = la < lb ? la : lb;
	int r = memcmp(a, b, n);
	if (r || la == lb)
		return r;
	unsigned char x = la > n ? (unsigned char)a[n] : ' ';
	unsigned char y = lb > n ? (unsigned char)b[n] : ' ';
	if (x != y)
		return x < y ? -1 : 1;
	return la < lb ? -1 : 1;
}

int perfan_folded_read_pair(perfan_profile *p, FILE *before,
			    const char *before_name, FILE *after,
			    const char *after_name, const char *before_column,
			    const char *after_column,
			    const struct perfan_folded_read_opts *opts)
{
	if (!p || !before || !after)
		return perfan__err_null(__func__, !p        ? "profile"
						  : !before ? "before"
							    : "after");
	if (before == after)
		return perfan__err(PERFAN_EINVAL,
				   "perfan_folded_read_pair: before and after "
				   "are the same stream");
	/* [0] after, [1] before, as the columns of the pruning tree */
	struct side sd[2];
	memset(sd, 0, sizeof(sd));
	sd[0].name = after_name ? after_name : "after input";
	sd[1].name = before_name ? before_name : "before input";
	struct perfan__freader r;
	int rc = perfan__freader_init(&r, p, sd[0].name,
				      after_column ? after_column : "after",
				      before_column ? before_column : "before",
				      opts, 1);
	if (rc)
		return perfan__freader_finish(&r, rc);
	if ((rc = perfan__lines_init(&sd[0].l, after, sd[0].name, 0)))
		return perfan__freader_finish(&r, rc);
	if ((rc = perfan__lines_init(&sd[1].l, before, sd[1].name, 0))) {
		perfan__lines_free(&sd[0].l);
		return perfan__freader_finish(&r, rc);
	}
	/* the sides of the line fed last: a line out of order is the fault
	 * of its own file (the other's lines are all behind or ahead), and
	 * when it is in both, of one whose previous line was that one */
	int last = 0;
	if (!(rc = side_next(&sd[0])))
		rc = side_next(&sd[1]);
	while (!rc && (sd[0].s || sd[1].s)) {
		int c = !sd[1].s ? -1
			: !sd[0].s
				? 1
				: cmp_stack(sd[0].s, sd[0].n, sd[1].s, sd[1].n);
		int now = c < 0 ? 1 : c > 0 ? 2 : 3; /* bits: after, before */
		const struct side *x =
			now == 1 || (now == 3 && (last & 1)) ? &sd[0] : &sd[1];
		rc = perfan__freader_add(&r, x->name, x->l.lineno, x->s, x->n,
					 now & 1 ? sd[0].count : 0,
					 now & 2 ? sd[1].count : 0);
		last = now;
		if (!rc && now & 1)
			rc = side_next(&sd[0]);
		if (!rc && now & 2)
			rc = side_next(&sd[1]);
	}
	perfan__lines_free(&sd[0].l);
	perfan__lines_free(&sd[1].l);
	return perfan__freader_finish(&r, rc);
}

int perfan_folded_read_path(perfan_profile *p, const char *path,
			    const char *column,
			    const struct perfan_folded_read_opts *opts)
{
	if (!path)
		return perfan__err_null(__func__, "path");
	if (!strcmp(path, "-"))
		return perfan_folded_read(p, stdin, "<stdin>", column, opts);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return perfan__err(errno == ENOENT ? PERFAN_ENOTFOUND
						   : PERFAN_EIO,
				   "%s: %s", path, strerror(errno));
	int rc = perfan_folded_read(p, fp, path, column, opts);
	fclose(fp);
	return rc;
}
