"""A software passkey for the tests and the sign-in benchmark: an ES256 (P-256) key that
answers the server's WebAuthn ceremonies as a browser and an authenticator would, with
"none" attestation.  Only what the server checks is made; nothing here is a real
authenticator's security."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    """base64url without padding, as WebAuthn's JSON writes bytes."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    """base64url (padding optional) to bytes."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftKey:
    """One passkey of one site (``rp_id``), used from pages of ``origin``."""

    rp_id: str = "testserver"
    origin: str = "http://testserver"
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    count: int = 0
    user_handle: bytes = b""

    def _auth_data(self, attested: bool) -> bytes:
        flags = 0x01 | 0x04 | (0x40 if attested else 0)  # user present, verified, (credential data)
        data = hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", self.count)
        if attested:
            numbers = self.key.public_key().public_numbers()
            cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                                -3: numbers.y.to_bytes(32, "big")})
            data += bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + cose
        return data

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": self.origin,
                           "crossOrigin": False}).encode()

    def register(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer to registration options (``navigator.credentials.create``)."""
        self.user_handle = unb64(options["user"]["id"])
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": self._auth_data(True)})
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(self._client_data("webauthn.create", options["challenge"])),
                             "attestationObject": b64(attestation), "transports": ["internal"]},
                "clientExtensionResults": {}}

    def sign_in(self, options: dict[str, Any]) -> dict[str, Any]:
        """The answer to sign-in options (``navigator.credentials.get``)."""
        self.count += 1
        auth = self._auth_data(False)
        client = self._client_data("webauthn.get", options["challenge"])
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client), "authenticatorData": b64(auth),
                             "signature": b64(signature), "userHandle": b64(self.user_handle)},
                "clientExtensionResults": {}}
