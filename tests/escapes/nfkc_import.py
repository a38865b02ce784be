# fronts.escape: nfkc_import
# gate-free: fails
# gate: forbidden-name
# An identifier Python normalises (NFKC) to __import__: U+FE33 is a
# "vertical low line" that becomes "_". Gate: it sees the normalised name.
# Gate-free: __import__ is not in the builtins.

_︳import︳_("os").open("/tmp/fronts-escape-nfkc_import", 65)
