# fronts.escape: descriptor_set_name
# gate-free: escapes
# gate: dunder-definition
# A descriptor's __set_name__ runs at class creation with the owner class;
# __get__ runs whenever the host reads the attribute. Gate: defining these
# hooks and `_`-attributes are refused.

class D:
    def __set_name__(self, owner, name):
        Random.seed.__globals__["_os"].open("/tmp/fronts-escape-descriptor_set_name", 65)

@dataclass
class S:
    x: int = 0
    d = D()
