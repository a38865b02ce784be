# fronts.escape: eval_exec
# gate-free: fails
# gate: forbidden-name
# eval/exec/compile of a string the gate never parsed.

exec("__import__('os').open('/tmp/fronts-escape-eval_exec', 65)")
