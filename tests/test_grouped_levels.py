"""Grouped levels (``categories="grouped"``): a categorical feature of many levels becomes
a few ``x in {...}`` columns, its levels ranked by their rate of the class.

Data are generated here; ``satrules.binarize.group_levels`` states the method.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.backends.registry import available_backends
from satrules.binarize import GROUP_MIN_LEVELS, ThresholdBinarizer, group_levels
from satrules.cli import main
from satrules.estimators import IMLIBClassifier, IMLIClassifier
from satrules.rules import MISSING, Condition, Literal, RuleSet
from satrules.serialization import SchemaError

BACKEND = next(b for b in ("rc2", "cpsat", "bruteforce") if b in available_backends())
STATES = [f"s{i:02d}" for i in range(16)]
HIGH = ["s01", "s04", "s07", "s09", "s13"]   # the states of the rare class


def states(n: int = 600, seed: int = 0, flip: float = 0.03, missing: float = 0.0):
    """``state`` (16 levels; the label is "state in HIGH", ``flip`` of it flipped) and a
    noise column."""
    rng = np.random.default_rng(seed)
    state = rng.choice(STATES, n).astype(object)
    y = np.where(np.isin(state, HIGH) ^ (rng.random(n) < flip), "yes", "no")
    if missing:
        state[rng.random(n) < missing] = None
    return pd.DataFrame({"state": state, "noise": rng.normal(size=n).round(2)}), y


def printed_set(text):
    """The levels a printed grouped condition names, and whether it is negated: ``x in
    {a, b}`` / ``x not in {a, b}``, or for one level ``x = a`` / ``x != a`` and ``x is
    missing`` / ``x is not missing``."""
    if "{" not in text:
        negated = " != " in text or text.endswith(" is not missing")
        return ([MISSING] if text.endswith(" missing") else [text.split()[-1]]), negated
    inner = text[text.index("{") + 1:-1]
    members = inner.split(", ") if inner else []
    assert len(members) != 1, f"one level printed as a set: {text}"
    return members, " not in {" in text


@settings(max_examples=40, deadline=None)
@given(n_levels=st.integers(GROUP_MIN_LEVELS, 14), n=st.integers(30, 120),
       seed=st.integers(0, 2**16), missing=st.booleans())
def test_columns_are_the_sets_they_print(n_levels, n, seed, missing):
    """Every grouped column holds exactly on the levels its condition names (a missing value
    is the level ``<missing>``, an unseen level is in no set), read from raw values by
    :meth:`Condition.holds` as by ``transform``; ``fit_transform`` differs only on grouped
    columns, and there holds ``out-of-fold rate <= cut`` (or ``>``)."""
    rng = np.random.default_rng(seed)
    levels = [f"v{i}" for i in range(n_levels)]
    x = np.array(levels, dtype=object)[np.arange(n) % n_levels]   # every level present
    if missing:
        x[rng.random(n) < 0.1] = None
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({"x": x})
    tb = ThresholdBinarizer(thresholds="tree", categories="grouped", max_levels=None)
    fitted = tb.fit_transform(X, y)
    if tb.feature_kinds_["x"] != "grouped":   # the tree made no usable cut
        assert all(c.op == "==" for c in tb.conditions_)
        return
    new = np.array(levels + ["unseen", None], dtype=object)
    for values in (x, new):
        out = tb.transform(pd.DataFrame({"x": values}))
        for c, cond in enumerate(tb.conditions_):
            assert (cond.holds(values) == out[:, c]).all()
            shown, negated = printed_set(cond.describe())
            assert not negated
            keys = [MISSING if v is None else v for v in values]
            assert out[:, c].tolist() == [int(k in shown) for k in keys]
            assert printed_set(cond.describe(negated=True)) == (shown, True)
    levels_, ranks, rate_cuts, rates = group_levels(
        np.where(pd.isna(x), MISSING, x), y, tb.n_thresholds_, tb.n_tree_thresholds_)
    ops = [c.op for c in tb.conditions_]
    want = np.stack([rates <= t if op == "<=" else rates > t
                     for t, op in zip(rate_cuts, ops, strict=True)], axis=1)
    assert (fitted == want).all()
    assert (ranks == [c.value for c in tb.conditions_]).all()


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_simplify_keeps_the_meaning_of_grouped_literals(data):
    """A rule of several grouped literals of one feature, simplified, holds on the same raw
    values (every level, a missing value and an unseen one)."""
    levels = tuple(f"v{i}" for i in range(10)) + (MISSING,)
    conds = [Condition("x", op, float(r), 0, levels=levels, grouped=True)
             for r, op in ((1, "<="), (3, "<="), (5, ">"), (7, ">"))]
    kind = data.draw(st.sampled_from(["dnf", "cnf"]))
    rules = data.draw(st.lists(st.lists(st.builds(Literal, st.integers(0, 3), st.booleans()),
                                        min_size=1, max_size=4), min_size=1, max_size=3))
    rs = RuleSet(rules, kind, 4, conds)
    values = np.array(list(levels[:-1]) + [None, "unseen"], dtype=object)[:, None]
    assert (rs.simplify().evaluate_raw(values) == rs.evaluate_raw(values)).all()


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_grouped_literals_of_one_ladder_print_as_the_set_they_hold_on(data):
    """A rule's grouped literals of one feature print as one set (their AND in a DNF term,
    their OR in a CNF clause), also across the ladders of two classes (two level orders):
    every level, a missing value and an unseen one satisfy the printed ``x in {...}`` /
    ``x not in {...}`` exactly where the rule holds."""
    levels = tuple(f"v{i}" for i in range(10)) + (MISSING,)
    other = tuple(reversed(levels))   # another class's ladder ranks the levels otherwise
    conds = [Condition("x", op, float(r), 0, levels=lv, grouped=True)
             for r, op, lv in ((1, "<=", levels), (3, "<=", levels), (5, ">", levels),
                               (7, ">", levels), (2, "<=", other), (6, ">", other))]
    kind = data.draw(st.sampled_from(["dnf", "cnf"]))
    rule = data.draw(st.lists(st.builds(Literal, st.integers(0, 5), st.booleans()),
                              min_size=2, max_size=4))
    rs = RuleSet([rule], kind, 6, conds)
    values = np.array(list(levels[:-1]) + [None, "unseen"], dtype=object)
    truth = rs.evaluate_raw(values[:, None]).tolist()
    text = rs.rule_text(0)
    if " AND " in text or " OR " in text:   # left as written: constant on the levels
        assert len(set(truth[:-1])) == 1, text
        return
    keys = [MISSING if v is None else v for v in values]
    members, negated = printed_set(text)
    assert truth == [(k in members) != negated for k in keys], text


def test_group_levels_ranks_by_the_rate_and_reads_out_of_fold():
    X, y = states()
    levels, ranks, rate_cuts, rates = group_levels(X["state"].to_numpy(), y == "yes", 4)
    assert sorted(levels[-len(HIGH):]) == HIGH   # the highest rates last
    assert len(HIGH) - 1 + len(levels) - len(HIGH) in ranks + len(HIGH)
    # out of fold: a level's rows do not all read the same rate
    assert len(np.unique(rates[X["state"].to_numpy() == "s01"])) > 1


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 80), n_levels=st.integers(1, 8), seed=st.integers(0, 2**16))
def test_out_of_fold_rates_are_each_folds_complement(n, n_levels, seed):
    """Each training row reads its level's rate smoothed towards the share of the class,
    both counted on the rows of the other folds of ``KFold(5, shuffle=True,
    random_state=0)`` (a level absent there reads the share)."""
    from sklearn.model_selection import KFold

    from satrules.binarize import GROUP_SMOOTHING

    rng = np.random.default_rng(seed)
    x = rng.choice([f"v{i}" for i in range(n_levels)] + [None], n).astype(object)
    y = rng.integers(0, 2, n)
    _, _, _, rates = group_levels(x, y, 4)
    want = np.empty(n)
    key = np.array(["<none>" if v is None else v for v in x], dtype=object)
    if n < 2:
        want[:] = (y.sum() + GROUP_SMOOTHING * y.mean()) / (1 + GROUP_SMOOTHING)
    else:
        for rest, fold in KFold(min(5, n), shuffle=True, random_state=0).split(x):
            share = y[rest].mean()
            for i in fold:
                same = rest[key[rest] == key[i]]
                want[i] = (y[same].sum() + GROUP_SMOOTHING * share) / (len(same)
                                                                      + GROUP_SMOOTHING)
    assert np.allclose(rates, want)


def test_more_classes_group_a_noise_feature_as_rarely_as_two_do():
    """The per-class tests share the level :data:`GROUP_MAX_P` (each at GROUP_MAX_P / K):
    of 300 features of 12 levels that say nothing of 5 classes, about 3 are grouped, not
    the 15 that K tests at the full level would group."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"f{j}": rng.choice([f"l{i}" for i in range(12)], 600)
                      for j in range(300)})
    y = rng.choice(list("abcde"), 600)
    kinds = ThresholdBinarizer(categories="grouped").fit(X, y).feature_kinds_
    assert sum(kind == "grouped" for kind in kinds.values()) <= 6


def test_a_level_seen_once_does_not_look_predictive_by_its_own_label(monkeypatch):
    """Sixty levels of two rows each and labels of a coin: the association test finds
    nothing to group; and with the test off, the training columns read each row by its
    partner's label (out of fold), so no grouped rule passes polishing's test and the fit
    is one class."""
    import satrules.binarize as binarize

    rng = np.random.default_rng(5)
    X = pd.DataFrame({"who": np.repeat([f"p{i}" for i in range(60)], 2)})
    y = rng.integers(0, 2, 120)
    est = IMLIClassifier(max_levels=None, backend=BACKEND, random_state=0).fit(X, y)
    assert est.binarizer_.feature_kinds_["who"] == "categorical"
    monkeypatch.setattr(binarize, "GROUP_MAX_P", np.inf)   # the out-of-fold rates alone
    est = IMLIClassifier(categories="grouped", max_levels=None, backend=BACKEND,
                         random_state=0).fit(X, y)
    assert est.binarizer_.feature_kinds_["who"] == "grouped"
    assert est.rules_.n_literals == 0, str(est.rules_)


@pytest.mark.parametrize("n_classes", [3, 4])
def test_a_balanced_panel_does_not_leak_the_split(n_classes, monkeypatch):
    """One row per state and quarter, the state the class, the quarter the feature: the
    quarters tell nothing, but a random split makes the quarters whose row of a state was
    held out that state's lowest-rate ones.  The association test keeps the quarter from
    being grouped; without it, the rules name exactly the held-out quarters."""
    from sklearn.model_selection import train_test_split

    import satrules.binarize as binarize

    rng = np.random.default_rng(3)
    quarters = [f"q{i:02d}" for i in range(40)]
    states_ = [f"st{k}" for k in range(n_classes)]
    X = pd.DataFrame({"quarter": np.repeat(quarters, n_classes),
                      "takings": rng.normal(size=40 * n_classes).round(2)})
    y = np.tile(states_, 40)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                              random_state=0)
    est = IMLIClassifier(backend=BACKEND, random_state=0).fit(X_tr, y_tr)
    assert est.binarizer_.feature_kinds_["quarter"] != "grouped"   # one-hot or dropped
    assert est.score(X_te, y_te) <= 1 / n_classes + 0.15
    monkeypatch.setattr(binarize, "GROUP_MAX_P", np.inf)
    leaky = IMLIClassifier(backend=BACKEND, random_state=0).fit(X_tr, y_tr)
    assert leaky.binarizer_.feature_kinds_["quarter"] == "grouped"
    assert leaky.score(X_te, y_te) > est.score(X_te, y_te) + 0.2   # what the test stops


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_imli_and_imlib_learn_the_set_and_keep_it_in_a_file(cls, tmp_path):
    """Five states of sixteen make the rare class: grouped, one literal names exactly them
    (one-hot needs eleven ``state != v`` literals, or rules IMLIB's bound of three literals
    does not allow); the file keeps the rule, and an unseen state and a missing one read as
    in no set."""
    X, y = states(missing=0.02)
    X_test, y_test = states(400, seed=1)
    est = cls(categories="grouped", backend=BACKEND, random_state=0).fit(X, y)
    assert est.binarizer_.feature_kinds_["state"] == "grouped"
    text = str(est.rules_)
    assert "state in {" + ", ".join(HIGH) + "}" in text, text
    assert est.score(X_test, y_test) >= 0.95
    onehot = cls(categories="onehot", backend=BACKEND, random_state=0).fit(X, y)
    assert est.score(X_test, y_test) >= onehot.score(X_test, y_test)
    assert est.rules_.n_literals < onehot.rules_.n_literals
    again = cls.load(est.save(tmp_path / "m.json"))
    assert str(again.rules_) == text and again.categories == "grouped"
    assert (again.predict(X_test) == est.predict(X_test)).all()
    odd = pd.DataFrame({"state": ["s99", None], "noise": [0.0, 0.0]})
    assert again.predict(odd).tolist() == ["no", "no"]


def test_a_file_whose_grouped_ranks_pass_the_levels_is_refused():
    X, y = states(300)
    est = IMLIClassifier(categories="grouped", backend=BACKEND, random_state=0).fit(X, y)
    f = est.binarizer_._names.index("state")
    kind, (levels, cuts), missing = est.binarizer_._specs[f]
    assert kind == "grouped"
    est.binarizer_._specs[f] = (kind, (levels, cuts + 20), missing)
    with pytest.raises(SchemaError, match="ranks of the 16 levels"):
        IMLIClassifier.from_json(est.to_json())


def test_few_levels_and_one_hot_stay_one_hot():
    X, y = states(300)
    few = X.assign(state=X["state"].str[:2])   # s0 / s1: two levels
    assert ThresholdBinarizer(categories="grouped").fit(few, y).feature_kinds_["state"] \
        == "binary"
    assert ThresholdBinarizer(thresholds="tree").fit(X, y).feature_kinds_["state"] \
        == "categorical"


LOW = ["s02", "s05", "s10", "s14"]   # the states of the third class


def three_classes(n: int = 900, seed: int = 0, flip: float = 0.03):
    """``state`` decides the class: HIGH -> "high", LOW -> "low", the rest "mid" (``flip``
    of the labels drawn at random); a noise column."""
    X, _ = states(n, seed)
    rng = np.random.default_rng(seed + 100)
    y = np.where(X["state"].isin(HIGH), "high", np.where(X["state"].isin(LOW), "low", "mid"))
    odd = rng.random(n) < flip
    y[odd] = rng.choice(["high", "low", "mid"], odd.sum())
    return X, y


def test_more_classes_group_once_per_class():
    """Three classes: one ladder per class, its levels ranked by that class's rate, so each
    class's own set is a column; ``class_columns(label=...)`` gives a one-vs-rest problem
    its own ladder only; ``transform`` reads the same sets, ``fit_transform`` each
    ladder's out-of-fold rates."""
    X, y = three_classes()
    tb = ThresholdBinarizer(categories="grouped")
    fitted = tb.fit_transform(X, y)
    assert tb.feature_kinds_["state"] == "grouped"
    kind, ladders, _ = tb._specs[tb._names.index("state")]
    assert kind == "grouped_classes" and [lab for lab, _, _ in ladders] == ["high", "low", "mid"]
    shown = [c.describe() for c in tb.conditions_ if c.grouped]
    for own in (HIGH, LOW):
        assert "state in {" + ", ".join(own) + "}" in shown, shown
    Xb = tb.transform(X)
    start = 0
    for label, levels, ranks in ladders:
        columns = [start + j for j in range(len(ranks))]
        start += len(ranks)
        keep = tb.class_columns(Xb, y == label, label=label)
        grouped = [c for c in keep if tb.conditions_[c].grouped]
        assert grouped == columns   # its own ladder, not the others'
        assert all(tb.conditions_[c].levels == levels for c in columns)
        _, _, rate_cuts, rates = group_levels(X["state"].to_numpy(), y == label, 4)
        ops = [tb.conditions_[c].op for c in columns]
        want = np.stack([rates <= r if op == "<=" else rates > r
                         for r, op in zip(rate_cuts, ops, strict=True)], axis=1)
        assert (fitted[:, columns] == want).all()
        for c in columns:
            assert (Xb[:, c] == tb.conditions_[c].holds(X["state"].to_numpy())).all()
    assert tb.class_columns(Xb, y == "high") is None   # no label: every column
    assert (np.delete(fitted, [c for c, cond in enumerate(tb.conditions_) if cond.grouped],
                      axis=1) == np.delete(Xb, [c for c, cond in enumerate(tb.conditions_)
                                                if cond.grouped], axis=1)).all()


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_more_classes_learn_each_set_and_keep_it_in_a_file(cls, tmp_path):
    """One-vs-rest on grouped levels: the high and the low class each get one literal that
    names exactly their states; the file keeps the ladders, and a file with a ladder's
    class repeated or its ranks past the levels is refused."""
    X, y = three_classes()
    X_test, y_test = three_classes(600, seed=1)
    est = cls(categories="grouped", backend=BACKEND, random_state=0).fit(X, y)
    for label, own in (("high", HIGH), ("low", LOW)):
        text = str(est.rules_[label])
        assert "state in {" + ", ".join(own) + "}" in text, text
    assert est.score(X_test, y_test) >= 0.95
    onehot = cls(categories="onehot", backend=BACKEND, random_state=0).fit(X, y)
    assert est.score(X_test, y_test) >= onehot.score(X_test, y_test)
    again = cls.load(est.save(tmp_path / "m.json"))
    assert (again.predict(X_test) == est.predict(X_test)).all()
    f = est.binarizer_._names.index("state")
    kind, ladders, missing = est.binarizer_._specs[f]
    est.binarizer_._specs[f] = (kind, (ladders[0], ladders[0]) + ladders[2:], missing)
    with pytest.raises(SchemaError, match="repeated"):
        cls.from_json(est.to_json())
    label, levels, ranks = ladders[1]
    est.binarizer_._specs[f] = (kind, (ladders[0], (label, levels, ranks + 20)) + ladders[2:],
                                missing)
    with pytest.raises(SchemaError, match="ranks of the 16 levels"):
        cls.from_json(est.to_json())


@pytest.mark.parametrize("cls", [IMLIClassifier, IMLIBClassifier])
def test_each_class_rules_read_its_own_ladder_only(cls):
    """One-vs-rest reads a grouped feature through its own class's ladder only, in the
    solves and in polishing: another class's ladder can hold a column naming the same
    levels but read on other out-of-fold rates, which made IMLIB print ``(x <= -0.697
    AND st in {s0, ..., s7}) OR (st in {s0, ..., s7})`` with two such columns."""
    rng = np.random.default_rng(1)
    st = rng.choice([f"s{i}" for i in range(60)], 1500).astype(object)
    y = np.where(np.isin(st, [f"s{i}" for i in range(8)]), 2,
                 np.where(np.isin(st, [f"s{i}" for i in range(8, 20)]), 1, 0))
    st[rng.random(1500) < 0.05] = None
    X = pd.DataFrame({"st": pd.Series(st).astype("category"), "x": rng.normal(size=1500)})
    est = cls(backend=BACKEND, random_state=0).fit(X, y)
    ladder_of = dict(est.binarizer_._class_ladder_columns())
    assert len(set(ladder_of.values())) == 3
    for label, rules in est.rules_.items():
        used = {lit.column for rule in rules.rules for lit in rule.literals}
        assert all(ladder_of.get(c, label) == label for c in used), (label, str(rules))
    assert str(est.rules_[2]).count("st in {") == 1, str(est.rules_[2])


def test_more_classes_coin_flip_levels_give_no_grouped_rule(monkeypatch):
    """Sixty two-row levels and three classes drawn at random: out-of-fold rates leave
    nothing to learn, so no rule names the levels (with the association test off; on,
    nothing is grouped)."""
    import satrules.binarize as binarize

    monkeypatch.setattr(binarize, "GROUP_MAX_P", np.inf)
    rng = np.random.default_rng(7)
    X = pd.DataFrame({"who": np.repeat([f"p{i}" for i in range(60)], 2)})
    y = rng.choice(["a", "b", "c"], 120)
    est = IMLIClassifier(categories="grouped", max_levels=None, backend=BACKEND,
                         random_state=0).fit(X, y)
    assert est.binarizer_.feature_kinds_["who"] == "grouped"
    assert all(r.n_literals == 0 for r in est.rules_.values()), est.rules_


def test_bad_categories_and_missing_labels_are_named():
    X, y = states(50)
    with pytest.raises(ValueError, match="categories must be one of onehot, grouped"):
        ThresholdBinarizer(categories="target").fit(X, y)
    with pytest.raises(ValueError,
                       match="categories='grouped' groups levels by the labels: call fit"):
        ThresholdBinarizer(categories="grouped").fit(X)
    with pytest.raises(ValueError, match="categories must be one of"):
        IMLIClassifier(categories=True).fit(X, y)


def test_condition_of_grouped_levels_round_trips_and_checks_its_op():
    levels = ("b", "a", "c")
    cond = Condition("x", ">", 0.0, 0, levels=levels, grouped=True)
    assert cond.describe() == "x in {a, c}"
    assert cond.holds(np.array(["a", "b", "zz", None], dtype=object)).tolist() == [1, 0, 0, 0]
    assert Condition.from_dict(cond.to_dict()) == cond
    with pytest.raises(ValueError, match="grouped levels"):
        Condition("x", "==", 0.0, 0, levels=levels, grouped=True)


@pytest.mark.parametrize("method", ["imli", "imlib"])
def test_learn_groups_by_default_and_passes_onehot(method, tmp_path, capsys):
    """``categories="grouped"`` is the default of both estimators and of ``satrules
    learn``; ``--categories onehot`` gives a column per level."""
    from satrules import serialization

    X, y = states(300)
    path = tmp_path / "s.csv"
    X.assign(t=y).to_csv(path, index=False)
    for extra, kind in (([], "grouped"), (["--categories", "onehot"], "categorical")):
        out = tmp_path / f"m_{kind}.json"
        assert main(["learn", str(path), "--target", "t", "--method", method, "--backend",
                     "rc2", "-q", *extra, "--out", str(out)]) == 0
        est = serialization.load(out)
        assert est.categories == ("grouped" if not extra else "onehot")
        assert est.binarizer_.feature_kinds_["state"] == kind
    assert IMLIClassifier().categories == IMLIBClassifier().categories == "grouped"
    capsys.readouterr()


def many_states(n_levels: int = 60, rows: int = 8, seed: int = 0):
    """``state`` of ``n_levels`` levels (``rows`` each, more than ``max_levels``' 50); the
    label is "one of the first seven" (3 % flipped)."""
    rng = np.random.default_rng(seed)
    names = [f"t{i:02d}" for i in range(n_levels)]
    state = np.repeat(names, rows).astype(object)
    y = np.where(np.isin(state, names[:7]) ^ (rng.random(len(state)) < 0.03), "yes", "no")
    return pd.DataFrame({"state": state, "noise": rng.normal(size=len(state)).round(2)}), y


def test_grouped_keeps_more_than_fifty_levels_when_the_labels_group_them():
    """One-hot drops a 60-level feature as an identifier (``max_levels="auto"``: at most
    50); grouped keeps it and the learner names the seven levels of the class, while a
    feature with a value per row is dropped either way."""
    X, y = many_states()
    X["name"] = [f"n{i}" for i in range(len(X))]
    with pytest.warns(UserWarning, match=r"'state': 60 distinct values .*max_levels=50"):
        onehot = ThresholdBinarizer().fit(X, y)
    assert onehot.feature_kinds_["state"] == "dropped"
    with pytest.warns(UserWarning, match="'name': 480 distinct values") as record:
        tb = ThresholdBinarizer(categories="grouped").fit(X, y)
    assert "'state'" not in str(record[0].message)
    assert tb.feature_kinds_ == {"state": "grouped", "noise": "ordinal", "name": "dropped"}
    est = IMLIClassifier(categories="grouped", backend=BACKEND, random_state=0)
    with pytest.warns(UserWarning, match="'name'"):
        est.fit(X, y)
    want = "state in {" + ", ".join(f"t{i:02d}" for i in range(7)) + "}"
    assert want in str(est.rules_), str(est.rules_)


def test_grouped_drops_more_than_fifty_levels_the_labels_do_not_group(monkeypatch):
    """When the labels give no cut, a feature past the one-hot limit is dropped, as one-hot
    drops it, with the reason."""
    import satrules.binarize as binarize

    def no_cuts(values, y, n_thresholds, n_tree=None):
        return ("a",), np.array([]), np.array([]), np.zeros(len(values))

    monkeypatch.setattr(binarize, "group_levels", no_cuts)
    X, y = many_states()
    with pytest.warns(UserWarning, match=r"'state': 60 distinct values in 480 rows \(more "
                                         r"than max_levels=50\), which the labels do not "
                                         "group"):
        tb = ThresholdBinarizer(categories="grouped").fit(X, y)
    assert tb.feature_kinds_["state"] == "dropped"
    X, y = states()   # 16 levels: within the limit, one-hot as before
    assert ThresholdBinarizer(categories="grouped").fit(X, y).feature_kinds_["state"] \
        == "categorical"
