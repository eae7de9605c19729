"""Game records: the versioned JSON format and replay."""

from mushka.records.format import (
    FORMAT,
    MAX_RECORD_BYTES,
    MAX_SEAT_NAME,
    VERSION,
    DealRecord,
    Record,
    record_of_deal,
    record_of_game,
    replay,
)

__all__ = [
    "FORMAT",
    "MAX_RECORD_BYTES",
    "MAX_SEAT_NAME",
    "VERSION",
    "DealRecord",
    "Record",
    "record_of_deal",
    "record_of_game",
    "replay",
]
