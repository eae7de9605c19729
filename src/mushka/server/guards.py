"""What keeps a foreign page, a greedy client or a slow one from hurting the others.

- :class:`SecurityHeaders` puts a content security policy, framing and
  referrer rules on every HTTP response, the page's own files included (and
  the opener policy where a browser takes it: :func:`trustworthy`).
- :func:`check_origin` (P13): a browser says which page a request comes from
  (``Origin``); requests and WebSockets from another site's page are refused,
  so a foreign page cannot make its visitors take seats or play.  Programs
  that send no ``Origin`` are not browsers and pass; a deployment behind a
  reverse proxy under another name lists its public origins
  (``ServerConfig.allowed_origins``, ``mushka serve --allow-origin``).
- :class:`AddressCounter`: connections per client address (P12), so that
  one address cannot hold every socket.
- :class:`HostCheck` (P13): only the ``Host`` names this server is known by are
  served, so that a page on some other name that was pointed at this machine (DNS
  rebinding) cannot pass the origin check with a ``Host`` and ``Origin`` that match.
  IP addresses, ``localhost``, names of one label (``raspberrypi``, a machine on the
  local network) and ``.local`` names are always accepted: rebinding needs a name in
  the public DNS, which the attacker controls, and those are not.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, MutableMapping
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

from mushka.i18n import add_texts, tr
from mushka.server.texts import ProtocolError

if TYPE_CHECKING:
    from mushka.server.config import ServerConfig

CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The page loads only its own files and talks only to its own server (WebSockets included:
``'self'`` covers ``ws:``/``wss:`` of the same host); no other site may frame it."""

HEADERS: Final = (
    (b"content-security-policy", CSP.encode("ascii")),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)
"""Added to every HTTP response."""

COOP: Final = (b"cross-origin-opener-policy", b"same-origin")
"""Added only where a browser obeys it: over https, or on this machine's own address.  Over
plain http on a network address (``http://192.168.1.20:8000``) Chromium ignores the header and
logs an error in the console on every load (B14)."""


def trustworthy(scope: Scope) -> bool:
    """Whether the browser takes the page's origin as potentially trustworthy: https (also as a
    TLS-terminating proxy says, ``X-Forwarded-Proto``), or a loopback host."""
    if scope.get("scheme") in ("https", "wss"):
        return True
    if (_header(scope, b"x-forwarded-proto") or "").strip().lower() == "https":
        return True
    name = host_name(_header(scope, b"host") or "").rstrip(".")
    if name in LOCAL_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False

Scope = MutableMapping[str, Any]


class SecurityHeaders:
    """ASGI middleware: :data:`HEADERS` on every HTTP response."""

    def __init__(self, app: Any) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Pass the call on, adding the headers to the start of the response."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = trustworthy(scope)

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                wanted = (*HEADERS, COOP) if secure else HEADERS
                extra = [(n, v) for n, v in wanted if n not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def own_origins(scope: Scope) -> set[str]:
    """The origins of this server as the request reached it (its ``Host``, in http and https:
    a TLS-terminating proxy in front changes the scheme, not the host)."""
    host = _header(scope, b"host")
    if not host:
        return set()
    host = host.strip().lower()
    return {f"http://{host}", f"https://{host}"}


def public_origin(url: str) -> str:
    """The origin (``scheme://host[:port]``) of a URL such as ``http://192.168.1.20:8000/play``."""
    scheme, _, rest = url.partition("://")
    return f"{scheme.lower()}://{rest.split('/', 1)[0].lower()}"


def check_origin(scope: Scope, allowed: Iterable[str]) -> None:
    """P13: refuse a request or WebSocket that a browser sends from another site's page."""
    origin = _header(scope, b"origin")
    if origin is None:
        return  # not a browser (curl, the bots, the test clients): nothing to protect them from
    origin = origin.strip().lower().rstrip("/")
    if origin in own_origins(scope) or origin in {a.strip().lower().rstrip("/") for a in allowed}:
        return
    raise ProtocolError("bad_origin", rule="P13", origin=origin[:64])


LOCAL_NAMES: Final = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})
"""Host names of this machine that always reach it, never a remote one."""


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without the port, lower case (``[::1]:8000`` -> ``::1``)."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def allowed_hosts(config: ServerConfig) -> frozenset[str]:
    """The ``Host`` names this server answers to besides IP addresses and ``localhost``: the
    configured ones and those of its public URL and allowed origins (``*`` accepts any)."""
    names = {host_name(h) for h in config.allowed_hosts}
    for url in (config.public_url, *config.allowed_origins):
        if url:
            found = urlsplit(url if "://" in url else f"http://{url}").hostname
            if found:
                names.add(found.lower())
    return frozenset(n for n in names if n)


def host_allowed(header: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request with this ``Host`` header is served (no header: not a browser, yes)."""
    if header is None or "*" in allowed:
        return True
    name = host_name(header).rstrip(".")
    if name in LOCAL_NAMES or name in allowed or "." not in name or name.endswith((".localhost", ".local")):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostCheck:
    """ASGI middleware (P13): requests and WebSockets naming another ``Host`` are refused."""

    def __init__(self, app: Any, allowed: frozenset[str]) -> None:
        """Wrap ``app``, serving the host names ``allowed`` (see :func:`host_allowed`)."""
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Pass the call on, or refuse it (HTTP 421; a WebSocket is closed before its handshake)."""
        if scope["type"] not in ("http", "websocket") or host_allowed(_header(scope, b"host"), self.allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4403})
            return
        text = tr("server.error.bad_host", "en") + " / " + tr("server.error.bad_host", "ru")
        body = text.encode("utf-8")
        await send({"type": "http.response.start", "status": 421,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode("ascii"))]})
        await send({"type": "http.response.body", "body": body})


def check_json_body(scope: Scope) -> None:
    """P13: a body must be declared ``application/json`` (a form or ``text/plain`` is what a
    foreign page can send without asking; JSON it cannot, across sites)."""
    kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ProtocolError("bad_content_type", rule="P13", given=kind[:64] or "—")


def client_address(scope: Scope) -> str:
    """The client's address: the peer of the socket, or, behind a trusted proxy, the address the
    proxy forwarded (uvicorn puts it in the scope, for the proxies of ``--trusted-proxy`` only)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class AddressCounter:
    """Open connections per address, with a cap."""

    def __init__(self, cap: int) -> None:
        """At most ``cap`` connections per address (0: no cap)."""
        self.cap = cap
        self.counts: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Count one more connection of ``address``; ``False`` (nothing counted) beyond the cap."""
        now = self.counts.get(address, 0)
        if self.cap and now >= self.cap:
            return False
        self.counts[address] = now + 1
        return True

    def give_back(self, address: str) -> None:
        """A connection of ``address`` ended."""
        now = self.counts.get(address, 0) - 1
        if now > 0:
            self.counts[address] = now
        else:
            self.counts.pop(address, None)


add_texts({
    "server.error.bad_host": (
        "this server is not known by that name (P13); open it by its own address",
        "этот сервер не известен под таким именем (P13); откройте его по его собственному адресу",
    ),
    "server.error.bad_origin": (
        "requests from the page {origin} are not accepted; open the game from this server's own address",
        "запросы со страницы {origin} не принимаются; откройте игру по адресу самого сервера",
    ),
    "server.error.bad_content_type": (
        "the body must be sent as application/json (it was {given})",
        "тело запроса нужно отправлять как application/json (пришло {given})",
    ),
    "server.error.bot_tables": (
        "the server already plays {limit} tables of bots only; seat yourself at the table, or try later",
        "сервер уже играет {limit} столов из одних ботов; сядьте за стол сами или попробуйте позже",
    ),
    "server.error.bot_tables_yours": (
        "you already have {limit} tables of bots only being played; wait until one ends",
        "у вас уже играются {limit} столов из одних ботов; дождитесь конца одного из них",
    ),
    "server.error.too_many_connections": (
        "too many connections from your address (at most {limit}); close some and try again",
        "слишком много соединений с вашего адреса (не больше {limit}); закройте лишние и повторите",
    ),
})
