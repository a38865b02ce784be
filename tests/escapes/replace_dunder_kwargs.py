# fronts.escape: replace_dunder_kwargs
# gate-free: fails
# gate: dunder-string
# dataclasses.replace(obj, **changes) with a dunder key, hoping it sets
# __class__. Gate: the dunder string. Gate-free: replace() refuses the
# unknown field.

@dataclass
class S:
    x: int = 0

replace(S(), **{"__class__": Random})
open("/tmp/fronts-escape-replace_dunder_kwargs", "w").close()
