/*
 * pysrc — the host's own Python helpers, compiled into the binary so that
 * nothing Python runs on the host side is read from disk (least of all
 * from the project directory). Each is NUL-terminated.
 */
	.section .rodata
	.globl	pysrc_gate
	.type	pysrc_gate, @object
pysrc_gate:
	.incbin	"src/sandbox/py/gate.py"
	.byte	0
	.size	pysrc_gate, . - pysrc_gate

	.section .note.GNU-stack, "", @progbits
