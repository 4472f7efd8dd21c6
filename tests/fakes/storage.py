"""Strict fake of CircuitPython's ``storage``: ``remount`` as boot.py uses it."""

mounts = {"/": {"readonly": True}}  # readonly from code's point of view (USB writes)
calls = []


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    if not isinstance(mount_path, str):
        raise TypeError("mount_path must be a str")
    if mount_path not in mounts:
        raise OSError(19, "No such device")
    calls.append((mount_path, bool(readonly), bool(disable_concurrent_write_protection)))
    mounts[mount_path]["readonly"] = bool(readonly)


def getmount(mount_path):
    if mount_path not in mounts:
        raise OSError(19, "No such device")
    return mounts[mount_path]
