// Verify an export (DESIGN §2, §12): the hash chain, the commitments and every
// revealed roll of a whole export, checked in the browser.
import { setStatus } from "./api.js";
import { $, api, base, cid } from "./ctx.js";
import { verifyExport } from "./proto.js";

async function checkExport(bytes, label) {
  const out = $("export-result");
  const bar = $("export-progress");
  bar.classList.remove("hidden");
  bar.removeAttribute("value");
  setStatus(out, `checking ${label}…`);
  try {
    const res = await verifyExport(bytes, (done, total) => { bar.max = total; bar.value = done; });
    const whose = res.campaign ? ` of campaign ${res.campaign}${res.campaign === cid ? " (this one)" : " (NOT this campaign)"} as ${res.viewer} sees it` : "";
    if (res.ok) {
      setStatus(out, `✓ ${label}${whose}: ${res.events} events, hash chain intact (head ${res.head.slice(0, 16)}…); ${res.rolls} rolls, ${res.recomputed} recomputed from their seeds, ${res.hidden} with the seed still secret${res.sealed ? `; ${res.sealed} sealed records, ${res.revealed} revealed and checked` : ""}. Table results and LVP are not re-read here: \`cgledger verify\` does that.`, "ok");
    } else {
      setStatus(out, `✗ ${label}${whose}: ${res.seq ? `event ${res.seq}: ` : ""}${res.error}`, "error");
    }
  } catch (e) {
    setStatus(out, `✗ ${label}: ${e.message}`, "error");
  } finally {
    bar.classList.add("hidden");
  }
}

export function setupExport() {
  $("export-this").addEventListener("click", async () => {
    try { await checkExport(new Uint8Array(await api.get(`${base}/export`, { raw: true })), "this campaign's export"); }
    catch (e) { setStatus($("export-result"), e.message, "error"); }
  });
  const take = async (file) => {
    if (!file) return;
    try { await checkExport(new Uint8Array(await file.arrayBuffer()), file.name); }
    catch (e) { setStatus($("export-result"), `✗ ${file.name}: ${e.message}`, "error"); }
  };
  $("export-file").addEventListener("change", (e) => take(e.target.files[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); take(e.dataTransfer.files[0]); });
}

