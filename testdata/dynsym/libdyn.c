/* libdyn.c: a shared library whose functions prog calls through its PLT. */
#include <string.h>
int dyn_tiny(int x) { return x + 1; }
long dyn_work(const char *s, int n)
{
	long h = 0;
	for (int i = 0; i < n; i++)
		h = h * 31 + (long)strlen(s + (i & 7));
	return h;
}
