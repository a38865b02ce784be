# fronts.escape: method_globals_random_os
# gate-free: escapes
# gate: private-attribute
# Random's methods carry random's globals, which hold `_os`.

Random.seed.__globals__["_os"].open("/tmp/fronts-escape-method_globals_random_os", 65)
