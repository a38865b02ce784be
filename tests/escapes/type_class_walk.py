# fronts.escape: type_class_walk
# gate-free: escapes
# gate: private-attribute
# The subclass walk starting from a pre-bound class instead of a literal.

for c in Random.__mro__[-1].__subclasses__():
    if c.__name__ == "BuiltinImporter":
        c.load_module("posix").open("/tmp/fronts-escape-type_class_walk", 65)
