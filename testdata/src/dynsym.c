/* dynsym.c: main -> spin (calls dyn_tiny in libdyn.so through the PLT, a
 * million times a round) and main -> hash (dyn_work in libdyn.so, which
 * calls strlen through libdyn's own PLT). Both files are stripped, so only
 * .dynsym names their functions; -rdynamic puts prog's there too. Run with
 * LD_BIND_NOT=1 every call goes through the PLT slot to the resolver, so
 * the samples land in the PLT as well. */
#include <stdlib.h>
int dyn_tiny(int);
long dyn_work(const char *, int);
__attribute__((noinline)) long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += dyn_tiny((int)i);
	return s;
}
__attribute__((noinline)) long hash(long n)
{
	return dyn_work("abcdefghijklmnop", (int)n);
}
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 300;
	long r = 0;
	for (long k = 0; k < n; k++)
		r += spin(1000000) + hash(200000);
	return (int)(r & 1);
}
