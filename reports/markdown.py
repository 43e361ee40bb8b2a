"""The Markdown version of the report: report.md with its figures as PNG files beside it."""
from __future__ import annotations

import os

from reports.document import Document, Table
from reports.figures import Figure


def _cell(x) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def _table(t: Table) -> list[str]:
    headers = [_cell(h) or " " for h in t.headers]
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in t.rows]
    if t.caption:
        out += ["", f"*{t.caption}*"]
    return out


def render_markdown(doc: Document, figure_dir: str = "figures") -> tuple[str, dict]:
    """(markdown text, {relative path: png bytes})."""
    lines = [f"# {doc.title}", "", doc.subtitle, ""]
    lines.append(" · ".join(f"[{s.title}](#{s.anchor})" for s in doc.sections))
    files: dict = {}
    for s in doc.sections:
        lines += ["", f'<a id="{s.anchor}"></a>', "", f"## {s.title}", ""]
        for b in s.blocks:
            if isinstance(b, str):
                lines += [b, ""]
            elif isinstance(b, list):
                lines += [f"- {x}" for x in b] + [""]
            elif isinstance(b, Table):
                lines += _table(b) + [""]
            elif isinstance(b, Figure):
                rel = f"{figure_dir}/{b.key}.png"
                files[rel] = b.png
                lines += [f"![{b.title}]({rel})", "", f"*{b.title}.* {b.caption}", ""]
    return "\n".join(lines).rstrip() + "\n", files


def write_markdown(doc: Document, out_dir: str, name: str = "report.md") -> str:
    text, files = render_markdown(doc)
    for rel, data in files.items():
        path = os.path.join(out_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
    path = os.path.join(out_dir, name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
