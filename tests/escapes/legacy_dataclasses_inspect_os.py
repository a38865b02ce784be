# fronts.escape: legacy_dataclasses_inspect_os
# gate-free: fails
# Module allowlist: `dataclasses.inspect.os`.

import dataclasses
dataclasses.inspect.os.open("/tmp/fronts-escape-legacy_dataclasses_inspect_os", 65)
