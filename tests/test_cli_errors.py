"""The command line's errors in words (tarneeb.cli, its parser and main): the name meant when one is misspelt, a
file's error without errno text or line 0, a long value shortened, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarneeb.cli import main


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as e:  # argparse's refusals exit 2 themselves
        main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Errno" not in err and "'" not in err, err
    return err


def test_a_misspelt_command_is_answered_with_the_command_meant(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(capsys, ["shwo", "classic"])
    assert "shwo is not a command; did you mean show?" in err, err
    assert "invalid choice" not in err and "'show'" not in err, err


def test_a_misspelt_choice_of_an_option_is_answered_with_the_choice_meant(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(capsys, ["simulate", "--ruleset", "classic", "--policy", "heurstic"])
    assert "heurstic is not a choice; did you mean heuristic?" in err, err


@pytest.mark.parametrize(("argv", "said"), [
    (["show", "clasic"], "unknown ruleset; did you mean classic?"),
    (["simulate", "--ruleset", "classic", "--option", "kabot=1"], "unknown option; did you mean kaboot?"),
    (["simulate", "--ruleset", "classic", "--reading", "first-dealr=random"], "no such ambiguity; did you mean first-dealer?"),
    (["simulate", "--ruleset", "classic", "--reading", "first-dealer=rndom"], "no such reading; did you mean random?"),
    (["ruling", "who-wins"], "who-wins is neither a question kind nor a file; did you mean winner?"),
    (["ruling", "winer", "--scores", "1,2,3,4"], "winer is neither a question kind nor a file; did you mean winner?"),
])
def test_a_misspelt_name_is_answered_with_the_name_meant(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                          said: str) -> None:
    err = _refused(capsys, argv)
    assert said in err and err.count("\n") == 1, err


def test_a_misspelt_question_of_a_record_is_answered_with_the_kind_meant(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: Path) -> None:
    rec = tmp_path / "games.jsonl"
    assert main(["record", "--ruleset", "classic", "--matches", "1", "--out", str(rec)]) == 0
    capsys.readouterr()
    err = _refused(capsys, ["ruling", str(rec), "--hand", "1", "--question", "scor"])
    assert "scor is not a question kind; did you mean score?" in err, err


def test_a_file_that_cannot_be_read_is_said_in_words_with_no_line(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    assert main(["verify", str(missing)]) == 2
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"{missing}: error: cannot read: there is no such file", first
    err = _refused(capsys, ["ruling", str(tmp_path / "nosuch.toml")])
    assert err == f"tarneeb: error: {tmp_path / 'nosuch.toml'}: cannot read: there is no such file\n", err
    err = _refused(capsys, ["ruling", str(tmp_path)])
    assert "it is a folder, not a file" in err, err


def test_a_long_value_in_an_error_is_shortened(capsys: pytest.CaptureFixture[str]) -> None:
    long = "9" * 4299
    err = _refused(capsys, ["ruling", "winner", "--scores", f"{long},1,1,1", "--ruleset", "classic"])
    assert len(err) < 300 and "4,299 characters" in err, err
    err = _refused(capsys, ["simulate", "--ruleset", "classic", "--option", f"kaboot={long}"])
    assert len(err) < 400 and "4,299 characters" in err, err
