"""One self-contained HTML file: figures embedded as base64 PNG, inline CSS and one small
inline script (sorting and filtering the tables), no external resource: it opens offline and
can be mailed as is.

Reading order: the title, what was played, the first screen (the answers with their
intervals and small charts, reports/first_screen.py), then the sections; long lists of
sentences are folded (<details>).
"""
from __future__ import annotations

import base64
import html

from reports.document import Document, Folded, Table
from reports.figures import Figure
from reports.first_screen import KeyPoint
from reports.several import Link

CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0;
       color: #222; background: #fafafa; line-height: 1.45; }
header { background: #28384f; color: #fff; padding: .8em 2em; }
header h1 { margin: 0 0 .1em 0; font-size: 1.5em; }
header p { margin: 0; opacity: .85; font-size: .9em; }
nav { padding: .4em 2em; background: #e9edf3; font-size: .85em; }
nav a { margin-right: 1em; color: #28384f; }
main, .top { padding: 0 2em 2em 2em; max-width: 1240px; }
.top { padding-bottom: .8em; }
section { margin-top: 1.5em; }
h2 { border-bottom: 2px solid #28384f; padding-bottom: .2em; }
#played { margin-top: .6em; font-size: .88em; color: #333; }
#played h2 { display: none; }
#played ul { list-style: none; padding: 0; margin: 0; }
#played li { margin: .1em 0; }
#summary { margin-top: .6em; }
#summary h2 { font-size: 1.15em; margin: 0 0 .4em 0; }
.points { display: grid; grid-template-columns: repeat(3, 1fr); gap: .8em; align-items: start; }
.point { background: #fff; border: 1px solid #d0d5dd; border-left: 4px solid #8c8c8c;
         padding: .5em .7em; font-size: .85em; }
.point.alert { border-left-color: #c44e52; }
.point h3 { margin: 0 0 .2em 0; font-size: .95em; }
.point p { margin: 0 0 .3em 0; }
.point img { max-width: 100%; height: auto; display: block; }
.stack { display: flex; flex-direction: column; gap: .5em; }
.stack .point img { max-height: 62px; }
details { margin: .6em 0; }
summary { cursor: pointer; color: #28384f; font-weight: 600; }
#verdicts ul { font-size: 1.0em; }
#verdicts li { margin: .25em 0; }
table { border-collapse: collapse; margin: .8em 0; font-size: .85em; background: #fff; }
th, td { border: 1px solid #d0d5dd; padding: .3em .6em; text-align: left; vertical-align: top; }
th { background: #eef1f5; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort="ascending"]::after { content: " \\25B2"; }
table.sortable th[aria-sort="descending"]::after { content: " \\25BC"; }
input.filter { margin: .6em 0 0 0; padding: .2em .4em; font-size: .85em; width: 18em; }
caption { caption-side: bottom; text-align: left; font-size: .85em; color: #555; padding-top: .3em; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #e0e0e0; background: #fff; }
figcaption { font-size: .85em; color: #555; }
"""

# Sort a table by a header (click: ascending, again: descending; numbers by value, "-" last)
# and filter the rows of a long table by the text typed above it. Plain DOM, no library.
SCRIPT = """
(function () {
  function key(text) {
    var t = text.replace(/,/g, '').trim();
    var m = t.match(/^[<>~]?\\s*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)(e[+-]?\\d+)?/i);
    return m ? parseFloat(m[0].replace(/^[<>~]\\s*/, '')) : null;
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var asc = th.getAttribute('aria-sort') !== 'ascending';
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.removeAttribute('aria-sort');
    });
    th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
    rows.sort(function (a, b) {
      var x = a.cells[col] ? a.cells[col].textContent : '';
      var y = b.cells[col] ? b.cells[col].textContent : '';
      var kx = key(x), ky = key(y), r;
      if (kx !== null && ky !== null) { r = kx - ky; }
      else if (kx !== null) { return -1; }
      else if (ky !== null) { return 1; }
      else { r = x.localeCompare(y); }
      return asc ? r : -r;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    if (!table.tHead) { return; }
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.title = 'sort by this column';
      th.addEventListener('click', function () { sortBy(table, col, th); });
    });
    if (table.tBodies[0].rows.length > 8) {
      var box = document.createElement('input');
      box.type = 'search';
      box.className = 'filter';
      box.placeholder = 'filter the rows (text)';
      box.addEventListener('input', function () {
        var q = box.value.toLowerCase();
        Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
          row.style.display = row.textContent.toLowerCase().indexOf(q) >= 0 ? '' : 'none';
        });
      });
      table.parentNode.insertBefore(box, table);
    }
  });
})();
"""


def _table(t: Table) -> str:
    out = ['<table class="sortable">' if t.sortable and len(t.rows) > 1 else "<table>"]
    if t.caption:
        out.append(f"<caption>{html.escape(t.caption)}</caption>")
    if any(str(h) for h in t.headers):
        out.append("<thead><tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in t.headers)
                   + "</tr></thead>")
    out.append("<tbody>")
    for r in t.rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _img(f: Figure) -> str:
    data = base64.b64encode(f.png).decode("ascii")
    return f'<img alt="{html.escape(f.title)}" src="data:image/png;base64,{data}">'


def _figure(f: Figure) -> str:
    return (f'<figure id="fig-{html.escape(f.key)}">{_img(f)}'
            f"<figcaption><b>{html.escape(f.title)}.</b> {html.escape(f.caption)}</figcaption></figure>")


def _point(p: KeyPoint) -> str:
    return (f'<div class="point{" alert" if p.alert else ""}"><h3>{html.escape(p.heading)}</h3>'
            f"<p>{html.escape(p.line)}</p>{_img(p.figure) if p.figure else ''}</div>")


def _points(points: list) -> str:
    """The first screen: one tile each for the first points (fairness, strategies), the rest
    (the cards) stacked in the last column."""
    head, rest = points[:2], points[2:]
    out = [_point(p) for p in head]
    if rest:
        out.append('<div class="stack">' + "".join(_point(p) for p in rest) + "</div>")
    return '<div class="points">' + "".join(out) + "</div>"


def _block(b) -> str:
    if isinstance(b, str):
        return f"<p>{html.escape(b)}</p>"
    if isinstance(b, list):
        return "<ul>" + "".join(f"<li>{html.escape(str(x))}</li>" for x in b) + "</ul>"
    if isinstance(b, Table):
        return _table(b)
    if isinstance(b, Figure):
        return _figure(b)
    if isinstance(b, Folded):
        return (f"<details><summary>{html.escape(b.summary)}</summary>"
                + "\n".join(_block(x) for x in b.blocks) + "</details>")
    if isinstance(b, KeyPoint):
        return _points([b])
    if isinstance(b, Link):
        return f'<p><a href="{html.escape(b.href)}">{html.escape(b.text)}</a></p>'
    return ""


def _section(s) -> str:
    body = (_points([b for b in s.blocks if isinstance(b, KeyPoint)]) if s.kind == "summary"
            else "\n".join(_block(b) for b in s.blocks))
    return f'<section id="{html.escape(s.anchor)}"><h2>{html.escape(s.title)}</h2>{body}</section>'


def render_html(doc: Document) -> str:
    top = [s for s in doc.sections if s.kind in ("played", "summary")]
    rest = [s for s in doc.sections if s not in top]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{html.escape(doc.title)}</title>", f"<style>{CSS}</style></head><body>",
             f"<header><h1>{html.escape(doc.title)}</h1><p>{html.escape(doc.subtitle)}</p></header>",
             '<div class="top">']
    parts += [_section(s) for s in top]
    parts.append("</div><nav>" + "".join(f'<a href="#{html.escape(s.anchor)}">'
                                          f"{html.escape(s.title)}</a>" for s in rest)
                 + "</nav><main>")
    parts += [_section(s) for s in rest]
    parts.append(f"</main><script>{SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"
