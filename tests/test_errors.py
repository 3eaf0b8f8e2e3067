"""The words every error message shares (tarneeb.errors): the name meant, a long value shortened, a file's error."""

from __future__ import annotations

import errno

import pytest

from tarneeb.errors import (
    BadInput,
    ConfigError,
    SituationError,
    SpecError,
    did_you_mean,
    file_error,
    os_error_words,
    shorten,
    shorten_words,
)

RULESETS = ("bsfyi-41", "card-kings-41", "classic", "eram-41", "tarneeb-400")


@pytest.mark.parametrize(("typed", "meant"), [("clasic", "classic"), ("card-king-41", "card-kings-41"),
                                              ("ERAM-41", "eram-41"), ("tarneb-400", "tarneeb-400")])
def test_a_misspelt_name_is_answered_with_the_name_meant(typed: str, meant: str) -> None:
    assert did_you_mean(typed, RULESETS) == f"; did you mean {meant}?"


def test_a_name_far_from_every_choice_gets_no_suggestion() -> None:
    assert did_you_mean("hearts", RULESETS) == ""
    assert did_you_mean("x", []) == ""


def test_only_the_nearly_closest_names_are_offered_and_said_in_words() -> None:
    # the closest first; a name much further off is not offered beside it
    assert did_you_mean("first-dealr", ["first-dealer", "misdeal", "weak-hand"]) == "; did you mean first-dealer?"
    assert did_you_mean("pla", ["score", "play", "plan"]) == "; did you mean plan or play?"  # equally close: by name


def test_a_word_people_use_for_a_name_suggests_the_name() -> None:
    assert did_you_mean("who-wins", ["winner", "who-leads"], {"who-wins": "winner"}) == "; did you mean winner?"


def test_a_long_value_is_shortened_with_its_length_and_a_short_one_kept() -> None:
    long = "9" * 4299
    out = shorten(long)
    assert len(out) < 100 and "4,299 characters" in out and out.startswith("999") and out.endswith("999"), out
    assert shorten("41,50") == "41,50"


def test_every_bad_input_message_shortens_a_long_value_it_echoes_but_never_a_path() -> None:
    long = "7" * 4299
    path = "/tmp/" + "a" * 120 + "/f.toml"
    for e in (BadInput(f"--x {long}: not allowed"), ConfigError("classic", "kaboot", f"{long} is not a choice"),
              SituationError("(flags)", ["scores[0]"], f"{long}: out of range"),
              SpecError(path, "defaults.target", f"{long} is not allowed")):
        text = str(e)
        assert len(text) < 400 and "4,299 characters" in text, text
    assert path in str(SpecError(path, "x", "bad")) and shorten_words(path) == path


def test_a_file_error_counts_lines_from_1_and_a_whole_file_has_no_line() -> None:
    assert file_error("games.jsonl", "cannot read: there is no such file") == "games.jsonl: cannot read: there is no such file"
    assert file_error("games.jsonl", "cannot read", line=0) == "games.jsonl: cannot read"
    assert file_error("games.jsonl", "not JSON", line=3, field="tricks") == "games.jsonl:3: tricks: not JSON"


def test_an_os_error_is_said_in_words_without_errno() -> None:
    said = os_error_words(FileNotFoundError(errno.ENOENT, "No such file or directory", "x.toml"))
    assert said == "there is no such file"
    assert os_error_words(IsADirectoryError(errno.EISDIR, "Is a directory")) == "it is a folder, not a file"
    odd = os_error_words(OSError(errno.EIO, "Input/output error"))
    assert odd == "input/output error" and "Errno" not in odd
    assert "Errno" not in os_error_words(OSError("[Errno 5] x"[8:]))


def test_a_spec_or_situation_error_of_a_whole_file_names_no_field() -> None:
    assert str(SpecError("a.toml", "(file)", "cannot read: permission denied")) == "a.toml: cannot read: permission denied"
    assert str(SituationError("s.toml", ["(file)"], "not UTF-8 text")) == "s.toml: not UTF-8 text"
    assert str(SituationError("s.toml", ["question", "seat"], "missing")) == "s.toml: question / seat: missing"


def test_an_echoed_value_is_said_in_words_not_as_python_and_shortened() -> None:
    from tarneeb.errors import echo

    assert echo("x") == "'x'" and echo(None) == "nothing" and echo(True) == "true" and echo(41) == "41"
    assert echo([1, "a"]) == "the list 1, 'a'" and echo([]) == "an empty list"
    assert echo({"id": "classic", "options": {}}) == "a table of id, options"
    assert "4,299 characters" in echo("9" * 4299) and len(echo("9" * 4299)) < 100
    assert "[" not in echo([1, 2]) and "{" not in echo({"a": 1})
