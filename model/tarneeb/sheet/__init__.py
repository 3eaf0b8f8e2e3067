"""Score sheets: the hands of a match as players write them down at a real table, without the cards
(``spec/sheets/README.md``, schema ``spec/sheets/schema-v1.json``).

* :func:`read_sheet` -- a sheet file's text, checked against the format (:class:`~tarneeb.errors.SheetError`
  names the file and the field) into a :class:`Sheet`;
* :func:`score_sheet` -- the sheet replayed through the one transition of a match
  (:func:`tarneeb.core.transition.open_unseen`, ``step`` of each bid or call, then
  :func:`tarneeb.core.transition.tricks_taken`): every check and every number is core's. It gives each hand's
  score changes with their reasons, the running scores, the next dealer and the outcome, and stops at the first
  entry core refuses (:class:`EntryError`: the hand from 1, the field, the clause); :func:`result_dict` -- that
  result as JSON (``tarneeb score --json``).

Nothing here decides a rule: the bids and calls are core's to refuse, the deal's cancellation, the scores, the
outcome, play-on and the next dealer are read from the events core's steps report. The sentences name the players
by the names on the sheet.
"""

from tarneeb.sheet.format import FORMAT, VERSION, Sheet, SheetHand, read_sheet, sheet_from_data
from tarneeb.sheet.replay import EntryError, HandResult, Reason, SheetResult, bid_words, result_dict, score_sheet, team_names

__all__ = ["FORMAT", "VERSION", "EntryError", "HandResult", "Reason", "Sheet", "SheetHand", "SheetResult",
           "bid_words", "read_sheet", "result_dict", "score_sheet", "sheet_from_data", "team_names"]
