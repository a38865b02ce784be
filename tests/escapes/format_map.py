# fronts.escape: format_map
# gate-free: escapes
# gate: format-string
# format_map, the same walk with a mapping.

leak = "{d.__globals__[sys].modules[os].environ}".format_map({"d": replace})
if "PATH" in leak:
    replace.__globals__["sys"].modules["os"].open("/tmp/fronts-escape-format_map", 65)
