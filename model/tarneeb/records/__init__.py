"""Game records: the v1 JSON Lines format, its writer, its lenient reader and the verifier."""

from tarneeb.records.verify import *  # noqa: F403
from tarneeb.records.verify import MAX_LINE as MAX_LINE
from tarneeb.records.verify import __all__ as __all__
