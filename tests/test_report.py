"""The HTML corpus report: self-contained, one entry per run with its map and expected against
actual outcomes; opened in a real headless Chromium, its filters work, its pictures are there and
its screenshot is not blank."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

from dipsat.face.cli import main
from dipsat.io.corpus import run_corpus
from dipsat.face.render import find_browser
from dipsat.face.report import corpus_report

from conftest import CORPORA

CASES = [CORPORA / "datc" / name for name in ("6.A.01.toml", "6.C.03.toml", "6.F.21.toml")]


def _failing_case(tmp: Path) -> Path:
    """6.A.1 with a wrong expectation, so the page has a failure to show."""
    text = (CORPORA / "datc" / "6.A.01.toml").read_text(encoding="utf-8")
    text = text.replace('id = "6.A.1"', 'id = "6.X.1"').replace('= "illegal"', '= "succeeds"', 1)
    path = tmp / "wrong.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("report")
    out = tmp / "report.html"
    code = main(["corpus", *map(str, CASES), str(_failing_case(tmp)), "-q", "--report", str(out)])
    assert code == 1  # the planted failure
    return out


def test_report_is_self_contained_with_one_entry_per_run(report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    assert "<script src" not in html and "<link" not in html and "@import" not in html
    assert not re.search(r'(?:src|href)="(?!#|https://webdiplomacy)', html), "no resource outside the page"
    sections = re.findall(r'<section class="case (\w+)" id="([^"]+)"', html)
    assert ("fail", "6.X.1-datc") in sections
    assert sum(1 for status, _ in sections if status == "pass") >= 3
    assert html.count('class="dipsat-map"') == len(sections)
    assert 'data-section="6.F"' in html and 'href="https://webdiplomacy.net/doc/DATC_v3_0.html#6.F.21"' in html
    # the expected-vs-actual table of the planted failure shows the mismatch
    entry = html[html.index('id="6.X.1-datc"'):]
    entry = entry[:entry.index("</section>")]
    assert "<td>succeeds</td>" in entry and 'class="bad">illegal' in entry


def test_report_of_runs_without_results_still_renders() -> None:
    runs = run_corpus([CASES[0]])
    runs[0].result = None
    html = corpus_report(runs)
    assert "6.A.1" in html and 'class="dipsat-map"' not in html


# -- a real browser ----------------------------------------------------------------------------

BROWSER = find_browser()
needs_browser = pytest.mark.skipif(BROWSER is None, reason="no headless Chromium installed (Debian: apt-get install chromium); "
                                                           ".ci/run installs it")


SHOT = (640, 800)


@pytest.fixture(scope="module")
def browser_view(report: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """One headless Chromium run on the page filtered to failures: the DOM after its script
    ran, and a screenshot."""
    if BROWSER is None:
        pytest.skip("no headless Chromium installed (Debian: apt-get install chromium); .ci/run installs it")
    png = tmp_path_factory.mktemp("shot") / "report.png"
    with tempfile.TemporaryDirectory(prefix="dipsat-chromium-") as profile:
        proc = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                               "--hide-scrollbars", f"--user-data-dir={profile}", f"--window-size={SHOT[0]},{SHOT[1]}",
                               f"--screenshot={png}", "--dump-dom", report.resolve().as_uri() + "#status=fail"],
                              capture_output=True, text=True, timeout=90)
    assert proc.returncode == 0, proc.stderr[-500:]
    return proc.stdout, png


@needs_browser
def test_report_filters_work_in_headless_chromium(browser_view: tuple[str, Path]) -> None:
    dom = browser_view[0]
    body = re.search(r"<body[^>]*>", dom)
    assert body and 'data-ready="yes"' in body.group(0), "the page's script ran"
    assert 'data-shown="1"' in body.group(0)
    tags = re.findall(r'<section class="case (\w+)"([^>]*)>', dom)
    visible = [status for status, rest in tags if "hidden" not in rest]
    assert visible == ["fail"] and len(tags) >= 4
    assert dom.count("<svg") >= 5  # the pictures, the shared board and the legend are in the DOM


def _png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB or RGBA PNG (what Chromium writes): width, height, rows of pixels."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    height = bpp = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [r[i:i + 3] for r in rows for i in range(0, stride, bpp)]


@needs_browser
def test_report_screenshot_is_not_blank(browser_view: tuple[str, Path]) -> None:
    width, height, pixels = _png_pixels(browser_view[1])
    assert (width, height) == SHOT
    sample = pixels[::97]
    colours = {p for p in sample}
    assert len(colours) > 30, "a page of maps has many colours"
    background = max(colours, key=sample.count)
    assert sum(1 for p in sample if p != background) > len(sample) * 0.2
    # the outcome colours of the pictures are on screen: some green (succeeded) pixels
    assert any(g > 120 and r < 80 and b < 100 for r, g, b in (tuple(p) for p in sample))


def test_ci_installs_a_browser() -> None:
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "chromium" in ci


def test_browser_lookup_does_not_fail_without_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert find_browser() is None
