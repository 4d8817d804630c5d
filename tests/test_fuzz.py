"""Bad input never crashes: only the project's documented errors, saying what and where."""

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from dipsat.io.batch import adjudicate_line
from dipsat.io.corpus import load_case
from dipsat.errors import DipsatError, OrderError
from dipsat.game.api import adjudicate
from dipsat.variants import find_variant

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
N = find_variant("standard").notation
WORDS = ["A", "F", "Par", "Bur", "-", "S", "C", "H", "via", "convoy", "Spa", "(nc)", "/sc", "Lon", "Nth", "->",
         "–", "Supports", "Mid-Atlantic", "Ocean", "St", "Petersburg", "(", ")", ":", "England:", "2", "Hold", "Bel"]


@SETTINGS
@given(st.one_of(st.text(max_size=40), st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)))
def test_order_text_fuzz(text):
    try:
        N.parse(text)
    except OrderError as exc:
        assert repr(text.strip()) in str(exc) or repr(text) in str(exc) or not text.strip()


@SETTINGS
@given(st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join))
def test_fuzzed_orders_in_a_turn(text):
    res = adjudicate({"units": {"France": ["A Par", "F Bre", "F Spa(nc)"], "England": ["F Lon", "F Nth"]},
                      "orders": {"France": [text, "A Par - Bur"], "England": [text]}})
    assert len(res.after.units) + len(res.dislodged) == 5


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                           lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3), max_leaves=8)


@SETTINGS
@given(st.one_of(
    st.text(max_size=60),
    JSON_VALUES.map(json.dumps),
    st.fixed_dictionaries({"units": st.dictionaries(st.sampled_from(["France", "england", "Mars"]),
                                                    st.lists(st.sampled_from(["A Par", "F Par", "A Nth", "F Spa", "A Mun", "2 A Bur", "X"]), max_size=3), max_size=2),
                           "orders": st.dictionaries(st.sampled_from(["France", "Germany"]), st.lists(st.sampled_from(WORDS), max_size=3), max_size=2)},
                          optional={"variant": st.sampled_from(["standard", "nope"]), "rules": st.sampled_from(["datc", "1066"]),
                                    "phase": st.sampled_from(["movement", "retreat", "adjustment", "lunch"])}).map(json.dumps),
))
def test_batch_lines_fuzz(line):
    out = adjudicate_line(line, 7)
    assert out["line"] == 7
    if not out["ok"]:
        assert out["error"]["kind"] and out["error"]["message"]


@SETTINGS
@given(st.one_of(st.text(max_size=80), st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
                 st.sampled_from(['id = "x"\n', 'id = "x"\n[[expect]]\nrules = 3\n', 'id = 1\nexpect = []\n',
                                  'id = "x"\n[units]\nFrance = "A Par"\n[[expect]]\n'])))
def test_corpus_file_fuzz(tmp_path_factory, text):
    p = tmp_path_factory.mktemp("c") / "case.toml"
    p.write_text(text, encoding="utf-8", errors="surrogatepass") if False else p.write_bytes(text.encode("utf-8", "replace"))
    try:
        load_case(p)
    except DipsatError as exc:
        assert str(p) in str(exc)


VARIANT_UNITS = {
    "multiplomacy": {"England": ["3 F Nth", "A Lon"], "France": ["2 A Par", "F Bre"], "Italy": ["2 A Swi"]},
    "multinational": {"CC": ["E Clm", "M NPO"], "GM": ["E Alb", "P Mon"], "TW": ["M Cal"]},
}
VARIANT_WORDS = WORDS + ["E", "M", "P", "sup", "by", "FO", "AL", "CC", "GM", "Clm", "Alb", "Mon", "NPO", "Cal",
                         "stands", "&", "FA", "I", "Swi", "–", "R", "D"]


@SETTINGS
@given(st.sampled_from(sorted(VARIANT_UNITS)), st.sampled_from(["movement", "retreat", "adjustment"]),
       st.lists(st.lists(st.sampled_from(VARIANT_WORDS), min_size=1, max_size=8).map(" ".join), max_size=4))
def test_variant_orders_fuzz(variant, phase, texts):
    powers = sorted(VARIANT_UNITS[variant])
    orders = {p: texts[i::len(powers)] for i, p in enumerate(powers)}
    line = json.dumps({"variant": variant, "phase": phase, "units": VARIANT_UNITS[variant], "orders": orders,
                       "retreat_orders": orders if phase == "retreat" else {}})
    out = adjudicate_line(line, 1)
    assert out["ok"] or out["error"]["message"]
