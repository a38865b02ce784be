async def f():
    await g()
class A(B, metaclass=M):
    def __del__(self): global x
