/* resolve/capstone_load.c: capstone's shared library opened with dlopen on
 * first use, and its functions looked up once. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "config.h"
#include "resolve/capstone_load.h"
#include "util/error.h"

static struct perfan__cs cs;
static char why[256]; /* empty when loaded */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *h = dlopen(PERFAN_CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, sizeof(why), "%s",
			 e ? e : PERFAN_CAPSTONE_SONAME);
		return;
	}
	struct {
		void **slot;
		const char *name;
	} fn[] = {
		{(void **)&cs.open, "cs_open"},
		{(void **)&cs.close, "cs_close"},
		{(void **)&cs.option, "cs_option"},
		{(void **)&cs.strerror, "cs_strerror"},
		{(void **)&cs.malloc, "cs_malloc"},
		{(void **)&cs.free, "cs_free"},
		{(void **)&cs.disasm_iter, "cs_disasm_iter"},
		{(void **)&cs.insn_group, "cs_insn_group"},
	};
	for (size_t i = 0; i < sizeof(fn) / sizeof(fn[0]); i++)
		if (!(*fn[i].slot = dlsym(h, fn[i].name))) {
			snprintf(why, sizeof(why), "%s: no %s",
				 PERFAN_CAPSTONE_SONAME, fn[i].name);
			return;
		}
}

const struct perfan__cs *perfan__capstone(void)
{
	pthread_once(&once, load);
	if (why[0]) {
		perfan__err(PERFAN_EUNSUPPORTED,
			    "capstone (the disassembler) cannot be loaded: %s",
			    why);
		return NULL;
	}
	return &cs;
}
