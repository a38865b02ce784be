/*
 * prompts — the synthesis prompt templates (the .txt files in src/runs/prompts),
 * compiled into the binary so that an installed fronts needs no data
 * files to write a prompt, and so the prompt (which names recordings by
 * its hash) cannot drift from the binary. Each is NUL-terminated.
 */
	.section .rodata

	.globl	prompt_system
	.type	prompt_system, @object
prompt_system:
	.incbin	"src/runs/prompts/system.txt"
	.byte	0
	.size	prompt_system, . - prompt_system

	.globl	prompt_task
	.type	prompt_task, @object
prompt_task:
	.incbin	"src/runs/prompts/task.txt"
	.byte	0
	.size	prompt_task, . - prompt_task

	.globl	prompt_refine
	.type	prompt_refine, @object
prompt_refine:
	.incbin	"src/runs/prompts/refine.txt"
	.byte	0
	.size	prompt_refine, . - prompt_refine

	.globl	prompt_builtin
	.type	prompt_builtin, @object
prompt_builtin:
	.incbin	"src/runs/prompts/builtin.txt"
	.byte	0
	.size	prompt_builtin, . - prompt_builtin

	.section .note.GNU-stack, "", @progbits
