"""Units of work and their merge: the same reports, line numbers, order and exit code as one local process,
in-process, over fsspec URLs, and on a local Dask cluster (``tarneeb verify --scheduler``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarneeb import load_rules
from tarneeb.cli import main as cli_main
from tarneeb.play.simulate import play_match
from tarneeb.records import Divergence, match_dicts, verify_paths
from tarneeb.records.units import Merger, dask_mapper, plan_units, run_unit, verify_units


def _write(path: Path, n: int = 8) -> int:
    """Records of n matches with planted faults: a wrong delta, a wrong winner, an unreadable line."""
    lines: list[bytes] = []
    for i in range(n):
        rid = ("classic", "eram-41", "bsfyi-41")[i % 3]
        m = play_match(load_rules(rid), "units", i, "random", 40).match
        ds = [copy.deepcopy(d) for d in match_dicts(m, f"{rid}:{i}")]
        k = next(j for j, d in enumerate(ds) if j and d.get("redeal") is None)
        if i % 2:
            ds[k]["deltas"][0] += 1
        else:
            ds[k]["tricks"][4]["winner"] = (ds[k]["tricks"][4]["winner"] + 1) % 4
        lines += [orjson.dumps(d) for d in ds]
        if i == 3:
            lines[-2] = lines[-2][:50]  # cut short
    path.write_bytes(b"\n".join(lines) + b"\n")
    return len(lines)


def _local(path: Path) -> tuple[list[str], dict[str, Any]]:
    texts: list[str] = []
    s = verify_paths([str(path)], jobs=1, on_report=lambda r: texts.append(r.text()))
    return texts, s.to_json()


def test_units_merge_to_the_local_run(tmp_path: Path) -> None:
    p = tmp_path / "a.jsonl"
    _write(p)
    texts, summary = _local(p)
    assert summary["divergences"] > 0 and summary["errors"] == 1
    units = plan_units([str(p)], unit_bytes=4096)
    assert len(units) > 5 and [u.index for u in units] == list(range(len(units)))
    got: list[str] = []
    s = verify_units(units, on_report=lambda r: got.append(r.text()))
    assert got == texts and s.to_json() == summary
    # a scheduler may finish units in any order: the merge only needs them added in plan order
    results = {u.index: run_unit(u) for u in reversed(units)}
    merged: list[str] = []
    mg = Merger(lambda r: merged.append(r.text()))
    for i in range(len(units)):
        mg.add(results[i])
    assert merged == texts


def test_globs_urls_and_missing_files(tmp_path: Path) -> None:
    import fsspec

    p = tmp_path / "b.jsonl"
    _write(p, 4)
    texts, summary = _local(p)
    fs = fsspec.filesystem("memory")
    fs.pipe("/units-test/b.jsonl", p.read_bytes())
    reps: list[Any] = []
    units = plan_units(["memory://units-test/*.jsonl"], unit_bytes=4096)
    url = units[0].path
    assert url.startswith("memory://") and url.endswith("/units-test/b.jsonl") and len(units) > 1
    s = verify_units(units, on_report=reps.append)
    assert [r.text().replace(url, str(p)) for r in reps] == texts
    located = ("by_cause", "diagnosis", "diagnosis_by_match")  # name the file: its URL here, its path there
    assert {**s.to_json(), **dict.fromkeys(located)} == {**summary, **dict.fromkeys(located)}
    assert orjson.dumps({k: s.to_json()[k] for k in located}).decode().replace(url, str(p)) == \
        orjson.dumps({k: summary[k] for k in located}).decode()
    s = verify_units(plan_units([str(tmp_path / "*.jsonl"), str(tmp_path / "none-*.jsonl")]), on_report=reps.append)
    assert s.files == 2 and s.unreadable_files == 1 and s.exit_code() == 2


def test_dask_cluster_gives_byte_identical_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    p = tmp_path / "c.jsonl"
    _write(p)
    for extra in ([], ["--json"]):
        code = cli_main(["verify", str(p), "--jobs", "1"] + extra)
        local = capsys.readouterr().out
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                      dashboard_address=None) as cluster:
            code2 = cli_main(["verify", str(p), "--scheduler", cluster.scheduler_address, "--unit-bytes", "4096"]
                             + extra)
        remote = capsys.readouterr().out
        assert code == code2 == 2 and remote == local and len(local.splitlines()) > 10
        if extra:
            assert json.loads(local.splitlines()[-1])["exit"] == 2


def test_no_hand_records_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    header_only = tmp_path / "header.jsonl"
    header_only.write_bytes(b'{"type":"match","format":"tarneeb-record","version":1,"match":"m","ruleset":"classic"}\n')
    for f in (empty, header_only):
        assert cli_main(["verify", str(f), "--jobs", "1"]) == 2
        assert "no hand records" in capsys.readouterr().err


def test_follows_lines_are_renumbered(tmp_path: Path) -> None:
    p = tmp_path / "d.jsonl"
    _write(p)
    one: list[Any] = []
    verify_paths([str(p)], jobs=1, on_report=one.append)
    many: list[Any] = []
    verify_units(plan_units([str(p)], unit_bytes=4096), on_report=many.append)
    pairs = [(d.line, d.follows_line) for d in one if isinstance(d, Divergence)]
    assert pairs == [(d.line, d.follows_line) for d in many if isinstance(d, Divergence)]


def test_a_url_whose_filesystem_package_is_missing_says_what_to_install(capsys: pytest.CaptureFixture[str]) -> None:
    # s3:// without s3fs printed fsspec's 45-line traceback; now one located line and exit 2
    pytest.importorskip("fsspec")
    import importlib.util

    if importlib.util.find_spec("s3fs") is not None:
        pytest.skip("s3fs is installed here: the URL would be read")  # not a dependency: a skip hides nothing
    assert cli_main(["verify", "s3://bucket/logs/*.jsonl"]) == 2
    out, err = capsys.readouterr()
    assert "reading s3:// URLs needs the package s3fs: pip install s3fs" in out + err and "Traceback" not in err


def test_a_quoted_glob_works_without_a_scheduler(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a.jsonl", "b.jsonl"):
        _write(tmp_path / name)
    assert cli_main(["verify", str(tmp_path / "*.jsonl"), "--jobs", "1", "--json"]) == 2  # the planted divergences
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["files"] == 2
    assert cli_main(["verify", str(tmp_path / "none-*.jsonl"), "--jobs", "1"]) == 2
    assert capsys.readouterr().err.strip().endswith("none-*.jsonl: no file matches")


def test_a_cluster_that_loses_every_worker_ends_with_an_error(tmp_path: Path) -> None:
    import time

    distributed = pytest.importorskip("distributed")
    p = tmp_path / "e.jsonl"
    _write(p)
    units = plan_units([str(p)], unit_bytes=4096)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cl, \
            distributed.Client(cl) as client:
        for w in list(cl.workers.values()):  # every worker gone before the work is handed out
            cl.sync(w.close)
        cl.scale(0)
        deadline = time.monotonic() + 20
        while client.nthreads() and time.monotonic() < deadline:
            time.sleep(0.1)
        t0 = time.monotonic()
        with pytest.raises(OSError, match="no worker for 1 s"):
            verify_units(units, mapper=dask_mapper(client=client, worker_wait=1))
        assert time.monotonic() - t0 < 15


def test_a_file_split_for_local_workers_that_cannot_be_read_is_reported_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # verify --jobs runs the units Dask runs: a file that fails to open is one report, not one per byte range
    import tarneeb.records.units as units_module

    p = tmp_path / "f.jsonl"
    _write(p)

    def refuse(path: str) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(units_module, "open_source", refuse)  # the forked workers inherit it
    reps: list[Any] = []
    s = verify_paths([str(p)], jobs=2, chunk_bytes=1, on_report=reps.append)
    assert [r.text() for r in reps] == [f"{p}: error: cannot read: permission denied"]
    assert s.files == 1 and s.unreadable_files == 1 and s.exit_code() == 2
