"""CircuitPython's rules for native types (``displayio.Group``, ``TileGrid``, ``Bitmap``,
``Palette``, ``ColorConverter``, vectorio shapes, ...), given to the fakes that stand in
for them on CPython.

What the firmware does (CircuitPython 10.2.1, ``py/objtype.c`` and ``py/objobject.c``):

- **No ``__init__`` attribute.** A native type builds its object in ``make_new``; it has
  no ``__init__`` in its locals, so ``displayio.Group.__init__(self, ...)`` raises
  ``AttributeError: type object 'Group' has no attribute '__init__'`` (it stopped the
  box at boot). ``super().__init__(...)`` from a subclass is special-cased
  (``super_attr`` looks up ``make_new`` and calls ``native_base_init_wrapper``).
- **A subclass that never calls ``super().__init__``** still gets its native part: after
  the Python ``__init__`` returns, ``mp_obj_instance_make_new`` builds it with the
  constructor's own arguments (which the native type may then refuse).
- **No new attributes on a native object.** An instance of the native type itself has no
  ``__dict__``: ``displayio.Group().label = "x"`` raises ``AttributeError``. An instance
  of a Python subclass has one (its ``members`` map) and takes any attribute.

``NativeType`` is the metaclass that gives a fake class these rules; ``sealed(cls)``
wraps a class someone else wrote (Blinka's) in a subclass that follows them.
"""


def _native_owner(cls):
    """True when the ``__init__`` a lookup of ``cls.__init__`` finds is a native type's."""
    for k in cls.__mro__:
        if "__init__" in k.__dict__:
            return "__native__" in k.__dict__
    return False


class NativeType(type):
    """Metaclass of a faked native type: see the module docstring."""

    def __new__(mcs, name, bases, ns):
        cls = super().__new__(mcs, name, bases, ns)
        if "__native__" in ns:
            init = ns.get("__init__")
            if init is None:  # a wrapper (sealed()): the wrapped class's own __init__
                init = next(k.__dict__["__init__"] for k in cls.__mro__[1:]
                            if "__init__" in k.__dict__)

            def __init__(self, *args, **kwargs):
                init(self, *args, **kwargs)
                object.__setattr__(self, "_native_made", True)

            __init__.__qualname__ = name + ".__init__"
            type.__setattr__(cls, "__init__", __init__)
        return cls

    def __getattribute__(cls, name):
        if name == "__init__":
            if _native_owner(cls):
                raise AttributeError("type object '%s' has no attribute '__init__'"
                                     % type.__getattribute__(cls, "__name__"))
        return type.__getattribute__(cls, name)

    def __call__(cls, *args, **kwargs):
        obj = type.__call__(cls, *args, **kwargs)
        if not obj.__dict__.get("_native_made"):
            # the Python __init__ never reached the native one: the firmware builds the
            # native part now, from the constructor's own arguments
            for k in cls.__mro__:
                if "__native__" in k.__dict__:
                    k.__dict__["__init__"](obj, *args, **kwargs)
                    break
        return obj


# Writes that make the display redraw even when nothing changes (the firmware's C code):
# a TileGrid's tile (``grid[i] = t`` marks the tile dirty whatever it held), a TileGrid's
# or a vectorio shape's ``hidden`` (False: the whole layer again; True: its area again),
# a shape's ``width``/``height`` and any layer's ``pixel_shader``. A Group's ``hidden``,
# ``x``/``y`` and a Palette colour are checked first by the firmware: no redraw.
# Each such write of the value already there is a redraw for nothing: it is noted here
# ("TileGrid.hidden", ...) for tests/test_redraws.py.
# And a Group's ``hidden`` written with a new value marks every vectorio shape in it
# dirty, hidden ones too, through its shown subgroups (shared-module/displayio/Group.c:
# ``draw_set_dirty`` on each shape, no look at its own ``hidden``; VectorShape.c's refresh
# areas do not look either): a hidden shape's box redrawn for nothing, noted
# "Group.hidden: a hidden shape" (Würfelblitz's dice group held its six hidden frames:
# their 15,000 px redrawn whenever the dice were shown, a 41-48 ms refresh).
REDRAW_ATTRS = {"TileGrid": ("hidden", "pixel_shader"),
                "Rectangle": ("hidden", "width", "height", "pixel_shader"),
                "Circle": ("hidden", "radius", "pixel_shader"),
                "Polygon": ("hidden", "pixel_shader")}
WASTED = []


def _native_name(cls):
    for k in cls.__mro__:
        if "__native__" in k.__dict__:
            return k.__name__
    return None


def _seal_setattr(self, name, value):
    cls = type(self)
    if ("__native__" in cls.__dict__ and name[:1] != "_" and not hasattr(cls, name)
            and self.__dict__.get("_native_made")):  # (the fake's own __init__ may)
        raise AttributeError("'%s' object has no attribute '%s'" % (cls.__name__, name))
    if name in ("hidden", "width", "height", "radius", "pixel_shader") and self.__dict__.get("_native_made"):
        native = _native_name(cls)
        if name in REDRAW_ATTRS.get(native, ()):
            try:
                same = getattr(self, name) is value or getattr(self, name) == value
            except AttributeError:
                same = False
            if same:
                WASTED.append(native + "." + name)
        elif native == "Group" and name == "hidden" and bool(value) != bool(getattr(self, "hidden", False)):
            if _hidden_shape(self):
                WASTED.append("Group.hidden: a hidden shape")
    object.__setattr__(self, name, value)


def _hidden_shape(group):
    # a hidden vectorio shape that a write of ``group.hidden`` marks dirty (Group.c: the
    # shapes in it and in its subgroups not hidden themselves)
    for layer in group:
        native = _native_name(type(layer))
        if native == "Group":
            if not layer.hidden and _hidden_shape(layer):
                return True
        elif native in ("Rectangle", "Circle", "Polygon") and layer.hidden:
            return True
    return False


def sealed(cls):
    """A subclass of ``cls`` (a Python class standing in for a native type, e.g. Blinka's
    ``displayio.Group``) with the firmware's rules for native types."""
    ns = {"__native__": True, "__setattr__": _seal_setattr, "__module__": cls.__module__,
          "__doc__": cls.__doc__}
    if cls.__name__ == "TileGrid":
        def __setitem__(self, index, value):
            if self[index] == value:
                WASTED.append("TileGrid[]")
            cls.__setitem__(self, index, value)  # (looked up now: pc/fast_displayio.py's once installed)

        ns["__setitem__"] = __setitem__
    return NativeType(cls.__name__, (cls,), ns)


def seal_module(module, names):
    """Replace each of ``names`` in ``module`` by its ``sealed`` version (once)."""
    for name in names:
        cls = getattr(module, name, None)
        if cls is not None and not isinstance(cls, NativeType):
            setattr(module, name, sealed(cls))


# The native types that box code builds or subclasses, per module.
NATIVE = {
    "displayio": ("Group", "TileGrid", "Bitmap", "Palette", "ColorConverter"),
    "vectorio": ("Rectangle", "Circle", "Polygon"),
}


def seal_display_modules():
    """Seal the native types of the ``displayio`` and ``vectorio`` importable now
    (Blinka's, in-process)."""
    import importlib

    for modname, names in NATIVE.items():
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        seal_module(module, names)
