"""Draw the map's parchment tile and write it to assets/textures/parchment.png.

    python packaging/make_texture.py            # rewrite assets/textures/parchment.png
    python packaging/make_texture.py --out F    # write somewhere else

The tile is periodic noise made with numpy's FFT (``app.map.painter.
render_parchment_texture``, fixed seed, the theme's parchment colours). It ships as a
picture so that the map's first frame does not wait for numpy to load; run this
again after changing the parchment colours (tests/app/test_startup.py checks that
the picture matches).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "textures" / "parchment.png"


def write_texture(out: Path = OUT) -> Path:
    sys.path.insert(0, str(ROOT))
    from app.map.painter import render_parchment_texture

    out.parent.mkdir(parents=True, exist_ok=True)
    # PySide6's stub wants bytes for the format; the call itself takes str.
    if not render_parchment_texture().save(str(out), "PNG"):  # type: ignore[call-overload]
        raise OSError(f"could not write {out}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the PNG to write")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    print(f"wrote {write_texture(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
