"""Game records: the versioned JSON format and replay."""

from mushka.records.format import (
    FORMAT,
    VERSION,
    DealRecord,
    Record,
    record_of_deal,
    record_of_game,
    replay,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "DealRecord",
    "Record",
    "record_of_deal",
    "record_of_game",
    "replay",
]
