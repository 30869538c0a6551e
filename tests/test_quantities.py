"""Quantity columns: numbers written with a currency sign, a unit or thousands separators
(``$1,250.50``, ``13.5%``, ``36 months``).  They are cut at thresholds on the numbers and
printed in the column's own writing, in the binarizer and all three estimators; before
2026-12-03 they were dropped as ID-like columns (or one-hot encoded, when few).

Data are generated here; docs/messy_data.md states the semantics.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from satrules.backends.registry import available_backends
from satrules.binarize import FeatureTypeError, ThresholdBinarizer
from satrules.estimators import CDPRClassifier, IMLIBClassifier, IMLIClassifier
from satrules.rules import Condition, format_quantity, quantity_numbers, quantity_unit
from satrules.serialization import SchemaError

BACKEND = next(b for b in ("rc2", "cpsat", "bruteforce") if b in available_backends())

#: how each unit writes a number (the writer a spreadsheet or a CSV export would use)
WRITERS = {"${:,}": lambda v: f"${v:,.2f}", "{}%": lambda v: f"{v:.1f}%",
           "{} kg": lambda v: f"{v:.1f} kg", "€{}": lambda v: f"€ {v:.2f}",
           "{:,}": lambda v: f"{v:,.0f}"}


def loans(n: int = 300, seed: int = 0, missing: float = 0.05) -> tuple[pd.DataFrame, np.ndarray]:
    """Loans whose label is ``income > 30,000 and rate <= 15 %`` (3 % of labels flipped),
    written as a spreadsheet exports them; some rates missing."""
    rng = np.random.default_rng(seed)
    income = rng.uniform(500, 90_000, n)
    rate = rng.uniform(5, 25, n).round(1)
    y = np.where(((income > 30_000) & (rate <= 15)) ^ (rng.random(n) < 0.03), "paid", "default")
    X = pd.DataFrame({"income": [f"${v:,.2f}" for v in income],
                      "rate": [f"{v:.1f}%" for v in rate],
                      "noise": rng.normal(size=n).round(2)})
    X.loc[rng.random(n) < missing, "rate"] = None
    return X, y


@settings(max_examples=40, deadline=None)
@given(unit=st.sampled_from(sorted(WRITERS)),
       numbers=st.lists(st.one_of(st.none(), st.integers(-500, 5_000_000)), min_size=3,
                        max_size=30))
def test_columns_are_conditions_on_the_written_numbers(unit, numbers):
    """The binarizer reads the numbers back exactly, every column is its condition
    evaluated on the raw strings, and every threshold prints in the column's unit."""
    values = [None if v is None else v / 100 for v in numbers]
    if unit in ("{}%", "{} kg"):
        values = [None if v is None else round(v, 1) for v in values]
    if unit == "{:,}":
        values = [None if v is None else round(v) for v in values]
    known = [v for v in values if v is not None]
    if len(set(known)) < 2:   # one value shows no unit (see the test below)
        return
    text = [None if v is None else WRITERS[unit](v) for v in values]
    col = np.array([t for t in text if t is not None], dtype=object)
    if not any("," in t for t in col):   # no thousands separator written: none read
        if unit == "{:,}":
            assert quantity_unit(col) is None   # plain numbers: numeric, read as they are
            return
        unit = unit.replace("{:,}", "{}")
    found, parsed = quantity_unit(col)
    assert found == unit
    assert parsed.tolist() == known
    X = pd.DataFrame({"q": text})
    tb = ThresholdBinarizer(n_thresholds=3).fit(X)
    assert tb.feature_kinds_["q"] == "quantity"
    Xb = tb.transform(X)
    raw = X["q"].to_numpy()
    for c, cond in enumerate(tb.conditions_):
        assert (Xb[:, c] == cond.holds(raw)).all()
        if cond.op != "==":
            shown = cond.describe().split(" ", 2)[2]
            assert shown == format_quantity(shown_number(cond.value), unit)
            assert quantity_numbers(np.array([shown], dtype=object), unit).tolist() == \
                [cond.value]
            assert min(known) <= cond.value < max(known)


def shown_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def test_which_strings_are_quantities():
    def unit(*values):
        found = quantity_unit(np.array(values, dtype=object))
        return None if found is None else found[0]

    assert unit("$1,250.50", "$980") == "${:,}"
    assert unit(" 36 months", " 60 months") == "{} months"
    assert unit("13.5 %", "7%") == "{}%"           # spaces aside
    assert unit("€ 12", "€3.5") == "€{}"
    assert unit("1,250", "980", "12,000,000") == "{:,}"
    assert unit("-5 kg", "+3 kg") == "{} kg"
    assert unit("$1,250", "-$5", "$-7.5") == "${:,}"   # refunds: the sign before the $
    for not_one in (["13.5%", "7 percent"],       # two units
                    ["12", "13.5"],               # plain numbers: numeric already
                    ["Zone 3", "Zone 5"],         # a word before the number: a code
                    ["1,5", "2,25"],              # a decimal comma: not read as grouping
                    ["Q1 2020", "Q2 2020"],       # digits after the number
                    ["10 years", "1 year"],       # unit texts differ
                    ["12%", None], ["5 {x}", "6 {x}"]):
        assert unit(*not_one) is None, not_one
    assert quantity_unit(np.array([[1], [2]], dtype=object)) is None
    assert format_quantity("1250000.5", "${:,}") == "$1,250,000.5"
    assert format_quantity("-12", "{} kg") == "-12 kg"
    # a unit must hold '{}' once and no digit
    for bad in ("kg", "{}{}", "{} 2", "{x}"):
        with pytest.raises(ValueError, match="Condition unit"):
            Condition("w", "<=", 1.0, group=0, unit=bad)
    cond = Condition("w", "<=", 1.5, group=0, unit="{} kg", nullable=True)
    assert Condition.from_dict(cond.to_dict()) == cond
    assert cond.describe(negated=True) == "(w > 1.5 kg or w is missing)"


def test_a_few_values_make_thresholds_not_categories():
    X = pd.DataFrame({"dose": ["5 mg", "10 mg", "20 mg"] * 4, "term": ["36 months",
                                                                       "60 months"] * 6})
    tb = ThresholdBinarizer().fit(X)
    assert tb.feature_kinds_ == {"dose": "quantity", "term": "quantity"}
    assert list(tb.get_feature_names_out()) == ["dose <= 5 mg", "dose <= 10 mg",
                                                "term <= 36 months"]


def test_values_written_otherwise_at_predict_are_named():
    X, y = loans(80)
    tb = ThresholdBinarizer().fit(X)
    with pytest.raises(FeatureTypeError, match=r"'rate' held numbers written as '12%' in fit "
                                               r"but holds value\(s\) written otherwise: "
                                               r"\['0.12', 'high'\]"):
        tb.transform(X.head(3).assign(rate=["13%", 0.12, "high"]))
    # thousands separators fit did not see read all the same
    wide = ThresholdBinarizer().fit(pd.DataFrame({"p": ["$980", "$12", "$5"]}))
    assert wide.transform(pd.DataFrame({"p": ["$1,250", "$7"]})).tolist() == [[0, 0], [0, 1]]
    # missing values at predict are fine, and so is a column of them only
    assert tb.transform(X.head(3).assign(rate=[None, np.nan, None])).shape[0] == 3


def test_a_quantity_column_with_a_few_stray_values_names_them():
    X = pd.DataFrame({"rate": [f"{v}%" for v in range(19)] + ["n/a"]})
    with pytest.raises(FeatureTypeError, match=r"'rate' holds numbers written like '\d+%' "
                                               r"\(19 of 20 values\) but 1 value\(s\) that are "
                                               r"not numbers: \['n/a'\].*na_values=\['n/a'\]"):
        ThresholdBinarizer().fit(X)
    for cls in (CDPRClassifier, IMLIClassifier):
        with pytest.raises(FeatureTypeError, match="that are not numbers"):
            cls().fit(X, [0, 1] * 10)
    # other units, or plain numbers among the unit's, make a category as before
    for values in (["2 years"] * 9 + ["3 years"] * 9 + ["1 year", "10+ years"],
                   ["$5"] * 9 + ["$7"] * 10 + ["5"], [f"{v}%" for v in range(15)] + ["?"] * 5):
        kinds = ThresholdBinarizer(max_levels=None).fit(pd.DataFrame({"v": values})).feature_kinds_
        assert kinds == {"v": "categorical"}, values


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier, CDPRClassifier])
def test_estimators_learn_quantities_and_keep_them_in_a_file(cls, tmp_path):
    X, y = loans()
    params = {"gamma": 4, "n_estimators": 10, "max_depth": 3} if cls is CDPRClassifier \
        else {"backend": BACKEND}
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no column dropped as ID-like
        est = cls(random_state=0, **params).fit(X, y)
    text = str(est.rules_)
    assert re.search(r"income (<=|>) \$\d{2},\d{3}\b", text), text
    assert re.search(r"rate (<=|>) 1\d(\.\d)?%", text), text
    assert est.score(X, y) >= 0.9
    again = cls.load(est.save(tmp_path / "m.json"))
    assert str(again.rules_) == text
    assert (again.predict(X) == est.predict(X)).all()
    with pytest.raises(FeatureTypeError, match=r"'income' held numbers written as '\$12,000' "
                                               r"in fit but holds value\(s\) written otherwise: "
                                               r"\['52000'\]"):
        est.predict(X.head(1).assign(income="52000"))


def test_files_with_a_broken_unit_are_refused():
    X, y = loans(80)
    est = IMLIClassifier(backend=BACKEND, random_state=0).fit(X, y)
    f = est.binarizer_._names.index("rate")
    kind, (unit, cuts), missing = est.binarizer_._specs[f]
    est.binarizer_._specs[f] = (kind, ("percent", cuts), missing)
    with pytest.raises(SchemaError, match="a quantity feature's values must be"):
        IMLIClassifier.from_json(est.to_json())
    cdpr = CDPRClassifier(gamma=4, n_estimators=10, max_depth=3, random_state=0).fit(X, y)
    text = cdpr.to_json()
    broken = text.replace('"{}%"', '"%"')   # the encoder's and the rules' unit of rate
    assert broken != text
    with pytest.raises(SchemaError, match="units must"):
        CDPRClassifier.from_json(broken)


def test_cli_learns_quantities_from_a_csv(tmp_path, capsys):
    from satrules.cli import main

    X, y = loans()
    X.assign(outcome=y).to_csv(tmp_path / "loans.csv", index=False)
    assert main(["learn", str(tmp_path / "loans.csv"), "--target", "outcome", "--method",
                 "imli", "--backend", BACKEND, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"income (<=|>) \$\d{2},\d{3}\b", out), out


def test_dates_durations_and_numbers_still_win_over_quantities():
    X = pd.DataFrame({"a": ["2004-01-31", "2004-02-01"] * 5, "b": ["1 days", "2 days"] * 5,
                      "c": ["1", "2"] * 5, "d": ["1 m", "2 m"] * 5})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kinds = ThresholdBinarizer().fit(X).feature_kinds_
    assert kinds == {"a": "date", "b": "duration", "c": "binary", "d": "quantity"}


#: pieces of the texts a CSV export holds: numbers, signs, units, month names, separators
PIECES = ["1", "12", "1,250", "0.5", "2004", "13", "31", "$", "€", "%", " kg", " months",
          "-", "+", "/", ".", ":", " ", ",", "Jan", "may", "Sept", "T", "Z", "days", "x", "?"]


@settings(max_examples=150, deadline=None)
@given(texts=st.lists(st.one_of(st.none(), st.lists(st.sampled_from(PIECES), min_size=1,
                                                     max_size=6).map("".join)),
                      min_size=2, max_size=25))
@example(texts=["1", "1.", "$"])   # two levels of one number (found by hypothesis, s66)
def test_any_text_column_is_read_or_refused_by_name(texts):
    """Whatever a text column holds, the binarizer reads it (each column then equals its
    condition on the raw texts, at fit and on the same texts at transform) or refuses it
    with a FeatureTypeError or ValueError that names it: no other exception escapes the
    readers of numbers, quantities, dates and durations."""
    X = pd.DataFrame({"t": pd.Series(texts, dtype=object), "n": np.arange(len(texts))})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tb = ThresholdBinarizer(max_levels=None).fit(X)
    except FeatureTypeError as err:
        assert "'t'" in str(err)
        return
    except ValueError as err:
        assert "every feature is constant" in str(err)
        return
    Xb = tb.transform(X)
    raw = X["t"].to_numpy()
    for c, cond in enumerate(tb.conditions_):
        if cond.feature == "t":
            assert (Xb[:, c] == cond.holds(raw)).all(), (cond, texts)


@pytest.mark.parametrize("missing", [False, True])
def test_one_value_with_text_around_it_is_no_quantity(missing):
    """medicaldata/indo_rct's ``brush`` is ``0_no`` in 601 rows and ``1_yes`` in one: a
    training split without that row read ``_no`` as a unit, and its rules then refused
    ``1_yes`` ("held numbers written as '12_no' in fit").  One distinct value shows no
    unit: the column is a category (constant, or against its missing values), and
    ``1_yes`` at predict is a value fit never saw."""
    rng = np.random.default_rng(0)
    n = 120
    brush = np.array(["0_no"] * n, dtype=object)
    if missing:
        brush[rng.random(n) < 0.3] = None
    a = rng.integers(0, 10, n)
    X = pd.DataFrame({"brush": brush, "a": a})
    y = (a > 4).astype(int)
    later = pd.DataFrame({"brush": ["1_yes", "0_no"], "a": [7, 2]})
    for est in (IMLIClassifier(backend="rc2", random_state=0), CDPRClassifier(random_state=0)):
        est.fit(X, y)
        assert est.predict(later).tolist() == [1, 0]
    kinds = ThresholdBinarizer().fit(X).feature_kinds_
    assert kinds["brush"] == ("binary" if missing else "constant")
