// The event log (DESIGN §12): newest first, a verify action for every
// revealed roll or sealed record, checked here in the browser (proto.js),
// reveal, dispute and undo on each row.
import { h, setStatus } from "./api.js";
import { $, act, api, base, body, cid, state } from "./ctx.js";
import { SEALED, verifyRoll, verifySealed } from "./proto.js";

function summary(ev) {
  const p = ev.payload || {};
  const parts = [];
  if (p.cg_date) parts.push(p.cg_date);
  if (ev.type === "RecordSealed") {
    // A sealed record (DESIGN §2a): its act and rolls only to whoever may see them.
    const secret = ev.secret;
    const dice = secret && secret.rolls ? secret.rolls.flatMap((r) => r.dice) : null;
    parts.push(secret ? `sealed ${secret.kind}` : "sealed", p.step ? `step ${p.step}` : "");
    const purposes = secret && secret.rolls ? secret.rolls.map((r) => r.purpose).filter(Boolean).join("; ") : "";
    if (p.roll) parts.push(purposes ? `roll ${p.roll.index}: ${purposes}` : `roll ${p.roll.index}`, dice ? `[${dice.join(", ")}]` : "[sealed]");
  } else if (p.roll) {
    const secret = ev.secret || {};
    const dice = p.roll.dice || secret.dice;
    parts.push(`roll ${p.roll.index}: ${p.roll.purpose}`, dice ? `[${dice.join(", ")}]` : p.roll.secret ? "[secret]" : "");
    const fin = p.final ?? secret.final;
    if (fin !== undefined && fin !== null) parts.push(`Final ${fin}`);
  } else if (ev.type === "RePhAdvanced") parts.push(`${p.side}: ${p.from} → ${p.step}`);
  else if (ev.type === "CommitmentsPublished") parts.push(`${p.commitments.length} commitments from roll ${p.first_index}`);
  else if (ev.type === "CampaignCreated") parts.push(`${p.ruleset} ${p.campaign_name}: ${p.title || ""}`);
  else {
    const shown = Object.entries(p).filter(([k]) => !["definition", "campaign", "cg_date", "owner"].includes(k)).slice(0, 5);
    parts.push(shown.map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v).slice(0, 60) : v}`).join("; "));
  }
  if (ev.secret === null && ev.secret_digest) parts.push("(hidden part)");
  return parts.filter(Boolean).join(" · ");
}

// What a row shows that can change after it was drawn: undone, revealed, its secret readable.
function rowKey(ev) {
  return [ev.seq, ev.reverted_by || "", ev.secret === null ? "" : JSON.stringify(ev.secret), state.revealed.has(ev.seq)].join("|");
}

function eventRow(ev) {
  const p = ev.payload || {};
  const li = h("li", { value: ev.seq, dataset: { seq: ev.seq, type: ev.type, key: rowKey(ev) }, class: ev.reverted_by ? "reverted" : null },
    h("span", { class: "seq" }, `#${ev.seq}`), " ", h("time", { datetime: ev.recorded_at }, ev.recorded_at.slice(0, 19).replace("T", " ")), " ",
    h("span", { class: "actor" }, ev.actor), " ", h("strong", {}, ev.type), " ", h("span", { class: "summary" }, summary(ev)),
    ev.reverted_by ? h("span", { class: "tag" }, ` reverted by #${ev.reverted_by}`) : "");
  const tools = h("span", { class: "tools" });
  const said = `row-status-${ev.seq}`;
  if (p.roll || ev.type === "RecordSealed") {
    const result = h("span", { class: "verdict", role: "status" });
    const check = ev.type === "RecordSealed" ? () => verifySealedRecord(ev, result) : () => verify(p.roll.index, result);
    tools.append(h("button", { type: "button", class: "verify", onclick: check }, "verify"), result);
  }
  // A secret part this page can read, of its own side (or any, for the
  // referee): it may publish it (POST /events/{seq}/reveal; a roll's seed too).
  const you = state.campaign.you;
  if (ev.secret !== null && ev.secret_digest && (p.owner === you || you === "referee") && !state.revealed.has(ev.seq)) {
    const reveal = () => {
      if (!window.confirm(`Reveal event ${ev.seq} to everyone? A reveal cannot be taken back.`)) return;
      act(() => api.post(`${base}/events/${ev.seq}/reveal`, {}), said);
    };
    tools.append(h("button", { type: "button", class: "reveal", dataset: { route: "POST /events/{seq}/reveal" }, onclick: reveal }, "reveal"));
  }
  // A request sent closes the row's forms: the row is kept across redraws, and
  // a card with an open form waits for the player before it redraws.
  const ask = (path, payload) => async (e) => {
    e.preventDefault();
    if (await act(() => api.post(`${base}/${path}`, payload(e.target.text.value)), said)) e.target.closest("details").open = false;
  };
  tools.append(h("details", {}, h("summary", {}, "dispute / undo"),
    h("form", { class: "row", onsubmit: ask("disputes", (claim) => ({ seq: ev.seq, claim })) },
      h("input", { name: "text", required: true, maxlength: 1000, placeholder: "your claim", "aria-label": `your claim against event ${ev.seq}` }), h("button", { type: "submit", dataset: { route: "POST /disputes" } }, "open dispute")),
    h("form", { class: "row", onsubmit: ask("undo-requests", (reason) => ({ seqs: [ev.seq], reason })) },
      h("input", { name: "text", required: true, maxlength: 500, placeholder: "why undo it", "aria-label": `why undo event ${ev.seq}` }), h("button", { type: "submit", dataset: { route: "POST /undo-requests" } }, "request undo"))));
  li.append(" ", tools, h("span", { class: "status", id: said, role: "status" }));
  return li;
}

// The commitments published so far, read on from the last batch seen.
async function publishedCommitment(index) {
  const known = state.commitments || (state.commitments = { byIndex: new Map(), after: 0 });
  if (!known.byIndex.has(index)) {
    const batches = await eventsBetween({ type: "CommitmentsPublished", actor: "", reverted: true }, known.after);
    for (const ev of batches) {
      ev.payload.commitments.forEach((c, i) => known.byIndex.set(ev.payload.first_index + i, { c, seq: ev.seq }));
      known.after = Math.max(known.after, ev.seq);
    }
  }
  return known.byIndex.get(index) ?? { c: null, seq: null };
}

// One click: fetch the roll, then check it here with WebCrypto (proto.js).
async function verify(index, out) {
  setStatus(out, "checking…");
  try {
    const roll = await api.get(`${base}/rolls/${index}`);
    if (!roll.seed || !roll.dice) { setStatus(out, "⧗ the seed is still secret: it can be checked once revealed", "info"); return; }
    const res = await verifyRoll(cid, roll, await publishedCommitment(index));
    if (res.ok) setStatus(out, `✓ verified: the seed opens the commitment published before the roll and, with the nonce ${roll.client_nonce} (${roll.nonce_source === "client" ? "the roller's own" : "drawn by the server"}), gives [${res.recomputed.join(", ")}]`, "ok");
    else setStatus(out, `✗ ${res.problems.join("; ")}`, "error");
  } catch (e) { setStatus(out, `✗ ${e.message}`, "error"); }
}

// A sealed record (cgledger-dice/2): find its reveal in the log, then check it
// here (proto.js verifySealed): the revealed part is the one whose digest was
// recorded, the seed opens the commitment published before the record, and
// the dice of its rolls, in order, are the first dice of the seed's stream.
async function verifySealedRecord(ev, out) {
  setStatus(out, "checking…");
  try {
    const reveals = await eventsBetween({ type: "SecretRevealed", actor: "", reverted: true }, ev.seq);
    const reveal = reveals.find((r) => r.payload && r.payload.of_seq === ev.seq && r.payload.protocol === SEALED);
    if (!reveal) { setStatus(out, "⧗ sealed: it can be checked once revealed", "info"); return; }
    const roll = ev.payload.roll;
    const res = await verifySealed(cid, ev, reveal, roll ? await publishedCommitment(roll.index) : null);
    if (!res.ok) { setStatus(out, `✗ ${res.problems.join("; ")}`, "error"); return; }
    const q = reveal.payload;
    setStatus(out, roll
      ? `✓ verified (revealed at event ${reveal.seq}): the sealed part is the one recorded, the seed opens the commitment published before the record and, with the nonce ${q.client_nonce} (${q.sealed.nonce_source === "client" ? "the roller's own" : "drawn by the server"}), its stream gives [${res.recomputed.join(", ")}], the dice of its rolls in order`
      : `✓ verified (revealed at event ${reveal.seq}): the sealed part is the one recorded; it drew no dice`, "ok");
  } catch (e) { setStatus(out, `✗ ${e.message}`, "error"); }
}

// The log's filters, read once per load so one load never mixes two.
function logFilters() {
  return { type: $("log-type").value, actor: $("log-actor").value, reverted: $("log-reverted").checked };
}
function logQuery(f, after, limit, before) {
  const q = new URLSearchParams({ after, limit });
  if (before) q.set("before", before);
  if (f.type) q.set("type", f.type);
  if (f.actor) q.set("actor", f.actor);
  if (!f.reverted) q.set("reverted", "false");
  return q;
}
const isFiltered = (f) => Boolean(f.type || f.actor || !f.reverted);
const PAGE = 50;

// Every matching event with after < seq < before, oldest first.
async function eventsBetween(f, after, before) {
  const items = [];
  for (;;) {
    const page = await api.get(`${base}/events?${logQuery(f, after, 500, before)}`);
    items.push(...page.items);
    if (page.next_after === null || page.next_after === undefined) return items;
    after = page.next_after;
  }
}

// The newest PAGE matching events below ``before``, read back from the newest
// end a window at a time (DESIGN §3 paging, with ``before``); and the lowest
// seq from which every match is now shown.
async function pageBack(f, before) {
  const found = [];
  let upto = before;
  while (found.length < PAGE && upto > 1) {
    const from = Math.max(0, upto - 1 - (isFiltered(f) ? 500 : PAGE));
    found.unshift(...(await eventsBetween(f, from, upto)));
    upto = from + 1;
  }
  const shown = found.slice(-PAGE);
  return { items: shown, oldest: found.length > PAGE ? shown[0].seq : upto };
}

// The log's window GET /page is asked for: the events after the oldest one
// shown, when the log is unfiltered (null: the newest 50). A filtered log
// reads its own events (GET /events), as does one grown past 1,000 rows.
export function logAfter() {
  const f = logFilters();
  if (isFiltered(f) || state.oldest === null || state.logKey !== JSON.stringify(f)) return null;
  return Math.max(0, state.oldest - 1);
}

// ``page``: the GET /page answer, asked with ``log_after`` = ``asked``
// (``logAfter()``); null: the log reads its own events.
export async function drawLog(page, asked, fresh = () => true) {
  const version = state.campaign.version;
  const f = logFilters();
  const key = JSON.stringify(f);
  let items;
  let oldest = state.oldest;
  const fromPage = page !== null && !isFiltered(f);
  if (fromPage && asked === null) {
    items = page.events.items.slice();  // the newest 50, from the page's own read
    oldest = Math.max(1, version - PAGE + 1);
  } else if (fromPage) {
    items = page.events.items.slice();  // from the oldest shown on
    if (page.events.next_after !== null && page.events.next_after !== undefined) {
      items.push(...(await eventsBetween(f, page.events.next_after, version + 1)));
    }
  } else if (oldest !== null && state.logKey === key && version - oldest < 2000) {
    items = await eventsBetween(f, oldest - 1, version + 1);  // keep the older pages shown
  } else {
    const got = await pageBack(f, version + 1);
    items = got.items;
    oldest = got.oldest;
  }
  if (!fresh()) return;
  state.oldest = oldest;
  state.logKey = key;
  noteReveals(items);
  // A row that would draw the same is kept, so a verdict or an open form in it
  // survives a redraw the live feed asked for meanwhile.
  const kept = new Map([...body("log").querySelectorAll(":scope > li")].map((li) => [li.dataset.key, li]));
  body("log").replaceChildren(...items.reverse().map((ev) => kept.get(rowKey(ev)) || eventRow(ev)));
  $("log-older").disabled = state.oldest <= 1;
  const types = new Set([...$("log-type").options].map((o) => o.value));
  for (const ev of items) if (!types.has(ev.type)) { types.add(ev.type); $("log-type").append(h("option", { value: ev.type }, ev.type)); }
}

// The log's own redraw, when its filters change: GET /events only.
export async function reloadLog(fresh = () => true) {
  await drawLog(null, null, fresh);
}

export async function olderEvents(fresh = () => true) {
  const f = logFilters();
  const got = await pageBack(f, state.oldest);
  if (!fresh() || state.logKey !== JSON.stringify(f)) return;
  noteReveals(got.items);
  body("log").append(...got.items.reverse().map(eventRow));
  state.oldest = got.oldest;
  $("log-older").disabled = state.oldest <= 1;
}

// The events a SecretRevealed in view has revealed: no reveal button on them.
function noteReveals(items) {
  for (const ev of items) if (ev.type === "SecretRevealed" && ev.payload) state.revealed.add(ev.payload.of_seq);
}

