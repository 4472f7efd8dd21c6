"""Stand-in for ``adafruit_display_text`` inside the MicroPython VM (tests only).

``Label`` keeps text, colours, scale and anchoring, and places itself like the real
library does with ``terminalio.FONT`` (6x12 cells, 1.25 line spacing), so ``x``/``y``
agree with CPython; it draws nothing."""

from displayio import Group

_CELL_W = 6
_CELL_H = 12
_Y_OFFSET = -5  # the real bounding box starts 5 px above the label's origin


class LabelBase(Group):
    def __init__(self, font=None, *, text="", color=0xFFFFFF, background_color=None,
                 scale=1, anchor_point=None, anchored_position=None, x=0, y=0,
                 line_spacing=1.25, padding_top=0, padding_bottom=0, padding_left=0,
                 padding_right=0, background_tight=False, label_direction="LTR",
                 base_alignment=False, tab_replacement=(4, " "), **kwargs):
        super().__init__(scale=1, x=x, y=y)
        self._font = font
        self._text = str(text)
        self._scale = scale
        self._anchor_point = anchor_point
        self._anchored_position = anchored_position
        self.color = color
        self.background_color = background_color
        self.line_spacing = line_spacing
        self.padding_top = padding_top
        self.padding_bottom = padding_bottom
        self.padding_left = padding_left
        self.padding_right = padding_right
        self.background_tight = background_tight
        self.label_direction = label_direction
        self.base_alignment = base_alignment
        self.tab_replacement = tab_replacement
        for k in kwargs:
            setattr(self, k, kwargs[k])
        self._place()

    @property
    def bounding_box(self):
        if not self._text:
            return (0, 0, 0, 0)
        lines = self._text.split("\n")
        width = _CELL_W * max(len(line) for line in lines)
        height = _CELL_H + int(_CELL_H * self.line_spacing) * (len(lines) - 1)
        return (0, _Y_OFFSET, width, height)

    def _place(self):
        if self._anchor_point is None or self._anchored_position is None:
            return
        bx, by, bw, bh = self.bounding_box
        ax, ay = self._anchor_point
        px, py = self._anchored_position
        s = self._scale
        self.x = int(px - bx * s - round(ax * bw * s))
        self.y = int(py - by * s - round(ay * bh * s))

    @property
    def font(self):
        return self._font

    @font.setter
    def font(self, value):
        self._font = value
        self._place()

    @property
    def text(self):
        return self._text

    @text.setter
    def text(self, value):
        self._text = str(value)
        self._place()

    @property
    def scale(self):
        return self._scale

    @scale.setter
    def scale(self, value):
        # Group.__init__ sets scale before _scale exists
        self._scale = value
        if hasattr(self, "_text"):
            self._place()

    @property
    def anchor_point(self):
        return self._anchor_point

    @anchor_point.setter
    def anchor_point(self, value):
        self._anchor_point = value
        self._place()

    @property
    def anchored_position(self):
        return self._anchored_position

    @anchored_position.setter
    def anchored_position(self, value):
        self._anchored_position = value
        self._place()

    @property
    def width(self):
        return self.bounding_box[2]

    @property
    def height(self):
        return self.bounding_box[3]


def wrap_text_to_pixels(string, max_width, font=None, indent0="", indent1=""):
    return wrap_text_to_lines(string, max(1, max_width // _CELL_W))


def wrap_text_to_lines(string, max_chars):
    lines = []
    for para in string.split("\n"):
        line = ""
        for word in para.split(" "):
            if line and len(line) + 1 + len(word) > max_chars:
                lines.append(line)
                line = word
            else:
                line = word if not line else line + " " + word
        lines.append(line)
    return lines
