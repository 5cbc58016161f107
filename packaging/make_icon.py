"""Draw Hexfray's icon with QPainter and write it to assets/icons/.

    python packaging/make_icon.py            # rewrite assets/icons/
    python packaging/make_icon.py --out DIR  # write somewhere else

A pointy-top hex of parchment with a dark rim, a red heater shield on it and a
steel sword crossing the shield from lower left to upper right. Each size is drawn
at that size (not scaled down from a big picture), with line widths and vertices
snapped to whole pixels and details dropped below 32 px (48 px for the shield's
band), so the icon stays crisp from 16 to 256 px (and 512 for macOS).

Writes hexfray-<size>.png for every size, hexfray.png (256 px), hexfray.ico
(Windows: PNG entries 16-256) and hexfray.icns (macOS: PNG entries 16-512). The
ICO and ICNS containers are written here by hand: Qt's writers hold one image.
"""

from __future__ import annotations

import argparse
import math
import os
import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "icons"

PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types holding PNG data, by pixel size.
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"ic11", 32),  # 16@2x
    (b"icp6", 64),
    (b"ic12", 64),  # 32@2x
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic13", 256),  # 128@2x
    (b"ic09", 512),
    (b"ic14", 512),  # 256@2x
)

PARCHMENT = "#efe4c8"
PARCHMENT_DARK = "#d2bd8e"
RIM = "#3b3833"
SHIELD = "#b3362f"
SHIELD_DARK = "#7a1f1a"
SHIELD_BOSS = "#e7c45a"
STEEL = "#dfe4ea"
STEEL_EDGE = "#2a2f36"
HILT = "#c49a1c"
GRIP = "#5a3a1e"


def draw_icon(size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)

    s = size / 256.0  # design units are 0..256
    small = size < 32

    def px(units: float, minimum: float = 1.0) -> float:
        """A line width in whole pixels, at least ``minimum``."""
        return max(minimum, round(units * s))

    def snap(v: float, width: float) -> float:
        """Put a line of ``width`` px on pixel centres (odd) or edges (even)."""
        return (math.floor(v) + 0.5) if int(width) % 2 else float(round(v))

    # --- the hex: pointy-top, filling the square; vertices on the pixel grid -------
    rim_w = px(14, 1.0)
    c = size / 2.0
    radius = size / 2.0 - rim_w / 2.0 - (0.0 if small else s * 2)
    hex_points = []
    for k in range(6):
        a = math.radians(60 * k - 90)
        x = c + radius * math.cos(a)
        y = c + radius * math.sin(a)
        hex_points.append(QPointF(snap(x, rim_w), snap(y, rim_w)))
    hex_poly = QPolygonF(hex_points)
    grad = QLinearGradient(0, 0, 0, size)
    grad.setColorAt(0.0, QColor(PARCHMENT))
    grad.setColorAt(1.0, QColor(PARCHMENT_DARK))
    p.setBrush(QBrush(grad))
    pen = QPen(QColor(RIM), rim_w)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    p.setPen(pen)
    p.drawPolygon(hex_poly)

    # --- the shield: a heater shield, a little up and right of the middle ------------
    sw, sh = 118 * s, 136 * s
    sc = c + 8 * s
    top = c - sh * 0.5 - 2 * s
    left, right = sc - sw / 2, sc + sw / 2
    shield = QPainterPath()
    shield.moveTo(left, top)
    shield.lineTo(right, top)
    shield.lineTo(right, top + sh * 0.42)
    shield.cubicTo(right, top + sh * 0.78, sc + sw * 0.18, top + sh * 0.92, sc, top + sh)
    shield.cubicTo(sc - sw * 0.18, top + sh * 0.92, left, top + sh * 0.78, left, top + sh * 0.42)
    shield.closeSubpath()
    shield_rim = px(9, 1.0)
    rim_pen = QPen(QColor(RIM), shield_rim, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap,
                   Qt.PenJoinStyle.MiterJoin)
    sgrad = QLinearGradient(left, top, right, top + sh)
    sgrad.setColorAt(0.0, QColor(SHIELD))
    sgrad.setColorAt(1.0, QColor(SHIELD_DARK))
    p.setPen(rim_pen)
    p.setBrush(QBrush(sgrad))
    p.drawPath(shield)
    if size >= 48:
        # a gold band inside the rim: the shield reads as a shield, not a blob
        inset = QPainterPath(shield)
        p.setClipPath(shield)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor(SHIELD_BOSS), px(20, 3.0)))
        p.drawPath(inset)
        p.setClipping(False)
        p.setPen(rim_pen)
        p.drawPath(shield)

    # --- the sword: lower left to upper right, across the shield ---------------------
    edge_w = px(6, 1.0)
    tip = QPointF(c + 74 * s, c - 74 * s)
    guard_at = QPointF(c - 36 * s, c + 36 * s)
    pommel = QPointF(c - 72 * s, c + 72 * s)
    ux, uy = (tip.x() - guard_at.x()), (tip.y() - guard_at.y())
    length = math.hypot(ux, uy)
    ux, uy = ux / length, uy / length
    nx, ny = -uy, ux  # the blade's normal

    def along(base: QPointF, t: float, n: float) -> QPointF:
        return QPointF(base.x() + ux * t + nx * n, base.y() + uy * t + ny * n)

    flat = Qt.PenCapStyle.FlatCap
    solid = Qt.PenStyle.SolidLine
    if small:
        # A light line with a dark outline and a gold guard: readable at 16 px.
        p.setPen(QPen(QColor(STEEL_EDGE), 4.0 if size >= 24 else 3.0, solid, flat))
        p.drawLine(pommel, tip)
        p.setPen(QPen(QColor(STEEL), 2.0 if size >= 24 else 1.0, solid, flat))
        p.drawLine(guard_at, along(tip, -0.5, 0))
        p.setPen(QPen(QColor(GRIP), 2.0 if size >= 24 else 1.0, solid, flat))
        p.drawLine(along(pommel, 0.5, 0), guard_at)
        guard_half, guard_w = 22 * s, 2.0
        p.setPen(QPen(QColor(HILT), guard_w, solid, flat))
        p.drawLine(along(guard_at, 0, -guard_half), along(guard_at, 0, guard_half))
    else:
        blade_w = 22 * s
        blade = QPainterPath()
        blade.moveTo(along(guard_at, 0, -blade_w / 2))
        blade.lineTo(along(tip, -blade_w * 1.3, -blade_w / 2))
        blade.lineTo(tip)
        blade.lineTo(along(tip, -blade_w * 1.3, blade_w / 2))
        blade.lineTo(along(guard_at, 0, blade_w / 2))
        blade.closeSubpath()
        p.setPen(QPen(QColor(STEEL_EDGE), edge_w, solid, Qt.PenCapStyle.RoundCap,
                      Qt.PenJoinStyle.MiterJoin))
        p.setBrush(QColor(STEEL))
        p.drawPath(blade)
        if size >= 64:  # the fuller: a groove down the middle of the blade
            p.setPen(QPen(QColor(140, 150, 164), px(4, 1.0), solid, Qt.PenCapStyle.RoundCap))
            p.drawLine(along(guard_at, 8 * s, 0), along(tip, -blade_w * 2.0, 0))
        grip_w = 14 * s
        p.setPen(QPen(QColor(STEEL_EDGE), grip_w + 2 * edge_w, solid, flat))
        p.drawLine(guard_at, pommel)
        p.setPen(QPen(QColor(GRIP), grip_w, solid, flat))
        p.drawLine(guard_at, pommel)
        p.setPen(QPen(QColor(STEEL_EDGE), edge_w))
        p.setBrush(QColor(HILT))
        r = 11 * s
        p.drawEllipse(pommel, r, r)
        guard_half, guard_w = 30 * s, 12 * s
        g1, g2 = along(guard_at, 0, -guard_half), along(guard_at, 0, guard_half)
        p.setPen(QPen(QColor(STEEL_EDGE), guard_w + 2 * edge_w, solid, Qt.PenCapStyle.RoundCap))
        p.drawLine(g1, g2)
        p.setPen(QPen(QColor(HILT), guard_w, solid, Qt.PenCapStyle.RoundCap))
        p.drawLine(g1, g2)
    p.end()
    return image


def _png_bytes(image: QImage) -> bytes:

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6's stub wants bytes for the format; the call itself takes str.
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise RuntimeError("could not encode a PNG")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico whose entries are PNG images (Windows Vista and later)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs += blob
    return header + entries + blobs


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns whose elements are PNG images."""
    body = b""
    for kind, size in ICNS_TYPES:
        blob = pngs[size]
        body += kind + struct.pack(">I", 8 + len(blob)) + blob
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def write_icons(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    pngs = {size: _png_bytes(draw_icon(size)) for size in PNG_SIZES}
    written: list[Path] = []

    def write(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    for size, blob in pngs.items():
        write(f"hexfray-{size}.png", blob)
    write("hexfray.png", pngs[256])
    write("hexfray.ico", ico_bytes({s: pngs[s] for s in ICO_SIZES}))
    write("hexfray.icns", icns_bytes(pngs))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder (default {OUT})")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    for path in write_icons(args.out):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
