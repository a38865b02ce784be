# fronts.escape: legacy_collections_sys
# gate-free: fails
# gate: import
# Module allowlist: `collections._sys` is sys.

from collections import _sys
_sys.modules["os"].open("/tmp/fronts-escape-legacy_collections_sys", 65)
