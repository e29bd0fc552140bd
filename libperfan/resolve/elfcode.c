/* resolve/elfcode.c: the bytes of a function from the section holding its
 * code (a debug file's .text is NOBITS: code comes from the binary). */
#include <gelf.h>
#include <libelf.h>

#include "resolve/symbols.h"

int perfan__elf_code(const struct perfan__elf *e, uint64_t addr, uint64_t size,
		     const uint8_t **code, size_t *len)
{
	*code = NULL;
	*len = 0;
	Elf *elf = e->elf;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (addr < sh.sh_addr || addr - sh.sh_addr >= sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		uint64_t off = addr - sh.sh_addr;
		if (!d || !d->d_buf || off >= d->d_size)
			return PERFAN_EFORMAT;
		uint64_t avail = d->d_size - off;
		*code = (const uint8_t *)d->d_buf + off;
		*len = (size_t)(size < avail ? size : avail);
		return 0;
	}
	return PERFAN_ENOTFOUND;
}
