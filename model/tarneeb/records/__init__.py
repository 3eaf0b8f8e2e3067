"""Game records: a versioned JSON Lines format for whole matches, its writer, reader and verifier.

The format is documented in ``spec/records/README.md`` with a JSON Schema in
``spec/records/schema-v1.json``. A file holds one or more matches; each match
is a header line (``"type": "match"``) followed by one line per deal
(``"type": "hand"``), cancelled deals included.

As PBN does for bridge, the writer is strict and the reader lenient:

* :func:`match_lines` / :func:`write_match` write the canonical form from a
  :class:`~tarneeb.core.match.Match` (every field, canonical spellings).
* :func:`parse_line` / :func:`read_records` accept variants (a deal given as
  four hands, PBN-style suit groups, team scores as two numbers, a flat play
  list, ...), treat every field but the deal, the bids and the cards as
  optional, and turn anything unreadable into a located :class:`RecordProblem`
  instead of an exception.
* :class:`Verifier` replays each hand through the engine's transition
  (:mod:`tarneeb.records.driver`) and reports every :class:`Divergence` between
  what the record claims and what the rules give, with the deciding clause id
  and its source (``Ruleset.cite``). :func:`verify_paths` runs it over files,
  streaming, optionally across processes.

In short::

    write_match(out, match, "id")                 # or match_lines / match_dicts / header_dict + hand_dict
    summary, reports = verify_lines(lines)        # records in memory
    summary = verify_paths(["a.jsonl"], jobs=2, on_report=print)
    summary.exit_code(), summary.by_clause        # 0 / 1 / 2; Counter of clause ids

Each report is a :class:`Divergence` (``clause``, ``field``, ``claimed``,
``expected``, ``line`` ...; ``follows_line`` when it follows from an earlier
one, ``cause`` when a bug pattern of :mod:`tarneeb.records.diagnose` fits,
``table`` per seat for scores) or a :class:`RecordProblem` (unreadable input).
The replay goes on after a divergence from the record's own claims
(:mod:`tarneeb.records.replay`). :mod:`tarneeb.records.units` cuts files into
units of work and merges their results, for Dask (``verify --scheduler``) or any
other scheduler.
"""

from __future__ import annotations

from tarneeb.records.format import (
    FORMAT,
    MAX_LINE,
    VERSION,
    Divergence,
    HandLine,
    Item,
    MatchHeader,
    RecordProblem,
    Report,
    TrickLine,
    bid_text,
)
from tarneeb.records.parallel import verify_items, verify_lines, verify_match, verify_paths
from tarneeb.records.reader import parse_line, read_records
from tarneeb.records.verify import Summary, Verifier
from tarneeb.records.writer import hand_dict, header_dict, match_dicts, match_lines, write_match

__all__ = [
    "FORMAT", "MAX_LINE", "VERSION", "Divergence", "HandLine", "Item", "MatchHeader", "RecordProblem", "Report", "Summary",
    "TrickLine", "Verifier", "bid_text", "hand_dict", "header_dict", "match_dicts", "match_lines", "parse_line",
    "read_records", "verify_items", "verify_lines", "verify_match", "verify_paths", "write_match",
]
