# fronts.escape: exception_traceback
# gate-free: escapes
# gate: introspection-attribute
# An exception's __traceback__ leads to frames; raised inside a host
# callback (a dataclass default_factory) the frame above is the host's.

def factory():
    try:
        1 / 0
    except ZeroDivisionError as e:
        tb = e.__traceback__
    fr = tb.tb_frame.f_back
    fr.f_builtins["open"]("/tmp/fronts-escape-exception_traceback", "w").close()
    return 0

@dataclass
class S:
    x: int = field(default_factory=factory)

S()
