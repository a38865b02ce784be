# fronts.escape: coroutine_frame
# gate-free: fails
# gate: async
# The same walk through a coroutine's cr_frame.

async def co():
    return 1

c = co()
f = c.cr_frame
while f is not None:
    if "open" in f.f_builtins:
        f.f_builtins["open"]("/tmp/fronts-escape-coroutine_frame", "w").close()
    f = f.f_back
c.close()
raise RuntimeError("no frame with open")
