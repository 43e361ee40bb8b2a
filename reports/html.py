"""One self-contained HTML file: figures embedded as base64 PNG, inline CSS, no script, no
external resource (it opens offline and can be mailed as is)."""
from __future__ import annotations

import base64
import html

from reports.document import Document, Table
from reports.figures import Figure

CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0;
       color: #222; background: #fafafa; line-height: 1.45; }
header { background: #28384f; color: #fff; padding: 1.2em 2em; }
header h1 { margin: 0 0 .2em 0; font-size: 1.6em; }
header p { margin: 0; opacity: .85; }
nav { padding: .5em 2em; background: #e9edf3; font-size: .9em; }
nav a { margin-right: 1em; color: #28384f; }
main { padding: 0 2em 2em 2em; max-width: 1200px; }
section { margin-top: 1.5em; }
h2 { border-bottom: 2px solid #28384f; padding-bottom: .2em; }
#verdicts ul { font-size: 1.05em; }
#verdicts li { margin: .25em 0; }
table { border-collapse: collapse; margin: .8em 0; font-size: .85em; background: #fff; }
th, td { border: 1px solid #d0d5dd; padding: .3em .6em; text-align: left; vertical-align: top; }
th { background: #eef1f5; }
caption { caption-side: bottom; text-align: left; font-size: .85em; color: #555; padding-top: .3em; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #e0e0e0; background: #fff; }
figcaption { font-size: .85em; color: #555; }
"""


def _table(t: Table) -> str:
    out = ["<table>"]
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


def _figure(f: Figure) -> str:
    data = base64.b64encode(f.png).decode("ascii")
    return (f'<figure id="fig-{html.escape(f.key)}"><img alt="{html.escape(f.title)}" '
            f'src="data:image/png;base64,{data}">'
            f"<figcaption><b>{html.escape(f.title)}.</b> {html.escape(f.caption)}</figcaption></figure>")


def render_html(doc: Document) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{html.escape(doc.title)}</title>", f"<style>{CSS}</style></head><body>",
             f"<header><h1>{html.escape(doc.title)}</h1><p>{html.escape(doc.subtitle)}</p></header>",
             "<nav>" + "".join(f'<a href="#{html.escape(s.anchor)}">{html.escape(s.title)}</a>'
                               for s in doc.sections) + "</nav>", "<main>"]
    for s in doc.sections:
        parts.append(f'<section id="{html.escape(s.anchor)}"><h2>{html.escape(s.title)}</h2>')
        for b in s.blocks:
            if isinstance(b, str):
                parts.append(f"<p>{html.escape(b)}</p>")
            elif isinstance(b, list):
                parts.append("<ul>" + "".join(f"<li>{html.escape(str(x))}</li>" for x in b) + "</ul>")
            elif isinstance(b, Table):
                parts.append(_table(b))
            elif isinstance(b, Figure):
                parts.append(_figure(b))
        parts.append("</section>")
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"
