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
from reports.findings import verdict_lines
from reports.output import ReportFolder, render_into
from sim.game_api import ToolkitError

FORMATS = ("html", "md")


@dataclass
class ReportFiles:
    html: str | None
    markdown: str | None
    analysis: BalanceAnalysis
    seconds: float

    @property
    def verdicts(self) -> list:
        """The report's verdict lines (reports/findings.py), as the terminal prints them."""
        return verdict_lines(self.analysis)


def write_report(run_dir: str, out_dir: str, formats=FORMATS, progress: bool = False,
                 metadata: dict | None = None, allow_incomplete: bool = False,
                 card_check: int = 0) -> ReportFiles:
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ToolkitError(f"unknown report format {', '.join(bad)} (use html, md)")
    out = ReportFolder(out_dir)  # checked before any work: a user's folder is refused
    t0 = time.perf_counter()
    analysis = analyse_run(run_dir, progress=progress, metadata=metadata,
                           allow_incomplete=allow_incomplete, card_check=card_check)
    figures = make_figures(analysis)
    doc = build_document(analysis, figures, build_seconds=time.perf_counter() - t0)
    files = render_into(out, doc, formats, source=os.path.abspath(run_dir))
    return ReportFiles(html=files.get("html"), markdown=files.get("md"), analysis=analysis,
                       seconds=time.perf_counter() - t0)
