/* symsrc.c: main -> outer (exported: in .dynsym with -rdynamic) -> inner_a
 * / inner_b (static: only in a .symtab). Stripped, the program keeps its
 * local functions' names only in a separate debug file or a MiniDebugInfo
 * section, which is what testdata/debug-buildid and testdata/minidebug
 * test. */
#include <stdlib.h>
static volatile long sink;
__attribute__((noinline)) static long inner_a(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += (i * i) ^ (s >> 3) ^ sink;
	return s;
}
__attribute__((noinline)) static long inner_b(long n)
{
	long s = 1;
	for (long i = 0; i < n; i++)
		s = s * 7 + (i & 15) + sink;
	return s;
}
__attribute__((noinline)) long outer(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += (i & 3) + sink;
	return s + inner_a(2 * n) + inner_b(n);
}
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;
	for (long k = 0; k < rounds; k++)
		sink += outer(1000000);
	return 0;
}
