#!/usr/bin/env python3
"""Writes Docs/Colors.md: the verdict of Horari's red-family rule on all 147
CSS colour names, from the palette in ItemColor+Palette.swift and the same
CIE L*C*h(ab) arithmetic as ItemColor.lch (sRGB, D65). The bounds are
ReservedRedFamily's defaults; ItemColorTests checks every row against the
library, so a change on either side fails until this is re-run.

    python3 Scripts/generate_colors_table.py > Docs/Colors.md
"""
import math
import pathlib
import re

HUES, MIN_CHROMA, MAX_LIGHTNESS = (20, 50), 40, 65

root = pathlib.Path(__file__).resolve().parent.parent
palette = (root / "Sources/CalendarCore/Items/ItemColor+Palette.swift").read_text()
colors = [(n, int(r), int(g), int(b)) for n, r, g, b in re.findall(r'\("(\w+)", RGB\((\d+), (\d+), (\d+)\)\)', palette)]


def lch(r, g, b):
    def lin(v):
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4
    r, g, b = lin(r), lin(g), lin(b)
    x = 0.4124 * r + 0.3576 * g + 0.1805 * b
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = 0.0193 * r + 0.1192 * g + 0.9505 * b
    xn, zn = 0.3127 / 0.3290, (1 - 0.3127 - 0.3290) / 0.3290

    def f(t):
        d = 6 / 29
        return math.copysign(abs(t) ** (1 / 3), t) if t > d ** 3 else t / (3 * d * d) + 4 / 29
    fx, fy, fz = f(x / xn), f(y), f(z / zn)
    l, a, bb = 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)
    return l, math.hypot(a, bb), math.degrees(math.atan2(bb, a)) % 360


print("""# Colours and the red family

A day with two or more items is drawn **red**, so no colour a person could
take for that red may mark a single item. `CalendarItem.validate` refuses
every colour of the **red family** (`ReservedRedFamily`), a region of
CIE L\\*C\\*h(ab) — the space where a colour's hue, colourfulness (chroma) and
lightness are three separate numbers — rather than a distance from pure red,
which let `crimson`, `firebrick` and `maroon` through.

A colour is in the red family when all three hold:

| bound | value | why |
|---|---|---|
| hue h(ab) | 20° … 50° | sRGB red sits at 40°; crimson (25°) and orangered (45.5°) read as red; deeppink (356°), sienna (50.5°) and chocolate (57°) read as pink or brown |
| chroma C\\* | ≥ 40 | below it a colour reads as a grey or a brown (rosybrown has 18), or, very dark, as black (#400000 has 33) |
| lightness L\\* | ≤ 65 | lighter tints read as pink, salmon or coral (salmon 67, coral 67, lightcoral 66); tomato (62) and indianred (53) still read as red |

A refusal offers colours far from the family (at least 20° of hue away, a
test checks it): orange, deeppink, royalblue or seagreen. Items without a
colour are drawn in `steelblue` (`ItemColor.fallback`), so every item marks
its day.

The verdict on every CSS colour name (RFC 7986 `COLOR` uses them), made by
`Scripts/generate_colors_table.py` and checked row by row against the library
by `ItemColorTests`:

| name | sRGB | L\\* | C\\* | h | verdict |
|---|---|---|---|---|---|""")
for name, r, g, b in colors:
    l, c, h = lch(r, g, b)
    refused = HUES[0] <= h <= HUES[1] and c >= MIN_CHROMA and l <= MAX_LIGHTNESS
    print(f"| {name} | #{r:02x}{g:02x}{b:02x} | {l:.1f} | {c:.1f} | {h:.1f} | {'refused' if refused else 'accepted'} |")
