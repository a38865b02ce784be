# fronts.escape: nfkc_eval
# gate-free: fails
# gate: forbidden-name
# Fullwidth letters: ｅｖａｌ is eval to Python.

ｅｖａｌ("__import__('os')").open("/tmp/fronts-escape-nfkc_eval", 65)
