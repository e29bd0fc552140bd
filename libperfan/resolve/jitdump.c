/* resolve/jitdump.c: a jitdump (/tmp/jit-PID.dump) read without perf
 * inject: every record is checked against what remains of the file and
 * reading stops at the first one that is not whole or not sane, keeping
 * what came before (a JIT may still be writing, or have died). Code bytes
 * are never read; names and unwind tables are copied. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resolve/jitdump.h"
#include "resolve/regular.h"
#include "util/bytes.h"
#include "util/error.h"
#include "util/grow.h"
#include "util/htab.h"
#include "util/log.h"
#include "util/pread.h"

#define PREFIX_SIZE 16
#define LOAD_FIXED 40   /* pid, tid, vma, code_addr, code_size, code_index */
#define MOVE_FIXED 48   /* pid, tid, vma, old, new, code_size, code_index */
#define UNWIND_FIXED 24 /* unwinding_size, eh_frame_hdr_size, mapped_size */
/* One function's unwind tables are a few hundred bytes; more than this is
 * not something we copy. */
#define MAX_UNWIND (16u << 20)

/* Where the bytes come from: a descriptor or memory. */
struct src {
	int fd;
	const uint8_t *buf;
	uint64_t size;
};

static int src_read(const struct src *s, uint64_t off, void *dst, size_t n)
{
	if (off > s->size || n > s->size - off)
		return -1;
	if (s->buf) {
		memcpy(dst, s->buf + off, n);
		return 0;
	}
	return perfan__pread_full(s->fd, dst, n, off) == (ssize_t)n ? 0 : -1;
}

/* What a code_index named, for JIT_CODE_MOVE. */
struct loaded {
	const char *name;
	uint32_t unwind;
};

struct parser {
	struct perfan__jitdump *jd;
	const struct src *s;
	int swap;
	struct perfan__htab by_index; /* code_index -> loaded[] index */
	struct loaded *loaded;
	size_t nloaded, caploaded;
	uint32_t pending_unwind; /* for the next JIT_CODE_LOAD */
	size_t capunwind;
};

static void stop(struct parser *p, uint64_t off, const char *why)
{
	p->jd->corrupt = why;
	p->jd->corrupt_at = off;
}

static int on_load(struct parser *p, uint64_t off, uint32_t size, uint64_t time)
{
	struct perfan__jitdump *jd = p->jd;
	uint8_t f[LOAD_FIXED];
	if (size < PREFIX_SIZE + LOAD_FIXED + 1 ||
	    src_read(p->s, off + PREFIX_SIZE, f, sizeof(f))) {
		stop(p, off, "a JIT_CODE_LOAD record too short for its fields");
		return 1;
	}
	uint64_t code_addr = perfan__u64(f + 16, p->swap);
	uint64_t code_size = perfan__u64(f + 24, p->swap);
	uint64_t code_index = perfan__u64(f + 32, p->swap);
	/* The name is NUL-terminated; the code bytes follow it. */
	char name[PERFAN__JITSYM_MAX_NAME + 1];
	size_t room = size - PREFIX_SIZE - LOAD_FIXED;
	size_t n = room < sizeof(name) ? room : sizeof(name);
	if (src_read(p->s, off + PREFIX_SIZE + LOAD_FIXED, name, n)) {
		stop(p, off, "a JIT_CODE_LOAD record that cannot be read");
		return 1;
	}
	size_t len = strnlen(name, n);
	if (len == n && n == room) {
		stop(p, off, "a JIT_CODE_LOAD name without its NUL");
		return 1;
	}
	int err = perfan__jitmap_add(&jd->code, code_addr, code_size, time,
				     name, len, p->pending_unwind);
	if (err)
		return err;
	const char *kept = jd->code.v[jd->code.n - 1].name;
	if (perfan__grow((void **)&p->loaded, &p->caploaded, p->nloaded + 1,
			 sizeof(*p->loaded)) ||
	    perfan__htab_put(&p->by_index, code_index, p->nloaded))
		return PERFAN_ENOMEM;
	p->loaded[p->nloaded++] = (struct loaded){kept, p->pending_unwind};
	p->pending_unwind = 0;
	jd->loads++;
	return 0;
}

static int on_move(struct parser *p, uint64_t off, uint32_t size, uint64_t time)
{
	uint8_t f[MOVE_FIXED];
	if (size < PREFIX_SIZE + MOVE_FIXED ||
	    src_read(p->s, off + PREFIX_SIZE, f, sizeof(f))) {
		stop(p, off, "a JIT_CODE_MOVE record too short for its fields");
		return 1;
	}
	uint64_t new_addr = perfan__u64(f + 24, p->swap);
	uint64_t code_size = perfan__u64(f + 32, p->swap);
	uint64_t code_index = perfan__u64(f + 40, p->swap);
	p->jd->moves++;
	uint64_t *v = perfan__htab_get(&p->by_index, code_index);
	if (!v)
		return 0; /* code we never saw loaded: nothing to name it */
	const struct loaded *l = &p->loaded[*v];
	/* The unwind tables sit after the code wherever it is, so they
	 * move with it. */
	return perfan__jitmap_add(&p->jd->code, new_addr, code_size, time,
				  l->name, strlen(l->name), l->unwind);
}

static int on_unwind(struct parser *p, uint64_t off, uint32_t size)
{
	struct perfan__jitdump *jd = p->jd;
	uint8_t f[UNWIND_FIXED];
	p->pending_unwind = 0;
	if (size < PREFIX_SIZE + UNWIND_FIXED ||
	    src_read(p->s, off + PREFIX_SIZE, f, sizeof(f))) {
		jd->bad_unwind++;
		return 0;
	}
	uint64_t usize = perfan__u64(f, p->swap);
	uint64_t hsize = perfan__u64(f + 8, p->swap);
	uint64_t mapped = perfan__u64(f + 16, p->swap);
	uint64_t room = size - PREFIX_SIZE - UNWIND_FIXED;
	if (!usize || usize > room || hsize > usize || usize > MAX_UNWIND) {
		jd->bad_unwind++;
		return 0;
	}
	uint8_t *data = perfan__arena_alloc(&jd->code.arena, (size_t)usize);
	if (!data)
		return PERFAN_ENOMEM;
	if (src_read(p->s, off + PREFIX_SIZE + UNWIND_FIXED, data,
		     (size_t)usize)) {
		jd->bad_unwind++;
		return 0;
	}
	if (jd->nunwind >= UINT32_MAX - 1)
		return 0;
	if (perfan__grow((void **)&jd->unwind, &p->capunwind, jd->nunwind + 1,
			 sizeof(*jd->unwind)))
		return PERFAN_ENOMEM;
	size_t table = (size_t)(usize - hsize);
	jd->unwind[jd->nunwind++] = (struct perfan__jitdump_unwind){
		data, table, data + table, (size_t)hsize, mapped};
	p->pending_unwind = (uint32_t)jd->nunwind;
	jd->unwinding_info++;
	return 0;
}

static int read_records(struct parser *p)
{
	struct perfan__jitdump *jd = p->jd;
	uint64_t off = jd->header_size;
	if (off > jd->size) {
		jd->truncated = 1;
		jd->whole = jd->size;
		return 0;
	}
	jd->whole = off;
	while (off < jd->size) {
		uint8_t pre[PREFIX_SIZE];
		if (jd->size - off < PREFIX_SIZE ||
		    src_read(p->s, off, pre, sizeof(pre))) {
			jd->truncated = 1;
			break;
		}
		uint32_t id = perfan__u32(pre, p->swap);
		uint32_t size = perfan__u32(pre + 4, p->swap);
		uint64_t time = perfan__u64(pre + 8, p->swap);
		if (size < PREFIX_SIZE) {
			stop(p, off, "a record shorter than its header");
			break;
		}
		if (size > jd->size - off) {
			jd->truncated = 1;
			break;
		}
		int rc = 0;
		switch (id) {
		case PERFAN__JIT_CODE_LOAD:
			rc = on_load(p, off, size, time);
			break;
		case PERFAN__JIT_CODE_MOVE:
			rc = on_move(p, off, size, time);
			break;
		case PERFAN__JIT_CODE_DEBUG_INFO: jd->debug_info++; break;
		case PERFAN__JIT_CODE_CLOSE: jd->closes++; break;
		case PERFAN__JIT_CODE_UNWINDING_INFO:
			rc = on_unwind(p, off, size);
			break;
		default: jd->unknown++; break; /* as perf: skipped */
		}
		if (rc < 0)
			return rc;
		if (rc)
			break;
		jd->records++;
		off += size;
		jd->whole = off;
	}
	return 0;
}

static int parse(struct perfan__jitdump **out, const struct src *s,
		 const char *name)
{
	*out = NULL;
	/* A header cut short (a JIT that has only just opened its dump) is
	 * read as an empty dump, if what there is of it is the magic. */
	uint8_t h[PERFAN__JITDUMP_HEADER_SIZE] = {0};
	size_t have = s->size < sizeof(h) ? (size_t)s->size : sizeof(h);
	if (src_read(s, 0, h, have))
		return perfan__err(PERFAN_EIO, "%s: cannot read its header",
				   name);
	uint8_t m[4], ms[4];
	uint32_t mv = PERFAN__JITDUMP_MAGIC, msv = __builtin_bswap32(mv);
	memcpy(m, &mv, 4);
	memcpy(ms, &msv, 4);
	size_t mlen = have < 4 ? have : 4;
	int swap;
	if (!memcmp(h, m, mlen))
		swap = 0;
	else if (!memcmp(h, ms, mlen))
		swap = 1;
	else
		return perfan__err(PERFAN_EFORMAT,
				   "%s: no jitdump magic at offset 0", name);
	struct perfan__jitdump *jd = calloc(1, sizeof(*jd));
	if (!jd || !(jd->path = strdup(name))) {
		free(jd);
		return perfan__nomem(NULL);
	}
	jd->swapped = swap;
	jd->version = perfan__u32(h + 4, swap);
	jd->header_size = perfan__u32(h + 8, swap);
	jd->elf_mach = perfan__u32(h + 12, swap);
	jd->pid = perfan__u32(h + 20, swap);
	jd->timestamp = perfan__u64(h + 24, swap);
	jd->flags = perfan__u64(h + 32, swap);
	jd->size = s->size;
	if (have < sizeof(h)) {
		jd->truncated = 1;
		jd->header_size = (uint32_t)sizeof(h);
		jd->size = jd->whole = have;
	} else if (jd->version > 1) {
		int err = perfan__err(PERFAN_EUNSUPPORTED,
				      "%s: jitdump version %u (perfan reads "
				      "version 1)",
				      name, jd->version);
		perfan__jitdump_free(jd);
		return err;
	}
	/* A longer header has fields we do not know; records follow it. */
	if (jd->header_size < sizeof(h))
		jd->header_size = sizeof(h);
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	jd->code.module =
		perfan__arena_strndup(&jd->code.arena, base, strlen(base));
	struct parser p = {jd, s, swap, {0}, NULL, 0, 0, 0, 0};
	int err = jd->code.module ? 0 : PERFAN_ENOMEM;
	if (!err)
		err = read_records(&p);
	if (!err)
		err = perfan__jitmap_index(&jd->code);
	perfan__htab_free(&p.by_index);
	free(p.loaded);
	if (err) {
		perfan__jitdump_free(jd);
		return perfan__err(err, "%s: out of memory", name);
	}
	*out = jd;
	return 0;
}

int perfan__jitdump_open(struct perfan__jitdump **out, const char *path)
{
	*out = NULL;
	uint64_t size;
	int fd = perfan__open_regular(path, &size);
	if (fd == PERFAN_EFORMAT)
		return perfan__err(fd, "%s: not a regular file", path);
	if (fd < 0)
		return fd;
	struct src s = {fd, NULL, size};
	int err = parse(out, &s, path);
	close(fd);
	return err;
}

int perfan__jitdump_parse(struct perfan__jitdump **out, const void *buf,
			  size_t len, const char *name)
{
	static const uint8_t none[1];
	struct src s = {-1, buf ? buf : none, buf ? len : 0};
	return parse(out, &s, name);
}

void perfan__jitdump_free(struct perfan__jitdump *jd)
{
	if (!jd)
		return;
	perfan__jitmap_free(&jd->code);
	free(jd->unwind);
	free(jd->path);
	free(jd);
}

const struct perfan__jitsym *
perfan__jitdump_find(const struct perfan__jitdump *jd, uint64_t addr,
		     uint64_t time)
{
	return jd ? perfan__jitmap_find(&jd->code, addr, time) : NULL;
}

int perfan__jitdump_unwind(const struct perfan__jitdump *jd, uint64_t addr,
			   uint64_t time, const uint8_t **eh_frame, size_t *len,
			   uint64_t *eh_frame_base, const uint8_t **hdr,
			   size_t *hdr_len, uint64_t *code_start,
			   uint64_t *code_end)
{
	const struct perfan__jitsym *s = perfan__jitdump_find(jd, addr, time);
	if (!s || !s->unwind || s->unwind > jd->nunwind)
		return PERFAN_ENOTFOUND;
	const struct perfan__jitdump_unwind *u = &jd->unwind[s->unwind - 1];
	uint64_t size = s->end - s->start;
	if (eh_frame)
		*eh_frame = u->eh_frame;
	if (len)
		*len = u->eh_frame_len;
	if (eh_frame_base)
		*eh_frame_base = s->start + ((size + 7) & ~(uint64_t)7);
	if (hdr)
		*hdr = u->eh_frame_hdr;
	if (hdr_len)
		*hdr_len = u->eh_frame_hdr_len;
	if (code_start)
		*code_start = s->start;
	if (code_end)
		*code_end = s->end;
	return 0;
}
