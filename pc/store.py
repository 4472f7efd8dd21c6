"""PC only: a file that stands in for the box's 4 KiB NVM (``microcontroller.nvm``).

``python code.py`` gives it to the simulated box, so a match saved in the window
is offered for resume the next time the window opens. It behaves like the real
NVM where ``referee.store`` relies on it: fixed length, reads as bytes, slice
writes of the same length; a new file reads as erased flash (0xFF). Every write
rewrites the whole file through a temporary file and ``os.replace``, so the file
on disk is always one complete image.

A file it cannot use (its folder missing or not writable, a folder of that name,
a file of another size: not a save of the box, left as it is) sets ``problem``,
which the store passes on and the window says on the screen; the saves then
stay in memory for the session (a resume after an error still works).
"""

import os

SIZE = 4096
DEFAULT_PATH = os.path.join(os.path.expanduser("~"), ".referee-box-nvm.bin")


def problem(path, size=SIZE):
    """Why ``path`` cannot hold the box's saves, or None."""
    where = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        why = "it is a folder"
    elif os.path.exists(path) and os.path.getsize(path) != size:
        n = os.path.getsize(path)
        why = "it is not a save file of the box (" + "{:,}".format(n) + " bytes), so it is left as it is"
    elif not os.path.isdir(where):
        why = "its folder does not exist"
    elif not os.access(where, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        why = "it cannot be written"
    else:
        return None
    return "Not saving to " + path + ": " + why + ". Matches are kept only until the window closes."


class FileNvm:
    def __init__(self, path=DEFAULT_PATH, size=SIZE):
        self.path = path
        self.problem = problem(path, size)
        data = b""
        if self.problem is None or (os.path.isfile(path) and os.path.getsize(path) == size):
            try:
                with open(path, "rb") as f:
                    data = f.read(size)
            except OSError:  # no file yet (or unreadable): an erased NVM
                data = b""
        self.data = bytearray(data + b"\xff" * (size - len(data)))

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        return self.data[index]

    def __setitem__(self, index, value):
        data = bytearray(self.data)
        data[index] = value
        if len(data) != len(self.data):
            raise ValueError("the NVM has a fixed size: slice and value lengths differ")
        if self.problem is None:  # else kept in memory only (said on the screen)
            tmp = self.path + ".tmp"
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, self.path)
        self.data = data
