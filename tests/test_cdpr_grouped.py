"""CDPR with grouped levels (``CDPRClassifier(categories="grouped")``): a categorical
feature of many levels becomes one number per class, the level's rate of that class, so
that a mined rule's interval on it is a set of levels, printed ``x in {...}``.

Data are generated here (the generators of ``test_grouped_levels``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satrules.binarize import GROUP_MIN_LEVELS, level_rates
from satrules.cli import main
from satrules.estimators import CDPRClassifier
from satrules.estimators.cdpr import _ColumnEncoder
from satrules.mining import grouped_members
from satrules.rules import MISSING, level_key, level_set_text
from satrules.serialization import SchemaError
from tests.test_grouped_levels import HIGH, LOW, STATES, many_states, states, three_classes

SMALL = {"n_estimators": 10, "random_state": 0}


def member_keys(values: np.ndarray) -> np.ndarray:
    """Each raw value's level key, a missing value the level ``<missing>``."""
    return np.array([MISSING if v is None or (isinstance(v, float) and np.isnan(v))
                     else level_key(v) for v in values], dtype=object)


def test_grouped_learns_the_set_and_prints_it():
    """Two classes: one rate column; the rules name HIGH as a set, and predict unseen
    data from the set."""
    X, y = states(600)
    est = CDPRClassifier(categories="grouped", **SMALL).fit(X, y)
    assert est.encoder_.kinds == ["grouped", "numeric"]
    assert est.encoder_.feature_names == ["state", "noise"]
    assert level_set_text("state", HIGH) in est.to_text(), est.to_text()
    X_new, y_new = states(300, seed=1)
    assert est.score(X_new, y_new) >= 0.93   # 3 % of the labels are flipped
    assert CDPRClassifier().categories == "grouped"   # the default since session 57
    onehot = CDPRClassifier(categories="onehot", **SMALL).fit(X, y)
    assert onehot.encoder_.kinds[0] == "categorical"


@settings(max_examples=25, deadline=None)
@given(n_levels=st.integers(GROUP_MIN_LEVELS, 14), n_classes=st.integers(2, 4),
       seed=st.integers(0, 2**16), missing=st.booleans())
def test_each_grouped_interval_holds_on_the_set_it_prints(n_levels, n_classes, seed, missing):
    """Every mined rule prints one set (the levels all its class columns' intervals hold
    on), and holds on a row (read by ``transform``) exactly when the row's level is in it;
    an unseen level is in no set.  The training rows' columns are their out-of-fold rates
    (``level_rates``)."""
    rng = np.random.default_rng(seed)
    levels = [f"v{i}" for i in range(n_levels)]
    x = np.array(levels, dtype=object)[rng.integers(0, n_levels, 200)]
    if missing:
        x[rng.random(200) < 0.1] = None
    good = np.isin(x, levels[:3])   # a class the levels tell, plus noise
    y = np.where(good ^ (rng.random(200) < 0.1), 1, rng.integers(2, n_classes + 1, 200))
    X = pd.DataFrame({"x": x})
    est = CDPRClassifier(categories="grouped", null_test=False, **SMALL).fit(X, y)
    enc = est.encoder_
    if enc.kinds[0] != "grouped":
        return
    codes = np.unique(y, return_inverse=True)[1]   # the training rows, as the trees read them
    fitted = _ColumnEncoder().fit(X.to_numpy(dtype=object), ["x"], y_index=codes,
                                  classes=est.classes_.tolist()).out_of_fold(
        X.to_numpy(dtype=object), codes, est.classes_.tolist())
    classes = [1] if n_classes == 2 else list(range(n_classes))
    _, _, oof, _ = level_rates(np.where(pd.isna(x), MISSING, x).astype(object),
                                  np.unique(y, return_inverse=True)[1], len(est.classes_),
                                  classes)
    kept = [classes.index(est.classes_.tolist().index(label)) for label in enc.grouped[0][1]]
    assert np.allclose(fitted, oof[:, kept])
    new = np.array(levels + ["unseen", None], dtype=object)
    for values in (x, new):
        encoded = enc.transform(values[:, None])
        keys = member_keys(values)
        for rule in est.rules_:   # one set per rule: the meet of its class columns' sets
            members, holds = set(enc.grouped[0][0]), np.ones(len(values), dtype=bool)
            for f, lo, hi in rule.conditions:
                name, lv, rates = est.rules_.grouped[f]
                members &= set(grouped_members(lv, rates, lo, hi))
                with np.errstate(invalid="ignore"):
                    holds &= (encoded[:, f] > lo) & (encoded[:, f] <= hi)
            assert str(rule) == f"IF {level_set_text('x', members)} THEN " \
                f"{est.classes_[rule.label]}"
            assert (holds == np.isin(keys, list(members))).all()


def incidents(n_incidents: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Rows of incidents (1-4 rows each, one class per incident: 80 % ``m``), with an
    unrelated ``age``: the labels group the ``incident`` levels, since an incident's
    rows share its class (openintro/mn_police_use_of_force's ``response_datetime``)."""
    rng = np.random.RandomState(seed)
    size = rng.choice([1, 2, 3, 4], n_incidents, p=[0.2, 0.4, 0.2, 0.2])
    labels = np.where(rng.rand(n_incidents) < 0.2, "f", "m")
    incident = np.repeat(np.arange(n_incidents), size)
    X = pd.DataFrame({"incident": [f"i{i:05d}" for i in incident],
                      "age": rng.randint(18, 80, len(incident))})
    return X, np.repeat(labels, size)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_level_of_one_row_is_not_counted_by_its_own_label(seed):
    """The candidates are counted on the out-of-fold rates, as the trees grow on them: a
    level seen on one training row has the same rate there whatever its class, so no
    rule covers the levels of one row by their own labels.  Counted with every training
    row's rates (the sets as they print), the two rules selected covered every such
    level of their own class and none of the other (on mn_police_use_of_force, rules so
    counted put the test split 6 points below the majority class)."""
    X, y = incidents(800, seed)
    est = CDPRClassifier(random_state=0).fit(X, y)
    assert est.encoder_.kinds[0] == "grouped"
    _, inverse, counts = np.unique(X.incident, return_inverse=True, return_counts=True)
    single = counts[inverse] == 1
    assert single.sum() > 100
    for rule, cover in zip(est.rules_, est.rules_.covers, strict=True):
        hit = single & cover.toarray().ravel()
        if hit.sum() >= 10:   # its class among them no likelier than among all the rows
            label = est.classes_[rule.label]
            share = (y[hit] == label).mean()
            assert share <= (y == label).mean() + 0.15, (str(rule)[:200], share)


def test_unseen_levels_are_in_no_set_or_an_error():
    X, y = states(600)
    est = CDPRClassifier(categories="grouped", **SMALL).fit(X, y)
    odd = X.head(3).assign(state=["zz", None, "s01"])
    assert len(est.predict(odd)) == 3
    assert np.isnan(est.encoder_.transform(odd.to_numpy(dtype=object))[:2, 0]).all()
    strict = CDPRClassifier(categories="grouped", handle_unknown="error", **SMALL).fit(X, y)
    with pytest.raises(ValueError,
                       match=r"unseen categories \['zz', '<missing>'\] in column 'state'"):
        strict.predict(odd)


def test_more_classes_get_a_column_per_class_and_keep_it_in_a_file(tmp_path):
    X, y = three_classes()
    est = CDPRClassifier(categories="grouped", **SMALL).fit(X, y)
    assert est.encoder_.feature_names == ["state[high]", "state[low]", "state[mid]", "noise"]
    text = est.to_text()
    each = pd.DataFrame({"state": STATES, "noise": 0.0})   # every state's own class
    want = np.where(np.isin(STATES, HIGH), "high", np.where(np.isin(STATES, LOW), "low", "mid"))
    assert (est.predict(each) == want).all(), text
    assert all(str(rule).count("state in") == 1 for rule in est.rules_), text   # one set
    assert "{}" not in text
    # the candidates were counted on the out-of-fold rates, and each covers rows as it
    # prints (no set meets in no level)
    rows = X.to_numpy(dtype=object)
    y_index = np.searchsorted(est.classes_, y)
    oof = est.encoder_.out_of_fold(rows, y_index, est.classes_.tolist())
    assert (est.rules_.cover(oof) != est.rules_.covers).nnz == 0
    assert (est.rules_.cover(est.encoder_.transform(rows)).getnnz(axis=1) > 0).all()
    path = est.save(tmp_path / "m.json")
    back = CDPRClassifier.load(path)
    X_new, _ = three_classes(300, seed=2)
    assert back.to_text() == text
    assert (back.predict(X_new) == est.predict(X_new)).all()
    assert (back.predict_proba(X_new) == est.predict_proba(X_new)).all()


@pytest.mark.parametrize("where", ["encoder", "rules"])
def test_a_file_whose_rates_disagree_is_refused(tmp_path, where):
    import json

    X, y = states(300)
    est = CDPRClassifier(categories="grouped", **SMALL).fit(X, y)
    data = json.loads(est.to_json())
    text = json.dumps(data)
    if where == "encoder":   # a rate above 1
        text = text.replace('"dtype": "<f8", "shape": [16, 1]', '"dtype": "<f8", "shape": [8, 2]',
                            1)
    else:   # the rules' copy of the rates no longer the encoder's
        est.rules_.grouped[0] = ("state", est.rules_.grouped[0][1],
                                 est.rules_.grouped[0][2][::-1].copy())
        text = est.to_json()
    assert text != json.dumps(data)
    with pytest.raises(SchemaError, match="grouped"):
        CDPRClassifier.from_json(text)


def test_levels_the_labels_do_not_group_stay_one_hot_or_are_dropped():
    """Coin-flip labels: the association test keeps 16 levels one-hot, and drops 60 as an
    identifier with the reason; 60 levels the labels do group are kept."""
    rng = np.random.default_rng(3)
    X, _ = states(600)
    coin = rng.choice(["a", "b"], 600)
    assert CDPRClassifier(categories="grouped", **SMALL).fit(X, coin).encoder_.kinds[0] \
        == "categorical"
    X, y = many_states()
    with pytest.warns(UserWarning, match=r"'state': 60 distinct values in 480 rows \(more "
                                         r"than max_levels=50\), which the labels do not "
                                         "group"):
        est = CDPRClassifier(categories="grouped", **SMALL).fit(X, rng.permutation(y))
    assert est.dropped_features_.keys() == {"state"}
    est = CDPRClassifier(categories="grouped", **SMALL).fit(X, y)
    assert est.encoder_.kinds[0] == "grouped"
    assert level_set_text("state", [f"t{i:02d}" for i in range(7)]) in est.to_text()
    with pytest.warns(UserWarning, match="'state': 60 distinct values"):
        assert CDPRClassifier(categories="onehot", **SMALL).fit(X, y).encoder_.kinds[0] \
            == "dropped"


def test_bad_categories_are_named():
    X, y = states(100)
    with pytest.raises(ValueError, match="categories must be one of"):
        CDPRClassifier(categories="sets").fit(X, y)


def test_learn_groups_for_cdpr_by_default_and_passes_onehot(tmp_path, capsys):
    from satrules import serialization

    X, y = states(300)
    path = tmp_path / "s.csv"
    X.assign(t=y).to_csv(path, index=False)
    for extra, kind in (([], "grouped"), (["--categories", "onehot"], "categorical")):
        out = tmp_path / f"m_{kind}.json"
        assert main(["learn", str(path), "--target", "t", "--method", "cdpr-gra", "-q",
                     *extra, "--out", str(out)]) == 0
        est = serialization.load(out)
        assert est.categories == ("onehot" if extra else "grouped")
        assert est.encoder_.kinds[0] == kind
    capsys.readouterr()


def test_encode_cdprl_exports_the_exact_fit_of_grouped_levels(tmp_path, capsys):
    """``satrules encode --method cdprl`` mines as ``fit`` does with grouped levels (the
    trees and the counts on out-of-fold rates): an external answer,
    decoded, is the in-process exact fit."""
    from satrules.commands.learn import make_estimator
    from tests.test_cli_learn import export_cdprl

    X, y = three_classes(300)
    data = tmp_path / "states.csv"
    X.assign(label=y).to_csv(data, index=False)
    est = export_cdprl(data, tmp_path)
    capsys.readouterr()
    clf = make_estimator("cdpr-exact", {"gamma": 3, "n_estimators": 4, "random_state": 0,
                                        "backend": "rc2", "miner": "gbdt"}).fit(X, y)
    assert clf.encoder_.kinds[0] == "grouped"
    assert est.result_.coverage == clf.result_.coverage
    assert est.to_text() == clf.to_text()


def test_cross_validation_reads_each_folds_own_rates(monkeypatch):
    """``alpha="cv"``: each fold's grouped rates come from its training rows alone (the
    rows of the other folds), so a held-out label never shapes the sets its row is judged
    by; the final fit reads every training row."""
    from satrules.estimators import cdpr

    seen = []
    refitted = cdpr._ColumnEncoder.refitted

    def spy(self, X, y_index, classes):
        seen.append(len(X))
        return refitted(self, X, y_index, classes)

    monkeypatch.setattr(cdpr._ColumnEncoder, "refitted", spy)
    X, y = states(300)
    est = CDPRClassifier(**SMALL).fit(X, y)
    assert est.encoder_.kinds[0] == "grouped" and est.alpha_cv_ is not None
    assert len(seen) == 3 and sum(seen) == 2 * 300   # three folds, each row held out once
    assert np.allclose(est.encoder_.grouped[0][2][:, 0],
                       level_rates(X["state"].to_numpy(dtype=object), (y == "yes") * 1, 2,
                                   [1])[1][:, 0])
