# fronts.escape: match_class_attribute
# gate-free: escapes
# gate: private-attribute
# A class pattern reads attributes by keyword, with no ast.Attribute node:
# `case object(__globals__=g)` binds dataclass.__globals__.

match dataclass:
    case object(__globals__=g):
        g["sys"].modules["os"].open("/tmp/fronts-escape-match_class_attribute", 65)
