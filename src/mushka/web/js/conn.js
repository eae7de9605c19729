// One table's WebSocket (docs/protocol.md, "WebSocket"): hello, versions,
// resync after a gap (P7), reconnection after a reload or a network loss.
//
// The connection hands every message it accepts to `onMessage` in order;
// messages that repeat an old version are dropped, and a gap makes it ask
// for a fresh `state` and drop everything until that state arrives.  The
// heartbeat's `pong` carries the table's version too, so a last message
// that never arrived is noticed even when nothing follows it.
//
// A server of several processes sends `moved` when another process serves the
// table (it took the table over after its owner stopped): the connection goes
// there (`?node=`, which the proxy routes) after a short random wait, and its
// `hello` says the version it has (`since`), so that a client that missed
// nothing gets `resumed` instead of the whole state.  Every reconnection waits
// a random part of its backoff, so that a thousand pages cut off at once do
// not all come back in the same instant.

import { lang } from "./i18n.js";

export const PROTOCOL = 2;
// A server process that stops answering (its machine went down, it was paused) closes
// nothing: only silence tells.  Pinging every 5 s and giving up after 12 s of silence
// brings the page to the process that took the table over within seconds of its lease.
const PING_EVERY_MS = 5000;
const SILENCE_LIMIT_MS = 12000;
const MAX_BACKOFF_MS = 8000;
// Close codes after which reconnecting cannot help (4000 + an HTTP-like status).
const FINAL_CLOSE = new Set([4400, 4401, 4404]);

/** A live connection to `/ws/tables/{id}` that keeps itself up. */
export class TableConnection {
  constructor(tableId, { token = null, name = null, onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.name = name;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.version = null;
    this.awaitingState = true;
    this.nextId = 1;
    this.ws = null;
    this.stopped = false;
    this.attempt = 0;
    this.lastHeard = 0;
    this.timer = null;
    this.retryTimer = null;
    this.finalError = null;
    this.node = null;
    this.movedTo = false;
    this.onOnline = () => {
      if (!this.ws && !this.stopped) this.connect();
    };
    window.addEventListener("online", this.onOnline);
  }

  /** The WebSocket URL of the table, next to the page. */
  url() {
    const url = new URL(`ws/tables/${encodeURIComponent(this.tableId)}`, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.hash = "";
    // The language travels in the address too, for errors sent before the hello.
    url.search = `?lang=${lang()}`;
    if (this.node) url.searchParams.set("node", this.node);
    return url.href;
  }

  /** Open the connection (and keep reopening it until `stop`). */
  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.stopped) return;
    this.status(this.attempt === 0 ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (_) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.awaitingState = true;
    ws.addEventListener("open", () => {
      this.lastHeard = Date.now();
      const hello = { type: "hello", protocol: PROTOCOL, lang: lang(), id: this.nextId++ };
      if (this.token) hello.token = this.token;
      // B7: a spectator speaks in the chat under the name he gave (else "Spectator 2").
      else if (this.name) hello.name = this.name.slice(0, 32);
      // A reconnection: the server may answer `resumed` instead of the whole state.
      if (this.version !== null) hello.since = this.version;
      ws.send(JSON.stringify(hello));
      this.startHeartbeat();
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => this.closed(ws, event.code));
  }

  status(value) {
    if (this.onStatus) this.onStatus(value);
  }

  receive(text) {
    this.lastHeard = Date.now();
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (_) {
      return;
    }
    if (!msg || typeof msg !== "object") return;
    switch (msg.type) {
      case "state":
        this.version = msg.version;
        this.awaitingState = false;
        this.attempt = 0;
        this.status("open");
        break;
      case "resumed":
        // Nothing was missed: everything on the page stays as it is.
        if (this.version !== null && msg.version === this.version) {
          this.awaitingState = false;
          this.attempt = 0;
          this.status("open");
        } else {
          this.resync();
        }
        break;
      case "moved":
        // Another process serves the table now; the close that follows sends us there.
        this.node = typeof msg.node === "string" ? msg.node : null;
        this.movedTo = true;
        break;
      case "update":
      case "table":
        if (this.awaitingState || this.version === null) return;
        if (msg.version <= this.version) return; // a repeat of something applied
        if (msg.version > this.version + 1) {
          // P7: something was missed; the next state replaces everything.
          this.awaitingState = true;
          this.send({ type: "resync" });
          this.status("resyncing");
          return;
        }
        this.version = msg.version;
        break;
      case "pong":
        if (!this.awaitingState && this.version !== null && typeof msg.version === "number"
            && msg.version > this.version) {
          // P7: the table moved on and the message saying so was lost.
          this.resync();
          this.status("resyncing");
        }
        break;
      case "error":
        if (msg.code === "stale") {
          this.awaitingState = true;
          this.send({ type: "resync" });
        }
        if (msg.fatal) this.finalError = msg;
        break;
      default:
        break;
    }
    this.onMessage(msg);
  }

  /** Send a message; returns its request id. */
  send(msg) {
    const id = this.nextId++;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ ...msg, id }));
      return id;
    }
    return null;
  }

  /** Send an action in the engine's text notation, tied to the version it was chosen at (P9). */
  act(action) {
    const msg = { type: "act", action };
    if (this.version !== null) msg.version = this.version;
    return this.send(msg);
  }

  /** Ask for a fresh state (P7). */
  resync() {
    this.awaitingState = true;
    return this.send({ type: "resync" });
  }

  startHeartbeat() {
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (!this.ws) return;
      if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
        // The network went away without a close frame: drop and reconnect.
        this.ws.close();
        this.closed(this.ws, 1006);
        return;
      }
      this.send({ type: "ping" });
    }, PING_EVERY_MS);
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    this.ws = null;
    clearInterval(this.timer);
    if (this.stopped) return;
    if (FINAL_CLOSE.has(code)) {
      this.status("closed");
      if (this.onFinalClose) this.onFinalClose(code, this.finalError);
      return;
    }
    this.scheduleRetry();
  }

  scheduleRetry() {
    this.status(navigator.onLine === false ? "offline" : "reconnecting");
    // Told where the table went: go soon.  Otherwise back off, doubling, capped.
    const base = this.movedTo ? 250 : Math.min(MAX_BACKOFF_MS, 400 * 2 ** this.attempt);
    this.movedTo = false;
    // Jitter: a random wait between half the base and the whole of it.
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Close for good (leaving the page's table view). */
  stop() {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
