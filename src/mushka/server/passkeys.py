"""Passkeys (WebAuthn): claim a name with a passkey, add one to a signed-in account, and sign
in with one, through the ``webauthn`` library.

Each ceremony is two calls: *options* hands the browser a random challenge (kept in the
shared store for :data:`CHALLENGE_SECONDS`, so that the answer may reach any process of
the server, and taken back once), then *verify* checks the browser's answer against it.
The relying party is the server under the name the page was opened by (the ``Host`` of
the request, or the ``--public-url``'s): browsers allow passkeys on ``localhost`` and on
https names, not on bare IP addresses.  The passkeys made are discoverable (resident), so
that signing in needs no name: the authenticator offers the accounts it holds.

Failed sign-ins count against the address's limit (P20), as wrong passwords do.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import urlsplit

from pydantic import Field
from starlette.requests import Request
from starlette.responses import Response
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from mushka.server.accounts import account_book, current_session, lobby_of_connection, name_key, now_ms
from mushka.server.accountweb import (
    account_reply,
    check_not_blocked,
    claimable_name,
    claimed,
    open_session,
    read_body,
    signin_failed,
)
from mushka.server.guards import client_address, host_name
from mushka.server.identity import Account
from mushka.server.protocol import MAX_NAME, Lang, Message
from mushka.server.sqlaccounts import Challenge, Passkey
from mushka.server.texts import ProtocolError

log = logging.getLogger("mushka.server")

CHALLENGE_SECONDS: Final = 300
"""How long a challenge may be answered (the browser's own timeout is the same)."""

RP_NAME: Final = "mushka"
"""The name authenticators show for this server."""


class PasskeyOptionsRequest(Message):
    """``POST /api/account/passkey/register/options``: a passkey for the name ``name`` (a new
    account), or, signed in, one more passkey for the account (``name`` is then ignored)."""

    name: str | None = Field(default=None, max_length=MAX_NAME)
    lang: Lang | None = None


class SignInOptionsRequest(Message):
    """``POST /api/account/passkey/signin/options``: a challenge to sign in with a passkey."""

    lang: Lang | None = None


class PasskeyAnswer(Message):
    """The browser's answer to a challenge: the challenge's id and the credential as JSON
    (``PublicKeyCredential.toJSON()``)."""

    challenge: str = Field(max_length=128)
    credential: dict[str, Any]
    lang: Lang | None = None


def relying_party(request: Request) -> tuple[str, list[str]]:
    """The relying party id (a host name) and the origins a ceremony may come from."""
    cfg = lobby_of_connection(request).config
    host = request.headers.get("host", "")
    origins = [f"http://{host.lower()}", f"https://{host.lower()}"] if host else []
    origins += [o.rstrip("/").lower() for o in cfg.allowed_origins]
    if cfg.public_url:
        public = urlsplit(cfg.public_url)
        origins.append(f"{public.scheme}://{public.netloc}".lower())
    rp_id = host_name(host).rstrip(".") if host else (urlsplit(cfg.public_url or "").hostname or "localhost")
    return rp_id, origins


def _options_reply(challenge: str, options_json: str) -> Response:
    body = json.dumps({"challenge": challenge, "options": json.loads(options_json)})
    reply = Response(body, media_type="application/json")
    reply.headers["cache-control"] = "no-store"
    return reply


async def _store_challenge(request: Request, challenge: Challenge) -> None:
    book = account_book(request)
    await lobby_of_connection(request).writer.run(lambda: book.put_challenge(challenge))


async def _take_challenge(request: Request, challenge_id: str, purpose: str) -> Challenge:
    book = account_book(request)
    moment = now_ms()
    found = await lobby_of_connection(request).writer.run(lambda: book.take_challenge(challenge_id, purpose, moment))
    if found is None:
        raise ProtocolError("challenge_expired", rule="P19")
    return found


async def register_options(request: Request) -> Response:
    """``POST /api/account/passkey/register/options``: the options to make a passkey."""
    body = await read_body(request, PasskeyOptionsRequest)
    session = await current_session(request)
    book = account_book(request)
    rp_id, _ = relying_party(request)
    if session is not None:
        account_id, name = session.account.id, session.account.name
        existing = await asyncio.to_thread(book.passkeys, account_id)
    else:
        name = claimable_name(body.name)
        if await asyncio.to_thread(book.by_key, name_key(name)) is not None:
            raise ProtocolError("name_claimed", rule="P18", name=name)
        account_id, existing = secrets.token_hex(16), []
    options = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_display_name=name,
        user_id=account_id.encode("ascii"), timeout=CHALLENGE_SECONDS * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.credential_id))
                             for k in existing],
    )
    challenge = bytes_to_base64url(options.challenge)
    await _store_challenge(request, Challenge(
        id=challenge, purpose="register", account_id=session.account.id if session else None,
        name=None if session else name, user_handle=account_id, expires_ms=now_ms() + CHALLENGE_SECONDS * 1000))
    return _options_reply(challenge, options_to_json(options))


async def register(request: Request) -> Response:
    """``POST /api/account/passkey/register``: check the new passkey; store it for the signed-in
    account, or make the account it was asked for and sign it in."""
    body = await read_body(request, PasskeyAnswer)
    challenge = await _take_challenge(request, body.challenge, "register")
    session = await current_session(request)
    if challenge.account_id is not None and (session is None or session.account.id != challenge.account_id):
        raise ProtocolError("not_signed_in", rule="P19")
    rp_id, origins = relying_party(request)
    try:
        verified = verify_registration_response(
            credential=body.credential, expected_challenge=base64url_to_bytes(challenge.id),
            expected_rp_id=rp_id, expected_origin=origins)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        log.info("passkey registration refused: %s", exc)
        raise ProtocolError("passkey_failed", rule="P19") from None
    transports = body.credential.get("response", {}).get("transports") or []
    account_id = challenge.user_handle or ""
    passkey = Passkey(credential_id=bytes_to_base64url(verified.credential_id), account_id=account_id,
                      public_key=bytes_to_base64url(verified.credential_public_key),
                      sign_count=verified.sign_count,
                      transports=tuple(str(t) for t in transports if isinstance(t, str)))
    book = account_book(request)
    writer = lobby_of_connection(request).writer
    at = datetime.now(UTC)
    if challenge.account_id is not None and session is not None:
        try:
            await writer.run(lambda: book.add_passkey(passkey, at))
        except Exception:  # the same credential twice (the browser was told to exclude it)
            raise ProtocolError("passkey_failed", rule="P19") from None
        return await account_reply(request, session.account, session.csrf)
    name = challenge.name or ""
    account = Account(id=account_id, name=name)
    return await claimed(request, account, lambda: book.create(account, name_key(name), at, passkey=passkey),
                         " with a passkey")


async def signin_options(request: Request) -> Response:
    """``POST /api/account/passkey/signin/options``: a challenge to sign in with any passkey
    of this server the authenticator holds."""
    await read_body(request, SignInOptionsRequest)
    await check_not_blocked(request, [f"addr:{client_address(request.scope)}"[:128]])
    rp_id, _ = relying_party(request)
    options = generate_authentication_options(rp_id=rp_id, timeout=CHALLENGE_SECONDS * 1000,
                                              user_verification=UserVerificationRequirement.PREFERRED)
    challenge = bytes_to_base64url(options.challenge)
    await _store_challenge(request, Challenge(id=challenge, purpose="signin", account_id=None, name=None,
                                              user_handle=None, expires_ms=now_ms() + CHALLENGE_SECONDS * 1000))
    return _options_reply(challenge, options_to_json(options))


async def signin(request: Request) -> Response:
    """``POST /api/account/passkey/signin``: check the passkey's answer and sign its account in."""
    body = await read_body(request, PasskeyAnswer)
    keys = [f"addr:{client_address(request.scope)}"[:128]]
    await check_not_blocked(request, keys)
    challenge = await _take_challenge(request, body.challenge, "signin")
    book = account_book(request)
    credential_id = str(body.credential.get("id", ""))[:255]
    stored = await asyncio.to_thread(book.passkey, credential_id) if credential_id else None
    if stored is None:
        raise await signin_failed(request, keys)
    rp_id, origins = relying_party(request)
    try:
        verified = verify_authentication_response(
            credential=body.credential, expected_challenge=base64url_to_bytes(challenge.id),
            expected_rp_id=rp_id, expected_origin=origins,
            credential_public_key=base64url_to_bytes(stored.public_key),
            credential_current_sign_count=stored.sign_count)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        log.info("passkey sign-in refused: %s", exc)
        raise await signin_failed(request, keys) from None
    account = await asyncio.to_thread(book.get, stored.account_id)
    if account is None:
        raise await signin_failed(request, keys)
    at = datetime.now(UTC)
    await lobby_of_connection(request).writer.run(
        lambda: book.passkey_used(stored.credential_id, verified.new_sign_count, at))
    reply = Response(media_type="application/json")
    csrf = await open_session(request, account, reply)
    return await account_reply(request, account, csrf, reply)

