"""Batched fuzzing (protocol command ``deal``): the same deals, divergence, shrinking and reproducer as lockstep,
in one exchange per deal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tarneeb.conformance.fuzz import NoBatch, fuzz
from tarneeb.conformance.protocol import Engine
from tarneeb.core.spec import load_rules

ENGINE = Path(__file__).resolve().parents[1] / "examples/mini_engine/mini_engine.py"


@pytest.mark.parametrize(("mutant", "rid", "opts", "deals"), [
    ("", "eram-41", {}, 60),
    ("", "classic", {"must_trump": True}, 40),
    ("tie-team0", "card-kings-41", {}, 400),
    ("no-follow-void-trump", "classic", {"must_trump": True}, 200),
    ("redeal-dealer", "card-kings-41", {}, 200),
    ("team-tricks", "eram-41", {}, 100),
])
def test_batch_gives_the_lockstep_result(mutant: str, rid: str, opts: dict[str, Any], deals: int) -> None:
    rules = load_rules(rid, opts)
    cmd = f"{sys.executable} {ENGINE}" + (f" --mutant {mutant}" if mutant else "")
    out = []
    requests = []
    for batch in (False, True):
        with Engine(cmd) as eng:
            res = fuzz(eng, rules, deals, "0", batch=batch)
            requests.append(eng.requests)
        out.append(res.to_json())
    assert out[0] == out[1]
    assert (out[0]["divergence"] is None) == (mutant == "")
    if not mutant:  # (with a bug, the divergent deal and the shrinking are driven in lockstep)
        assert requests[1] * 10 < requests[0]  # far fewer exchanges


def test_an_engine_without_deal_is_told(tmp_path: Path) -> None:
    eng_py = tmp_path / "old_engine.py"
    eng_py.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    cmd = req.get('cmd')\n"
        "    ans = {'ok': True, 'protocol': 1, 'name': 'old'} if cmd in ('hello', 'quit') else "
        "{'ok': False, 'error': f'unknown command {cmd!r}'}\n"
        "    print(json.dumps(ans), flush=True)\n"
        "    if cmd == 'quit':\n"
        "        break\n")
    with Engine(f"{sys.executable} {eng_py}") as eng, pytest.raises(NoBatch):
        fuzz(eng, load_rules("eram-41"), 5, "0", batch=True)
