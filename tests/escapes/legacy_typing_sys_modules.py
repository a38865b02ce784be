# fronts.escape: legacy_typing_sys_modules
# gate-free: fails
# gate: import
# Module allowlist: `typing.sys.modules` holds every loaded module.

import typing
typing.sys.modules["os"].open("/tmp/fronts-escape-legacy_typing_sys_modules", 65)
