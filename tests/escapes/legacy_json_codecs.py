# fronts.escape: legacy_json_codecs
# gate-free: fails
# gate: import
# Module allowlist: `json.codecs.open` opens files.

import json
json.codecs.open("/tmp/fronts-escape-legacy_json_codecs", "w").close()
