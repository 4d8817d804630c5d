import io
import time

from dipsat.progress import progress_bar


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
