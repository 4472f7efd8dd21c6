"""Draw the wiring diagram of the box: ``hardware/wiring.png``.

    python tools/draw_wiring.py [OUT.png]

The pins come from ``hardware/pins.py`` (the one pin plan), so the picture
follows the table. Drawn with pygame, headless (no window is opened).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT]
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from hardware import pins  # noqa: E402
from pc import pin_plan  # noqa: E402

W, H = 1600, 1040
BG = (250, 250, 246)
INK = (30, 30, 30)
GREY = (150, 150, 150)
PICO = (30, 110, 60)
GND = (20, 20, 20)
V5 = (210, 30, 30)
V33 = (230, 120, 20)
JUMPER = (255, 140, 0)
SIGNAL = (40, 90, 200)
SPI = (140, 60, 170)
PIXEL = (0, 150, 150)
PIN_GAP = 30
TOP = 210
PICO_L, PICO_R = 640, 840

HEADER = {  # Pico header pin -> label (the pins the plan does not name)
    3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 33: "GND", 38: "GND",
    30: "RUN", 35: "ADC_VREF", 36: "3V3", 37: "3V3_EN", 39: "VSYS", 40: "VBUS",
}


def pin_xy(header):
    """Screen position of a Pico header pin (USB at the top, pin 1 top left)."""
    if header <= 20:
        return PICO_L, TOP + (header - 1) * PIN_GAP
    return PICO_R, TOP + (40 - header) * PIN_GAP


def header_of(role):
    return pin_plan.row(role)[2]


class Pen:
    def __init__(self, surf):
        self.s = surf
        self.small = pygame.font.Font(None, 20)
        self.font = pygame.font.Font(None, 24)
        self.big = pygame.font.Font(None, 34)

    def text(self, s, x, y, font=None, color=INK, anchor="l"):
        img = (font or self.font).render(s, True, color)
        r = img.get_rect()
        if anchor == "l":
            r.midleft = (x, y)
        elif anchor == "r":
            r.midright = (x, y)
        else:
            r.center = (x, y)
        self.s.blit(img, r)

    def line(self, pts, color, width=3, dashed=False):
        if not dashed:
            pygame.draw.lines(self.s, color, False, pts, width)
            return
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            n = max(1, int(max(abs(x2 - x1), abs(y2 - y1)) // 12))
            for i in range(0, n, 2):
                a = (x1 + (x2 - x1) * i / n, y1 + (y2 - y1) * i / n)
                b = (x1 + (x2 - x1) * (i + 1) / n, y1 + (y2 - y1) * (i + 1) / n)
                pygame.draw.line(self.s, color, a, b, width)

    def box(self, x, y, w, h, title, fill=(235, 235, 235)):
        pygame.draw.rect(self.s, fill, (x, y, w, h), border_radius=8)
        pygame.draw.rect(self.s, INK, (x, y, w, h), 2, border_radius=8)
        self.text(title, x + w // 2, y + 16, self.font, INK, "c")

    def dot(self, x, y, color=INK, r=5):
        pygame.draw.circle(self.s, color, (int(x), int(y)), r)


def draw(path):
    pygame.font.init()
    surf = pygame.Surface((W, H))
    surf.fill(BG)
    pen = Pen(surf)
    pen.text("Referee Box wiring (Raspberry Pi Pico / Pico 2, CircuitPython)", 30, 30, pen.big)
    pen.text("from hardware/pins.py + pin_plan.py; buttons are active-low with internal pull-ups: "
             "no resistors on the buttons", 30, 60, pen.small, GREY)

    # --- the Pico --------------------------------------------------------------------
    pygame.draw.rect(surf, PICO, (PICO_L, TOP - 40, PICO_R - PICO_L, 20 * PIN_GAP + 50), border_radius=10)
    pygame.draw.rect(surf, (200, 200, 200), ((PICO_L + PICO_R) // 2 - 30, TOP - 58, 60, 26), border_radius=4)
    pen.text("USB", (PICO_L + PICO_R) // 2, TOP - 45, pen.small, INK, "c")
    pen.text("Raspberry Pi Pico (or Pico 2), from above", PICO_R - 10, TOP + 20 * PIN_GAP + 28,
             pen.font, PICO, "r")
    by_header = {r[2]: (r[0], r[1]) for r in pin_plan.PINS}
    for h in range(1, 41):
        x, y = pin_xy(h)
        used = h in by_header or HEADER.get(h) in ("GND", "3V3", "VSYS")
        pen.dot(x, y, (255, 215, 0) if used else (120, 160, 130), 7)
        label = by_header[h][1] if h in by_header else HEADER.get(h, "GP%d" % _gp(h))
        inside = x + 12 if h <= 20 else x - 12
        pen.text(label, inside, y, pen.small, (255, 255, 255), "l" if h <= 20 else "r")
        pen.text(str(h), x - 12 if h <= 20 else x + 12, y, pen.small, GREY, "r" if h <= 20 else "l")

    # --- rails -------------------------------------------------------------------------
    gnd_x = 90
    pen.line([(gnd_x, 150), (gnd_x, 980)], GND, 4)
    pen.text("GND", gnd_x, 140, pen.font, GND, "c")
    gx, gy = pin_xy(13)
    pen.line([(gx - 8, gy), (gnd_x, gy)], GND, 3)
    pen.dot(gnd_x, gy)

    # --- station buttons, MENU, piezo (left) -----------------------------------------
    for role in pins.STATIONS + ("MENU",):
        x, y = pin_xy(header_of(role))
        bx = 250
        pygame.draw.circle(surf, (230, 60, 60) if role != "MENU" else (90, 90, 90), (bx, y), 12)
        pygame.draw.circle(surf, INK, (bx, y), 12, 2)
        pen.text(role + (" button" if role == "MENU" else ""), bx + 20, y - 13, pen.font, INK, "l")
        pen.line([(bx + 12, y), (x - 8, y)], SIGNAL, 3)
        pen.line([(bx - 12, y), (bx - 30, y)], GND, 2)
        pen.line([(bx - 30, y), (bx - 30, y + 10), (gnd_x, y + 10)], GND, 2)
        pen.dot(gnd_x, y + 10, GND, 4)
    pen.text("one push button per station, a NeoPixel Ring 12 around each", 140, TOP - 60, pen.small, GREY)
    x, y = pin_xy(header_of("PIEZO"))
    pygame.draw.circle(surf, (40, 40, 40), (330, y + 40), 22)
    pen.text("piezo", 330, y + 40, pen.small, (255, 255, 255), "c")
    pen.line([(x - 8, y), (420, y), (420, y + 40), (352, y + 40)], SIGNAL, 3)
    pen.text("+", 360, y + 28, pen.small)
    pen.line([(308, y + 40), (gnd_x, y + 40)], GND, 2)
    pen.dot(gnd_x, y + 40, GND, 4)

    # --- display (right) ------------------------------------------------------------------
    dx, dy = 1130, 330
    # the same pins on both displays; where their labels differ: ST7789 / ILI9341
    disp_pins = [("Vin", "3V3"), ("GND", "GND"), ("SCK / CLK", "TFT_SCK"), ("MOSI", "TFT_MOSI"),
                 ("TCS / CS", "TFT_CS"), ("RST", "TFT_RST"), ("D/C", "TFT_DC"), ("Lite", "TFT_LITE")]
    pen.box(dx, dy, 240, 60 + len(disp_pins) * 36, "320x240 display (SPI)", (225, 235, 250))
    colors = {"3V3": V33, "GND": GND, "TFT_LITE": JUMPER}
    for k, (pname, role) in enumerate(disp_pins):
        py = dy + 60 + k * 36
        pen.dot(dx, py, INK, 6)
        pen.text(pname, dx + 14, py, pen.font)
        header = {"3V3": 36, "GND": 38}.get(role) or header_of(role)
        sx, sy = pin_xy(header)
        chan = 900 + k * 28
        col = colors.get(role, SPI)
        pen.line([(sx + 8, sy), (chan, sy), (chan, py), (dx - 6, py)], col, 3)
    # the jumper: Lite/GP22 back to GP9
    lx, ly = pin_xy(header_of("TFT_LITE"))
    rx, ry = pin_xy(header_of("REVEAL"))
    pen.line([(lx, ly), (lx - 30, ly + 14), (rx + 30, ry + 14), (rx, ry)], JUMPER, 4, dashed=True)
    pen.text("jumper GP22 -> GP9 (REVEAL): the PIO sees", 150, pin_xy(15)[1], pen.font, JUMPER)
    pen.text("the backlight switch in the same sample as the buttons", 150, pin_xy(16)[1], pen.font, JUMPER)

    # --- power, level shifter, rings (bottom) ----------------------------------------------
    px_, py_ = 140, 880
    pen.box(px_, py_, 210, 110, "5 V 4 A supply", (250, 225, 225))
    pen.line([(px_ + 210, py_ + 40), (1560, py_ + 40)], V5, 4)
    pen.text("+5 V", 380, py_ + 28, pen.font, V5)
    pen.line([(px_, py_ + 80), (gnd_x, py_ + 80)], GND, 4)
    pen.dot(gnd_x, py_ + 80)
    # 1000 uF across the supply at the rings
    cx = 470
    pen.line([(cx, py_ + 40), (cx, py_ + 62)], V5, 3)
    pygame.draw.line(surf, INK, (cx - 16, py_ + 62), (cx + 16, py_ + 62), 4)
    pygame.draw.line(surf, INK, (cx - 16, py_ + 72), (cx + 16, py_ + 72), 4)
    pen.line([(cx, py_ + 72), (cx, py_ + 100), (gnd_x, py_ + 100)], GND, 2)
    pen.text("1000 uF", cx + 24, py_ + 66, pen.small)
    # VSYS through a Schottky diode
    vx, vy = pin_xy(39)
    pen.line([(vx + 8, vy), (1540, vy), (1540, py_ + 40)], V5, 3)
    pen.text("VSYS <- 5 V through a Schottky diode (1N5817), so USB and the supply may both be connected",
             1530, vy - 14, pen.small, V5, "r")
    # 74AHCT125
    lx0, ly0 = 700, 860
    pen.box(lx0, ly0, 190, 120, "74AHCT125", (235, 235, 210))
    for k, (name, txt) in enumerate((("1A", "GP16"), ("1OE", "GND"), ("VCC", "+5 V"), ("1Y", "-> 330R -> DIN"))):
        pen.text(name + ": " + txt, lx0 + 14, ly0 + 42 + k * 20, pen.small)
    nx, ny = pin_xy(header_of("NEOPIXEL"))
    pen.line([(nx + 8, ny), (nx + 30, ny), (nx + 30, 830), (lx0 + 95, 830), (lx0 + 95, ly0)], PIXEL, 3)
    pen.text("3.3 V data -> 5 V data", nx + 40, 818, pen.small, PIXEL)
    # rings chain
    rx0 = 960
    pen.line([(lx0 + 190, ly0 + 102), (rx0 - 24, ly0 + 102)], PIXEL, 3)
    pen.text("330R", lx0 + 196, ly0 + 88, pen.small, PIXEL)
    for k in range(7):
        x = rx0 + k * 86
        pygame.draw.circle(surf, (60, 60, 60), (x, ly0 + 102), 24, 7)
        pen.text("P%d" % (k + 1), x, ly0 + 102, pen.small, INK, "c")
        if k:
            pen.line([(x - 62, ly0 + 102), (x - 26, ly0 + 102)], PIXEL, 3)
        pen.line([(x, ly0 + 78), (x, py_ + 40)], V5, 2)
    pen.text("NeoPixel Ring 12 x 7, chained DOUT -> DIN (84 pixels); each ring to +5 V and GND",
             rx0 - 20, ly0 + 142, pen.small, GREY)
    pygame.image.save(surf, path)
    return path


def _gp(header):
    """GPIO number of a header pin that the plan does not use (for labels)."""
    left = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 9: 6, 10: 7, 11: 8, 12: 9, 14: 10, 15: 11, 16: 12,
            17: 13, 19: 14, 20: 15}
    right = {21: 16, 22: 17, 24: 18, 25: 19, 26: 20, 27: 21, 29: 22, 31: 26, 32: 27, 34: 28}
    return left.get(header, right.get(header, -1))


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(prog="python tools/draw_wiring.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=os.path.join(ROOT, "hardware", "wiring.png"), metavar="OUT.png",
                    help="where to write the picture (default: hardware/wiring.png)")
    args = ap.parse_args(argv)
    print(draw(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
