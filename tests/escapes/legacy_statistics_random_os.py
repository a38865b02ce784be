# fronts.escape: legacy_statistics_random_os
# gate-free: fails
# gate: import
# Module allowlist: two hops, statistics -> random -> os.

import statistics
statistics.random._os.open("/tmp/fronts-escape-legacy_statistics_random_os", 65)
