# fronts.escape: legacy_json_codecs
# gate-free: fails
# Module allowlist: `json.codecs.open` opens files.

import json
json.codecs.open("/tmp/fronts-escape-legacy_json_codecs", "w").close()
