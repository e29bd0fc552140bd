/* resolve/gilret.c: the offset of the one return instruction of a
 * libpython's take_gil, where perfan record puts the GIL's return probe. */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "resolve/disasm.h"
#include "resolve/gilret.h"
#include "resolve/symbols.h"
#include "util/error.h"

/* FUNC's value and size from PATH's .symtab (take_gil is static: not in
 * .dynsym). */
static int find_func(struct perfan__elf *e, const char *func, uint64_t *addr,
		     uint64_t *size)
{
	Elf *elf = e->elf;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s) ||
			    GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_size)
				continue;
			const char *name =
				elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && !strcmp(name, func)) {
				*addr = s.st_value;
				*size = s.st_size;
				return 0;
			}
		}
	}
	return PERFAN_ENOTFOUND;
}

int perfan__gil_ret_offset(const char *path, uint64_t *off)
{
	*off = 0;
	struct perfan__elf *e = NULL;
	int err = perfan__elf_open(&e, path);
	if (err)
		return perfan__err(err, "%s: %s", path,
				   err == PERFAN_ENOTFOUND ? "no such file"
							   : "not an ELF file");
	uint64_t addr = 0, size = 0;
	const uint8_t *code = NULL;
	size_t len = 0;
	struct perfan__insn *ins = NULL;
	size_t n = 0;
	if (find_func(e, "take_gil", &addr, &size)) {
		err = perfan__err(PERFAN_ENOTFOUND,
				  "%s has no symbol take_gil (stripped of its "
				  ".symtab?): the GIL's probes need it",
				  path);
		goto out;
	}
	err = perfan__elf_code(e, addr, size, &code, &len);
	if (err) {
		err = perfan__err(err, "%s: no code for take_gil", path);
		goto out;
	}
	err = perfan__disasm_all(NULL, e->e_machine, 0, code, len, addr, &ins,
				 &n);
	if (err)
		goto out;
	size_t rets = 0;
	for (size_t i = 0; i < n; i++)
		if (ins[i].flow == PERFAN__FLOW_RET) {
			if (!rets++)
				*off = ins[i].addr - addr;
		}
	if (rets != 1) {
		*off = 0;
		err = perfan__err(PERFAN_EUNSUPPORTED,
				  "take_gil in %s has %zu return instructions, "
				  "not one: no single return probe marks its "
				  "end",
				  path, rets);
	}
out:
	free(ins);
	perfan__elf_close(e);
	return err;
}
