"""Sweeps: grid × splits tables, identical results serial / parallel / on a Dask cluster,
and the estimators under GridSearchCV and cross_validate with n_jobs=2."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from satrules.sweep import TIMING_COLUMNS, run_sweep, split_seeds, write_table


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=90), "b": rng.normal(size=90),
                      "c": rng.choice(["u", "v", "w"], 90)})
    y = np.where((X.a > 0) & (X.c != "w"), "pos", "neg")
    return X, y


def _cdpr():
    from satrules import CDPRClassifier

    return CDPRClassifier(n_estimators=5, max_depth=2, gamma=3)


def _stable(table):
    return table.drop(columns=list(TIMING_COLUMNS))


def test_table_shape_order_and_columns(data):
    """One row per (grid point, split), grid-major, with param_ columns and rule measures."""
    X, y = data
    table = run_sweep(_cdpr(), {"gamma": [1, 3], "beta": [0.2]}, X, y, n_splits=3)
    assert len(table) == 6
    assert table[["param_gamma", "split"]].values.tolist() == [
        [1, 0], [1, 1], [1, 2], [3, 0], [3, 1], [3, 2]]
    assert (table.param_beta == 0.2).all()
    assert table.seed.tolist()[:3] == split_seeds(3, 0)
    assert (table.n_rules <= table.param_gamma).all()
    assert table.test_coverage.between(0, 1).all() and table.test_accuracy.between(0, 1).all()
    assert (table.solver_status == "heuristic").all() and (table.error == "").all()


def test_alpha_chosen_column(data):
    """CDPR sweeps record the alpha each fit selected with: the value alpha="cv" chose, or
    the fixed one; other estimators have no such column."""
    X, y = data
    table = run_sweep(_cdpr(), {"alpha": ["cv", 0.8]}, X, y, n_splits=2)
    cv, fixed = table[table.param_alpha == "cv"], table[table.param_alpha == 0.8]
    assert cv.alpha_chosen.isin([0.6, 0.7, 0.8, 0.9]).all() and (fixed.alpha_chosen == 0.8).all()
    plain = run_sweep(DecisionTreeClassifier(), {"max_depth": [1]}, X[["a", "b"]], y,
                      n_splits=2)
    assert "alpha_chosen" not in plain.columns


def test_balanced_accuracy_column(data):
    """test_balanced_accuracy is the mean of the classes' test recalls: 0.5 for a constant
    prediction on two classes, and the weighted CDPR fit is scored by it too."""
    from sklearn.dummy import DummyClassifier

    X, y = data
    table = run_sweep(DummyClassifier(), {"strategy": ["most_frequent"]}, X, y, n_splits=2)
    assert (table.test_balanced_accuracy == 0.5).all()
    table = run_sweep(_cdpr(), {"class_weight": [None, "balanced"]}, X, y, n_splits=2)
    assert table.test_balanced_accuracy.between(0, 1).all()


def test_parallel_equals_serial(data):
    """loky with 2 workers gives the same table (timings aside) as the serial run."""
    X, y = data
    grid = {"gamma": [2, 3], "method": ["gra", "gdy"]}
    serial = run_sweep(_cdpr(), grid, X, y, n_splits=2, random_state=5, n_jobs=1)
    parallel = run_sweep(_cdpr(), grid, X, y, n_splits=2, random_state=5, n_jobs=2)
    pd.testing.assert_frame_equal(_stable(serial), _stable(parallel))


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_warning_of_every_fit_is_shown_once(data, n_jobs, capfd):
    """Every fit drops the same ID-like column; the sweep says so once, in this process
    (loky workers printed it once per task, with joblib's source line)."""
    X, y = data
    X = X.assign(rownames=np.arange(1, len(X) + 1))
    with pytest.warns(UserWarning) as caught:
        table = run_sweep(_cdpr(), {"gamma": [2, 3]}, X, y, n_splits=2, n_jobs=n_jobs)
    assert len(table) == 4
    dropped = [w for w in caught if "'rownames'" in str(w.message)]
    assert len(dropped) == 1
    assert "joblib" not in capfd.readouterr().err


def test_dask_cluster_equals_serial(data):
    """Through joblib's dask backend on a local dask.distributed cluster: same table."""
    import joblib
    from dask.distributed import Client, LocalCluster

    X, y = data
    grid = {"gamma": [2, 3]}
    serial = run_sweep(_cdpr(), grid, X, y, n_splits=2, random_state=3)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, Client(cluster):
        with joblib.parallel_backend("dask"):
            remote = run_sweep(_cdpr(), grid, X, y, n_splits=2, random_state=3, backend=None,
                               n_jobs=2)
    pd.testing.assert_frame_equal(_stable(serial), _stable(remote))


def test_seeds_drive_estimator_random_state(data):
    """Each task seeds the estimator with its split seed unless the grid sets random_state."""
    X, y = data
    a = run_sweep(_cdpr(), {"gamma": [3]}, X, y, n_splits=2, random_state=0)
    b = run_sweep(_cdpr(), {"gamma": [3], "random_state": [123]}, X, y, n_splits=2,
                  random_state=0)
    assert (b.param_random_state == 123).all()
    again = run_sweep(_cdpr(), {"gamma": [3]}, X, y, n_splits=2, random_state=0)
    pd.testing.assert_frame_equal(_stable(a), _stable(again))


def test_error_score_records_failures(data):
    """With a numeric error_score, a failing fit is a row with the exception text."""
    X, y = data
    table = run_sweep(_cdpr(), {"alpha": [0.5, 7.0]}, X, y, n_splits=1, error_score=np.nan)
    assert table.error.iloc[0] == "" and "alpha" in table.error.iloc[1]
    assert np.isnan(table.test_accuracy.iloc[1])
    with pytest.raises(ValueError, match="alpha"):
        run_sweep(_cdpr(), {"alpha": [7.0]}, X, y, n_splits=1)


def test_non_rule_estimators_work_too(data):
    """Any scikit-learn classifier can be swept; rule measures are then empty."""
    X, y = data
    table = run_sweep(DecisionTreeClassifier(), {"max_depth": [1, 3]}, X[["a", "b"]], y,
                      n_splits=2)
    assert table.n_rules.isna().all() and table.test_accuracy.notna().all()


def test_split_seeds_validation():
    """n_splits must be positive; seeds are distinct and reproducible."""
    with pytest.raises(ValueError, match="n_splits"):
        split_seeds(0, 0)
    assert split_seeds(4, 9) == split_seeds(4, 9) and len(set(split_seeds(20, 2))) == 20


def test_write_table_csv_and_parquet(tmp_path):
    """CSV round-trips; .parquet either works (pyarrow) or says how to get it."""
    import importlib.util

    table = pd.DataFrame({"param_k": [1, 2], "test_accuracy": [0.5, 0.75]})
    write_table(table, tmp_path / "t.csv")
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "t.csv"), table)
    if importlib.util.find_spec("pyarrow") is None:
        with pytest.raises(ValueError, match="pyarrow"):
            write_table(table, tmp_path / "t.parquet")
        assert not (tmp_path / "t.parquet").exists()
    else:
        write_table(table, tmp_path / "t.parquet")
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "t.parquet"), table)


def _small_estimators():
    """Each satrules estimator with parameters that keep a fit well under a second."""
    import satrules.estimators as E

    small = {
        # a fixed random_state: partitions are shuffled, and n_jobs=1 must equal n_jobs=2
        "IMLIClassifier": {"n_rules": 1, "backend": "rc2", "random_state": 0},
        "IMLIBClassifier": {"n_rules": 1, "max_literals_per_rule": 2, "backend": "rc2",
                            "random_state": 0},
        "CDPRClassifier": {"n_estimators": 5, "max_depth": 2, "gamma": 3},
    }
    out = []
    for cls in E.ALL:
        est = cls()
        accepted = est.get_params()
        out.append(est.set_params(**{k: v for k, v in small.get(cls.__name__, {}).items()
                                     if k in accepted}))
    return out


@pytest.mark.parametrize("est", _small_estimators(), ids=lambda e: type(e).__name__)
def test_estimators_under_gridsearch_and_cross_validate(est, data):
    """GridSearchCV and cross_validate with n_jobs=2 run every estimator and match n_jobs=1."""
    from sklearn.model_selection import GridSearchCV, cross_validate

    X, y = data
    X = X[["a", "b"]].iloc[:60]
    y = y[:60]
    cv1 = cross_validate(est, X, y, cv=3, n_jobs=1)
    cv2 = cross_validate(est, X, y, cv=3, n_jobs=2)
    assert np.allclose(cv1["test_score"], cv2["test_score"])
    assert (cv2["test_score"] > 0.5).all()
    grid = {"random_state": [0, 1]}
    search = GridSearchCV(est, grid, cv=2, n_jobs=2).fit(X, y)
    assert search.best_params_["random_state"] in (0, 1)
    assert 0 <= search.best_score_ <= 1


class _FakeTTY:
    """A text stream that claims to be a terminal."""

    def __init__(self):
        self.parts = []

    def isatty(self):
        return True

    def write(self, text):
        self.parts.append(text)

    def flush(self):
        pass


def test_progress_bars_only_on_a_terminal_and_not_quiet():
    """Bars go to the given stream (stderr by default) only when it is a TTY and not quiet."""
    import io

    from satrules._progress import progress, progress_enabled, quiet_progress

    items = [1, 2, 3]
    assert progress(items, stream=io.StringIO()) is items           # pipe / file: no bar
    assert progress(items, quiet=True, stream=_FakeTTY()) is items  # --quiet: no bar
    tty = _FakeTTY()
    assert progress_enabled(stream=tty)
    assert list(progress(items, desc="sweep", stream=tty)) == items
    assert "sweep" in "".join(tty.parts)
    with quiet_progress():                                         # CLI --quiet around a fit
        assert progress(items, stream=_FakeTTY()) is items
    assert progress_enabled(stream=_FakeTTY())                     # restored afterwards


def test_status_line_draws_after_its_delay_and_never_once_closed(monkeypatch):
    """A status line shows the latest text on a terminal, nothing before its delay, nothing
    when quiet or not a terminal, and ignores reports that come after its block ended (an
    engine thread may still report)."""
    import io

    import satrules._progress as progress_module
    from satrules._progress import status_line
    from tests.timing import wait_until

    monkeypatch.setattr(progress_module, "STATUS_EVERY", 0.0)
    tty = _FakeTTY()
    with status_line("proving", stream=tty) as show:
        show("covered 10, at most 20")
        show("covered 12, at most 15")
    later = show
    text = "".join(tty.parts)
    assert "proving" in text and "covered 12, at most 15" in text
    drawn = len(tty.parts)
    later("covered 13")
    assert len(tty.parts) == drawn
    waiting = _FakeTTY()
    with status_line("proving", stream=waiting, delay=3600) as show:
        show("covered 1")
    assert waiting.parts == []
    quiet_phase = _FakeTTY()   # one report before the delay: drawn when the delay ends
    with status_line("proving", stream=quiet_phase, delay=0.05) as show:
        show("bounding the optimum")
        assert wait_until(lambda: "bounding the optimum" in "".join(quiet_phase.parts))
    with status_line("proving", stream=io.StringIO()) as show:
        assert show is None
    with status_line("proving", stream=_FakeTTY(), quiet=True) as show:
        assert show is None
