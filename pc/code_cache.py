"""PC only: the box's modules compiled once per process, however often they are imported.

The app forgets a game's modules after its match and the launcher's while a game runs
(``games.unload``, ``referee.core.forget``: on the device that frees their heap), so a
simulator that plays many matches or builds many boxes (a test file, the fuzz, the
benchmark, the balance lab) imports the same files again and again. Python reads a
module's compiled code from its ``.pyc`` when it may write one; with
``PYTHONDONTWRITEBYTECODE`` set (this machine's environment does) every import compiles
the source again, and that was a large part of a match's cost. ``install()`` keeps the
code object compiled from each file's exact source bytes, for the project's own files:
an import still runs the module afresh (a new module, its top level executed as
before); only the compilation of bytes already compiled is skipped. A file changed on
disk has other bytes and is compiled anew.
"""

import os
from importlib.machinery import SourceFileLoader

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_CODE = {}  # (path, source bytes, optimize) -> code object
_PYTHON = []  # SourceFileLoader's own source_to_code, once installed


def _source_to_code(self, data, path, *, _optimize=-1):
    if not (isinstance(path, str) and path.startswith(_ROOT)) or "site-packages" in path:
        return _PYTHON[0](self, data, path, _optimize=_optimize)
    key = (path, bytes(data), _optimize)
    code = _CODE.get(key)
    if code is None:
        code = _CODE[key] = _PYTHON[0](self, data, path, _optimize=_optimize)
    return code


def install():
    """Idempotent: project modules' code is compiled once per source (see above)."""
    if not _PYTHON:
        _PYTHON.append(SourceFileLoader.source_to_code)
        SourceFileLoader.source_to_code = _source_to_code
