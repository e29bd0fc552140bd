#!/usr/bin/env python3
"""make-vmlinux.py KALLSYMS OUT.s: assembler for an ELF image of the running
kernel's text symbols, for perf to use as a vmlinux (see COMMAND).

This VM's kernel comes without its vmlinux, so perf can never name it by a
file path; assembled, linked at the kernel's text address and given the
kernel's own build-id note (/sys/kernel/notes), this is a file perf accepts
as the vmlinux of the recording, and perf script then prints kernel frames
as "(/usr/lib/debug/boot/vmlinux-VERSION)" the way it does on a machine with
a debug kernel installed. Text symbols only ([tTwW] between _text and
_etext), sized up to the next one; the bytes are zeros (perf script does not
read them)."""
import sys

syms = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 3:  # module symbols have a fourth field
        syms.setdefault(f[2], (int(f[0], 16), f[1]))
text, etext = syms["_text"][0], syms["_etext"][0]
code = sorted((a, n) for n, (a, t) in syms.items()
              if t in "tTwW" and text <= a < etext and n != "_text")
with open(sys.argv[2], "w") as out:
    out.write('.section .text,"ax",@progbits\n.globl _text\n_text:\n')
    out.write(".skip %d\n" % (etext - text))
    for i, (a, n) in enumerate(code):
        nxt = code[i + 1][0] if i + 1 < len(code) else etext
        q = '"%s"' % n
        out.write(".globl %s\n.type %s,@function\n.set %s, _text + %d\n"
                  ".size %s, %d\n" % (q, q, q, a - text, q, nxt - a))
