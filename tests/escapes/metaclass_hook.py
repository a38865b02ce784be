# fronts.escape: metaclass_hook
# gate-free: escapes
# gate: metaclass
# A metaclass (type, reached as Random.__class__) whose __call__ runs on
# every instantiation; here it walks to sys. Gate: `_`-attributes and
# metaclass= are refused.

Meta = Random.__class__

class Hook(metaclass=Meta):
    pass

dataclass.__globals__["sys"].modules["os"].open("/tmp/fronts-escape-metaclass_hook", 65)
