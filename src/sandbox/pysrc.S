/*
 * pysrc — the host's own Python helpers, compiled into the binary so that
 * nothing Python runs on the host side is read from disk (least of all
 * from the project directory), and the builtin world model that
 * `fronts synth --provider builtin` writes and the backtest measures as a
 * baseline. Each is NUL-terminated.
 */
	.section .rodata
	.globl	pysrc_gate
	.type	pysrc_gate, @object
pysrc_gate:
	.incbin	"src/sandbox/py/gate.py"
	.byte	0
	.size	pysrc_gate, . - pysrc_gate

	.globl	pysrc_builtin_model
	.type	pysrc_builtin_model, @object
pysrc_builtin_model:
	.incbin	"src/sandbox/py/builtin_model.py"
	.byte	0
	.size	pysrc_builtin_model, . - pysrc_builtin_model

	.section .note.GNU-stack, "", @progbits
