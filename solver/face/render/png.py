"""Pictures as PNG: which converters this machine has (cairosvg, rsvg-convert, a headless
Chromium) and the conversion."""

from __future__ import annotations

import math
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    pass

from dipsat.face.render.scene import RenderError


def png_converters() -> list[str]:
    """The SVG-to-PNG converters found on this machine, best first."""
    found: list[str] = []
    try:
        import cairosvg  # noqa: F401

        found.append("cairosvg")
    except ImportError:
        pass
    if shutil.which("rsvg-convert"):
        found.append("rsvg-convert")
    if find_browser():
        found.append("chromium")
    return found


def find_browser() -> Optional[str]:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        hit = shutil.which(name)
        if hit:
            return hit
    return None


def svg_size(svg: str) -> tuple[int, int]:
    import re

    mw = re.search(r'width="([\d.]+)"', svg)
    mh = re.search(r'height="([\d.]+)"', svg)
    if not (mw and mh):
        raise RenderError("the SVG has no width and height")
    return math.ceil(float(mw.group(1))), math.ceil(float(mh.group(1)))


def screenshot(html_or_svg_file: Path, out_png: Path, size: tuple[int, int], timeout: float = 60.0) -> None:
    """A PNG screenshot of a local HTML or SVG file in headless Chromium."""
    browser = find_browser()
    if browser is None:
        raise RenderError("no headless browser found (install Debian's 'chromium' package)")
    with tempfile.TemporaryDirectory(prefix="dipsat-chromium-") as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
               f"--screenshot={out_png}", html_or_svg_file.resolve().as_uri()]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RenderError(f"{browser} took more than {timeout:g} s for the screenshot") from None
    if proc.returncode != 0 or not out_png.exists():
        raise RenderError(f"{browser} could not take the screenshot: {proc.stderr.strip()[-300:]}")


def svg_to_png(svg: str, out_png: Path) -> str:
    """Write ``svg`` as a PNG; returns the converter used."""
    converters = png_converters()
    if not converters:
        raise RenderError("--png needs a converter: pip install cairosvg, or install rsvg-convert "
                          "(librsvg2-bin) or chromium")
    tool = converters[0]
    if tool == "cairosvg":
        import cairosvg

        cairosvg.svg2png(bytestring=svg.encode(), write_to=str(out_png))
    elif tool == "rsvg-convert":
        proc = subprocess.run(["rsvg-convert", "-f", "png", "-o", str(out_png)], input=svg.encode(), capture_output=True)
        if proc.returncode != 0:
            raise RenderError(f"rsvg-convert failed: {proc.stderr.decode(errors='replace').strip()[-300:]}")
    else:
        with tempfile.TemporaryDirectory(prefix="dipsat-svg-") as tmp:
            page = Path(tmp) / "map.html"
            page.write_text('<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">' + svg
                            + "</body></html>", encoding="utf-8")
            screenshot(page, out_png, svg_size(svg))
    return tool
