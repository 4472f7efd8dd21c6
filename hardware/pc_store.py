"""PC only: a file that stands in for the box's 4 KiB NVM (``microcontroller.nvm``).

``python code.py`` gives it to the simulated box, so a match saved in the window
is offered for resume the next time the window opens. It behaves like the real
NVM where ``referee.store`` relies on it: fixed length, reads as bytes, slice
writes of the same length; a new file reads as erased flash (0xFF). Every write
rewrites the whole file through a temporary file and ``os.replace``, so the file
on disk is always one complete image.
"""

import os

SIZE = 4096
DEFAULT_PATH = os.path.join(os.path.expanduser("~"), ".referee-box-nvm.bin")


class FileNvm:
    def __init__(self, path=DEFAULT_PATH, size=SIZE):
        self.path = path
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
        self.data = data
        tmp = self.path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self.data)
        os.replace(tmp, self.path)
