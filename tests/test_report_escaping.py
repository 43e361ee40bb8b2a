"""Reports are safe to publish (issue 9, item 5): report.md carried user strings (variant
names, strategy file names, card names from a component file, paths) as raw Markdown, so a
variant named `<img src=x onerror=...>` became live HTML wherever the report was published.
Now every text is inert in report.md as in report.html: rendered by a CommonMark renderer, it
shows the user's string as written and yields no element or attribute the report did not mean.
"""
from __future__ import annotations

import os
import re
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from reports.document import Document, Section, Table
from reports.figures import Figure
from reports.markdown import render_markdown
from scripts.cli import main

EVIL = [
    "<img src=x onerror=alert(1)>",
    "<script>alert('x')</script>",
    "[click me](javascript:alert(1))",
    "![pixel](http://tracker.example/p.png)",
    "**bold** _it_ `code` ~~gone~~ | pipe",
    "&lt;already escaped&gt; &amp;",
]
ALLOWED = {"h1", "h2", "p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td", "em",
           "strong", "a", "img"}


class Elements(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def rendered(md_text: str) -> Elements:
    html = MarkdownIt("commonmark").enable("table").render(md_text)
    el = Elements()
    el.feed(html)
    return el


def assert_inert(md_text: str, must_show: list):
    el = rendered(md_text)
    for tag, attrs in el.tags:
        assert tag in ALLOWED, (tag, attrs)
        assert not any(a.startswith("on") for a in attrs), (tag, attrs)
        if tag == "a":
            assert set(attrs) <= {"href", "id"} and attrs.get("href", "#").startswith("#"), attrs
        if tag == "img":
            assert attrs["src"].startswith("figures/"), attrs
    text = " ".join(" ".join(el.text).split())
    for s in must_show:  # shown as the user wrote it, not dropped or mangled
        assert " ".join(s.split()) in text, s


def test_every_block_of_a_document_is_inert_in_markdown():
    doc = Document(
        title=f"Balance report: {EVIL[0]}", subtitle=" / ".join(EVIL),
        sections=[Section(EVIL[1], "verdicts", [
            EVIL[2], list(EVIL),
            Table([EVIL[3], "x"], [[e, e] for e in EVIL], caption=EVIL[4]),
            Figure(key="cards-x", title=EVIL[2], caption=EVIL[0], png=b"\x89PNG"),
        ])])
    text, files = render_markdown(doc)
    assert list(files) == ["figures/cards-x.png"]
    assert_inert(text, EVIL)


def test_a_report_of_a_run_with_hostile_names_is_inert(toy_registry, in_tmp, capsys):
    """A variant name, a strategy file name and a component file path as a user may type
    them, through `balance run` and `balance report`."""
    variant = "<img src=x onerror=alert(1)>"
    (in_tmp / "v.toml").write_text(f'[variants."{variant}"]\nbase = "greedy"\n'
                                   f'description = "<script>alert(2)</script>"\n')
    bot = in_tmp / "bot_<b>bold.py"
    bot.write_text("def bot(*args):\n    return 0\n")
    comp = in_tmp / "dice_[x](javascript:alert(3)).toml"
    comp.write_text("[dice]\nsides = 6\nn_dice = 3\n")
    code = main(["run", "toy", "--players", "2", "--games", "200", "--workers", "1",
                 "--no-progress", "--variants", str(in_tmp / "v.toml"), "--components", str(comp),
                 "--strategies", f"{variant},{bot}:bot", "--out", "run", "--report"])
    _, err = capsys.readouterr()
    assert code == 0, err
    md = (in_tmp / "run" / "report" / "report.md").read_text()
    assert variant not in md and "<b>" not in md
    assert not re.search(r"(?<!\\)\]\(javascript", md)  # only as an escaped, dead bracket
    assert_inert(md, [variant, os.path.basename(str(bot)), os.path.basename(str(comp))])
    from reports.html import SCRIPT
    page = (in_tmp / "run" / "report" / "report.html").read_text()
    # one script, the report's own (sorting and filtering the tables), nothing a name brought
    assert page.count("<script") == 1 and f"<script>{SCRIPT}</script>" in page
    el = Elements()
    el.feed(page.replace(f"<script>{SCRIPT}</script>", ""))
    for tag, attrs in el.tags:
        assert tag != "script" and not any(a.startswith("on") for a in attrs), (tag, attrs)
        assert tag != "img" or attrs["src"].startswith("data:image/png;base64,"), attrs
    assert variant in " ".join(el.text)


def test_card_names_from_a_component_file_are_inert(tmp_path):
    """Card names come from the designer's component file."""
    from reports.build import write_report
    from tests import test_report as tr

    names = list(tr.CARD_NAMES)
    names[tr.STRONG_CARD] = "<img src=x onerror=alert(4)>"
    names[tr.NEVER_CARD] = "[never](javascript:alert(5))"
    meta = tr.synthetic_meta()
    meta["cards"][0]["names"] = names
    cols, strategies = tr.synthetic_logs("mixed", 1500)
    run = tr.write_run(tmp_path / "run", cols, strategies, 500)
    files = write_report(run, str(tmp_path / "rep"), metadata=meta)
    md = open(files.markdown, encoding="utf-8").read()
    assert names[tr.STRONG_CARD] not in md
    assert_inert(md, [names[tr.STRONG_CARD], names[tr.NEVER_CARD]])


@pytest.mark.parametrize("s", EVIL)
def test_markdown_text_round_trips_to_the_same_visible_string(s):
    from reports.markdown import md_text
    el = rendered(md_text(s))
    assert el.tags == [("p", {})]
    assert "".join(el.text).strip() == s
