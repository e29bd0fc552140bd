/* render/pprof.c: the pprof sink: the trie as profile.proto messages
 * (protobuf-c, generated from render/profile.proto), packed and gzipped
 * (zlib). */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include <perfan/pprof.h>

#include "render/profile.pb-c.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/hex.h"
#include "util/htab.h"
#include "util/opts.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_vtype;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

/* A growable array of pointers. */
struct vec {
	void **v;
	size_t n, cap;
};

static int vec_push(struct vec *a, void *x)
{
	if (!x)
		return PERFAN_ENOMEM;
	if (perfan__grow((void **)&a->v, &a->cap, a->n + 1, sizeof(*a->v)))
		return PERFAN_ENOMEM;
	a->v[a->n++] = x;
	return 0;
}

struct writer {
	const perfan_profile *p;
	struct perfan_pprof_write_opts o;
	pb_profile pr;
	struct vec strings, owned; /* owned: strings made here, freed */
	struct vec vtypes, samples, mappings, locations, functions, lines,
		labels;
	struct perfan__htab str_ix;   /* hash -> string index */
	struct perfan__htab fn_ix;    /* name << 32 | file -> function id */
	struct perfan__htab map_ix;   /* module string -> mapping id */
	struct perfan__htab loc_ix;   /* hash of frame ids -> location id */
	struct perfan__htab node_loc; /* frame id -> location, no inlines */
	/* per location: its frame ids (leaf first), to tell hashes apart */
	struct vec loc_frames;
	int has_inline;
};

/* The string table index of S (interned; "" is index 0). */
static int str(struct writer *w, const char *s, int64_t *out)
{
	if (!s)
		s = "";
	uint64_t h = perfan__hash_mem(s, strlen(s));
	for (;; h++) {
		uint64_t *ix = perfan__htab_get(&w->str_ix, h);
		if (!ix)
			break;
		if (!strcmp(w->strings.v[*ix], s)) {
			*out = (int64_t)*ix;
			return 0;
		}
	}
	int err = vec_push(&w->strings, (void *)s);
	if (!err)
		err = perfan__htab_put(&w->str_ix, h, w->strings.n - 1);
	*out = (int64_t)w->strings.n - 1;
	return err;
}

static int str_owned(struct writer *w, char *s, int64_t *out)
{
	int err = vec_push(&w->owned, s);
	return err ? err : str(w, s, out);
}

static int value_type(struct writer *w, const char *type, const char *unit,
		      pb_vtype **out)
{
	pb_vtype *vt = calloc(1, sizeof(*vt));
	int err = vec_push(&w->vtypes, vt);
	if (err)
		return err;
	perftools__profiles__value_type__init(vt);
	*out = vt;
	err = str(w, type, &vt->type);
	return err ? err : str(w, unit, &vt->unit);
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The mapping of MODULE (0 for none). */
static int mapping(struct writer *w, const char *module, uint64_t *out)
{
	*out = 0;
	if (!module)
		return 0;
	int64_t name;
	int err = str(w, module, &name);
	if (err)
		return err;
	uint64_t *id = perfan__htab_get(&w->map_ix, (uint64_t)name);
	if (id) {
		*out = *id;
		return 0;
	}
	pb_mapping *m = calloc(1, sizeof(*m));
	if ((err = vec_push(&w->mappings, m)))
		return err;
	perftools__profiles__mapping__init(m);
	m->id = w->mappings.n;
	m->filename = name;
	m->has_functions = 1;
	for (size_t i = 0; i < w->o.nr_build_ids; i++) {
		const struct perfan_build_id_entry *b = &w->o.build_ids[i];
		if (!b->filename || strcmp(basename_of(b->filename), module))
			continue;
		char *hex = malloc(2 * sizeof(b->build_id) + 1);
		if (!hex)
			return PERFAN_ENOMEM;
		perfan__hex_bytes(b->build_id,
				  b->size < sizeof(b->build_id)
					  ? b->size
					  : sizeof(b->build_id),
				  hex);
		if ((err = str_owned(w, hex, &m->build_id)) ||
		    (err = str(w, b->filename, &m->filename)))
			return err;
		break;
	}
	*out = m->id;
	return perfan__htab_put(&w->map_ix, (uint64_t)name, m->id);
}

static int function(struct writer *w, const struct perfan_frame *f,
		    uint64_t *out)
{
	int64_t name, file;
	int err = str(w, f->name, &name);
	if (!err)
		err = str(w, f->file, &file);
	if (err)
		return err;
	uint64_t key = (uint64_t)name << 32 | (uint64_t)file;
	uint64_t *id = perfan__htab_get(&w->fn_ix, key);
	if (id) {
		*out = *id;
		return 0;
	}
	pb_function *fn = calloc(1, sizeof(*fn));
	if ((err = vec_push(&w->functions, fn)))
		return err;
	perftools__profiles__function__init(fn);
	fn->id = w->functions.n;
	/* Names are demangled already; with a system name equal to the
	 * name, pprof would take names holding '<', '[' or '::' for C++ and
	 * cut their "(...)" and "<...>" (a Python frame's "(<frozen
	 * ...>)"). */
	fn->name = name;
	fn->filename = file;
	*out = fn->id;
	return perfan__htab_put(&w->fn_ix, key, fn->id);
}

/* The location of frames IDS[0..N) (leaf first: the inlined ones, then
 * the frame they were inlined into). */
static int location(struct writer *w, const perfan_frame_id *ids, size_t n,
		    uint64_t *out)
{
	uint64_t h = n == 1 ? ids[0] : perfan__hash_mem(ids, n * sizeof(*ids));
	struct perfan__htab *t = n == 1 ? &w->node_loc : &w->loc_ix;
	for (;; h++) {
		uint64_t *id = perfan__htab_get(t, h);
		if (!id)
			break;
		const perfan_frame_id *have = w->loc_frames.v[*id - 1];
		if (n == 1 || (have[0] == n &&
			       !memcmp(have + 1, ids, n * sizeof(*ids)))) {
			*out = *id;
			return 0;
		}
	}
	pb_location *l = calloc(1, sizeof(*l));
	int err = vec_push(&w->locations, l);
	if (err)
		return err;
	perftools__profiles__location__init(l);
	l->id = w->locations.n;
	/* ids[0..n) with their count in front */
	perfan_frame_id *keep = malloc((n + 1) * sizeof(*keep));
	if ((err = vec_push(&w->loc_frames, keep)))
		return err;
	keep[0] = (perfan_frame_id)n;
	memcpy(keep + 1, ids, n * sizeof(*ids));
	l->line = calloc(n, sizeof(*l->line));
	if (!l->line)
		return PERFAN_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct perfan_frame *f =
			perfan_profile_frame_get(w->p, ids[i]);
		pb_line *ln = calloc(1, sizeof(*ln));
		if ((err = vec_push(&w->lines, ln)))
			return err;
		perftools__profiles__line__init(ln);
		l->line[l->n_line++] = ln;
		ln->line = f->line;
		if ((err = function(w, f, &ln->function_id)))
			return err;
	}
	const struct perfan_frame *outer =
		perfan_profile_frame_get(w->p, ids[n - 1]);
	if ((err = mapping(w, outer->module, &l->mapping_id)))
		return err;
	if (n > 1)
		w->has_inline = 1;
	*out = l->id;
	return perfan__htab_put(t, h, l->id);
}

static int label(struct writer *w, pb_sample *s, const char *key,
		 const char *sval, int64_t num)
{
	pb_label *lb = calloc(1, sizeof(*lb));
	int err = vec_push(&w->labels, lb);
	if (err)
		return err;
	perftools__profiles__label__init(lb);
	s->label[s->n_label++] = lb;
	if ((err = str(w, key, &lb->key)))
		return err;
	if (sval)
		return str(w, sval, &lb->str);
	lb->num = num;
	return 0;
}

/* The labels of a process frame: its name, its comm, pid and tid (where
 * known), from what the frame stands for. */
static int thread_labels(struct writer *w, pb_sample *s,
			 const struct perfan_frame *f)
{
	s->label = calloc(6, sizeof(*s->label));
	if (!s->label)
		return PERFAN_ENOMEM;
	/* the comm as the root shows it (spaces made '_'); a root known by
	 * its name alone is that name */
	char *comm = strdup(f->comm ? f->comm : f->name);
	if (!comm)
		return PERFAN_ENOMEM;
	if (f->comm) {
		if (strlen(comm) > 63)
			comm[63] = '\0';
		for (char *c = comm; *c; c++)
			if (*c == ' ')
				*c = '_';
	}
	int64_t ix;
	int err = str_owned(w, comm, &ix);
	if (!err)
		err = label(w, s, "comm", comm, 0);
	if (!err)
		err = label(w, s, "thread", f->name, 0);
	if (!err && f->pid >= 0)
		err = label(w, s, "pid", NULL, f->pid);
	if (!err && f->tid >= 0)
		err = label(w, s, "tid", NULL, f->tid);
	const struct perfan_thread_name *tn =
		f->pid >= 0 && f->tid >= 0
			? perfan_thread_names_find(w->o.names, f->pid, f->tid)
			: NULL;
	if (!err && tn && tn->source != PERFAN_THREAD_NAME_COMM) {
		err = label(w, s, "thread_name", tn->name, 0);
		if (!err && tn->role)
			err = label(w, s, "role", tn->role, 0);
	}
	return err;
}

/* One sample for node N: its stack leaf first, and its self weights. */
static int sample(struct writer *w, perfan_node_id n, size_t ncols,
		  perfan_frame_id **stack, size_t *cap)
{
	pb_sample *s = calloc(1, sizeof(*s));
	int err = vec_push(&w->samples, s);
	if (err)
		return err;
	perftools__profiles__sample__init(s);
	s->value = calloc(ncols, sizeof(*s->value));
	uint32_t depth = perfan_profile_node_depth(w->p, n);
	s->location_id = calloc(depth ? depth : 1, sizeof(*s->location_id));
	if (!s->value || !s->location_id)
		return PERFAN_ENOMEM;
	s->n_value = ncols;
	for (size_t c = 0; c < ncols; c++) {
		uint64_t v = perfan_profile_node_self(w->p, n, c);
		if (v > INT64_MAX) /* pprof's values are signed */
			return perfan__err(PERFAN_EUNSUPPORTED,
					   "pprof: a weight of %" PRIu64
					   " is past pprof's int64 values",
					   v);
		s->value[c] = (int64_t)v;
	}
	if (perfan__grow((void **)stack, cap, depth, sizeof(**stack)))
		return PERFAN_ENOMEM;
	/* Inlined frames come leafward of the frame they were inlined into:
	 * gather them until that frame closes the location. */
	size_t pending = 0;
	for (; n != PERFAN_ROOT_NODE; n = perfan_profile_node_parent(w->p, n)) {
		perfan_frame_id id = perfan_profile_node_frame(w->p, n);
		const struct perfan_frame *f =
			perfan_profile_frame_get(w->p, id);
		if (f->kind == PERFAN_FRAME_PROCESS) {
			if (!s->label && (err = thread_labels(w, s, f)))
				return err;
			continue;
		}
		(*stack)[pending++] = id;
		if (f->kind == PERFAN_FRAME_INLINED &&
		    perfan_profile_node_parent(w->p, n) != PERFAN_ROOT_NODE)
			continue;
		uint64_t loc;
		if ((err = location(w, *stack, pending, &loc)))
			return err;
		s->location_id[s->n_location_id++] = loc;
		pending = 0;
	}
	if (pending) {
		uint64_t loc;
		if ((err = location(w, *stack, pending, &loc)))
			return err;
		s->location_id[s->n_location_id++] = loc;
	}
	return 0;
}

static int comments(struct writer *w, pb_profile *pr)
{
	size_t n = w->o.nr_comments + (w->o.cmdline_argc ? 1 : 0);
	if (!n)
		return 0;
	pr->comment = calloc(n, sizeof(*pr->comment));
	if (!pr->comment)
		return PERFAN_ENOMEM;
	int err = 0;
	if (w->o.cmdline_argc) {
		size_t len = 1;
		for (size_t i = 0; i < w->o.cmdline_argc; i++)
			len += strlen(w->o.cmdline_argv[i]) + 1;
		char *c = malloc(len), *e = c;
		if (!c)
			return PERFAN_ENOMEM;
		for (size_t i = 0; i < w->o.cmdline_argc; i++)
			e += sprintf(e, "%s%s", i ? " " : "",
				     w->o.cmdline_argv[i]);
		err = str_owned(w, c, &pr->comment[pr->n_comment++]);
	}
	for (size_t i = 0; !err && i < w->o.nr_comments; i++)
		err = str(w, w->o.comments[i], &pr->comment[pr->n_comment++]);
	return err;
}

static int build(struct writer *w)
{
	pb_profile *pr = &w->pr;
	int64_t empty;
	int err = str(w, "", &empty);
	size_t ncols = perfan_profile_nr_columns(w->p);
	pr->sample_type = calloc(ncols ? ncols : 1, sizeof(*pr->sample_type));
	if (!pr->sample_type)
		return PERFAN_ENOMEM;
	for (size_t c = 0; !err && c < ncols; c++) {
		const char *name = perfan_profile_column_name(w->p, c);
		err = value_type(
			w, name,
			perfan_pprof_unit(name,
					  perfan_profile_column_unit(w->p, c)),
			&pr->sample_type[pr->n_sample_type++]);
	}
	if (!err && w->o.default_column)
		pr->default_sample_type =
			pr->sample_type[w->o.default_column - 1]->type;

	/* the main binary's mapping first, as perf_data_converter writes
	 * it: pprof names the profile after it ("File:") */
	uint64_t main_id;
	if (!err &&
	    (err = mapping(w, perfan_profile_main_module(w->p), &main_id)))
		return err;
	perfan_frame_id *stack = NULL;
	size_t cap = 0, nn = perfan_profile_nr_nodes(w->p);
	for (perfan_node_id n = 1; !err && n < nn; n++) {
		int any = 0;
		for (size_t c = 0; c < ncols && !any; c++)
			any = perfan_profile_node_self(w->p, n, c) != 0;
		if (any)
			err = sample(w, n, ncols, &stack, &cap);
	}
	free(stack);
	if (err)
		return err;

	for (size_t i = 0; i < w->mappings.n; i++) {
		pb_mapping *m = w->mappings.v[i];
		m->has_inline_frames = w->has_inline;
	}
	if (w->o.period_type &&
	    (err = value_type(w, w->o.period_type,
			      w->o.period_unit ? w->o.period_unit : "count",
			      &pr->period_type)))
		return err;
	pr->period = w->o.period;
	pr->time_nanos = w->o.time_nanos;
	pr->duration_nanos = w->o.duration_nanos;
	if ((err = comments(w, pr)))
		return err;

	pr->n_sample = w->samples.n;
	pr->sample = (pb_sample **)w->samples.v;
	pr->n_mapping = w->mappings.n;
	pr->mapping = (pb_mapping **)w->mappings.v;
	pr->n_location = w->locations.n;
	pr->location = (pb_location **)w->locations.v;
	pr->n_function = w->functions.n;
	pr->function = (pb_function **)w->functions.v;
	pr->n_string_table = w->strings.n;
	pr->string_table = (char **)w->strings.v;
	return 0;
}

static int gzip_to(const uint8_t *buf, size_t len, int level, FILE *out)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	/* 16 + 15: a gzip header and trailer around deflate's output */
	if (deflateInit2(&z, level, Z_DEFLATED, 16 + 15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return perfan__err(PERFAN_ENOMEM, "pprof: zlib: %s",
				   z.msg ? z.msg : "cannot start deflate");
	uint8_t chunk[1 << 16];
	int zr = Z_OK, err = 0;
	z.next_in = (Bytef *)buf;
	while (zr != Z_STREAM_END && !err) {
		size_t take = len > (1u << 30) ? (1u << 30) : len;
		z.avail_in = (uInt)take;
		len -= take;
		do {
			z.next_out = chunk;
			z.avail_out = sizeof(chunk);
			zr = deflate(&z, len ? Z_NO_FLUSH : Z_FINISH);
			size_t have = sizeof(chunk) - z.avail_out;
			if (have && fwrite(chunk, 1, have, out) != have) {
				err = perfan__err(PERFAN_EIO,
						  "pprof: writing failed");
				break;
			}
		} while (z.avail_out == 0);
	}
	deflateEnd(&z);
	if (!err && fflush(out))
		err = perfan__err(PERFAN_EIO, "pprof: writing failed");
	return err;
}

static void vec_free(struct vec *a, void (*fn)(void *))
{
	for (size_t i = 0; fn && i < a->n; i++)
		fn(a->v[i]);
	free(a->v);
}

static void free_sample(void *x)
{
	pb_sample *s = x;
	free(s->location_id);
	free(s->value);
	free(s->label);
	free(s);
}

static void free_location(void *x)
{
	pb_location *l = x;
	free(l->line);
	free(l);
}

static void writer_free(struct writer *w)
{
	vec_free(&w->strings, NULL);
	vec_free(&w->owned, free);
	vec_free(&w->vtypes, free);
	vec_free(&w->samples, free_sample);
	vec_free(&w->mappings, free);
	vec_free(&w->locations, free_location);
	vec_free(&w->functions, free);
	vec_free(&w->lines, free);
	vec_free(&w->labels, free);
	vec_free(&w->loc_frames, free);
	free(w->pr.sample_type);
	free(w->pr.comment);
	perfan__htab_free(&w->str_ix);
	perfan__htab_free(&w->fn_ix);
	perfan__htab_free(&w->map_ix);
	perfan__htab_free(&w->loc_ix);
	perfan__htab_free(&w->node_loc);
}

int perfan_pprof_write(const perfan_profile *p, FILE *out,
		       const struct perfan_pprof_write_opts *o)
{
	if (!p || !out)
		return perfan__err(PERFAN_EINVAL,
				   "pprof: no profile or output");
	struct writer w = {.p = p};
	int rc = PERFAN__OPTS_COPY(w.o, o);
	if (rc)
		return rc;
	if (w.o.default_column > perfan_profile_nr_columns(p) ||
	    w.o.level < 0 || w.o.level > 9)
		return perfan__err(PERFAN_EINVAL,
				   "pprof: default column %zu of %zu, level %d",
				   w.o.default_column,
				   perfan_profile_nr_columns(p), w.o.level);
	perftools__profiles__profile__init(&w.pr);
	int err = build(&w);
	uint8_t *buf = NULL;
	if (!err) {
		size_t len =
			perftools__profiles__profile__get_packed_size(&w.pr);
		buf = malloc(len ? len : 1);
		if (!buf)
			err = PERFAN_ENOMEM;
		else if (perftools__profiles__profile__pack(&w.pr, buf) != len)
			err = perfan__err(PERFAN_EINVAL,
					  "pprof: packing failed");
		else
			err = gzip_to(buf, len, w.o.level ? w.o.level : 6, out);
	}
	if (err == PERFAN_ENOMEM)
		perfan__err(err, "pprof: out of memory");
	free(buf);
	writer_free(&w);
	return err;
}

int perfan_pprof_opts_from_perfdata(struct perfan_pprof_write_opts *o,
				    const perfan_perfdata *pd)
{
	if (!o || !pd)
		return 0; /* not a perf.data: no facts */
	const struct perfan_features *f = perfan_perfdata_features(pd);
	if (f && perfan_features_has(f, PERFAN_FEAT_CMDLINE)) {
		o->cmdline_argc = f->cmdline_argc;
		o->cmdline_argv = f->cmdline_argv;
	}
	if (f && perfan_features_has(f, PERFAN_FEAT_BUILD_ID)) {
		o->nr_build_ids = f->nr_build_ids;
		o->build_ids = f->build_ids;
	}
	if (f && perfan_features_has(f, PERFAN_FEAT_SAMPLE_TIME) &&
	    f->last_sample_time >= f->first_sample_time) {
		o->duration_nanos =
			(int64_t)(f->last_sample_time - f->first_sample_time);
		/* Sample times are on the recording's clock; CLOCK_DATA
		 * (perf record -k) ties that clock to the time of day. */
		if (perfan_features_has(f, PERFAN_FEAT_CLOCK_DATA) &&
		    f->clock_data_tod_ns)
			o->time_nanos = (int64_t)(f->clock_data_tod_ns +
						  f->first_sample_time -
						  f->clock_data_clockid_ns);
	}
	if (perfan_perfdata_nr_events(pd)) {
		const struct perfan_event *ev = perfan_perfdata_event(pd, 0);
		o->period_type = ev->name;
		o->period_unit = perfan_pprof_unit(ev->name, "period");
		/* With -F the kernel adjusts the period; a clock event's is
		 * 1e9 / frequency ns. */
		uint64_t v = ev->attr.sample_period_or_freq;
		if (!(ev->attr.flags & PERFAN_ATTR_FREQ))
			o->period = (int64_t)v;
		else if (v && !strcmp(o->period_unit, "nanoseconds"))
			o->period = (int64_t)(1000000000 / v);
	}
	return 0;
}
