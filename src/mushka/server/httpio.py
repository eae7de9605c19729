"""Reading a request and writing a reply the same way in every part of the HTTP API.

The tables' API (:mod:`mushka.server.app`), the accounts (:mod:`mushka.server.accountweb`)
and the friends, profiles and reports (:mod:`mushka.server.socialhttp`) all take a JSON
body and answer in the caller's language; one reading here keeps their refusals the same
(P1: too large, too deep or not JSON; P2: a duplicate key, a wrong field; P13: a page of
another site).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response

from mushka.server.config import ServerConfig
from mushka.server.guards import check_json_body, check_origin, public_origin
from mushka.server.protocol import Lang
from mushka.server.texts import Problem, ProtocolError, ValidationProblem, refused_json
from mushka.server.wire import JsonRefused, strict_loads

M = TypeVar("M", bound=BaseModel)


def request_lang(request: Request, given: str | None = None) -> Lang:
    """The language of a reply: the body's ``lang``, ``?lang=``, then ``Accept-Language``."""
    for wanted in (given, request.query_params.get("lang")):
        if wanted == "ru":
            return "ru"
        if wanted == "en":
            return "en"
    accept = request.headers.get("accept-language", "").strip().lower()
    return "ru" if accept.startswith("ru") else "en"


def page_origins(cfg: ServerConfig) -> tuple[str, ...]:
    """P13: the origins whose pages may ask for a change (the configured ones and the public URL's)."""
    return (*cfg.allowed_origins, *((public_origin(cfg.public_url),) if cfg.public_url else ()))


async def read_json(request: Request, model: type[M], *, origins: tuple[str, ...], limit: int) -> M:
    """The request's JSON body as ``model``, from a page of one of ``origins`` (P13), of at most
    ``limit`` bytes (P1), strict JSON (P1, P2) validated strictly: no ``"1"`` or ``true`` for a
    number, no ``1.0`` for a whole number (P2)."""
    check_origin(request.scope, origins)
    check_json_body(request.scope)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ProtocolError("body_too_large", rule="P1", limit=limit)
    # Read as it comes and stop at the limit: a body sent without a length (chunked) must not
    # be read whole before it is found too large.
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise ProtocolError("body_too_large", rule="P1", limit=limit)
    try:
        data: Any = strict_loads(bytes(raw) or b"{}")
    except JsonRefused as exc:
        refusal = refused_json(exc)
        if refusal.code == "not_json":
            raise ProtocolError("bad_body", rule="P2", problem=Problem("server.problem.not_json")) from None
        raise refusal from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_body", rule="P2", problem=Problem("server.problem.not_json"))
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as exc:
        raise ProtocolError("bad_body", rule="P2", problem=ValidationProblem(exc)) from None


def json_reply(model: BaseModel, status: int = 200, *, private: bool = False) -> Response:
    """A pydantic model as a JSON response; ``private`` (one person's data) is never cached."""
    reply = Response(model.model_dump_json(), status_code=status, media_type="application/json")
    if private:
        reply.headers["cache-control"] = "no-store"
    return reply
