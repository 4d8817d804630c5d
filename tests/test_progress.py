import io
import time

from dipsat.face.progress import progress_bar


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bar_drawn_on_a_terminal_with_the_rate():
    term = FakeTerminal()
    with progress_bar("batch", unit="turns", stream=term) as bar:
        assert bar.shown
        for _ in range(5):
            time.sleep(0.01)
            bar.advance()
    assert bar.done == 5
    text = term.getvalue()
    assert "batch" in text and "turns/s" in text


def test_nothing_when_piped_or_quiet():
    piped = io.StringIO()
    with progress_bar("batch", stream=piped) as bar:
        bar.advance(3)
    assert not bar.shown and bar.done == 3 and piped.getvalue() == ""
    term = FakeTerminal()
    with progress_bar("batch", stream=term, quiet=True) as bar:
        bar.advance()
    assert not bar.shown and term.getvalue() == ""


def test_batch_of_a_regular_file_shows_its_total_and_the_time_left(tmp_path, monkeypatch):
    import json
    import sys

    from dipsat.face.cli import main
    from dipsat.face.cli_phase import count_requests

    turn = {"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}}
    src = tmp_path / "turns.jsonl"
    src.write_text("# three turns\n" + "\n".join(json.dumps(turn) for _ in range(3)) + "\n\n", encoding="utf-8")
    assert count_requests(str(src)) == 3
    term = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", term)
    assert main(["batch", str(src), "-j", "1", "-o", str(tmp_path / "out.jsonl")]) == 0
    text = term.getvalue()
    assert "3/3" in text and "ETA" in text
    assert len((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()) == 3
