// cgledger-dice/1 in the browser (docs/dice-protocol.md), with WebCrypto only.
// Pure functions: no DOM, no network. The browser tests run them against
// tests/dice-vectors.json, and the page uses them to check a roll or a whole
// export where the player sits, trusting nothing the server says about it.

const enc = new TextEncoder();

// canon(x): Python's json.dumps(x, sort_keys=True, separators=(",", ":"),
// ensure_ascii=False) encoded as UTF-8. JSON.stringify escapes the same
// characters (", \, and the controls below U+0020) the same way.
export function canonText(x) {
  if (x === null || typeof x !== "object") {
    if (typeof x === "number" && !Number.isInteger(x)) {
      throw new Error("canon: only integers appear in cgledger records");
    }
    return JSON.stringify(x);
  }
  if (Array.isArray(x)) return "[" + x.map(canonText).join(",") + "]";
  const keys = Object.keys(x).sort(codePointOrder);
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonText(x[k])).join(",") + "}";
}

function codePointOrder(a, b) {
  const ca = Array.from(a, (c) => c.codePointAt(0));
  const cb = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    if (ca[i] !== cb[i]) return ca[i] - cb[i];
  }
  return ca.length - cb.length;
}

export const canon = (x) => enc.encode(canonText(x));

export function hexToBytes(hex) {
  if (typeof hex !== "string" || !/^([0-9a-f]{2})*$/i.test(hex)) throw new Error("not hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export const bytesToHex = (bytes) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

export async function sha256Hex(...parts) {
  return bytesToHex(await crypto.subtle.digest("SHA-256", concat(...parts)));
}

async function hmac(key, msg) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, msg));
}

// §2 Pre-commitment: sha256(b"cgledger/v1/commit\n" + canon({campaign, index}) + seed).
export async function commitment(campaign, index, seedHex) {
  return sha256Hex(enc.encode("cgledger/v1/commit\n"), canon({ campaign, index }), hexToBytes(seedHex));
}

// §2 Roll: HMAC-SHA256(seed, b"cgledger/v1/roll\n" + canon({...})).
export async function rollSeed(seedHex, r) {
  const msg = canon({
    campaign: r.campaign, client_nonce: r.client_nonce, dice: r.dice,
    index: r.index, purpose: r.purpose, side: r.side,
  });
  return hmac(hexToBytes(seedHex), concat(enc.encode("cgledger/v1/roll\n"), msg));
}

// §2 Dice: bytes of HMAC(roll_seed, b"cgledger/v1/dice\n" + ctr as 4 bytes), b < 252 -> b % 6 + 1.
export async function diceFrom(rollSeedBytes, n) {
  const out = [];
  for (let ctr = 0; out.length < n; ctr++) {
    const c = new Uint8Array([(ctr >>> 24) & 255, (ctr >>> 16) & 255, (ctr >>> 8) & 255, ctr & 255]);
    const block = await hmac(rollSeedBytes, concat(enc.encode("cgledger/v1/dice\n"), c));
    for (const b of block) {
      if (b < 252) out.push((b % 6) + 1);
      if (out.length === n) break;
    }
  }
  return out;
}

// Check one revealed roll: its seed opens the commitment published before it
// (`published`, from the CommitmentsPublished events; pass null to skip) and
// recomputes to its dice. Returns {ok, problems}.
export async function verifyRoll(campaign, roll, published) {
  const problems = [];
  if (!roll.seed) return { ok: false, problems: ["the seed is still secret"] };
  if (published !== null && published !== undefined && published !== roll.commitment) {
    problems.push(`commitment ${short(roll.commitment)} is not the one published for index ${roll.index} (${short(published)})`);
  }
  const opened = await commitment(campaign, roll.index, roll.seed);
  if (opened !== roll.commitment) problems.push("the seed does not open the commitment");
  const n = roll.dice.length;
  const rs = await rollSeed(roll.seed, { ...roll, campaign, dice: n });
  const dice = await diceFrom(rs, n);
  if (dice.join(",") !== roll.dice.join(",")) {
    problems.push(`the seed gives [${dice.join(", ")}], the record says [${roll.dice.join(", ")}]`);
  }
  return { ok: problems.length === 0, problems, recomputed: dice };
}

const short = (h) => (typeof h === "string" ? h.slice(0, 12) + "…" : String(h));

// The event hash chain (cgledger.domain.chain): hash = sha256(b"cgledger/v1/event\n"
// + canon(hashed fields [+ meta])), secret_digest = sha256(b"cgledger/v1/secret\n" + canon(secret)).
const HASHED = ["seq", "type", "recorded_at", "actor", "payload", "secret_digest", "prev_hash"];
const LINE = new Set([...HASHED, "secret", "hash"]);

export async function eventHash(record) {
  const body = {};
  for (const k of HASHED) body[k] = record[k];
  if ("meta" in record) body.meta = record.meta;
  return sha256Hex(enc.encode("cgledger/v1/event\n"), canon(body));
}

export async function secretDigest(secret) {
  return secret === null ? "" : sha256Hex(enc.encode("cgledger/v1/secret\n"), canon(secret));
}

// Verify an export (GET .../export, JSON Lines: a header, then one event per
// line) as `cgledger verify` does for its hash chain and its dice: every line
// canonical, seqs 1, 2, 3 ..., each prev_hash the previous hash, each hash and
// visible secret digest recomputed, the header's count, head and body digest,
// every roll under a commitment published before it, every public seed opening
// its commitment and giving the recorded dice. `progress(done, total)` is
// called as it goes. Returns {ok, error?, seq?, events, rolls, recomputed, hidden}.
export async function verifyExport(bytes, progress = () => {}) {
  const report = { ok: false, events: 0, rolls: 0, recomputed: 0, hidden: 0 };
  const fail = (error, seq) => ({ ...report, ok: false, error, seq });
  let text;
  try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); }
  catch { return fail("the file is not UTF-8"); }
  if (!text) return fail("empty export");
  if (!text.endsWith("\n")) return fail("the export does not end with a newline (truncated?)");
  const lines = text.slice(0, -1).split("\n");
  let header;
  try { header = JSON.parse(lines[0]); } catch { return fail("the header is not JSON"); }
  if (canonText(header) !== lines[0]) return fail("the header is not in canonical form (edited?)");
  let head = "0".repeat(64);
  let campaign = null;
  const commitments = new Map();
  const rolls = [];
  const seeds = new Map();
  for (let n = 1; n < lines.length; n++) {
    let obj;
    try { obj = JSON.parse(lines[n]); } catch { return fail(`line ${n + 1} is not valid JSON`, n); }
    if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return fail(`line ${n + 1} is not a JSON object`, n);
    if (canonText(obj) !== lines[n]) return fail(`line ${n + 1} is not in canonical form (edited?)`, n);
    if (obj.seq !== n) return fail(`expected seq ${n}, found ${obj.seq} (missing or moved)`, n);
    const keys = Object.keys(obj).filter((k) => k !== "meta");
    if (keys.length !== LINE.size || !keys.every((k) => LINE.has(k))) return fail("unexpected or missing fields", n);
    if (obj.prev_hash !== head) return fail("prev_hash does not match the previous event's hash", n);
    if ((await eventHash(obj)) !== obj.hash) return fail("hash does not match the event's content (edited?)", n);
    if (obj.secret !== null && (await secretDigest(obj.secret)) !== obj.secret_digest) {
      return fail("the secret part does not match its digest (edited?)", n);
    }
    head = obj.hash;
    report.events = n;
    const p = obj.payload || {};
    if (n === 1) campaign = p.campaign;
    if (obj.type === "CommitmentsPublished") {
      p.commitments.forEach((c, i) => commitments.set(p.first_index + i, { c, seq: n }));
    }
    const roll = p.roll && typeof p.roll === "object" ? p.roll : null;
    if (roll) rolls.push({ seq: n, roll, secret: obj.secret });
    if (obj.type === "SecretRevealed" && typeof p.seed === "string") seeds.set(p.index, p.seed);
    if (n % 200 === 0) progress(n, lines.length - 1);
  }
  if (header.events !== report.events) return fail(`the header counts ${header.events} events but the file has ${report.events}`);
  if (!report.events) return fail("the export holds no events");
  if (header.head !== head) return fail("the header's head hash is not the last event's hash");
  const body = enc.encode(lines.slice(1).map((l) => l + "\n").join(""));
  if (header.body_sha256 !== (await sha256Hex(body))) return fail("the header's body digest does not match the events");
  let expected = 0;
  for (const { seq, roll, secret } of rolls) {
    report.rolls++;
    if (roll.index !== expected) return fail(`roll index ${roll.index} where ${expected} was next`, seq);
    expected++;
    const published = commitments.get(roll.index);
    if (!published || published.seq >= seq) return fail(`roll ${roll.index} has no commitment published before it`, seq);
    if (published.c !== roll.commitment) return fail(`roll ${roll.index} does not use its published commitment`, seq);
    const seed = roll.secret ? seeds.get(roll.index) : roll.seed;
    const dice = roll.secret ? secret && secret.dice : roll.dice;
    if (!seed || !Array.isArray(dice)) { report.hidden++; continue; }
    if (dice.length !== roll.count) return fail(`roll ${roll.index} records ${dice.length} dice, not ${roll.count}`, seq);
    const check = await verifyRoll(campaign, { ...roll, seed, dice }, null);
    if (!check.ok) return fail(`roll ${roll.index}: ${check.problems.join("; ")}`, seq);
    report.recomputed++;
    progress(seq, lines.length - 1);
  }
  return { ...report, ok: true, head };
}
