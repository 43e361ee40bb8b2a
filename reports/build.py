"""Build a run's balance report: analysis -> figures -> HTML and Markdown files.

    write_report(run_dir, out_dir, formats=("html", "md"), progress=False) -> ReportFiles
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

from analysis.balance import BalanceAnalysis, analyse_run
from reports.document import build_document
from reports.figures import make_figures
from reports.html import render_html
from reports.markdown import write_markdown
from sim.game_api import ToolkitError

FORMATS = ("html", "md")


@dataclass
class ReportFiles:
    html: str | None
    markdown: str | None
    analysis: BalanceAnalysis
    seconds: float


def write_report(run_dir: str, out_dir: str, formats=FORMATS, progress: bool = False,
                 metadata: dict | None = None, allow_incomplete: bool = False) -> ReportFiles:
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ToolkitError(f"unknown report format {', '.join(bad)} (use html, md)")
    t0 = time.perf_counter()
    analysis = analyse_run(run_dir, progress=progress, metadata=metadata,
                           allow_incomplete=allow_incomplete)
    figures = make_figures(analysis)
    doc = build_document(analysis, figures, build_seconds=time.perf_counter() - t0)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise ToolkitError(f"cannot create the report folder {out_dir}: {exc.strerror}") from None
    html_path = md_path = None
    if "html" in formats:
        html_path = os.path.join(out_dir, "report.html")
        tmp = html_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(render_html(doc))
        os.replace(tmp, html_path)
    if "md" in formats:
        md_path = write_markdown(doc, out_dir)
    return ReportFiles(html=html_path, markdown=md_path, analysis=analysis,
                       seconds=time.perf_counter() - t0)
