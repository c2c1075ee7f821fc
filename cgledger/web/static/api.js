// The page's only way to the server: same-origin fetch with the Bearer token
// from the URL fragment (DESIGN §12: a fragment never reaches a server log).
import { randomHex } from "./proto.js";

export function tokenFromFragment(hash = location.hash) {
  const m = /(?:^#|&)token=([^&]+)/.exec(hash);
  if (!m) return null;
  try { return decodeURIComponent(m[1]); } catch { return null; }
}

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem && problem.detail ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
}

// How long an unanswered request's key and nonce are kept for a retry.
const PENDING_MS = 15 * 60 * 1000;

export class Api {
  // One Idempotency-Key (and client nonce) per thing the player asked for,
  // kept until the server gives a definite answer, in this tab's
  // sessionStorage (``store``) so a reload keeps it too: a second click after
  // a lost answer repeats the same request, so it can never roll twice.
  constructor(token = null, store = null) {
    this.token = token;
    this.store = store;
    this.pending = new Map();
    try {
      const kept = store ? JSON.parse(sessionStorage.getItem(store) || "{}") : {};
      for (const [intent, once] of Object.entries(kept)) {
        if (Date.now() - once.at < PENDING_MS) this.pending.set(intent, once);
      }
    } catch { /* storage off or unreadable: memory only */ }
  }

  keep() {
    if (!this.store) return;
    try { sessionStorage.setItem(this.store, JSON.stringify(Object.fromEntries(this.pending))); }
    catch { /* storage off: memory only */ }
  }

  intentOf(intent) {
    let once = this.pending.get(intent);
    if (!once || Date.now() - once.at >= PENDING_MS) {
      once = { key: randomHex(16), nonce: randomHex(16), at: Date.now() };
      this.pending.set(intent, once);
      this.keep();
    }
    return once;
  }

  settle(intent) {
    if (intent !== null && this.pending.delete(intent)) this.keep();
  }

  headers(extra = {}) {
    const h = { Accept: "application/json", ...extra };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    return h;
  }

  async request(method, path, { body, text = false, raw = false, nonce = false } = {}) {
    const init = { method, headers: this.headers(), cache: "no-store" };
    let intent = null;
    if (body !== undefined) {
      intent = `${method} ${path} ${JSON.stringify(body)}`;
      const once = this.intentOf(intent);
      // DESIGN §2: the client's own nonce, so the server cannot pick the dice.
      const sent = nonce ? { ...body, client_nonce: once.nonce } : body;
      init.body = JSON.stringify(sent);
      init.headers["Content-Type"] = "application/json";
      init.headers["Idempotency-Key"] = once.key;
    }
    const r = await fetch(path, init);  // a network failure keeps the intent's key
    const definite = r.status < 500 && r.status !== 429;
    if (!r.ok) {
      let problem = null;
      try { problem = await r.json(); } catch { /* not JSON */ }
      if (definite) this.settle(intent);
      throw new ApiError(r.status, problem);
    }
    // The key goes only once the whole answer is read: a body cut off on the
    // way is a lost answer, and the next click must repeat the request.
    let out;
    if (text) out = await r.text();
    else if (raw || !r.headers.get("content-type")?.includes("json")) out = await r.arrayBuffer();
    else out = await r.json();
    this.settle(intent);
    return out;
  }

  get(path, opts) { return this.request("GET", path, opts); }
  post(path, body = {}, opts = {}) { return this.request("POST", path, { ...opts, body }); }
  // A roll: the page's own client nonce goes with it (and is kept on a retry).
  roll(path, body = {}) { return this.post(path, body, { nonce: true }); }
}

// Build DOM without ever parsing data as HTML: text goes in as text.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// An SVG document from the server, imported as inert nodes: no script, no
// event handler attribute, no external reference survives.
export function importSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg" || doc.querySelector("parsererror")) throw new Error("not an SVG map");
  for (const bad of root.querySelectorAll("script, foreignObject, set, animate, animateMotion, animateTransform, iframe, a")) bad.remove();
  for (const el of [root, ...root.querySelectorAll("*")]) {
    for (const a of Array.from(el.attributes)) {
      const v = a.value.trim().toLowerCase();
      if (a.localName.toLowerCase().startsWith("on") || (a.localName === "href" && !v.startsWith("#"))) {
        el.removeAttributeNode(a);
      }
    }
  }
  return document.importNode(root, true);
}

export function setStatus(el, message, kind = "info") {
  el.textContent = message;
  el.classList.remove("ok", "error", "info");
  el.classList.add("status", kind);
}
