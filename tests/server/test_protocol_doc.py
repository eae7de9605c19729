"""docs/protocol.md and the models in mushka.server.protocol and .bodies describe the same protocol."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from mushka.server import bodies, protocol

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
FENCE = re.compile(r"^```json (\S+)\n(.*?)^```", re.S | re.M)


def examples() -> list[tuple[str, str]]:
    return FENCE.findall(DOC.read_text(encoding="utf-8"))


def test_the_document_has_examples_of_every_message() -> None:
    found = {kind: [] for kind in ("client", "server")}
    for kind, text in examples():
        if kind in found:
            found[kind].append(json.loads(text)["type"])
    assert set(found["client"]) == set(protocol.CLIENT_TYPES)
    assert set(found["server"]) == {"welcome", "state", "update", "table", "presence", "error", "pong",
                                       "clock", "chat", "hint", "resumed", "moved", "taken_back"}


@pytest.mark.parametrize(("kind", "text"), examples())
def test_every_example_validates(kind: str, text: str) -> None:
    data = json.loads(text)
    if kind == "client":
        message = protocol.CLIENT_MESSAGE.validate_python(data)
        assert message.type == data["type"]
    elif kind == "server":
        message = protocol.SERVER_MESSAGE.validate_python(data)
        assert message.type == data["type"]
    else:
        assert kind.startswith("http:")
        model = getattr(bodies, kind.removeprefix("http:"))
        assert issubclass(model, BaseModel)
        parsed = model.model_validate(data)
        assert parsed.model_dump(exclude_unset=True).keys() == data.keys()


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(ValidationError):
        protocol.CLIENT_MESSAGE.validate_python({"type": "ping", "extra": 1})
    with pytest.raises(ValidationError):
        protocol.CLIENT_MESSAGE.validate_python({"type": "teleport"})
