"""B14: the opener policy is sent only where a browser takes it (https or this machine's address)."""

from __future__ import annotations

from pathlib import Path

from serverkit import running

COOP = "cross-origin-opener-policy"


def test_b14_no_opener_policy_over_plain_http_on_a_network_address(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        lan = client.get("/api/health", headers={"host": "192.168.1.20:8000"})
        assert lan.status_code == 200 and COOP not in lan.headers
        # The other headers are still there.
        assert lan.headers["x-frame-options"] == "DENY" and "content-security-policy" in lan.headers
        named = client.get("/api/meta", headers={"host": "raspberrypi:8000"})
        assert COOP not in named.headers
        for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "game.localhost"):
            assert client.get("/api/health", headers={"host": host}).headers[COOP] == "same-origin", host
        behind = client.get("/api/health", headers={"host": "192.168.1.20", "x-forwarded-proto": "https"})
        assert behind.headers[COOP] == "same-origin"
