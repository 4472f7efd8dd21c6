"""Type-hint names for libraries run under a bare CPython (annotations are
evaluated there). CircuitPython never imports this: its ``typing`` import fails
first inside the libraries' try/except ImportError."""


def __getattr__(name):
    return object
