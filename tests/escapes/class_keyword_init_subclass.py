# fronts.escape: class_keyword_init_subclass
# gate-free: escapes
# gate: class-keyword
# Class keywords go to __init_subclass__; a base defining it runs code at
# every subclass creation, with the new class.

class Base:
    def __init_subclass__(cls, hook=None):
        hook.__globals__["sys"].modules["os"].open("/tmp/fronts-escape-class_keyword_init_subclass", 65)

class Child(Base, hook=dataclass):
    pass
