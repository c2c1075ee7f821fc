// The Fortification forms of the RePh card (8.621, 8.6242; 9.619, 9.621):
// the items bought off the Fortification Purchase Table, and the setup
// Locations of the new ones, every map group's in the one sealed record of
// the step (the route's ``more``).
import { h } from "./api.js";
import { mapGroups, state } from "./ctx.js";

// The items of the Fortification Purchase Table ``side`` may buy, with their FPP.
export const fortTypes = (table, side) => (table || { types: [] }).types.filter((t) => t.fpp[side] !== undefined);

// 8.621: the items and their count, in one request.
export function fortPurchase({ side, send, own, table }) {
  const who = side || state.campaign.you;
  const types = fortTypes(table, who);
  return [h("details", {}, h("summary", {}, `choose the items (${table ? `${table.rule} ${table.title}` : "Fortification Purchase Table"})`),
    h("form", { class: "fort-buy", onsubmit: (e) => {
      e.preventDefault();
      const f = e.target;
      const items = types.map((t) => ({ type: t.id, count: Number(f.elements[`fort-${t.id}`].value || 0) })).filter((it) => it.count > 0);
      send(own({ items, secret: f.elements.secret.checked }));
    } },
      types.map((t) => h("label", {}, h("input", { type: "number", min: 0, max: 1000, value: 0, class: "num", name: `fort-${t.id}` }),
        ` ${t.name} (${t.fpp[who]} FPP each${t.flags ? `; ${t.flags}` : ""})`)),
      h("label", { class: "inline" }, h("input", { type: "checkbox", name: "secret", checked: true }), " secret (kept on your own CG Roster)"),
      h("button", { type: "submit", dataset: { route: "POST /fortification-purchases" } }, "buy Fortifications"),
      h("small", { class: "note" }, "FPP come with the RG bought in the purchase step; unspent FPP are forfeit when this step is completed.")))];
}

function locationRow(types) {
  return h("div", { class: "row fort-loc" },
    h("label", {}, "type ", h("select", { name: "type" }, types.map((t) => h("option", { value: t.id }, t.name)))),
    h("label", {}, "hex ", h("input", { name: "hex", maxlength: 20, size: 6 })),
    h("label", {}, "level ", h("input", { name: "level", type: "number", min: -9, max: 99, value: 0, class: "num" })),
    h("label", {}, "count ", h("input", { name: "count", type: "number", min: 1, max: 1000, value: 1, class: "num" })));
}

// One map group's part of the setup: its Locations and the squad-equivalents
// Retained in its Setup Areas (footnote S). ``taken``: the groups already in
// the form, so a new part starts on one not yet named.
function groupPart(types, taken) {
  const groups = mapGroups();
  const free = groups.find((g) => !taken.includes(g)) || groups[0];
  const list = h("div", { class: "fort-locs" }, locationRow(types));
  const part = h("fieldset", { class: "fort-group" },
    h("legend", {}, groups.length ? "map group " : "Locations",
      groups.length ? h("select", { name: "map_group", "aria-label": "map group" }, groups.map((g) => h("option", { value: g, selected: g === free }, g))) : null),
    list,
    h("button", { type: "button", class: "add-location", onclick: () => list.append(locationRow(types)) }, "add a Location"),
    h("label", {}, "Retained squad-equivalents by Setup Area ", h("input", { name: "retained", placeholder: "e.g. A:4 B:2", maxlength: 400 })));
  if (taken.length) part.append(h("button", { type: "button", class: "remove-group", onclick: () => part.remove() }, "remove this map group"));
  return part;
}

// What one map group's part says, as the route's body names it.
function readPart(part) {
  const items = [...part.querySelectorAll(".fort-loc")].map((row) => ({
    type: row.querySelector("[name=type]").value, hex: row.querySelector("[name=hex]").value.trim(),
    level: Number(row.querySelector("[name=level]").value || 0), count: Number(row.querySelector("[name=count]").value || 1),
  })).filter((it) => it.hex);
  const retained = Object.fromEntries(part.querySelector("[name=retained]").value.split(/[\s,;]+/).filter(Boolean)
    .map((pair) => pair.split(":")).map(([area, n]) => [area, Number(n || 0)]));
  const group = part.querySelector("[name=map_group]");
  return { ...(group ? { map_group: group.value } : {}), items, retained };
}

// 8.6242: one request, one sealed record, whatever it holds: the first map
// group with Locations in the body itself, every other one in ``more``;
// with none, the empty record of the first.
export function setupBody(parts) {
  const all = parts.map(readPart);
  const filled = all.filter((p) => p.items.length);
  const [head, ...more] = filled.length ? filled : [all[0]];
  return more.length ? { ...head, more } : head;
}

export function fortSetup({ side, send, own, table }) {
  const types = fortTypes(table, side || state.campaign.you);
  const parts = h("div", { class: "fort-groups" }, groupPart(types, []));
  const taken = () => [...parts.querySelectorAll("[name=map_group]")].map((s) => s.value);
  const several = mapGroups().length > 1;
  return [h("details", {}, h("summary", {}, "record the Locations (secret)"),
    h("form", { class: "fort-setup", onsubmit: (e) => {
      e.preventDefault();
      send(own(setupBody([...parts.querySelectorAll(".fort-group")])));
    } },
      parts,
      several ? h("button", { type: "button", class: "add-group", onclick: () => parts.append(groupPart(types, taken())) }, "add a map group") : null,
      h("button", { type: "submit", dataset: { route: "POST /fortification-setups" } }, "record the setup"),
      h("small", { class: "note" }, `One sealed record per side and step, even with no Location${several ? ", holding every map group's" : ""}: the opponent learns nothing from it until 8.6073 or your reveal.`)))];
}
