# fronts.escape: type_three_args
# gate-free: fails
# gate: forbidden-name
# type(name, bases, dict) builds a class from a dict of strings, e.g. with
# a __del__ that runs when the host collects it. Gate: type is refused.
# Gate-free: type is not in the builtins.

X = type("X", (), {"__del__": lambda self: open("/tmp/fronts-escape-type_three_args", "w")})
X()
