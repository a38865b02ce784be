# fronts.escape: legacy_re_enum_sys
# gate-free: fails
# gate: import
# Module allowlist: `re.enum.sys`, a module two hops away.

import re
re.enum.sys.modules["os"].open("/tmp/fronts-escape-legacy_re_enum_sys", 65)
