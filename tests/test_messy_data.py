"""Messy data (issue #11 item 3): missing values, unseen categories, ID-like columns, bad
numbers, mixed labels and threshold text, for the binarizer and all three estimators.

Data are generated here (tests never download); docs/messy_data.md states the semantics.
"""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from satrules.backends.registry import available_backends
from satrules.binarize import FeatureTypeError, ThresholdBinarizer
from satrules.estimators import CDPRClassifier, IMLIBClassifier, IMLIClassifier
from satrules.report import rules_text
from satrules.rules import Literal, RuleSet

BACKEND = next(b for b in ("rc2", "cpsat", "bruteforce") if b in available_backends())


def passengers(n: int = 120, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """A Titanic-like frame: NaN ages, a name per row, a row number, a class and a sex."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "rownames": [f"Person {i}" for i in range(n)],
        "row_id": np.arange(1, n + 1),
        "sex": rng.choice(["female", "male"], n),
        "age": rng.uniform(1, 80, n).round(1),
        "pclass": rng.choice(["1st", "2nd", "3rd"], n),
        "ticket": [f"T-{rng.integers(10**6)}-{i}" for i in range(n)],
    })
    y = np.where((X["sex"] == "female") | (X["age"] < 12), "yes", "no")
    X.loc[rng.random(n) < 0.2, "age"] = np.nan
    X.loc[rng.random(n) < 0.1, "pclass"] = None
    return X, y


def estimators():
    fast = dict(backend=BACKEND, n_thresholds=3, random_state=0)
    return [IMLIClassifier(n_rules=2, **fast), IMLIBClassifier(n_rules=2, **fast),
            CDPRClassifier(gamma=4, n_estimators=10, max_depth=3, random_state=0)]


def fit_quiet(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # the ID-column warning
        return est.fit(X, y)


# ---------------------------------------------------------------- missing values
@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_every_estimator_fits_and_predicts_with_missing_values(est):
    """NaN / None in numeric and string columns work by default in fit and predict, and the
    estimator's tags say allow_nan (issue #11: "no NaN error unless asked")."""
    X, y = passengers()
    fit_quiet(est, X, y)
    new = X.copy()
    new.loc[:20, "age"] = np.nan          # more missing values than in training
    new.loc[:5, "pclass"] = None
    pred = est.predict(new)
    assert len(pred) == len(new) and set(pred) <= {"yes", "no"}
    assert est.__sklearn_tags__().input_tags.allow_nan


def test_missing_value_fails_both_threshold_directions():
    """On a missing age, 'age <= t' and 'age > t' are both false; 'age is missing' is true;
    the negation of a threshold literal says that it includes missing values."""
    X = pd.DataFrame({"age": [20.0, 30, np.nan, 50, 60, 70]})
    tb = ThresholdBinarizer(n_thresholds=2).fit(X)
    names = tb.get_feature_names_out().tolist()
    assert names == ["age <= 30", "age <= 50", "age > 30", "age > 50", "age is missing"]
    Xb = tb.transform(X)
    assert Xb[2].tolist() == [0, 0, 0, 0, 1]
    rules = RuleSet([[Literal(2)]], "dnf", len(names), tb.conditions_)      # age > 30
    assert rules.evaluate(Xb).tolist() == [False, False, False, True, True, True]
    assert rules.evaluate_raw(X).tolist() == rules.evaluate(Xb).tolist()
    neg = RuleSet([[Literal(0, negated=True)]], "dnf", len(names), tb.conditions_)
    assert neg.to_text(positive="old") == "IF ((age > 30 or age is missing))\nTHEN old"
    assert RuleSet([[Literal(4, True)]], "dnf", len(names), tb.conditions_).to_text() \
        .startswith("IF (age is not missing)")
    # where the rule itself settles missingness, the negated threshold reads plainly
    both = RuleSet([[Literal(0, True), Literal(4, True)]], "dnf", len(names), tb.conditions_)
    assert both.to_text() == "IF (age > 30 AND age is not missing)\nTHEN positive"
    assert both.evaluate(Xb).tolist() == [False, False, False, True, True, True]
    either = RuleSet([[Literal(1, True), Literal(4)]], "cnf", len(names), tb.conditions_)
    assert either.to_text() == "IF (age > 50 OR age is missing)\nTHEN positive"
    assert either.evaluate(Xb).tolist() == [False, False, True, False, True, True]
    # the opposite pairing settles nothing: the 'or missing' stays
    assert RuleSet([[Literal(0, True), Literal(4)]], "dnf", len(names), tb.conditions_) \
        .to_text() == "IF ((age > 30 or age is missing) AND age is missing)\nTHEN positive"
    # a threshold that is false on a missing age settles it too, in an AND (age > 30 AND
    # age <= 50); in a CNF clause (an OR) it does not
    band = RuleSet([[Literal(0, True), Literal(1)]], "dnf", len(names), tb.conditions_)
    assert band.to_text() == "IF (age > 30 AND age <= 50)\nTHEN positive"
    assert band.evaluate(Xb).tolist() == band.evaluate_raw(X).tolist() == \
        [False, False, False, True, False, False]
    above = RuleSet([[Literal(0, True), Literal(3)]], "dnf", len(names), tb.conditions_)
    assert above.to_text() == "IF (age > 30 AND age > 50)\nTHEN positive"
    clause = RuleSet([[Literal(0, True), Literal(1)]], "cnf", len(names), tb.conditions_)
    assert clause.to_text() == "IF ((age > 30 or age is missing) OR age <= 50)\nTHEN positive"


def test_missing_error_only_when_asked():
    """missing="error" still refuses NaN, naming the feature."""
    X = pd.DataFrame({"age": [20.0, np.nan, 50]})
    with pytest.raises(ValueError, match="'age' has 1 missing"):
        ThresholdBinarizer(missing="error").fit(X)


def test_cdpr_missing_numeric_value_fails_its_conditions():
    """CDPR: a numeric column with missing values gets an 'is missing' indicator, and a rule
    constraining that column never covers a row where it is missing."""
    X, y = passengers(200, seed=1)
    clf = fit_quiet(CDPRClassifier(gamma=6, n_estimators=20, max_depth=3, random_state=0), X, y)
    assert ("age", "<missing>") in clf.encoder_.indicators.values()
    age = clf.encoder_.feature_names.index("age")
    covers = clf.rule_covers(X).toarray()
    on_age = [r for r, rule in enumerate(clf.rules_) if any(c[0] == age for c in rule.conditions)]
    missing = X["age"].isna().to_numpy()
    assert not covers[on_age][:, missing].any()


def test_cdpr_prints_a_split_of_missing_values_as_not_missing():
    """CDPR's trees grow on a stand-in below each feature's minimum for a missing value;
    a split of it alone (``age > 17.5``, the youngest 18) said "age is not missing" but
    printed a cut at 17.5, which a reader takes for "adults".  It prints ``age is not
    missing``, and an age below the training minimum is covered, as that says."""
    rng = np.random.RandomState(0)
    age = rng.randint(18, 80, 600).astype(float)
    miss = rng.rand(600) < 0.3
    age[miss] = np.nan
    X = pd.DataFrame({"age": age, "z": rng.rand(600)})
    y = np.where(miss, "a", np.where(X.z > 0.5, "b", "a"))
    clf = fit_quiet(CDPRClassifier(random_state=0), X, y)
    text = clf.to_text()
    assert "age is not missing AND z > 0.5 THEN b" in text, text
    assert not re.search(r"age >", text), text
    new = pd.DataFrame({"age": [10.0, np.nan, 30.0], "z": [0.9, 0.9, 0.9]})
    assert clf.predict(new).tolist() == ["b", "a", "b"]

def test_cdpr_reads_a_two_valued_number_as_imli_does(tmp_path):
    """CDPR: a numeric column of two values and no missing one (a 0/1 dummy, 0.5 / 2.25)
    is the one column ``x = its higher value``, printed ``x = 1`` / ``x != 1`` as IMLI
    prints it; any other value at predict, or a missing one, reads ``x != 1`` in both; a
    string there is still an error naming it; a file keeps the value and refuses another
    text."""
    import json

    from satrules.serialization import SchemaError

    rng = np.random.RandomState(0)
    X = pd.DataFrame({"union": rng.randint(0, 2, 400), "rate": rng.choice([0.5, 2.25], 400),
                      "age": rng.randint(20, 70, 400)})
    y = np.where((X.union == 1) & (X.rate > 1), "a", "b")
    cdpr = fit_quiet(CDPRClassifier(random_state=0), X, y)
    imli = fit_quiet(IMLIClassifier(random_state=0), X, y)
    assert cdpr.encoder_.kinds == ["binary", "binary", "numeric"]
    assert cdpr.encoder_.feature_names == ["union=1", "rate=2.25", "age"]
    text = cdpr.to_text()
    assert "union = 1" in text and "union != 1" in text and "rate = 2.25" in text, text
    assert not re.search(r"(union|rate) (<=|>) ", text), text
    assert (cdpr.predict(X) == y).all() and (imli.predict(X) == y).all()
    odd = X.head(4).assign(union=[2.0, np.nan, 1.0, 0.0], rate=2.25)
    want = np.array(["b", "b", "a", "b"])   # 2 and missing are not 1
    assert (cdpr.predict(odd) == want).all() and (imli.predict(odd) == want).all()
    with pytest.raises(FeatureTypeError, match=r"'union' .* \['x'\]"):
        cdpr.predict(X.head(2).astype({"union": object}).assign(union=["x", 1]))
    back = CDPRClassifier.load(cdpr.save(tmp_path / "m.json"))
    assert back.to_text() == text and (back.predict(odd) == want).all()
    data = json.loads(cdpr.to_json())
    data["estimator"]["state"]["encoder_"]["attrs"]["categories"][0] = {
        "__ndarray__": ["one"], "dtype": "<U3", "shape": [1]}
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(SchemaError, match="for a binary feature, its higher value"):
        CDPRClassifier.load(tmp_path / "bad.json")


# ---------------------------------------------------------------- unseen categories
@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_unseen_category_at_predict_never_crashes(est):
    """A category never seen in fit (a test-split category) predicts like any other row."""
    X, y = passengers()
    fit_quiet(est, X, y)
    new = X.copy()
    new["pclass"] = new["pclass"].astype(object)
    new.loc[:9, "pclass"] = "crew"
    new.loc[10:12, "sex"] = "unknown"
    assert len(est.predict(new)) == len(new)


# ---------------------------------------------------------------- ID-like columns
def test_id_like_columns_are_dropped_with_a_warning():
    """rownames, a unique string per row, and a monotone integer row number are dropped with
    one warning and recorded in dropped_features_; max_levels=None keeps them."""
    X, _ = passengers()
    with pytest.warns(UserWarning, match="rownames.*row_id.*ticket"):
        tb = ThresholdBinarizer().fit(X)
    assert set(tb.dropped_features_) == {"rownames", "row_id", "ticket"}
    assert all(tb.feature_kinds_[c] == "dropped" for c in tb.dropped_features_)
    assert not any(c.feature in tb.dropped_features_ for c in tb.conditions_)
    assert tb.transform(X).shape == (len(X), len(tb.conditions_))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kept = ThresholdBinarizer(max_levels=None).fit(X)
    assert kept.dropped_features_ == {} and kept.feature_kinds_["ticket"] == "categorical"


@pytest.mark.parametrize("est", [ThresholdBinarizer(), *estimators()],
                         ids=lambda e: type(e).__name__)
def test_fit_warnings_point_at_the_callers_line(est):
    """A warning raised deep inside a fit (here: the dropped ID column) names the line
    that called fit, not a line of satrules."""
    X, y = passengers()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clone(est).fit(X, y)
    dropped = [w for w in caught if "dropped ID-like" in str(w.message)]
    assert dropped and all(w.filename == __file__ for w in dropped), \
        [(w.filename, w.lineno) for w in dropped]


def test_level_limit_is_a_parameter_and_small_categoricals_stay():
    """A 12-level column in 40 rows stays ("auto" keeps up to max(10, min(50, n // 2)) = 20
    levels); max_levels=5 drops it; tiny data sets keep every categorical."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"c": rng.choice([f"v{i}" for i in range(12)], 40), "x": rng.normal(size=40)})
    assert ThresholdBinarizer().fit(X).feature_kinds_["c"] == "categorical"
    with pytest.warns(UserWarning, match="'c'"):
        assert ThresholdBinarizer(max_levels=5).fit(X).feature_kinds_["c"] == "dropped"
    tiny = pd.DataFrame({"c": ["a", "b", "c", "d"], "x": [1, 2, 3, 4]})
    assert ThresholdBinarizer().fit(tiny).feature_kinds_ == {"c": "categorical", "x": "ordinal"}
    with pytest.raises(ValueError, match="max_levels"):
        ThresholdBinarizer(max_levels=0).fit(tiny)


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_estimators_drop_id_columns(est):
    """No rule of any estimator mentions an ID-like column; dropped ones are recorded, and the
    warning says how to keep them."""
    X, y = passengers()
    with pytest.warns(UserWarning, match=r"ID-like column\(s\) \(set max_levels=None to keep"):
        est.fit(X, y)
    dropped = (est.dropped_features_ if hasattr(est, "dropped_features_")
               else est.binarizer_.dropped_features_)
    assert {"rownames", "row_id", "ticket"} <= set(dropped)
    text = est.to_text() if hasattr(est, "to_text") else str(est.rules_)
    assert "Person" not in text and "ticket" not in text and "row_id" not in text


# ---------------------------------------------------------------- bad numbers
def numbers_with_junk() -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(2)
    income = rng.normal(50, 10, 60).round(2).astype(str).astype(object)
    income[[3, 17, 40]] = ["?", "n/a", "?"]
    X = pd.DataFrame({"income": income, "age": rng.uniform(20, 70, 60)})
    return X, np.where(rng.random(60) < 0.5, "a", "b")


@pytest.mark.parametrize("make", [ThresholdBinarizer, *map(type, estimators())],
                         ids=lambda c: c.__name__)
def test_numeric_column_with_a_few_bad_values_is_an_error(make):
    """>= 90 % numbers and a few other strings: an error naming the column and the values
    (not a silent categorical column)."""
    X, y = numbers_with_junk()
    est = make()
    with pytest.raises(FeatureTypeError, match=r"'income' is numeric .*\['\?', 'n/a'\]"):
        est.fit(X) if make is ThresholdBinarizer else est.fit(X, y)


def european_numbers(n: int = 80, seed: int = 3) -> tuple[pd.DataFrame, np.ndarray]:
    """As pandas.read_csv(sep=';') reads a file written with decimal commas: text."""
    rng = np.random.default_rng(seed)
    level = rng.integers(1000, 3000, n) + rng.integers(1, 10, n) / 10
    X = pd.DataFrame({
        "level": [f"{v:,.1f}".replace(",", ".")[:-2] + "," + f"{v:.1f}"[-1] for v in level],
        "amount": [f"€ {v:.2f}".replace(".", ",") for v in level],
        "dose": rng.choice(["1,5", "2,25", "4,0"], n),
        "grouped": rng.choice(["12,000", "1,250", "3,500"], n),    # US thousands, or not?
        "pair": rng.choice(["a,b", "c,d", "e,f"], n),
        "x": rng.normal(size=n)})
    return X, (level > 2000).astype(int)


@pytest.mark.parametrize("est", [ThresholdBinarizer(), *estimators()],
                         ids=lambda e: type(e).__name__)
def test_numbers_with_decimal_commas_are_named_with_the_way_to_read_them(est):
    """A frame read without decimal=',' holds numbers as text: a dropped ID-like column of
    them says so (with the pandas option, or, with a unit, to write decimal points), and
    a categorical one is used as categories with a warning; '12,000' (which could group
    thousands) and 'a,b' are not numbers with a decimal comma."""
    X, y = european_numbers()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(X, y)
    text = " ".join(str(w.message) for w in caught)
    assert re.search(r"'level': .*an identifier, not a category; its values are numbers "
                     r"written with a decimal comma \(such as '\d\.\d{3},\d'\): read them as "
                     r"numbers, e\.g\. pandas\.read_csv\(\.\.\., decimal=',', thousands='\.'\)",
                     text), text
    assert re.search(r"'amount': .*decimal comma \(such as '€ \d+,\d\d'\): write them with "
                     r"decimal points", text), text
    assert re.search(r"categorical feature\(s\) whose values are numbers written with a "
                     r"decimal comma, used as categories: 'dose' \(such as '\d,\d+'\); read "
                     r"them as numbers", text), text
    assert "'grouped' (such as" not in text and "'pair' (such as" not in text


def coded_missing(n: int = 200, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Industry codes 1-21 with -999 for a missing one, ages up to 99 and years 92-95 and
    99: only the -999 is a missing-value code."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"sic": rng.choice([1, 3, 4, 11, 14, 17, 21], n),
                      "age": rng.integers(20, 100, n),
                      "year": rng.choice([92, 93, 94, 95, 99], n)})
    X.loc[rng.random(n) < 0.15, "sic"] = -999
    return X, np.isin(X["sic"], [3, 4, 11, 14, 17]).astype(int)


@pytest.mark.parametrize("est", [ThresholdBinarizer(), *estimators()],
                         ids=lambda e: type(e).__name__)
def test_a_number_that_codes_a_missing_value_is_named(est):
    """-999 among codes 1-21 draws a warning that names the column, the count and the way
    to read it as missing; an age of 99 or the year '99 does not, nor does the same
    column with NaN for -999."""
    X, y = coded_missing()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clone(est).fit(X, y)
    text = " ".join(str(w.message) for w in caught)
    count = int((X["sic"] == -999).sum())
    assert (f"value that looks like a code for a missing value, read as a number: 'sic' "
            f"has {count} row(s) of -999, far from its other values (1 to 21); if it codes "
            "a missing value, replace it by NaN (for a CSV: pandas.read_csv(..., "
            "na_values=['-999']))") in text, text
    assert "'age'" not in text and "'year'" not in text
    X["sic"] = X["sic"].replace(-999, np.nan)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clone(est).fit(X, y)
    assert not any("missing value, read as" in str(w.message) for w in caught)


@pytest.mark.parametrize("values, found", [
    ([-999, 1, 2, 21], (-999, 1, 21)),
    ([-99, 1, 40, 168], (-99, 1, 168)),      # openintro/china: 100 below, range 167
    ([0, 120, 350, 999], (999, 0, 350)),     # HistData/Quarrels: "never"
    ([2.5, 7.25, 9.0, 9999.0], (9999, 2.5, 9)),
    ([1, 2, 9], None),          # one digit: a survey's "don't know" is too often a value
    ([1, 2, 999.5], None),      # not written with nines only
    ([1, 999], None),           # a single other value: a two-valued column
    ([1, 2, 99, np.inf], None),   # (fit refuses inf before it asks)
    ([-5, 99, 120], None),      # not beyond the other values
    ([20, 45, 85, 99], None),   # 14 above the others: within half their range
    ([92, 93, 94, 95, 99], None),   # 4 above the others: under a tenth of 99
])
def test_missing_code_rule(values, found):
    from satrules.binarize import missing_code

    assert missing_code(np.unique(np.asarray(values, dtype=float))) == found


def test_cli_names_the_option_that_reads_a_code_as_missing(tmp_path, capsys):
    """In `satrules learn` the warning's advice is the command line's --na-values option,
    which then reads the code as a missing value."""
    from satrules.cli import main

    X, y = coded_missing()
    path = tmp_path / "codes.csv"
    X.assign(sector=np.where(y == 1, "science", "other")).to_csv(path, index=False)
    assert main(["learn", str(path), "--target", "sector", "--method", "imli"]) == 0
    err = capsys.readouterr().err
    assert "'sic' has" in err and "(here: --na-values -999)" in err, err
    assert main(["learn", str(path), "--target", "sector", "--method", "imli",
                 "--na-values", "-999"]) == 0
    assert "missing value, read as" not in capsys.readouterr().err


def test_mostly_text_column_stays_categorical():
    """A string column where under 90 % of the values parse as numbers is categorical."""
    X = pd.DataFrame({"code": ["1", "2", "x", "y", "z", "1"], "v": [1, 2, 3, 4, 5, 6]})
    assert ThresholdBinarizer().fit(X).feature_kinds_["code"] == "categorical"


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_strings_in_a_numeric_column_at_predict_raise(est):
    """A string where fit saw numbers raises a clear error at predict (no silent ELSE)."""
    X, y = passengers()
    fit_quiet(est, X, y)
    new = X.copy()
    new["age"] = new["age"].astype(object)
    new.loc[4, "age"] = "forty"
    with pytest.raises(ValueError, match=r"'age' was numeric in fit .*\['forty'\]"):
        est.predict(new)


# ---------------------------------------------------------------- labels
@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_mixed_label_types_raise_a_clear_error(est):
    """Labels such as [1, "a", 2.0] raise a ValueError naming the mixed types."""
    X = pd.DataFrame({"x": np.arange(6.0)})
    y = np.array([1, "a", 2.0, 1, "a", 2.0], dtype=object)
    with pytest.raises(ValueError, match=r"mixes label types \['number', 'str'\]"):
        est.fit(X, y)


# ---------------------------------------------------------------- threshold text
def test_thresholds_print_short_and_evaluate_as_printed():
    """Thresholds are short decimals between an observed value and the next one, so the
    printed rule evaluates exactly like the stored one on the training data."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=200) / 7
    tb = ThresholdBinarizer(n_thresholds=4).fit(x[:, None])
    conds = [c for c in tb.conditions_ if c.op == "<="]
    for cond in conds:
        text = cond.describe()
        shown = float(text.split("<= ")[1])
        assert shown == cond.value and len(text.split("<= ")[1]) <= 8
        observed = x[x <= cond.value].max()
        assert observed <= shown < x[x > cond.value].min()
    assert np.array_equal(RuleSet([], "dnf", len(tb.conditions_), tb.conditions_)
                          .binarize(x[:, None]), tb.transform(x[:, None]))


def test_short_integer_thresholds_are_kept():
    """Observed values with at most 4 significant digits are kept as they are."""
    X = np.array([[25], [40], [61], [33], [18], [90]])
    tb = ThresholdBinarizer(n_thresholds=2).fit(X)
    assert tb.get_feature_names_out().tolist() == ["x0 <= 25", "x0 <= 40"]


# ---------------------------------------------------------------- rule text names the class
def test_rule_sets_name_the_class_they_predict():
    """print(clf.rules_) says THEN <class> (binary and one-vs-rest), and the label survives
    to_dict/from_dict; a bare rule set still says THEN positive."""
    X, y = passengers()
    clf = fit_quiet(IMLIClassifier(backend=BACKEND, n_thresholds=3, random_state=0), X, y)
    assert str(clf.rules_).endswith("\nTHEN yes")
    assert RuleSet.from_dict(clf.rules_.to_dict()).to_text().endswith("\nTHEN yes")
    y3 = np.where(X["pclass"].isna(), "unknown", np.where(X["sex"] == "male", "m", "f"))
    ovr = fit_quiet(IMLIClassifier(backend=BACKEND, n_thresholds=3, random_state=0), X, y3)
    assert {c: str(r).rsplit("THEN ", 1)[1] for c, r in ovr.rules_.items()} == \
        {c: c for c in ovr.classes_}
    assert str(RuleSet([[Literal(0)]], "dnf", 1)).endswith("THEN positive")


# ------------------------------------- category levels that read as numbers
def school_grades(n=300, seed=0):
    """A ``grade`` column of levels ``K``, ``1`` ... ``5`` (a text column: a third of its
    cells are ``K``), and the label ``grade is 3 or K``."""
    rng = np.random.default_rng(seed)
    grade = rng.choice(["K", "K", "1", "2", "3", "4", "5"], n)
    X = pd.DataFrame({"grade": grade, "noise": rng.normal(size=n)})
    return X, ((grade == "3") | (grade == "K")).astype(int)


@pytest.mark.parametrize("make", [
    lambda: IMLIClassifier(backend=BACKEND, random_state=0),
    lambda: IMLIBClassifier(backend=BACKEND, random_state=0),
    lambda: CDPRClassifier(alpha=0.7, random_state=0)], ids=["imli", "imlib", "cdpr"])
@pytest.mark.parametrize("read_as", [int, float, str])
def test_text_levels_match_the_same_numbers_at_predict(make, read_as):
    """Levels learned as text (``grade = 3``) match the numbers ``3`` and ``3.0`` at predict,
    as a CSV without the ``K`` rows reads them; before, every condition on the column was
    silently false for them (a test that fails on the old code)."""
    X, y = school_grades()
    clf = fit_quiet(make(), X, y)
    assert clf.score(X, y) == 1.0
    rows = X["grade"] != "K"
    numeric = X[rows].assign(grade=X.loc[rows, "grade"].astype(int).astype(read_as))
    np.testing.assert_array_equal(clf.predict(numeric), y[rows.to_numpy()])
    if hasattr(clf, "binarizer_"):   # a bare rule set on raw data reads the levels alike
        np.testing.assert_array_equal(clf.rules_.evaluate_raw(numeric),
                                      clf.rules_.evaluate_raw(X[rows]))


def test_cli_predict_reads_numeric_levels_in_a_file_without_text_cells(tmp_path, capsys):
    """``satrules learn`` on a CSV whose ``grade`` column holds ``K`` besides numbers, then
    ``satrules predict`` on a CSV without ``K`` rows (pandas reads the column as integers):
    the predictions are those of the same rows read as text."""
    from satrules.cli import main

    X, y = school_grades()
    train, rules = tmp_path / "train.csv", tmp_path / "rules.json"
    X.assign(label=y).to_csv(train, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert main(["learn", str(train), "--target", "label", "--method", "imli",
                     "--backend", BACKEND, "--test-size", "0", "--out", str(rules), "--quiet"]) == 0
    test, preds = tmp_path / "test.csv", tmp_path / "pred.csv"
    rows = (X["grade"] != "K").to_numpy()
    X[rows].to_csv(test, index=False)
    assert pd.read_csv(test)["grade"].dtype.kind == "i"
    assert main(["predict", str(rules), str(test), "--out", str(preds)]) == 0
    np.testing.assert_array_equal(pd.read_csv(preds).iloc[:, -1], y[rows])


def test_cli_categorical_option_takes_numbers_with_a_few_words(tmp_path, capsys):
    """A column of school grades ``9`` ... ``12`` with a few ``other`` cells (openintro/yrbss)
    is refused as numbers with bad values; the refusal names both ways out as options,
    and ``--categorical grade`` learns ``grade = other``, which ``predict`` reads back, on a
    file without ``other`` cells too."""
    from satrules.cli import main

    rng = np.random.default_rng(3)
    grade = rng.choice(["9", "10", "11", "12"], 300).astype(object)
    grade[rng.choice(300, 12, replace=False)] = "other"
    train, rules = tmp_path / "train.csv", tmp_path / "rules.json"
    y = np.isin(grade, ["other", "12"]).astype(int)
    pd.DataFrame({"grade": grade, "label": y}).to_csv(train, index=False)
    learn = ["learn", str(train), "--target", "label", "--method", "imli", "--backend",
             BACKEND, "--test-size", "0", "--quiet"]
    assert main(learn) == 1
    err = capsys.readouterr().err
    assert "holds 12 non-numeric value(s): ['other']" in err
    assert "(here: --na-values other)" in err and "(here: --categorical grade)" in err
    assert main([*learn, "--categorical", "grade", "--out", str(rules)]) == 0
    assert "grade = other" in capsys.readouterr().out
    test, preds = tmp_path / "test.csv", tmp_path / "pred.csv"
    rows = grade != "other"
    pd.DataFrame({"grade": grade[rows]}).to_csv(test, index=False)
    assert main(["predict", str(rules), str(test), "--out", str(preds)]) == 0
    np.testing.assert_array_equal(pd.read_csv(preds).iloc[:, -1], y[rows])
    assert main([*learn, "--categorical", "grad"]) == 1
    assert "--categorical 'grad': no column 'grad'; did you mean 'grade'? columns are: " \
        "'grade'" in capsys.readouterr().err
    assert main([*learn, "--categorical", "grade", "--ordered", "grade=9,10,11,12"]) == 1
    assert "given both as --categorical and --ordered" in capsys.readouterr().err


# ---------------------------------------------------------------- CLI
@pytest.mark.parametrize("method", ["imli", "cdpr-gra"])
def test_cli_learn_and_predict_messy_csv(method, tmp_path, capsys):
    """satrules learn/predict on a CSV with empty cells, an ID column, an unseen category and
    an extra column at predict; a string in a numeric column at predict is a clear error."""
    from satrules.cli import main

    X, y = passengers(150)
    X["survived"] = y
    train = tmp_path / "train.csv"
    X.to_csv(train, index=False)
    rules = tmp_path / "rules.json"
    extra = ["--backend", BACKEND, "--n-rules", "1"] if method == "imli" else \
        ["--gamma", "3", "--n-estimators", "5"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert main(["learn", str(train), "--target", "survived", "--method", method, *extra,
                     "--out", str(rules)]) == 0
    test = X.copy()
    test["pclass"] = test["pclass"].astype(object)
    test.loc[:10, "pclass"] = "crew"
    test["note"] = "hello"
    test_csv = tmp_path / "test.csv"
    test.to_csv(test_csv, index=False)
    preds = tmp_path / "pred.csv"
    capsys.readouterr()
    assert main(["predict", str(rules), str(test_csv), "--out", str(preds)]) == 0
    assert len(pd.read_csv(preds)) == len(test)
    assert "ignoring column(s) not seen in training: ['note']" in capsys.readouterr().err
    test["age"] = test["age"].astype(object)
    test.loc[3, "age"] = "forty"
    test.to_csv(test_csv, index=False)
    assert main(["predict", str(rules), str(test_csv), "--out", str(preds)]) != 0
    assert "'age' was numeric in fit" in capsys.readouterr().err
    assert main(["predict", str(rules), str(tmp_path / "train.csv"), "--out", str(preds)]) == 0
    test.drop(columns=["sex"]).to_csv(test_csv, index=False)
    assert main(["predict", str(rules), str(test_csv), "--out", str(preds)]) != 0
    assert "lacks column(s) the rules were trained on: ['sex']" in capsys.readouterr().err
    test.rename(columns={"sex": "Sex"}).to_csv(test_csv, index=False)
    assert main(["predict", str(rules), str(test_csv), "--out", str(preds)]) != 0
    assert "for 'sex', did you mean 'Sex' (spaces or case differ)?" in capsys.readouterr().err


def test_cli_reads_none_as_a_category_and_na_markers_as_missing(tmp_path):
    """In a CSV file the word ``None`` is a category (pandas alone would read it as missing:
    a ``None`` exercise level or class made ``learn`` fail with "missing value"); empty
    cells, ``NA``, ``NaN`` and ``NULL`` stay missing."""
    from satrules.commands.learn import read_table

    path = tmp_path / "exercise.csv"
    path.write_text("exer,pulse,label\nNone,70,None\nSome,,Some\nNone,NA,None\n"
                    "Freq,NULL,Some\nSome,NaN,Some\nNone,61,None\n")
    X, y = read_table(str(path), "label")
    assert list(y) == ["None", "Some", "None", "Some", "Some", "None"]
    assert list(X["exer"]) == ["None", "Some", "None", "Freq", "Some", "None"]
    assert X["pulse"].isna().tolist() == [False, True, True, True, True, False]
    clf = IMLIClassifier(n_rules=1, backend=BACKEND, random_state=0, null_test=False).fit(X, y)
    assert clf.score(X, y) == 1.0                  # (6 rows: too few for the null test)
    assert "exer" in clf.to_text()


def test_cli_names_the_column_a_misspelt_name_means(tmp_path, capsys):
    """A target or option naming no column says which column it likely means: one that
    differs in spaces or case (a header ``Outcome `` with a trailing space, invisible in a
    plain list of the columns) or in spelling; columns are listed quoted."""
    from satrules.cli import main

    path = tmp_path / "d.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame({"Age": rng.integers(20, 80, 40), "Sex": rng.choice(["M", "F"], 40),
                  "Outcome ": rng.choice(["yes", "no"], 40)}).to_csv(path, index=False)
    base = ["learn", str(path), "--method", "imli", "--quiet"]
    assert main([*base, "--target", "Outcome"]) == 1
    assert ("target column 'Outcome' is not in " in (err := capsys.readouterr().err)
            and "did you mean 'Outcome ' (spaces or case differ)? columns are: 'Age', "
                "'Sex', 'Outcome '" in err)
    assert main([*base, "--target", "Outcome ", "--weight-column", "age"]) == 1
    assert "--weight-column 'age' is not a column of" in (err := capsys.readouterr().err)
    assert "did you mean 'Age' (spaces or case differ)?" in err
    assert main([*base, "--target", "Outcome ", "--categorical", "Sx"]) == 1
    assert "did you mean 'Sex'?" in capsys.readouterr().err
    assert main([*base, "--target", "Outcome ", "--ordered", "Height=1,2"]) == 1
    assert "no column 'Height'; columns are: 'Age', 'Sex'" in capsys.readouterr().err


def test_cli_missing_target_names_the_rows(tmp_path, capsys):
    """A label-less row is an error that says which rows and what to do."""
    from satrules.cli import main

    path = tmp_path / "nolabel.csv"
    path.write_text("a,label\n1,x\n2,\n3,y\n4,NA\n")
    assert main(["learn", str(path), "--target", "label", "--method", "imli"]) == 1
    err = capsys.readouterr().err
    assert "target column 'label' has 2 missing value(s), in data row(s) 2, 4" in err
    assert "remove those rows or fill in their labels (or pass --drop-unlabelled" in err


def unlabelled_csv(path, n: int = 60, seed: int = 0):
    """A CSV whose label follows x, with rows 3, 10 and 25 unlabelled and a weight column
    whose only bad value is on data row 40."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 10, n).round(2)
    frame = pd.DataFrame({"x": x, "w": 1.0, "label": np.where(x > 5, "yes", "no")})
    frame["label"] = frame["label"].astype(object)
    frame.loc[[2, 9, 24], "label"] = None
    frame.to_csv(path, index=False)
    return frame


@pytest.mark.parametrize("command", ["learn", "encode", "sweep"])
def test_cli_drop_unlabelled_leaves_those_rows_out(command, tmp_path, capsys):
    """--drop-unlabelled: the label-less rows are left out with a warning naming them, and
    the rest is learned from; every command that reads a target takes it."""
    from satrules.cli import main

    unlabelled_csv(tmp_path / "d.csv")
    out = tmp_path / ("out.json" if command == "learn" else
                      "out.wcnf" if command == "encode" else "out.csv")
    extra = ["--grid", "gamma=2", "--method", "cdpr-gra"] if command == "sweep" else \
        ["--method", "cdprl" if command == "encode" else "imli"]
    argv = [command, str(tmp_path / "d.csv"), "--target", "label", *extra, "--out", str(out)]
    assert main(argv) == 1 and not out.exists()
    assert main([*argv, "--drop-unlabelled"]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    assert ("target column 'label' has 3 missing value(s), in data row(s) 3, 10, 25 "
            "(counted from 1 after the header): left out (--drop-unlabelled); 57 labelled "
            "row(s) used") in captured.err
    if command == "learn":
        row = dict(line.split()[:2] for line in captured.out.splitlines()
                   if line.startswith(("n_train", "n_test")))
        assert int(row["n_train"]) + int(row["n_test"]) == 57


def test_cli_drop_unlabelled_keeps_the_file_rows_in_messages(tmp_path, capsys):
    """After rows are left out, a bad weight is still named by its data row in the file;
    a file with no label at all is an error."""
    from satrules.cli import main

    frame = unlabelled_csv(tmp_path / "d.csv")
    frame.loc[39, "w"] = -1.0
    frame.to_csv(tmp_path / "d.csv", index=False)
    assert main(["learn", str(tmp_path / "d.csv"), "--target", "label", "--method", "imli",
                 "--weight-column", "w", "--drop-unlabelled"]) == 1
    assert "data row 40 has -1.0" in capsys.readouterr().err
    frame["label"] = None
    frame.to_csv(tmp_path / "d.csv", index=False)
    assert main(["learn", str(tmp_path / "d.csv"), "--target", "label", "--method", "imli",
                 "--drop-unlabelled"]) == 1
    assert "no row has a label" in capsys.readouterr().err


def test_simplify_drops_missing_literals_implied_by_thresholds():
    """'age is not missing AND age <= t' simplifies to 'age <= t' (a threshold is false on a
    missing value); 'age is missing AND age <= t' is impossible; CNF duals likewise; the
    simplified rules evaluate like the originals on the binarized data."""
    X = pd.DataFrame({"age": [20.0, 30, np.nan, 50, 60, 70, np.nan, 25]})
    tb = ThresholdBinarizer(n_thresholds=2).fit(X)
    names = tb.get_feature_names_out().tolist()
    le, miss = names.index("age <= 25"), names.index("age is missing")
    Xb = tb.transform(X)
    n = len(names)
    dnf = RuleSet([[Literal(miss, True), Literal(le)], [Literal(miss), Literal(le)]], "dnf", n,
                  tb.conditions_)
    assert dnf.simplify().to_text() == "IF (age <= 25)\nTHEN positive"
    cnf = RuleSet([[Literal(miss), Literal(le, True)], [Literal(miss, True), Literal(le, True)]],
                  "cnf", n, tb.conditions_)
    assert cnf.simplify().to_text() == "IF ((age > 25 or age is missing))\nTHEN positive"
    for rs in (dnf, cnf):
        assert np.array_equal(rs.simplify().evaluate(Xb), rs.evaluate(Xb))


def test_missing_at_predict_in_a_feature_complete_in_fit_warns():
    """A numeric feature with no missing values in fit has no 'x > t' column, so a missing
    value at transform reads as above every threshold; transform says so in a warning."""
    tb = ThresholdBinarizer(n_thresholds=2).fit(pd.DataFrame({"age": [20.0, 30, 50, 60, 70]}))
    with pytest.warns(UserWarning, match=r"numeric feature\(s\) \['age'\] that had none in fit"):
        row = tb.transform(pd.DataFrame({"age": [np.nan]}))[0]
    assert row.tolist() == [0, 0]


@pytest.mark.parametrize("cls", ["IMLIClassifier", "IMLIBClassifier"])
def test_incremental_learners_take_max_levels(cls):
    """IMLI/IMLIB pass max_levels to their binarizer: None keeps a high-cardinality column."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"code": [f"c{i % 30}" for i in range(60)],
                          "x": rng.normal(size=60)})
    y = (frame["x"] > 0).astype(int).to_numpy()
    est = {"IMLIClassifier": IMLIClassifier, "IMLIBClassifier": IMLIBClassifier}[cls]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dropped = est(backend="rc2", max_levels=10, max_partitions=2, random_state=0).fit(frame, y)
    assert "code" in dropped.binarizer_.dropped_features_
    assert any("code" in str(w.message) for w in caught)
    kept = est(backend="rc2", max_levels=None, max_partitions=2, random_state=0).fit(frame, y)
    assert "code" not in kept.binarizer_.dropped_features_


def test_integer_column_named_like_an_id_is_dropped():
    """MASS/biopsy's sample codes: integers, mostly distinct, not in row order, in a column
    named ID.  They are an identifier (dropped with a warning), while the same numbers under
    another name stay a numeric feature."""
    rng = np.random.default_rng(0)
    codes = rng.choice(10**6, size=60, replace=False)
    codes[:5] = codes[5:10]   # a few repeated codes, as in biopsy
    frame = pd.DataFrame({"ID": codes, "x": rng.normal(size=60)})
    with pytest.warns(UserWarning, match="'ID'"):
        tb = ThresholdBinarizer().fit(frame)
    assert "ID" in tb.dropped_features_
    kept = ThresholdBinarizer().fit(frame.rename(columns={"ID": "income"}))
    assert "income" not in kept.dropped_features_ and kept.feature_kinds_["income"] == "ordinal"


@pytest.mark.parametrize("name, dropped", [
    ("pid", True), ("PID", True), ("PassengerId", True), ("customerID", True),
    ("subj_id", True), ("paid", False), ("fluid", False), ("PAID", False), ("rapid", False),
    ("villnum", True), ("schoolNR", True), ("patnr", True), ("idno", True), ("bib_num", True),
    ("obs_number", True), ("rad_num", False), ("childNum", False), ("Number", False),
    ("num", False), ("BlanksNumber", False), ("casino", False), ("Student", True),
    ("pupil", True), ("person", True), ("students", False), ("persons", False),
])
def test_identifier_names(name, dropped):
    """survival/gbsg's ``pid`` (shuffled patient numbers) became a rule ``pid <= 497``;
    camel-case and short-prefix identifier names mark integer IDs too, while words that
    merely end in "id" stay features; so does a number after a word naming a unit
    (causaldata/thornton_hiv's village numbers ``villnum`` became rules ``17 < villnum <=
    49``), while a number of something (``rad_num``, a score; ``childNum``, a birth
    order; ``Number``) stays a feature."""
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({name: rng.choice(2000, size=80, replace=False),
                          "x": rng.normal(size=80)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tb = ThresholdBinarizer().fit(frame)
    assert (name in tb.dropped_features_) is dropped
    assert tb.feature_kinds_[name] == ("dropped" if dropped else "ordinal")


def repeated_records(name: str, n_groups: int = 30, per_group: int = 4,
                     seed: int = 2) -> tuple[pd.DataFrame, np.ndarray]:
    """Longitudinal data as HLMdiag/autism holds it: ``per_group`` visits of each of
    ``n_groups`` children, numbered in a column ``name``, shuffled.  The label is a
    per-child trait that the numbers happen to order, so a rule on them would fit."""
    rng = np.random.default_rng(seed)
    child = np.repeat(rng.choice(1000, size=n_groups, replace=False), per_group)
    age = rng.integers(2, 14, size=child.size)
    X = pd.DataFrame({name: child, "age": age}).sample(frac=1, random_state=seed)
    y = np.where(X[name] > np.median(child), "pdd", "autism")
    return X.reset_index(drop=True), y


@pytest.mark.parametrize("name", ["childid", "schoolid", "Subject", "patient", "hhid",
                                  "Ketchup.hid", "child_id", "ID", "student"])
def test_group_numbers_shared_by_rows_are_dropped(name):
    """HLMdiag/autism's ``childid`` (155 children in 604 rows) was kept as a number and
    became the rule ``childid <= 202``: integers named like an identifier are dropped when
    at least 20 are distinct, even if rows share them (repeated records of one subject),
    and the warning says what they are and how to keep or use them."""
    X, y = repeated_records(name)
    with pytest.warns(UserWarning, match=rf"{re.escape(repr(name))}: integers named like an "
                                         r"identifier, 30 distinct in 120 rows, so rows share"
                                         r".*GroupKFold"):
        tb = ThresholdBinarizer().fit(X, y)
    assert tb.dropped_features_.keys() == {name}
    assert "max_levels" not in tb.dropped_features_[name]   # 30 levels are within the limit
    few = repeated_records(name, n_groups=60, per_group=2)[0]
    with pytest.warns(UserWarning, match=r"with max_levels >= 60"):
        ThresholdBinarizer().fit(few)


@pytest.mark.parametrize("name, n_groups", [("score", 30), ("school", 30), ("family", 30),
                                            ("childid", 19), ("site_id", 5)])
def test_shared_numbers_stay_features_otherwise(name, n_groups):
    """The same numbers under a name that does not say "identifier" (``school`` may be
    years of schooling), and identifiers with fewer than 20 distinct values, stay numeric
    features; ``max_levels=None`` keeps every column."""
    X, y = repeated_records(name, n_groups=n_groups)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tb = ThresholdBinarizer().fit(X, y)
    assert tb.dropped_features_ == {} and tb.feature_kinds_[name] == "ordinal"
    kept = ThresholdBinarizer(max_levels=None).fit(*repeated_records("childid"))
    assert kept.feature_kinds_["childid"] == "ordinal"


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_estimators_never_write_rules_on_group_numbers(est):
    """No estimator writes a rule on a group number, and each names it as dropped."""
    X, y = repeated_records("childid")
    with pytest.warns(UserWarning, match=r"'childid': integers named like an identifier"):
        est.fit(X, y)
    dropped = (est.dropped_features_ if hasattr(est, "dropped_features_")
               else est.binarizer_.dropped_features_)
    assert "childid" in dropped
    text = est.to_text() if hasattr(est, "to_text") else str(est.rules_)
    assert "childid" not in text
    assert est.predict(X).shape == (len(X),)


def coded_records(name: str, n_groups: int = 30) -> tuple[pd.DataFrame, np.ndarray]:
    """:func:`repeated_records` with the numbers written as text and one group's number
    shared by two groups told apart by a letter, as carData/Blackmore's ``subject``
    (``100``, ``207a``, ``207b``): ``n_groups + 1`` codes."""
    X, y = repeated_records(name, n_groups=n_groups)
    codes = X[name].astype(str).to_numpy()
    shared = min(codes)
    rows = np.flatnonzero(codes == shared)
    codes[rows[:len(rows) // 2]] = shared + "a"
    codes[rows[len(rows) // 2:]] = shared + "b"
    X[name] = codes
    return X, y


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("name", ["subject", "ID", "childid"])
def test_codes_named_like_an_identifier_are_dropped_not_refused(est, name):
    """carData/Blackmore's ``subject`` (231 subjects in 945 rows, ``207a`` among numbers)
    and DAAG/hotspots' ``ID`` (``15A``) were refused as numeric columns with bad values;
    in a column named like an identifier, with as many distinct values as an identifier
    of integers needs, the letters mark record codes: the column is dropped with a
    warning that shows them, and every estimator fits."""
    X, y = coded_records(name)
    with pytest.warns(UserWarning, match=rf"{re.escape(repr(name))}: codes named like an "
                                         r"identifier, 31 distinct in 120 rows \(numbers "
                                         r"and '\d+a', '\d+b'\)"):
        est.fit(X, y)
    dropped = (est.dropped_features_ if hasattr(est, "dropped_features_")
               else est.binarizer_.dropped_features_)
    assert name in dropped
    text = est.to_text() if hasattr(est, "to_text") else str(est.rules_)
    assert f"{name} " not in text
    assert est.predict(X).shape == (len(X),)


@pytest.mark.parametrize("name, n_groups, kwargs", [("score", 30, {}), ("site_id", 12, {}),
                                                    ("subject", 30, {"max_levels": None})])
def test_codes_are_refused_otherwise(name, n_groups, kwargs):
    """Under a name that does not say "identifier", with fewer distinct values than an
    identifier needs, or with ``max_levels=None`` (keep every column), numbers with a few
    other values are still refused, naming them."""
    X, y = coded_records(name, n_groups=n_groups)
    with pytest.raises(FeatureTypeError, match=rf"'{name}' is numeric .*\['\d+a', '\d+b'\]"):
        ThresholdBinarizer(**kwargs).fit(X, y)


# ---------------------------------------------------------------- dates
def visits(n: int = 200, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Visit dates (some missing) whose label flips on 2004-01-01, and a noise column."""
    rng = np.random.default_rng(seed)
    when = pd.Timestamp("2000-01-01") + pd.to_timedelta(rng.integers(0, 3000, n), unit="D")
    X = pd.DataFrame({"visit": when, "noise": rng.normal(size=n)})
    y = np.where(X["visit"] >= pd.Timestamp("2004-01-01"), "late", "early")
    X.loc[rng.random(n) < 0.05, "visit"] = pd.NaT
    return X, y


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("form", ["datetime64", "iso-strings", "utc-strings", "month-names",
                                  "us-strings", "year-first-strings", "timestamps",
                                  "periods"])
def test_dates_are_ordered_features_printed_as_dates(est, form):
    """A date column (datetime64, ISO strings -- with a UTC offset too, as R writes times to
    CSV files: carData/MplsStops, mosaicData/Birthdays --, year-first strings with slashes
    as openintro/mn_police_use_of_force writes its times, Timestamp objects, or a pandas
    Period column; NaT missing)
    is neither an error nor an ID: the rules cut it at a date, print that date, and predict
    alike whichever of the forms the dates come in at predict."""
    X, y = visits()
    forms = {"datetime64": X,
             "iso-strings": X.assign(visit=X["visit"].dt.strftime("%Y-%m-%d")),
             "utc-strings": X.assign(visit=X["visit"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")),
             "month-names": X.assign(visit=X["visit"].dt.strftime("%d %b %Y")),
             "us-strings": X.assign(visit=X["visit"].dt.strftime("%m/%d/%Y")),
             "year-first-strings": X.assign(visit=X["visit"].dt.strftime("%Y/%m/%d %H:%M:%S")),
             "timestamps": X.assign(visit=X["visit"].astype(object)),
             "periods": X.assign(visit=X["visit"].dt.to_period("D"))}
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)   # no column dropped as ID-like
        est.fit(forms[form], y)
    assert est.score(forms[form], y) > 0.9
    text = est.to_text() if hasattr(est, "to_text") else str(est.rules_)
    cuts = [pd.Timestamp(d) for d in re.findall(r"visit [<>]=? (\d{4}-\d{2}-\d{2})", text)]
    seen = X["visit"].dropna()
    last_early, first_late = seen[seen < "2004-01-01"].max(), seen[seen >= "2004-01-01"].min()
    assert cuts and all(last_early <= c < first_late for c in cuts), text
    want = est.predict(forms[form])
    for other in forms.values():
        assert (est.predict(other) == want).all()


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_non_dates_at_predict_in_a_date_feature_raise(est):
    """A value that is not a date, in a feature that held dates in fit, is an error that
    names it (not a silent ELSE)."""
    X, y = visits()
    est.fit(X, y)
    bad = X.assign(visit=X["visit"].dt.strftime("%Y-%m-%d"))
    bad.loc[3, "visit"] = "next week"
    with pytest.raises(FeatureTypeError, match="next week"):
        est.predict(bad)


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_dates_all_missing_at_predict_are_missing_not_an_error(est):
    """A predict batch whose dates are all missing (survival/udca's test split of
    `ascites.dt`, read as floats) takes the missing-value reading, as for numbers."""
    X, y = visits()
    est.fit(X.assign(visit=X["visit"].dt.strftime("%Y-%m-%d")), y)
    missing = X.assign(visit=np.nan)
    assert len(est.predict(missing)) == len(X)
    assert len(est.predict(X.assign(visit=pd.NaT))) == len(X)


@pytest.mark.parametrize("thresholds", ["quantile", "tree"])
def test_date_columns_split_as_their_day_numbers(thresholds):
    """Binarizing dates gives the training columns that binarizing their day numbers gives
    (thresholds at observed days instead of short decimals in the gaps)."""
    rng = np.random.default_rng(1)
    days = rng.integers(10_000, 10_400, 150).astype(float)
    y = np.where(days + rng.normal(0, 40, 150) > 10_200, "a", "b")
    dates = pd.DataFrame({"d": pd.to_datetime(days, unit="D")})
    as_dates = ThresholdBinarizer(thresholds=thresholds).fit(dates, y)
    as_days = ThresholdBinarizer(thresholds=thresholds).fit(days[:, None], y)
    assert as_dates.feature_kinds_ == {"d": "date"}
    assert (as_dates.transform(dates) == as_days.transform(days[:, None])).all()
    for cond, name in zip(as_dates.conditions_, as_dates.get_feature_names_out(), strict=True):
        assert float(cond.value).is_integer() and name == f"d <= {cond.describe()[5:]}"
        assert pd.Timestamp(name[5:]) in set(dates["d"])


def test_strings_that_are_not_all_dates_stay_categorical():
    """Only columns whose every value is an ISO date, or a date with a month name and a
    four-digit year, are dates ('2004-13-45', 'Feb 30, 2004' and 'Aug-90' are not)."""
    for values in (["2004-01-01", "2004-13-45", "2005-02-03"], ["Feb 30, 2004", "Mar 1, 2004",
                                                               "Mar 2, 2004"],
                   ["Aug-90", "Sep-90", "Oct-91"], ["Q1 2004", "Q2 2004", "Q3 2004"],
                   ["May", "June", "July"], ["Feb-2018", "Mar-2018", "soon"]):
        tb = ThresholdBinarizer().fit(pd.DataFrame({"d": values * 10}))
        assert tb.feature_kinds_["d"] == "categorical", values


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_dates_in_numbers_are_read_in_the_order_fit_saw(est, tmp_path):
    """Day-first dates (24.06.2009) are read day first, and so is a later batch whose
    dates alone could be read either way (05.06.2004), in a saved model too; a column
    whose dates do not tell the order (5/6/2016 and 6/5/2016 only) stays categorical."""
    X, y = visits()
    fit_on = X.assign(visit=X["visit"].dt.strftime("%d.%m.%Y"))
    est.fit(fit_on, y)
    again = type(est).load(est.save(tmp_path / "m.json"))
    one = X.head(2).assign(visit=["05.06.2004", "12.01.2001"])   # June 5th, January 12th
    for model in (est, again):
        assert model.predict(one).tolist() == ["late", "early"]
        assert (model.predict(fit_on) == est.predict(X)).all()
    with pytest.raises(FeatureTypeError, match=r"\['06/24/2004'\].*read day first"):
        est.predict(X.head(1).assign(visit="06/24/2004"))
    tb = ThresholdBinarizer().fit(pd.DataFrame({"d": ["5/6/2016", "6/5/2016", "1/2/2017"] * 5}))
    assert tb.feature_kinds_ == {"d": "categorical"}
    tb = ThresholdBinarizer().fit(fit_on[["visit"]])   # the conditions read day first too
    raw, Xb = one["visit"].to_numpy(), tb.transform(one[["visit"]])
    assert {c.unit for c in tb.conditions_ if c.op != "=="} == {"date:dmy"}
    for c, cond in enumerate(tb.conditions_):
        assert (Xb[:, c] == cond.holds(raw)).all()


def test_month_name_dates():
    """openintro/loans_full_schema's issue_month (Feb-2018), fpp3's months (1993 May): dates
    on the first of the month, printed as ISO dates; a day when one is written."""
    X = pd.DataFrame({"issued": ["Jan-2018", "Feb-2018", "Mar-2018", None, "feb-2018"] * 4,
                      "month": ["1993 May", "2004 Feb", "Sept. 2001", "5 January 2020",
                                "Jan 6, 2020"] * 4})
    tb = ThresholdBinarizer().fit(X)
    assert tb.feature_kinds_ == {"issued": "date", "month": "date"}
    assert list(tb.get_feature_names_out()[:2]) == ["issued <= 2018-01-01",
                                                    "issued <= 2018-02-01"]
    # ISO dates and month names read alike at predict
    same = X.assign(issued=X["issued"].replace({"Jan-2018": "2018-01-01"}))
    assert (tb.transform(same) == tb.transform(X)).all()


def test_periods_are_the_dates_they_start():
    """A pandas Period (dtype ``period[M]``, or Period objects in an object column) is
    the date its period starts: months cut and print at their first day, and predict
    reads Periods of another frequency, Timestamps and ISO strings alike."""
    months = pd.period_range("2018-01", periods=4, freq="M")
    X = pd.DataFrame({"m": list(months) * 5})
    X.loc[2, "m"] = pd.NaT
    for frame in (X, X.astype(object)):
        tb = ThresholdBinarizer().fit(frame)
        assert tb.feature_kinds_ == {"m": "date"}
        assert list(tb.get_feature_names_out()[:2]) == ["m <= 2018-01-01", "m <= 2018-02-01"]
    want = tb.transform(pd.DataFrame({"m": [months[1]]}))
    for day in (pd.Period("2018-02-01", "D"), pd.Timestamp("2018-02-01"), "2018-02-01"):
        assert (tb.transform(pd.DataFrame({"m": [day]})) == want).all(), day


def _text(est) -> str:
    return est.to_text() if hasattr(est, "to_text") else str(est.rules_)


def test_dated_rules_survive_save_and_load(tmp_path):
    """A saved IMLI or CDPR model with a date feature loads with the same text and
    predictions, on dates given as strings too."""
    X, y = visits()
    strings = X.assign(visit=X["visit"].dt.strftime("%Y-%m-%d"))
    for est in (IMLIClassifier(random_state=0, backend=BACKEND),
                CDPRClassifier(gamma=4, n_estimators=10, max_depth=3, random_state=0)):
        est.fit(X, y)
        path = est.save(tmp_path / f"{type(est).__name__}.json")
        again = type(est).load(path)
        assert _text(again) == _text(est)
        assert (again.predict(strings) == est.predict(X)).all()


def test_cli_learns_a_date_column_from_a_csv(tmp_path, capsys):
    """satrules learn on a CSV whose dates are ISO strings prints a rule on the date."""
    from satrules.cli import main

    X, y = visits()
    X["outcome"] = y
    train = tmp_path / "visits.csv"
    X.to_csv(train, index=False)
    assert main(["learn", str(train), "--target", "outcome", "--method", "imli",
                 "--backend", BACKEND, "--out", str(tmp_path / "rules.json")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"visit (>|<=) 2003-12-", out), out


# ------------------------------------------------------- pandas category columns
def as_categories(X: pd.DataFrame) -> pd.DataFrame:
    """``X`` with pandas ``category`` columns (one with an unused category) beside a
    ``bool`` and a nullable ``Int64`` column: without text columns, the mix on which
    scikit-learn's input check cast the whole frame to float64 and failed on the category
    names (with a text column it cast to object and passed)."""
    return X.assign(
        sex=pd.Categorical(X["sex"]),
        pclass=pd.Categorical(X["pclass"], categories=["1st", "2nd", "3rd", "crew"]),
        adult=X["age"] >= 18,
        row_id=pd.array(X["row_id"], dtype="Int64"))


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_category_columns_fit_and_predict_as_their_values(est):
    """A frame with ``category`` columns (missing values and an unused category included)
    fits, and the estimator learns and predicts exactly what it does on the same values
    held as plain objects."""
    X, y = passengers()
    X = X.drop(columns=["rownames", "ticket"]).assign(
        adult=X["age"] >= 18, row_id=pd.array(X["row_id"], dtype="Int64"))
    plain = fit_quiet(clone(est), X, y).predict(X)
    fit_quiet(est, as_categories(X), y)
    assert (est.predict(as_categories(X)) == plain).all()
    assert (est.predict(X) == plain).all()


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_numbers_in_a_category_column_are_categories_not_thresholds(est):
    """``pd.Categorical([3, 1, 2, ...])`` is one-hot encoded: a rule says ``grade = 2``,
    not ``grade <= 2``; the middle value alone gives the class."""
    rng = np.random.default_rng(1)
    grade = rng.choice([1, 2, 3], 150)
    X = pd.DataFrame({"grade": pd.Categorical(grade), "noise": rng.normal(size=150)})
    y = np.where(grade == 2, "yes", "no")
    est.fit(X, y)
    text = est.to_text() if hasattr(est, "to_text") else str(est.rules_)
    assert re.search(r"grade (=|!=) 2\b", text), text
    assert not re.search(r"grade [<>]", text), text
    assert est.score(X, y) == 1.0


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_two_texts_of_one_number_are_one_level(est):
    """A text column holding ``1`` and ``1.`` (two texts of one number) has one level
    for it, in all three estimators: a rule on it holds for both texts and for the
    number ``1`` of a file read as numbers (CDPR kept two levels until 2026-12-07, so
    the number matched neither and took the other class)."""
    rng = np.random.default_rng(2)
    t = rng.choice(["1", "1.", "x", "z", "w"], 240)
    X = pd.DataFrame({"t": pd.Series(t, dtype=object), "noise": rng.normal(size=240)})
    y = np.where(np.isin(t, ["1", "1."]), "yes", "no")
    fit_quiet(est, X, y)
    assert est.score(X, y) == 1.0
    text = est.to_text() if hasattr(est, "to_text") else str(est.rules_)
    assert not re.search(r"\b1\.(?!\d)", text), text   # no level `1.` beside `1`
    numbers = pd.DataFrame({"t": [1.0, 1.0], "noise": [0.0, 0.0]})
    assert est.predict(numbers).tolist() == ["yes", "yes"]


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
def test_duplicate_column_names_are_named_in_fit_and_predict(est):
    """A frame with two columns of one name is refused with a ValueError naming it, in
    fit and in predict, by all three estimators (CDPR let scikit-learn's or narwhals'
    own error through until 2026-12-07)."""
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60)})
    y = np.where(X["a"] > 0, "yes", "no")
    twice = X.set_axis(["a", "a"], axis=1)
    with pytest.raises(ValueError, match=r"duplicate column names: \['a'\]"):
        fit_quiet(clone(est), twice, y)
    fit_quiet(est, X, y)
    with pytest.raises(ValueError, match=r"duplicate column names: \['a'\]"):
        est.predict(twice)


def test_binarizer_one_hot_encodes_category_columns():
    X = pd.DataFrame({"grade": pd.Categorical([1, 2, 3, 2, None, 1]), "x": [0, 1, 2, 3, 4, 5]})
    tb = ThresholdBinarizer(n_thresholds=2).fit(X)
    assert tb.feature_kinds_["grade"] == "categorical"
    names = tb.get_feature_names_out().tolist()
    assert [n for n in names if n.startswith("grade")] == [
        "grade = 1", "grade = 2", "grade = 3", "grade is missing"]


@pytest.mark.parametrize("est", estimators(), ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("missing", [None, np.nan, pd.NA])
def test_missing_labels_are_named_as_labels(est, missing):
    """A missing label is an error that says the labels hold it and where (scikit-learn's
    check said only "Input contains NaN")."""
    X, y = passengers()
    y = pd.Series(y, dtype=object)
    y[[4, 9]] = missing
    with pytest.raises(ValueError, match=r"y has 2 missing label\(s\).*positions \[4, 9\]"):
        fit_quiet(est, X, y)


def test_cli_exclude_leaves_a_column_out_of_the_fit(tmp_path, capsys):
    """``--exclude`` leaves out a column that gives the label away (medicaldata/opt's
    gestational age at outcome beside a preterm-birth label): without it the rules are that
    one column; with it they use the others, predict ignores the column, and learn, sweep
    and encode name a misspelt column, the label and a column given to two options."""
    from satrules.cli import main

    rng = np.random.default_rng(5)
    n = 200
    age = rng.integers(18, 45, n)
    smoker = rng.choice(["yes", "no"], n)
    y = np.where((smoker == "yes") & (age > 30), "Yes", "No")
    weeks = np.where(y == "Yes", rng.integers(28, 37, n), rng.integers(37, 42, n))
    train, rules = tmp_path / "train.csv", tmp_path / "rules.json"
    pd.DataFrame({"age": age, "smoker": smoker, "weeks": weeks,
                  "w": np.ones(n), "preterm": y}).to_csv(train, index=False)
    learn = ["learn", str(train), "--target", "preterm", "--method", "imli", "--backend",
             BACKEND, "--test-size", "0", "--quiet", "--exclude", "w"]
    assert main(learn) == 0
    assert "weeks" in capsys.readouterr().out
    assert main([*learn, "--exclude", "weeks", "--out", str(rules)]) == 0
    out = capsys.readouterr().out
    assert "weeks" not in out and "smoker = yes" in out and "age > 30" in out
    from satrules import serialization
    est = serialization.load(str(rules))
    assert list(est.feature_names_in_) == ["age", "smoker"]
    assert json.loads(rules.read_text())["extra"]["exclude"] == ["w", "weeks"]
    preds = tmp_path / "pred.csv"
    assert main(["predict", str(rules), str(train), "--out", str(preds)]) == 0
    assert "ignoring column(s) not seen in training: ['weeks', 'w']" in capsys.readouterr().err
    np.testing.assert_array_equal(pd.read_csv(preds)["prediction"], y)
    report = tmp_path / "report.html"   # it failed: "X has 4 features, but ... 2 features"
    assert main(["report", str(rules), str(train), "--out", str(report)]) == 0
    assert "accuracy 1.0000" in capsys.readouterr().err and report.stat().st_size > 0
    bad = [(["--exclude", "week"], "--exclude 'week': no column 'week'; did you mean 'weeks'?"),
           (["--exclude", "preterm"], "--exclude 'preterm' is the label column"),
           # it said "no column 'preterm'" and listed the columns without the label
           (["--categorical", "preterm"], "--categorical 'preterm' is the label column"),
           (["--ordered", "preterm=no,yes"], "--ordered 'preterm' is the label column"),
           (["--exclude", "age", "--categorical", "age"],
            "column(s) ['age'] given both as --exclude and --categorical"),
           (["--weight-column", "w"], "column(s) ['w'] given both as --exclude and "
                                      "--weight-column")]
    for extra, message in bad:
        assert main([*learn, *extra]) == 1
        assert message in capsys.readouterr().err
    sweep = ["sweep", str(train), "--target", "preterm", "--method", "imli", "--grid",
             "n_rules=1", "--n-splits", "2", "--quiet", "--param", f"backend={BACKEND}",
             "--out", str(tmp_path / "sweep.csv")]
    assert main([*sweep, "--exclude", "preterm"]) == 1
    assert "--exclude 'preterm' is the label column" in capsys.readouterr().err
    assert main([*sweep, "--exclude", "weeks"]) == 0
    encode = ["encode", str(train), "--target", "preterm", "--method", "imli",
              "--out", str(tmp_path / "m.wcnf")]
    assert main([*encode, "--exclude", "week"]) == 1
    assert "did you mean 'weeks'?" in capsys.readouterr().err
    assert main([*encode, "--exclude", "weeks", "--exclude", "w",
                 "--layout", str(tmp_path / "layout.json")]) == 0
    layout = (tmp_path / "layout.json").read_text()
    assert "weeks" not in layout and "smoker" in layout


@pytest.mark.parametrize("make", [lambda: IMLIClassifier(backend=BACKEND, random_state=0),
                                  lambda: IMLIBClassifier(backend=BACKEND, random_state=0),
                                  lambda: CDPRClassifier(random_state=0)])
@pytest.mark.parametrize("dtype", [object, "boolean"])
def test_true_false_labels_held_as_objects_fit_and_score(make, dtype):
    """pandas keeps a True/False column with missing values as ``object``, and so it stays
    once those rows are dropped (dslabs/trump_tweets' ``is_retweet``); scikit-learn calls
    such labels "Unknown label type: unknown".  They fit, predict and score as booleans,
    and so do pandas' nullable ``boolean`` labels, which scikit-learn reads as the floats
    0.0 and 1.0 (rules printed ``THEN 1.0``)."""
    rng = np.random.default_rng(2)
    X = pd.DataFrame({"a": rng.integers(0, 10, 120)})
    y = pd.Series(np.where(X["a"] > 5, True, False), dtype=dtype)
    est = make().fit(X, y)
    assert est.classes_.dtype == bool and est.classes_.tolist() == [False, True]
    assert est.score(X, y) == 1.0
    assert est.score(X, y.astype(bool), sample_weight=np.ones(len(y))) == 1.0
    assert est.predict(X).dtype == bool
    assert "THEN True" in rules_text(est)


@pytest.mark.parametrize("make", [lambda: IMLIClassifier(backend=BACKEND, random_state=0),
                                  lambda: CDPRClassifier(random_state=0)])
def test_nullable_integer_labels_stay_integers(make):
    """pandas ``Int64`` labels are the integer classes they hold, not floats."""
    X = pd.DataFrame({"a": np.arange(60) % 10})
    y = pd.Series(np.where(X["a"] > 5, 2, 1), dtype="Int64")
    est = make().fit(X, y)
    assert est.classes_.dtype.kind == "i" and est.classes_.tolist() == [1, 2]
    assert est.score(X, y) == 1.0


def test_cli_true_false_label_with_missing_values(tmp_path, capsys):
    """``satrules learn --drop-unlabelled`` on a True/False label with empty cells learns
    and saves rules that ``predict`` scores (it failed with scikit-learn's "Unknown label
    type: unknown")."""
    from satrules.cli import main

    rng = np.random.default_rng(4)
    a = rng.integers(0, 10, 150)
    label = np.where(a > 5, "True", "False").astype(object)
    label[[3, 40]] = ""
    train, rules = tmp_path / "train.csv", tmp_path / "rules.json"
    pd.DataFrame({"a": a, "flag": label}).to_csv(train, index=False)
    assert main(["learn", str(train), "--target", "flag", "--method", "imli", "--backend",
                 BACKEND, "--test-size", "0", "--quiet", "--drop-unlabelled",
                 "--out", str(rules)]) == 0
    out = capsys.readouterr().out
    assert "IF (a > 5)\nTHEN True\nELSE False" in out
    assert main(["predict", str(rules), str(train), "--target", "flag"]) == 0
    assert "accuracy on 'flag': 1.0000 (148 labelled rows; 2 without a label)" in \
        capsys.readouterr().err


@pytest.mark.parametrize("make", [lambda: IMLIClassifier(backend=BACKEND, random_state=0),
                                  lambda: IMLIBClassifier(backend=BACKEND, random_state=0),
                                  lambda: CDPRClassifier(random_state=0)])
def test_a_level_spelt_with_other_spaces_or_case_at_predict_warns(make):
    """A file padded to a width in fit (medicaldata/opt's ``No ``) and not at predict, or
    written in another case, holds values fit never saw: they match no level, as any
    unseen value does, and predict says so, naming the feature, the values and the
    levels they differ from (a one-hot one and a grouped one of 15 levels)."""
    rng = np.random.default_rng(0)
    n = 300
    tob = rng.choice(["No ", "Yes", "Maybe"], n)
    st = rng.choice([f"s{i}" for i in range(15)], n)
    a = rng.integers(0, 10, n)
    X = pd.DataFrame({"tob": tob, "a": a, "st": st})
    y = ((tob == "No ") & (a > 4)).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # nothing to say about the training rows
        est = make().fit(X, y)
        est.predict(X)
    later = X.assign(tob=X["tob"].str.strip(), st=X["st"].str.upper())
    with pytest.warns(UserWarning) as caught:
        pred = est.predict(later)
    text = " ".join(str(w.message) for w in caught)
    assert "feature 'tob': value(s) 'No' differ from the level(s) 'No ' seen in fit only " \
        "in spaces or case" in text
    assert "feature 'st': value(s) 'S" in text and "(15 in all)" in text
    # read as unseen values: the same predictions as for a level fit never saw
    unseen = X.assign(tob=X["tob"].replace("No ", "Never"), st="s99")
    np.testing.assert_array_equal(pred, est.predict(unseen))
