/* frames.S: three aarch64 frames with known CFI, for check_unwind.c (no
 * aarch64 machine is at hand to record a real sample; the test builds the
 * registers and the stack copy of a sample taken at leaf_pc by hand).
 *
 *   _start (return address undefined: the outermost frame)
 *     -> mid  (frame record x29/x30 and x19 saved; CFA = x29 + 32)
 *       -> leaf (sp moved by 16; the return address stays in x30)
 *
 * Build: see COMMAND. */
	.text

	.globl	_start
	.type	_start, %function
_start:
	.cfi_startproc
	.cfi_undefined x30
	mov	x29, #0
	bl	mid
	.globl	start_ret
start_ret:
	b	.
	.cfi_endproc
	.size	_start, . - _start

	.globl	mid
	.type	mid, %function
mid:
	.cfi_startproc
	stp	x29, x30, [sp, #-32]!
	.cfi_def_cfa_offset 32
	.cfi_offset x29, -32
	.cfi_offset x30, -24
	mov	x29, sp
	.cfi_def_cfa_register x29
	str	x19, [sp, #16]
	.cfi_offset x19, -16
	bl	leaf
	.globl	mid_ret
mid_ret:
	ldr	x19, [sp, #16]
	ldp	x29, x30, [sp], #32
	.cfi_def_cfa sp, 0
	ret
	.cfi_endproc
	.size	mid, . - mid

	.globl	leaf
	.type	leaf, %function
leaf:
	.cfi_startproc
	sub	sp, sp, #16
	.cfi_def_cfa_offset 16
	.globl	leaf_pc
leaf_pc:
	nop
	add	sp, sp, #16
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	leaf, . - leaf
