"use strict";
// Shared by the dashboard's pages. Everything shown comes from this meta process's JSON API; text
// goes in through textContent only (names, definitions and errors are user text).

const REFRESH_MS = 1000;
const HOUR_S = 3600;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function cell(text, cls) {
  return el("td", cls, text === null || text === undefined ? "" : text);
}

function link(href, text) {
  const a = el("a", null, text);
  a.href = href;
  return a;
}

function fill(id, rows, empty, columns) {
  const body = document.getElementById(id);
  body.replaceChildren();
  if (rows.length === 0) {
    const tr = document.createElement("tr");
    const td = cell(empty, "muted");
    td.colSpan = columns;
    tr.appendChild(td);
    body.appendChild(tr);
    return;
  }
  rows.forEach(r => body.appendChild(r));
}

function time(ms) {
  return ms > 0 ? new Date(ms).toLocaleString() : "";
}

function duration(s) {
  if (s === null || s === undefined) return "";
  s = Math.round(s);
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
}

function rate(x) {
  return x === null || x === undefined ? "" : Math.round(x).toLocaleString("en-US");
}

function bytes(n) {
  if (n === null || n === undefined) return "";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + " " + units[i];
}

async function get(path) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) throw new Error(path + ": " + r.status + " " + (await r.text()).trim());
  return r.json();
}

async function post(path, body) {
  const r = await fetch(path, {
    method: "POST", cache: "no-store",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Tideway-Action": "1" },
    body: body || ""
  });
  const doc = await r.json().catch(() => ({ error: r.status + " " + r.statusText }));
  if (!r.ok) throw new Error(doc.error || (r.status + ""));
  return doc;
}

function progressBar(fraction) {
  const bar = el("div", "bar");
  const done = el("div");
  done.style.width = Math.min(100, Math.max(0, 100 * (fraction || 0))).toFixed(1) + "%";
  bar.appendChild(done);
  return bar;
}

// The standby banner: series and progress live on the leader; link to the same page there.
function renderRole(c, bannerId) {
  const banner = document.getElementById(bannerId);
  banner.replaceChildren();
  if (c.self.role !== "leader" && c.leader && c.leader.http) {
    banner.append("This meta process is a standby: progress, charts and actions live on the leader: ");
    banner.append(link("http://" + c.leader.http + location.pathname, "open this page there"), ".");
  }
}

// A page of a long list: the table shows rows [offset, offset + size); buttons move it.
class Pager {
  constructor(id, size, onChange) {
    this.offset = 0;
    this.size = size;
    this.total = 0;
    this.node = document.getElementById(id);
    this.onChange = onChange;
  }
  update(total) {
    this.total = total;
    if (this.offset >= total && total > 0) this.offset = Math.floor((total - 1) / this.size) * this.size;
    this.node.replaceChildren();
    if (total <= this.size) return;
    const prev = el("button", null, "previous");
    prev.disabled = this.offset === 0;
    prev.onclick = () => { this.offset = Math.max(0, this.offset - this.size); this.onChange(); };
    const next = el("button", null, "next");
    next.disabled = this.offset + this.size >= total;
    next.onclick = () => { this.offset += this.size; this.onChange(); };
    this.node.append(prev, next,
      (this.offset + 1) + "–" + Math.min(total, this.offset + this.size) + " of " + total);
  }
  slice(list) {
    this.update(list.length);
    return list.slice(this.offset, this.offset + this.size);
  }
}

// A uPlot chart over the API's per-second series, appended to as new seconds arrive (the page
// asks only for rows newer than the last it has). The container carries the point count and the
// recent values of the first series as data attributes, for tests and for screen readers' sake.
class SeriesChart {
  constructor(containerId, title, series, opts) {
    this.container = document.getElementById(containerId);
    this.names = series.map(s => s.key);
    this.data = [[]].concat(series.map(() => []));
    this.events = [];
    this.since = 0;
    const marks = this.events;
    const head = el("div", "title", title);
    const area = el("div");
    this.container.replaceChildren(head, area);
    if (typeof uPlot === "undefined") {
      area.textContent = "charts unavailable (uPlot did not load)";
      this.plot = null;
      return;
    }
    this.plot = new uPlot({
      width: (opts && opts.width) || 520, height: 180,
      scales: { x: { time: true }, y: (opts && opts.y) || {} },
      series: [{}].concat(series.map(s => ({ label: s.label, stroke: s.color, width: 1.5,
        spanGaps: false, scale: s.scale || "y" }))),
      axes: [{}, { scale: "y", size: 64 }].concat(series.some(s => s.scale === "y2")
        ? [{ scale: "y2", side: 1, size: 56, grid: { show: false } }] : []),
      hooks: { draw: [u => {
        // recoveries: a red line at each
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = "#b42318";
        ctx.lineWidth = 1;
        marks.forEach(m => {
          const x = u.valToPos(m.atMs / 1000, "x", true);
          if (x >= u.bbox.left && x <= u.bbox.left + u.bbox.width) {
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
          }
        });
        ctx.restore();
      }] }
    }, this.data, area);
  }
  // rows: {t: [ms], key: [values]}; events: [{atMs, cause}]
  append(rows, events) {
    const t = rows.t || [];
    for (let i = 0; i < t.length; i++) {
      const x = t[i] / 1000;
      const last = this.data[0].length - 1;
      const same = last >= 0 && this.data[0][last] === x;
      if (!same) this.data[0].push(x);
      this.names.forEach((k, j) => {
        const v = rows[k] ? rows[k][i] : null;
        if (same) this.data[j + 1][last] = v; else this.data[j + 1].push(v);
      });
      this.since = Math.max(this.since, t[i] - 1000); // the newest second may still change
    }
    const cut = this.data[0].findIndex(x => x >= this.data[0][this.data[0].length - 1] - HOUR_S);
    if (cut > 0) this.data = this.data.map(col => col.slice(cut));
    (events || []).forEach(e => {
      if (!this.events.some(m => m.atMs === e.atMs)) this.events.push(e);
    });
    this.container.dataset.points = String(this.data[0].length);
    this.container.dataset.values = this.data[1].slice(-60)
      .map(v => v === null || v === undefined ? "" : String(v)).join(",");
    this.container.dataset.recoveries = String(this.events.length);
    if (this.plot) this.plot.setData(this.data);
  }
}
