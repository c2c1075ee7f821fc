// cgledger-dice/1 and /2 in the browser (docs/dice-protocol.md), with WebCrypto only.
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
    if (typeof x === "string" && /\p{Cs}/u.test(x)) {
      throw new Error("canon: a lone surrogate is not valid Unicode");  // it has no UTF-8 form
    }
    return JSON.stringify(x);
  }
  if (Array.isArray(x)) return "[" + x.map(canonText).join(",") + "]";
  const keys = Object.keys(x).sort(codePointOrder);
  return "{" + keys.map((k) => canonText(k) + ":" + canonText(x[k])).join(",") + "}";
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
  if (typeof hex !== "string" || !/^([0-9a-f]{2})*$/.test(hex)) throw new Error("not lower-case hex");
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

// SHA-256 and HMAC-SHA-256: WebCrypto where the browser offers it (https or
// localhost), else the plain implementation below (FIPS 180-4, RFC 2104), so
// a page opened over http on a LAN address still verifies. The browser tests
// run both against the published vectors.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256Plain(data) {
  const n = data.length;
  const padded = new Uint8Array(((n + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[n] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(n / 0x20000000));
  view.setUint32(padded.length - 4, (n << 3) >>> 0);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  const rotr = (x, k) => (x >>> k) | (x << (32 - k));
  for (let off = 0; off < padded.length; off += 64) {
    for (let t = 0; t < 16; t++) W[t] = view.getUint32(off + 4 * t);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(W[t - 15], 7) ^ rotr(W[t - 15], 18) ^ (W[t - 15] >>> 3);
      const s1 = rotr(W[t - 2], 17) ^ rotr(W[t - 2], 19) ^ (W[t - 2] >>> 10);
      W[t] = (W[t - 16] + s0 + W[t - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let t = 0; t < 64; t++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + W[t]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  H.forEach((x, i) => ov.setUint32(4 * i, x));
  return out;
}

export function hmacPlain(key, msg) {
  let k = key.length > 64 ? sha256Plain(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = block.map((b) => b ^ 0x36);
  const outer = block.map((b) => b ^ 0x5c);
  return sha256Plain(concat(outer, sha256Plain(concat(inner, msg))));
}

// Which implementation runs: "webcrypto" where the browser allows it, else "plain".
export let engine = globalThis.crypto && globalThis.crypto.subtle ? "webcrypto" : "plain";
export function useEngine(name) { engine = name; }

async function digest(data) {
  if (engine === "webcrypto") return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return sha256Plain(data);
}

export async function sha256Hex(...parts) {
  return bytesToHex(await digest(concat(...parts)));
}

async function hmac(key, msg) {
  if (engine !== "webcrypto") return hmacPlain(key, msg);
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, msg));
}

// Random hex from getRandomValues, which every context has (randomUUID and
// subtle need https or localhost): Idempotency-Keys and client nonces.
export function randomHex(bytes = 16) {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(bytes)));
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

// §2a (cgledger-dice/2): a sealed record's roll seed, HMAC-SHA256(seed,
// b"cgledger/v2/roll\n" + canon({campaign, client_nonce, index, side})): no count, no purpose.
export async function sealedRollSeed(seedHex, r) {
  const msg = canon({ campaign: r.campaign, client_nonce: r.client_nonce, index: r.index, side: r.side });
  return hmac(hexToBytes(seedHex), concat(enc.encode("cgledger/v2/roll\n"), msg));
}

// The first n dice of a sealed record's stream: the dice blocks of §2 without the stop.
export async function sealedDice(seedHex, r, n) {
  return diceFrom(await sealedRollSeed(seedHex, r), n);
}

const SEED = /^[0-9a-f]{64}$/;
export const SEALED = "cgledger-dice/2";
const isDice = (d, n) => Array.isArray(d) && d.length === n && d.every((x) => Number.isInteger(x) && x >= 1 && x <= 6);

// Check one revealed roll: its seed opens the commitment published before it
// (`published`: {c, seq} from the CommitmentsPublished events; null to skip)
// and recomputes to its dice. Returns {ok, problems, recomputed}.
export async function verifyRoll(campaign, roll, published) {
  const problems = [];
  if (!roll.seed) return { ok: false, problems: ["the seed is still secret"] };
  if (!SEED.test(roll.seed)) return { ok: false, problems: ["the seed is not 64 hex digits"] };
  const n = Array.isArray(roll.dice) ? roll.dice.length : 0;
  if (n !== 1 && n !== 2) return { ok: false, problems: ["a roll has 1 or 2 dice"] };
  if (!isDice(roll.dice, n)) return { ok: false, problems: ["the dice are not 1 to 6"] };
  if (published !== null && published !== undefined) {
    if (!published.c) problems.push(`no commitment was published for index ${roll.index}`);
    else if (published.c !== roll.commitment) {
      problems.push(`commitment ${short(roll.commitment)} is not the one published for index ${roll.index} (${short(published.c)})`);
    } else if (!(published.seq < roll.seq)) {
      problems.push(`the commitment was published (event ${published.seq}) after the roll (event ${roll.seq})`);
    }
  }
  const opened = await commitment(campaign, roll.index, roll.seed);
  if (opened !== roll.commitment) problems.push("the seed does not open the commitment");
  const rs = await rollSeed(roll.seed, { ...roll, campaign, dice: n });
  const dice = await diceFrom(rs, n);
  if (dice.join(",") !== roll.dice.join(",")) {
    problems.push(`the seed gives [${dice.join(", ")}], the record says [${roll.dice.join(", ")}]`);
  }
  return { ok: problems.length === 0, problems, recomputed: dice };
}

const short = (h) => (typeof h === "string" ? h.slice(0, 12) + "…" : String(h));

function publishedProblem(roll, published, seq) {
  if (published === null || published === undefined) return null;
  if (!published.c) return `no commitment was published for index ${roll.index}`;
  if (published.c !== roll.commitment) return `commitment ${short(roll.commitment)} is not the one published for index ${roll.index} (${short(published.c)})`;
  if (!(published.seq < seq)) return `the commitment was published (event ${published.seq}) after the roll (event ${seq})`;
  return null;
}

// Check a revealed sealed record (§2a): `record` is the RecordSealed event,
// `reveal` its SecretRevealed (payload.protocol "cgledger-dice/2"), `published`
// {c, seq} for its roll index (null to skip). The reveal names the record, its
// sealed part hashes to the record's secret_digest, the seed opens the
// commitment, and the dice of the sealed part's rolls, in order, are the first
// dice of the stream. Returns {ok, problems, recomputed}.
export async function verifySealed(campaign, record, reveal, published) {
  const p = isObject(record.payload) ? record.payload : {};
  const roll = isObject(p.roll) ? p.roll : null;
  if (!reveal) return { ok: false, problems: ["the record is still sealed"] };
  const q = isObject(reveal.payload) ? reveal.payload : {};
  if (q.protocol !== SEALED || q.of_seq !== record.seq || !(reveal.seq > record.seq)) {
    return { ok: false, problems: [`the reveal (event ${reveal.seq}) does not name event ${record.seq}`] };
  }
  const problems = [];
  if (q.of_owner !== p.owner) problems.push(`the reveal names ${JSON.stringify(q.of_owner)} the owner, not ${JSON.stringify(p.owner)}`);
  const names = roll ? q.index === roll.index && q.commitment === roll.commitment
    : [q.index, q.commitment, q.seed, q.client_nonce].every((x) => x === null);
  if (!names) problems.push("the reveal names another roll than the record's");
  if (!isObject(q.sealed) || (await secretDigest(q.sealed)) !== record.secret_digest) {
    problems.push("the revealed sealed part does not match the record's digest");
  }
  const drawn = sealedDraw(q.sealed);
  const wrong = drawnProblem(drawn, roll);
  if (wrong) return { ok: false, problems: [...problems, wrong] };
  if (!roll) return { ok: problems.length === 0, problems, recomputed: [] };
  const late = publishedProblem(roll, published, record.seq);
  if (late) problems.push(late);
  if (typeof q.seed !== "string" || !SEED.test(q.seed)) return { ok: false, problems: [...problems, "the seed is not 64 hex digits"] };
  if (typeof q.client_nonce !== "string") return { ok: false, problems: [...problems, "the reveal has no client nonce"] };
  if ((await commitment(campaign, roll.index, q.seed)) !== roll.commitment) problems.push("the seed does not open the commitment");
  if (q.client_nonce !== q.sealed.client_nonce) problems.push("the reveal's client nonce is not the sealed part's");
  const stream = await sealedDice(q.seed, { campaign, client_nonce: q.client_nonce, index: roll.index, side: roll.side }, drawn.length);
  if (stream.join(",") !== drawn.join(",")) {
    problems.push(`the dice do not follow the stream: it gives [${stream.join(", ")}], the record says [${drawn.join(", ")}]`);
  }
  return { ok: problems.length === 0, problems, recomputed: stream };
}

// The dice a sealed part's rolls took, in order (null if they are not dice).
function sealedDraw(part) {
  const rolls = isObject(part) && Array.isArray(part.rolls) ? part.rolls : null;
  const ok = rolls && rolls.every((r) => isObject(r) && Array.isArray(r.dice) && r.dice.length > 0 && isDice(r.dice, r.dice.length) && r.count === r.dice.length);
  return ok ? rolls.flatMap((r) => r.dice) : null;
}
function drawnProblem(drawn, roll) {
  if (drawn === null) return "the sealed part's rolls are not dice";
  if (!roll && drawn.length) return "a sealed record without a roll index lists dice";
  return null;
}

// §2a: the public part of every sealed record, whatever it holds.
const PUBLIC = ["cg_date", "owner", "protocol", "side", "step"];
const PUBLIC_ROLL = ["after_undo", "commitment", "index", "protocol", "secret", "side"];
function sealedShape(p) {
  const keys = Object.keys(p).filter((k) => k !== "roll").sort();
  if (keys.join() !== PUBLIC.join() || p.protocol !== SEALED) return "not the public part of a sealed record";
  if (!["owner", "side", "cg_date"].every((k) => typeof p[k] === "string") || !(p.step === null || typeof p.step === "string")) return "a sealed record's owner, side, CG Date or step";
  if (!("roll" in p)) return null;
  const r = p.roll;
  if (!isObject(r) || Object.keys(r).sort().join() !== PUBLIC_ROLL.join()) return "a sealed record's roll has other keys than cgledger-dice/2's";
  if (r.protocol !== SEALED || r.secret !== true || !Number.isInteger(r.index) || typeof r.commitment !== "string" || typeof r.side !== "string") return "a sealed roll that is not of cgledger-dice/2";
  return null;
}

// The event hash chain (cgledger.domain.chain): hash = sha256(b"cgledger/v1/event\n"
// + canon(hashed fields [+ meta])), secret_digest = sha256(b"cgledger/v1/secret\n" + canon(secret)).
const HASHED = ["seq", "type", "recorded_at", "actor", "payload", "secret_digest", "prev_hash"];
const LINE = new Set([...HASHED, "secret", "hash"]);
const HEADER = ["format", "protocol", "campaign", "ruleset", "campaign_name", "exported_at", "viewer", "events", "head", "body_sha256"];
// An export that holds sealed records names both versions in the header's `protocols`.
const PROTOCOLS = ["cgledger-dice/1", SEALED];

export async function eventHash(record) {
  const body = {};
  for (const k of HASHED) body[k] = record[k];
  if ("meta" in record) body.meta = record.meta;
  return sha256Hex(enc.encode("cgledger/v1/event\n"), canon(body));
}

export async function secretDigest(secret) {
  return secret === null ? "" : sha256Hex(enc.encode("cgledger/v1/secret\n"), canon(secret));
}

class Bad extends Error {
  constructor(message, seq) { super(message); this.seq = seq; }
}
const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

// Verify an export (GET .../export, JSON Lines: a header, then one event per
// line) as `cgledger verify` does for its chain, its commitments and its dice:
// every line canonical; seqs 1, 2, 3 ...; each prev_hash the previous hash;
// each hash and visible secret digest recomputed; the header's fields, its
// count, head and body digest, and its campaign, ruleset and name those of
// event 1 (CampaignCreated); each CG definition its recorded sha256; each
// undo naming only earlier events; each reveal following the roll it names,
// once; every roll at the next index, under a commitment published before it
// (once), of 1 or 2 dice and a boolean `secret`; every public or revealed seed
// opening its commitment and giving the recorded dice; each table definition
// its content hash, once. It does not re-read table results or re-count the
// LVP, nor the checks those imply (`cgledger verify` does them all). Sealed
// records (cgledger-dice/2): each has the public part of every sealed record
// and takes the next roll index if it has a roll; each version 2 reveal names
// one, once, and publishes a part that hashes to its digest; a revealed one
// passes verifySealed; one not revealed is counted. `progress(done,
// total)` is called as it goes. Never throws: a malformed file is a failure.
// Returns {ok, error?, seq?, campaign, viewer, events, rolls, recomputed, hidden,
// sealed, revealed, head}.
export async function verifyExport(bytes, progress = () => {}) {
  const report = { ok: false, campaign: null, viewer: null, events: 0, rolls: 0, recomputed: 0, hidden: 0, sealed: 0, revealed: 0 };
  try {
    await checkExport(bytes, progress, report);
    return { ...report, ok: true };
  } catch (e) {
    const error = e instanceof Bad ? e.message : `malformed export (${e && e.message ? e.message : e})`;
    return { ...report, ok: false, error, seq: e instanceof Bad ? e.seq : undefined };
  }
}

async function checkExport(bytes, progress, report) {
  let text;
  try { text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes); }
  catch { throw new Bad("the file is not UTF-8"); }
  if (!text) throw new Bad("empty export");
  if (!text.endsWith("\n")) throw new Bad("the export does not end with a newline (truncated?)");
  const lines = text.slice(0, -1).split("\n");
  const parse = (line, where, seq) => {
    let obj;
    try { obj = JSON.parse(line); } catch { throw new Bad(`${where} is not valid JSON`, seq); }
    if (!isObject(obj)) throw new Bad(`${where} is not a JSON object`, seq);
    if (canonText(obj) !== line) throw new Bad(`${where} is not in canonical form (edited?)`, seq);
    return obj;
  };
  const header = parse(lines[0], "the header line");
  if (Object.keys(header).filter((k) => k !== "protocols").sort().join() !== [...HEADER].sort().join()) throw new Bad("the header's fields are not those of cgledger-export/1");
  if ("protocols" in header && canonText(header.protocols) !== canonText(PROTOCOLS)) throw new Bad(`the header's protocols are not ${PROTOCOLS.join(", ")}`);
  if (header.format !== "cgledger-export/1" || header.protocol !== "cgledger-dice/1") throw new Bad("the header does not name cgledger-export/1 and cgledger-dice/1");
  report.viewer = header.viewer;
  let head = "0".repeat(64);
  let campaign = null;
  const commitments = new Map();
  const rolls = [];
  const revealed = new Map();
  const sealed = new Map();  // seq -> RecordSealed event
  const reveals = new Map();  // seq of a sealed record -> its version 2 SecretRevealed
  const tables = new Set();
  const total = lines.length - 1;
  for (let n = 1; n < lines.length; n++) {
    const obj = parse(lines[n], `line ${n + 1}`, n);
    if (obj.seq !== n) throw new Bad(`expected seq ${n}, found ${obj.seq} (missing or moved)`, n);
    const keys = Object.keys(obj).filter((k) => k !== "meta");
    if (keys.length !== LINE.size || !keys.every((k) => LINE.has(k))) throw new Bad("unexpected or missing fields", n);
    if ("meta" in obj && !isObject(obj.meta)) throw new Bad("meta is not a JSON object", n);
    if (obj.prev_hash !== head) throw new Bad("prev_hash does not match the previous event's hash", n);
    if ((await eventHash(obj)) !== obj.hash) throw new Bad("hash does not match the event's content (edited?)", n);
    if (obj.secret !== null && (await secretDigest(obj.secret)) !== obj.secret_digest) {
      throw new Bad("the secret part does not match its digest (edited?)", n);
    }
    head = obj.hash;
    report.events = n;
    const p = obj.payload;
    if (!isObject(p)) throw new Bad("the payload is not a JSON object", n);
    if (n === 1) {
      if (obj.type !== "CampaignCreated") throw new Bad("the first event is not CampaignCreated", 1);
      if (p.protocol !== "cgledger-dice/1") throw new Bad("the campaign does not use cgledger-dice/1", 1);
      for (const k of ["campaign", "ruleset", "campaign_name"]) {
        if (typeof p[k] !== "string") throw new Bad(`the campaign's ${k} is not a string`, 1);
        if (header[k] !== p[k]) throw new Bad(`the header's ${k} ${JSON.stringify(header[k])} is not the campaign's ${JSON.stringify(p[k])}`);
      }
      campaign = p.campaign;
      report.campaign = campaign;
    }
    if (obj.type === "CommitmentsPublished") {
      if (!Number.isInteger(p.first_index) || !Array.isArray(p.commitments)) throw new Bad("a malformed commitment batch", n);
      p.commitments.forEach((c, i) => {
        if (commitments.has(p.first_index + i)) throw new Bad(`roll index ${p.first_index + i} committed twice`, n);
        commitments.set(p.first_index + i, { c, seq: n });
      });
    }
    if (obj.type === "RecordSealed") {
      const wrong = sealedShape(p);
      if (wrong) throw new Bad(wrong, n);
      if (!SEED.test(obj.secret_digest)) throw new Bad("a sealed record without the digest of its secret part", n);
      sealed.set(n, obj);
    }
    if (isObject(p.roll)) {
      if (p.roll.index !== rolls.length) throw new Bad(`roll index ${p.roll.index} out of order (expected ${rolls.length})`, n);
      rolls.push({ seq: n, roll: p.roll, secret: obj.secret, obj });
    }
    if (obj.type === "TableDefined") {
      const digest = p.hash;
      if (!isObject(p.definition) || (await sha256Hex(enc.encode("cgledger/v1/table\n"), canon(p.definition))) !== digest) {
        throw new Bad("the table definition does not match its hash", n);
      }
      if (tables.has(digest)) throw new Bad(`table definition ${String(digest).slice(0, 12)} recorded twice`, n);
      tables.add(digest);
    }
    if (obj.type === "CampaignCreated" || obj.type === "DefinitionAmended") {
      const doc = p.definition;
      const recorded = "definition_hash" in p ? p.definition_hash : p.hash;
      if (doc !== undefined && doc !== null && (!isObject(doc) || (await sha256Hex(canon(doc))) !== recorded)) {
        throw new Bad("the CG definition does not match its hash", n);
      }
    }
    if (obj.type === "UndoApplied") {
      for (const key of ["reverts", "restores"]) {
        if (!Array.isArray(p[key])) throw new Bad(`the undo's ${key} is not a list`, n);
        for (const t of p[key]) if (!Number.isInteger(t) || t < 1 || t >= n) throw new Bad(`the undo ${key} ${JSON.stringify(t)}: an undo may only name earlier events`, n);
      }
    }
    if (obj.type === "SecretRevealed" && p.protocol === SEALED) {
      if (!Number.isInteger(p.of_seq) || p.of_seq < 1 || p.of_seq >= n) throw new Bad("a reveal must follow the event it reveals", n);
      const record = sealed.get(p.of_seq);
      if (!record) throw new Bad(`the reveal names event ${p.of_seq}, which is not a sealed record`, n);
      if (reveals.has(p.of_seq)) throw new Bad(`sealed record ${p.of_seq} is revealed twice`, n);
      if (!isObject(p.sealed) || (await secretDigest(p.sealed)) !== record.secret_digest) {
        throw new Bad(`the revealed sealed part does not match the digest recorded with event ${p.of_seq}`, n);
      }
      reveals.set(p.of_seq, obj);
    } else if (obj.type === "SecretRevealed") {
      if (!Number.isInteger(p.of_seq) || p.of_seq < 1 || p.of_seq >= n) throw new Bad("a reveal must follow the event it reveals", n);
      if (sealed.has(p.of_seq)) throw new Bad(`event ${p.of_seq} is a sealed record: only a ${SEALED} reveal opens it`, n);
      if ("seed" in p) {
        if (!Number.isInteger(p.index)) throw new Bad(`the reveal names roll ${JSON.stringify(p.index)} wrongly`, n);
        const r = rolls[p.index];
        if (!r || r.seq !== p.of_seq) throw new Bad(`the reveal names roll ${JSON.stringify(p.index)} wrongly`, n);
        if (revealed.has(p.index)) throw new Bad(`roll ${p.index} is revealed twice`, n);
        revealed.set(p.index, p.seed);
      }
    }
    if (n % 200 === 0) progress(n, total + rolls.length);
  }
  if (header.events !== report.events) throw new Bad(`the header counts ${header.events} events but the file has ${report.events}`);
  if (!report.events) throw new Bad("the export holds no events");
  if (header.head !== head) throw new Bad("the header's head hash is not the last event's hash");
  const body = enc.encode(lines.slice(1).map((l) => l + "\n").join(""));
  if (header.body_sha256 !== (await sha256Hex(body))) throw new Bad("the header's body digest does not match the events");
  if (sealed.size && !("protocols" in header)) throw new Bad(`the export holds sealed records, but its header does not name ${SEALED}`, Math.min(...sealed.keys()));
  report.head = head;
  const checkSealed = async (record, published) => {
    report.sealed++;
    const reveal = reveals.get(record.seq);
    if (!reveal) {
      // Sealed from this viewer, or its owner's (the referee's) view: the seed is still secret.
      const wrong = record.secret === null ? null : drawnProblem(sealedDraw(record.secret), record.payload.roll);
      if (wrong) throw new Bad(`sealed record ${record.seq}: ${wrong}`, record.seq);
      if (published) report.hidden++;
      return;
    }
    const check = await verifySealed(campaign, record, reveal, published);
    if (!check.ok) throw new Bad(`sealed record ${record.seq}: ${check.problems.join("; ")}`, record.seq);
    report.revealed++;
    if (published) report.recomputed++;
  };
  for (const { seq, roll, secret, obj } of rolls) {
    report.rolls++;
    const published = commitments.get(roll.index);
    if (!published || published.seq >= seq) throw new Bad(`roll ${roll.index} has no commitment published before it`, seq);
    if (published.c !== roll.commitment) throw new Bad(`roll ${roll.index} does not use its published commitment`, seq);
    if (obj.type === "RecordSealed") { await checkSealed(obj, published); continue; }
    if (roll.count !== 1 && roll.count !== 2) throw new Bad(`roll ${roll.index} has ${JSON.stringify(roll.count)} dice; 1 or 2 allowed`, seq);
    if (typeof roll.secret !== "boolean") throw new Bad(`roll ${roll.index} has no boolean 'secret' flag`, seq);
    for (const k of ["commitment", "client_nonce", "purpose", "side"]) {
      if (typeof roll[k] !== "string") throw new Bad(`roll ${roll.index} has no ${k}`, seq);
    }
    let seed, dice;
    if (roll.secret) {
      seed = revealed.get(roll.index);
      if (secret !== null && (!isObject(secret) || !("dice" in secret))) throw new Bad(`roll ${roll.index}'s secret part holds no dice`, seq);
      dice = secret !== null ? secret.dice : null;
      if (seed !== undefined && (dice === null || dice === undefined)) throw new Bad(`roll ${roll.index} was revealed but its dice are missing`, seq);
    } else {
      if (!("seed" in roll) || !("dice" in roll)) throw new Bad(`public roll ${roll.index} has no seed or dice`, seq);
      seed = roll.seed;
      dice = roll.dice;
    }
    if (dice === null || dice === undefined) { report.hidden++; continue; }
    if (!isDice(dice, roll.count)) throw new Bad(`roll ${roll.index} records ${JSON.stringify(dice)}, not ${roll.count} dice`, seq);
    if (seed === null || seed === undefined) { report.hidden++; continue; }
    if (typeof seed !== "string" || !SEED.test(seed)) throw new Bad(`the seed of roll ${roll.index} is not 64 hex digits`, seq);
    const check = await verifyRoll(campaign, { ...roll, seed, dice, seq }, null);
    if (!check.ok) throw new Bad(`roll ${roll.index}: ${check.problems.join("; ")}`, seq);
    report.recomputed++;
    if (report.rolls % 50 === 0) progress(total + report.rolls, total + rolls.length);
  }
  for (const record of sealed.values()) if (!isObject(record.payload.roll)) await checkSealed(record, null);
}
