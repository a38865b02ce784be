# fronts.escape: default_factory_frame
# gate-free: escapes
# gate: introspection-attribute
# A dataclass default_factory runs inside the __init__ that dataclasses
# generated with exec(); that frame's globals hold the real builtins. A
# traceback leads from the factory's own frame to it.

def grab():
    try:
        raise ValueError
    except ValueError as e:
        host = e.__traceback__.tb_frame.f_back
    host.f_globals["__builtins__"]["open"]("/tmp/fronts-escape-default_factory_frame", "w").close()
    return 0

@dataclass
class S:
    x: int = field(default_factory=grab)

S()
