// conn.js: the WebSocket to tablerod: one JSON message per text frame,
// requests answered by id (promises), events handed to a listener, a ping
// every 30 s, and reconnecting by itself with a growing pause. A
// server's sentence arrives in the page's language (i18n.js localize).

import { localize } from "./i18n.js";

const PING_MS = 30000;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 8000;

export class Conn {
  constructor(url, onEvent, onStatus) {
    this.url = url;
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.nextId = 1;
    this.waiting = new Map();
    this.retry = RETRY_MIN_MS;
    this.ws = null;
    this.open = false;
    this.onOpen = null;
    this.connect();
    setInterval(() => { if (this.open) this.send("ping").catch(() => {}); }, PING_MS);
  }

  connect() {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.open = true;
      this.retry = RETRY_MIN_MS;
      this.onStatus("online");
      if (this.onOpen) this.onOpen();
    };
    ws.onmessage = (e) => this.message(e.data);
    ws.onclose = () => {
      this.open = false;
      for (const [, w] of this.waiting) w.reject(new Error("connection lost"));
      this.waiting.clear();
      this.onStatus("offline");
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, RETRY_MAX_MS);
    };
  }

  message(text) {
    let m;
    try { m = localize(JSON.parse(text)); } catch { return; }
    if (m.re !== undefined && m.id !== undefined && this.waiting.has(m.id)) {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      w.resolve(m);
      return;
    }
    if (m.event !== undefined) this.onEvent(m);
  }

  // Send a request; resolves with its reply (ok or not).
  send(cmd, fields = {}) {
    if (!this.open) return Promise.reject(new Error("offline"));
    const id = this.nextId++;
    const msg = Object.assign({ cmd, id }, fields);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify(msg));
    });
  }
}
