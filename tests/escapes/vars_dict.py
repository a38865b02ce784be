# fronts.escape: vars_dict
# gate-free: fails
# gate: forbidden-name
# vars() exposes __dict__ (of a class: its functions, whose globals follow).

for v in vars(Random).values():
    g = getattr(v, "__globals__", None)
    if g:
        g["_os"].open("/tmp/fronts-escape-vars_dict", 65)
        break
