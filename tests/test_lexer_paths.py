"""The lexer's two ways give the same tokens: the word path (an order whose every word is one
token read the same way on its own, from a memo of words) and the full scan.

Checked on every order written in the corpora of the Diplomacy-family variants (their own
notations), on the benchmark's random turns, and on random strings of the notation's words,
keywords, names with spaces, coasts, dashes and punctuation.
"""


from hypothesis import given, settings, strategies as st

from benchmarks import workload
from dipsat.errors import OrderError
from dipsat.variants import find_variant

from notation_draws import CORPUS_FOLDERS, corpus_orders

VARIANTS = ("standard", "multiplomacy", "multinational", "multiplicity")


def scan(notation, text):
    try:
        return tuple(notation._tokenize(text))
    except OrderError as exc:
        return ("error", str(exc))


def agree(notation, text) -> bool:
    """The word path either declines or gives exactly the full scan's tokens."""
    fast = notation._word_tokens(text)
    return fast is None or fast == scan(notation, text)


def test_every_corpus_order_lexes_the_same_both_ways():
    taken = 0
    for name, folder in CORPUS_FOLDERS:
        notation = find_variant(name).notation
        for text in corpus_orders(folder):
            assert agree(notation, text), (name, text)
            taken += notation._word_tokens(text) is not None
    assert taken > 300  # the word path is the common one


def test_benchmark_orders_lex_the_same_both_ways():
    notation = find_variant("standard").notation
    fast = 0
    for req in workload.generate(3, 60):
        for orders in req["orders"].values():
            for text in orders:
                assert agree(notation, text), text
                fast += notation._word_tokens(text) is not None
    assert fast > 1000


WORDS = ["A", "F", "a", "army", "fleet", "Par", "par", "Bur", "Spa/nc", "spa(nc)", "Spa", "(sc)", "nc", "north",
         "North", "Sea", "north sea", "Nth", "Lon", "Mao", "mid-atlantic", "S", "s", "supports", "C", "convoys", "H",
         "holds", "-", "->", "–", "via", "convoy", "by", "2", "1234567890", "England:", "Eng", "eng", "St", "Petersburg",
         "stp/sc", "x", "", ",", ";", ".", "Gulf", "of", "Lyon", "lyo", "FO", "E", "M", "P", "2A", "A/F", "&", "sup"]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.sampled_from(VARIANTS), st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", "  ", "", "\t", "-", ", "])),
                                          min_size=1, max_size=8))
def test_random_word_strings_lex_the_same_both_ways(variant, parts):
    notation = find_variant(variant).notation
    text = "".join(w + sep for w, sep in parts)
    assert agree(notation, text), text
