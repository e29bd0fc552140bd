// fnobj.cpp: C++ frames whose demangled names have spaces and parentheses
// (std::function<int (int, int)>, lambdas, an anonymous namespace, a
// template), for perf script text as other people's machines print it.
// Built with -fno-inline so that std::function's operator() and the
// lambdas' operator() are frames of their own.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {
volatile unsigned sink;

/* The state lives on the stack: GCC gives a leaf function that needs no
 * stack no frame pointer, and its caller would drop out of the call chain. */
__attribute__((noinline)) int spin(int a, int b)
{
	volatile unsigned x[1] = {(unsigned)a};
	for (int i = 0; i < 20000; i++)
		x[0] = x[0] * 1103515245u + (unsigned)b + (unsigned)i;
	sink = x[0];
	return (int)(x[0] & 0xff);
}
} // namespace

template <typename F> __attribute__((noinline)) int apply_all(F f, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += f(i, s);
	return s;
}

struct Worker {
	std::function<int(int, int)> op;
	__attribute__((noinline)) int run(int n) const
	{
		int s = 0;
		for (int i = 0; i < n; i++)
			s += op(i, s);
		return s;
	}
};

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 400;
	int k = 3;
	auto lam = [k](int a, int b) { return spin(a * k, b) + k; };
	Worker w{[&](int a, int b) { return lam(a, b) + spin(b, a); }};
	std::vector<int> out;
	for (int r = 0; r < rounds; r++) {
		out.push_back(w.run(50));
		out.push_back(apply_all(
			[](int a, int b) { return spin(b, a) + 1; },
			50));
	}
	long t = 0;
	for (int v : out)
		t += v;
	printf("%ld\n", t);
	return 0;
}
