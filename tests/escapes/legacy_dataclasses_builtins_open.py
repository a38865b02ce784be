# fronts.escape: legacy_dataclasses_builtins_open
# gate-free: fails
# gate: import
# Module allowlist: `dataclasses.builtins` is the unrestricted builtins.

import dataclasses
dataclasses.builtins.open("/tmp/fronts-escape-legacy_dataclasses_builtins_open", "w").close()
