# fronts.escape: legacy_dataclasses_inspect_os
# gate-free: fails
# gate: import
# Module allowlist: `dataclasses.inspect.os`.

import dataclasses
dataclasses.inspect.os.open("/tmp/fronts-escape-legacy_dataclasses_inspect_os", 65)
