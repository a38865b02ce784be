# fronts.escape: legacy_dataclasses_sys
# gate-free: fails
# gate: import
# Module allowlist: `dataclasses.sys` is sys.

import dataclasses as dc
dc.sys.modules["os"].open("/tmp/fronts-escape-legacy_dataclasses_sys", 65)
