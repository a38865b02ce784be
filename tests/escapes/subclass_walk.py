# fronts.escape: subclass_walk
# gate-free: escapes
# gate: private-attribute
# The classic: object's subclasses include importers that load any module.

for c in ().__class__.__bases__[0].__subclasses__():
    if c.__name__ == "BuiltinImporter":
        c.load_module("posix").open("/tmp/fronts-escape-subclass_walk", 65)
