/* loop.c: an aarch64 function with a loop and an inlined helper, for
 * tests/unit/check_disasm.c (addresses to lines, the inline call site,
 * the backward branch, bl as a call). */
static inline __attribute__((always_inline)) unsigned step(unsigned x)
{
	return x * 2654435761u ^ (x >> 7);
}

__attribute__((noinline)) unsigned loop(unsigned n)
{
	unsigned s = 1;
	for (unsigned i = 0; i < n; i++)
		s = step(s + i);
	return s;
}

void _start(void)
{
	volatile unsigned r = loop(1000);
	(void)r;
	for (;;)
		;
}
