"""Accounts in the browser (docs/accounts.md): a guest plays; a guest keeps his name with a
password and with a passkey (Chromium's virtual authenticator, through the DevTools protocol);
he signs in on a second device, which gets his seat back; a signed-in change without the CSRF
token is refused (P19); a guest cannot take the claimed name (P18); deleting the account
removes its personal data.  Two and three browser contexts, 1280x900 and 390x844, EN and RU."""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

import pytest
from e2ekit import act_once, wait_for_turn_or_end
from playwright.sync_api import expect
from sqlalchemy import text

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def rows(live_server: Any, query: str, **params: object) -> list[Any]:
    with live_server.store().engine.connect() as conn:
        return list(conn.execute(text(query), params).all())


def named(name: str) -> Any:
    def before(page: Any) -> None:
        page.add_init_script(f"localStorage.setItem('mushka.name', {json.dumps(name)})")

    return before


def post_from_page(page: Any, path: str, body: dict[str, Any], *, plain: bool = False) -> dict[str, Any]:
    """A POST made by the page's own script: through the page's fetch (which adds the CSRF
    token when signed in), or, ``plain``, through XMLHttpRequest, which nothing adds it to."""
    script = """async ([path, body, plain]) => {
        if (plain) {
            return await new Promise((resolve) => {
                const x = new XMLHttpRequest();
                x.open("POST", path);
                x.setRequestHeader("Content-Type", "application/json");
                x.onload = () => resolve({status: x.status, body: JSON.parse(x.responseText || "null")});
                x.send(JSON.stringify(body));
            });
        }
        const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                     body: JSON.stringify(body)});
        return {status: r.status, body: await r.json().catch(() => null)};
    }"""
    result: dict[str, Any] = page.evaluate(script, [path, body, plain])
    return result


def test_a_guest_plays_claims_his_name_with_a_password_and_signs_in_on_a_second_device(
        open_page: Any, live_server: Any, page_errors: list[str], shot: Any) -> None:
    name = f"Anna {secrets.token_hex(2)}"
    # A guest plays at once, with no account.
    guest = open_page(live_server.url + "?lang=en", before=named(f"Guest {secrets.token_hex(2)}"))
    made = post_from_page(guest, "/api/tables", {"seats": ["me", "bot:random", "bot:random"], "start": True,
                                                 "name": "Guest"})
    assert made["status"] == 201, made
    guest.goto(live_server.url.rstrip("/") + made["body"]["tokens"][0]["url"])
    wait_for_turn_or_end(guest)
    act_once(guest, random.Random(3))

    # A guest claims the name he plays under, with a password.
    anna = open_page(live_server.url + "?lang=en", before=named(name))
    button = anna.locator("[data-testid=account-button]")
    expect(button).to_have_text("Sign in")
    button.click()
    dialog = anna.locator("[data-testid=account-dialog]")
    dialog.locator("[data-testid=account-tab-claim]").click()
    expect(dialog.locator("[data-testid=account-name]")).to_have_value(name)
    shot(anna, "claim-1280-en")
    dialog.locator("[data-testid=account-password]").fill("short")
    dialog.locator("[data-testid=account-claim]").click()
    expect(dialog.locator("[data-testid=account-error]")).to_contain_text("at least 8 characters")
    dialog.locator("[data-testid=account-password]").fill("correct horse battery")
    dialog.locator("[data-testid=account-claim]").click()
    expect(button).to_have_text(name)
    # The page's own requests carry the session's CSRF token; one without it is refused.
    made = post_from_page(anna, "/api/tables", {"seats": ["me", "open", "bot:random"]})
    assert made["status"] == 201, made
    table_id = made["body"]["table"]["id"]
    forged = post_from_page(anna, "/api/tables", {"seats": ["me", "open", "bot:random"]}, plain=True)
    assert forged["status"] == 403 and forged["body"]["error"]["rule"] == "P19"
    cookie = next(c for c in anna.context.cookies() if c["name"] == "mushka_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and not cookie["secure"]
    assert anna.evaluate("document.cookie").find("mushka_session") == -1

    # A guest cannot sit under the claimed name.
    refused = post_from_page(guest, "/api/tables", {"name": name.upper()})
    assert refused["status"] == 409 and refused["body"]["error"]["code"] == "name_claimed"

    # The second device, in Russian on a phone, signs in and gets the seat back.
    phone = open_page(live_server.url + "?lang=ru", viewport=PHONE)
    phone.locator("[data-testid=account-button]").click()
    dialog = phone.locator("[data-testid=account-dialog]")
    dialog.locator("[data-testid=account-name]").fill(name.lower())
    dialog.locator("[data-testid=account-password]").fill("correct horse battery")
    shot(phone, "signin-390-ru")
    dialog.locator("[data-testid=account-signin]").click()
    expect(phone.locator("[data-testid=account-button]")).to_have_text(name)
    phone.locator("[data-testid=account-button]").click()
    expect(dialog.locator("[data-testid=account-who]")).to_contain_text(f"Вы вошли как {name}")
    link = dialog.locator("[data-testid=account-games] a").first
    expect(link).to_contain_text("Стол")
    shot(phone, "account-390-ru")
    # Deleting is refused while the account is seated at an unfinished table.
    dialog.locator(".account-delete summary").click()
    dialog.locator("[data-testid=account-delete-name]").fill(name)
    phone.on("dialog", lambda d: d.accept())
    dialog.locator("[data-testid=account-delete]").click()
    expect(dialog.locator("[data-testid=account-error]")).to_contain_text("незаконченными столами")
    link.click()
    phone.wait_for_url(f"**table={table_id}**")
    expect(phone.locator("[data-testid=who-am-i]")).to_contain_text(name)
    # Opened without the seat's token (the bare invitation link, nothing kept on the device),
    # the table page of a signed-in player takes his seat back through the session.
    phone.evaluate("localStorage.clear()")
    phone.goto(f"{live_server.url}?table={table_id}&lang=ru")
    expect(phone.locator("[data-testid=who-am-i]")).to_contain_text(name)
    shot(phone, "table-390-ru")
    assert rows(live_server, "SELECT count(*) FROM mushka_sessions s JOIN mushka_accounts a ON a.id = s.account_id"
                " WHERE a.name = :n", n=name)[0][0] == 2
    assert page_errors == []


def test_a_guest_claims_his_name_with_a_passkey_signs_in_with_it_and_deletes_the_account(
        open_page: Any, live_server: Any, page_errors: list[str], shot: Any) -> None:
    name = f"Вера {secrets.token_hex(2)}"
    # Passkeys need a name, not an IP address: the page is opened on localhost.
    url = live_server.url.replace("127.0.0.1", "localhost") + "?lang=ru"
    vera = open_page(url, before=named(name))
    cdp = vera.context.new_cdp_session(vera)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    authenticator = found["authenticatorId"]
    button = vera.locator("[data-testid=account-button]")
    expect(button).to_have_text("Войти")
    button.click()
    dialog = vera.locator("[data-testid=account-dialog]")
    dialog.locator("[data-testid=account-tab-claim]").click()
    shot(vera, "claim-1280-ru")
    dialog.locator("[data-testid=account-claim-passkey]").click()
    expect(button).to_have_text(name)
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"]
    stored = rows(live_server, "SELECT k.sign_count FROM mushka_passkeys k JOIN mushka_accounts a"
                  " ON a.id = k.account_id WHERE a.name = :n", n=name)
    assert len(stored) == 1
    assert rows(live_server, "SELECT count(*) FROM mushka_passwords p JOIN mushka_accounts a"
                " ON a.id = p.account_id WHERE a.name = :n", n=name)[0][0] == 0

    # Signed out, then in again with the passkey and no name.
    button.click()
    dialog.locator("[data-testid=account-signout]").click()
    expect(button).to_have_text("Войти")
    button.click()
    dialog.locator("[data-testid=account-passkey-signin]").click()
    expect(button).to_have_text(name)

    # A second context (another person) watches the lobby: the name is not his to take.
    other = open_page(live_server.url + "?lang=en", viewport=PHONE)
    refused = post_from_page(other, "/api/tables", {"name": name})
    assert refused["status"] == 409 and refused["body"]["error"]["rule"] == "P18"
    other.locator("[data-testid=account-button]").click()
    shot(other, "signin-390-en")

    # A passkey account adds a password (then signs in with either).
    account_id = rows(live_server, "SELECT id FROM mushka_accounts WHERE name = :n", n=name)[0][0]
    button.click()
    dialog.locator(".account-password summary").click()
    dialog.locator("[data-testid=account-new-password]").fill("пароль для входа")
    shot(vera, "account-1280-ru")
    dialog.locator("[data-testid=account-save-password]").click()
    expect(vera.locator("#toast")).to_contain_text("Пароль сохранён")
    assert rows(live_server, "SELECT count(*) FROM mushka_passwords WHERE account_id = :a", a=account_id)[0][0] == 1

    # Deleting the account removes its personal data.
    button.click()
    dialog.locator(".account-delete summary").click()
    dialog.locator("[data-testid=account-delete-name]").fill(name)
    vera.on("dialog", lambda d: d.accept())
    dialog.locator("[data-testid=account-delete]").click()
    expect(button).to_have_text("Войти")
    for table in ("mushka_accounts", "mushka_passkeys", "mushka_passwords", "mushka_sessions"):
        column = "id" if table == "mushka_accounts" else "account_id"
        assert rows(live_server, f"SELECT count(*) FROM {table} WHERE {column} = :a", a=account_id)[0][0] == 0
    assert not [c for c in vera.context.cookies() if c["name"] == "mushka_session"]
    # The name is free again.
    assert post_from_page(other, "/api/tables", {"name": name, "seats": ["me", "open", "bot:random"]})["status"] == 201
    assert page_errors == []
