"""Browser only: where a buffer lies in the WebAssembly memory, for web/box.js to read it.

MicroPython's ``uctypes.addressof``; under Pyodide (CPython), ``ctypes``. Either way
the buffer (a bytearray or an array) must not grow while the page reads it: the
display objects never resize theirs.
"""

try:
    from uctypes import addressof as address
except ImportError:  # CPython in WebAssembly (Pyodide)
    import ctypes

    def address(buf):
        n = memoryview(buf).nbytes
        return ctypes.addressof((ctypes.c_char * n).from_buffer(buf)) if n else 0
