# fronts.escape: legacy_random_os
# gate-free: fails
# gate: import
# Module allowlist: `random` allowed, its private `_os` is os.
# Gate: import, private attribute. Gate-free: the import fails (no __import__).

import random
random._os.open("/tmp/fronts-escape-legacy_random_os", 65)
