# fronts.escape: format_string
# gate-free: escapes
# gate: format-string
# str.format resolves attributes and items inside the format string, so a
# string can walk where code may not: this one reaches os.environ (where
# API keys live) and sys.modules without a single `.` in code that the
# attribute rule would see. Gate: `.format` is refused.

leak = "{0.__globals__[sys].modules[os].environ}".format(dataclass)
if "PATH" in leak:
    dataclass.__globals__["sys"].modules["os"].open("/tmp/fronts-escape-format_string", 65)
