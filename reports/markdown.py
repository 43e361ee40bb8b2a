"""The Markdown version of the report: report.md with its figures as PNG files beside it.

Every text of the document is plain text, and much of it comes from the user (variant names,
strategy file names, card names from a component file, paths): `md_text` makes it inert, so
that a published report.md shows it as written and never carries HTML, links or images a
user string smuggled in. `&`, `<` and `>` become HTML entities (safe in every Markdown
renderer, including those without backslash escapes for `<`); the other characters Markdown
gives a meaning to are escaped with a backslash; line breaks become spaces.
"""
from __future__ import annotations

import html
import os
import re

from reports.document import Document, Folded, Table
from reports.figures import Figure
from reports.first_screen import KeyPoint
from reports.several import Link

_MD_SPECIAL = re.compile(r"([\\`*_\[\]#!|~])")  # emphasis, code, links/images, tables, headings
_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]")
_SAFE_HREF = re.compile(r"[^A-Za-z0-9_./-]")


def md_text(x) -> str:
    """A plain string as inert Markdown text (see the module's docstring)."""
    text = " ".join(str(x).splitlines())
    text = html.escape(text, quote=False)          # & < >  ->  &amp; &lt; &gt;
    return _MD_SPECIAL.sub(r"\\\1", text)


def _anchor(x) -> str:
    return _SAFE_NAME.sub("-", str(x))


def _table(t: Table) -> list[str]:
    headers = [md_text(h) or " " for h in t.headers]
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    out += ["| " + " | ".join(md_text(c) for c in r) + " |" for r in t.rows]
    if t.caption:
        out += ["", f"*{md_text(t.caption)}*"]
    return out


def render_markdown(doc: Document, figure_dir: str = "figures") -> tuple[str, dict]:
    """(markdown text, {relative path: png bytes})."""
    lines = [f"# {md_text(doc.title)}", "", md_text(doc.subtitle), ""]
    files: dict = {}
    top = [s for s in doc.sections if s.kind in ("played", "summary")]
    rest = [s for s in doc.sections if s not in top]
    for k, s in enumerate(top + rest):
        if k == len(top):   # the links to the sections, after the first screen (as the HTML)
            lines += ["", " · ".join(f"[{md_text(x.title)}](#{_anchor(x.anchor)})"
                                     for x in rest)]
        lines += ["", f'<a id="{_anchor(s.anchor)}"></a>', "", f"## {md_text(s.title)}", ""]
        for b in s.blocks:
            lines += _block(b, files, figure_dir)
    return "\n".join(lines).rstrip() + "\n", files


def _figure_file(f: Figure, files: dict, figure_dir: str) -> str:
    rel = f"{figure_dir}/{_anchor(f.key)}.png"
    files[rel] = f.png
    return rel


def _block(b, files: dict, figure_dir: str) -> list:
    if isinstance(b, str):
        return [md_text(b), ""]
    if isinstance(b, list):
        return [f"- {md_text(x)}" for x in b] + [""]
    if isinstance(b, Table):
        return _table(b) + [""]
    if isinstance(b, Figure):
        rel = _figure_file(b, files, figure_dir)
        return [f"![{md_text(b.title)}]({rel})", "",
                f"*{md_text(b.title)}.* {md_text(b.caption)}", ""]
    if isinstance(b, KeyPoint):
        out = [f"**{md_text(b.heading)}.** {md_text(b.line)}", ""]
        if b.figure is not None:
            out += [f"![{md_text(b.figure.title)}]({_figure_file(b.figure, files, figure_dir)})",
                    ""]
        return out
    if isinstance(b, Link):     # a relative path inside the report folder, made inert
        return [f"[{md_text(b.text)}]({_SAFE_HREF.sub('-', b.href)})", ""]
    if isinstance(b, Folded):   # shown open: the Markdown carries no HTML of its own
        out = [f"{md_text(b.summary)}:", ""]
        for x in b.blocks:
            out += _block(x, files, figure_dir)
        return out
    return []


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
