/*
 * demo_data.S — the bundled demo project, embedded in the binary so that
 * `fronts init` works from an installed copy with no data files beside it,
 * and the empty project of `fronts init --empty` (fixtures/empty). Each
 * file becomes <sym>_start/_end; demo.c lists them.
 */
#define DEMO_FILE(sym, path)		\
	.global sym##_start;		\
	.global sym##_end;		\
	.balign 16;			\
sym##_start:				\
	.incbin path;			\
sym##_end:				\
	.byte 0

	.section .rodata
DEMO_FILE(demo_fronts_json, "fixtures/demo/fronts.json")
DEMO_FILE(demo_rules_md, "fixtures/demo/rules.md")
DEMO_FILE(demo_history_jsonl, "fixtures/demo/history.jsonl")
DEMO_FILE(demo_drafts_jsonl, "fixtures/demo/drafts.jsonl")
DEMO_FILE(demo_model_py, "fixtures/demo/model.py")
DEMO_FILE(demo_harbour_png, "fixtures/demo/media/harbour.png")
DEMO_FILE(empty_fronts_json, "fixtures/empty/fronts.json")
DEMO_FILE(empty_rules_md, "fixtures/empty/rules.md")
DEMO_FILE(empty_history_jsonl, "fixtures/empty/history.jsonl")
DEMO_FILE(empty_drafts_jsonl, "fixtures/empty/drafts.jsonl")
DEMO_FILE(empty_readme_txt, "fixtures/empty/README.txt")

	.section .note.GNU-stack, "", @progbits
