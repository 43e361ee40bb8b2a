"""Build a run's balance report: analysis -> figures -> HTML and Markdown files.

    write_report(run_dir, out_dir, formats=("html", "md"), progress=False) -> ReportFiles
    analyse_run(run_dir) -> BalanceAnalysis   the report's input: the folder opened and checked
                                              (sim/run_folder.py), then analysed
                                              (analysis/balance.py, which reads no file)
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

from analysis.balance import BalanceAnalysis, analyse_folder
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


def analyse_run(run_dir: str, progress: bool = False, metadata: dict | None = None,
                confidence: float = 0.95, allow_incomplete: bool = False,
                card_checker=None) -> BalanceAnalysis:
    """A run folder's balance analysis: the folder opened by the one loader of run folders
    (manifest validated, every chunk verified against its record, the component copy checked
    against the SHA-256 the run recorded and loaded; one ToolkitError line otherwise), then
    analysed (analysis.balance.analyse_folder: `metadata`, `card_checker` as there)."""
    from sim.run_folder import open_run
    folder = open_run(run_dir, allow_incomplete=allow_incomplete)
    return analyse_folder(folder, progress=progress, metadata=metadata, confidence=confidence,
                          card_checker=card_checker)


def write_report(run_dir: str, out_dir: str, formats=FORMATS, progress: bool = False,
                 metadata: dict | None = None, allow_incomplete: bool = False,
                 card_checker=None) -> ReportFiles:
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ToolkitError(f"unknown report format {', '.join(bad)} (use html, md)")
    out = ReportFolder(out_dir)  # checked before any work: a user's folder is refused
    t0 = time.perf_counter()
    analysis = analyse_run(run_dir, progress=progress, metadata=metadata,
                           allow_incomplete=allow_incomplete, card_checker=card_checker)
    figures = make_figures(analysis)
    doc = build_document(analysis, figures, build_seconds=time.perf_counter() - t0)
    files = render_into(out, doc, formats, source=os.path.abspath(run_dir))
    return ReportFiles(html=files.get("html"), markdown=files.get("md"), analysis=analysis,
                       seconds=time.perf_counter() - t0)


def write_several_reports(run_dirs: list, out_dir: str, formats=FORMATS, progress: bool = False,
                          allow_incomplete: bool = False, card_checker=None) -> ReportFiles:
    """Several runs side by side (reports/several.py): the joint report in `out_dir`, each
    run's own full report in `out_dir/run-K/`, linked from it. Every folder and file is
    checked before the first byte is written; `.analysis` is the first run's, `.analyses`
    all of them."""
    from reports.html import render_html
    from reports.markdown import render_markdown
    from reports.several import several_document

    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ToolkitError(f"unknown report format {', '.join(bad)} (use html, md)")
    if len(run_dirs) < 2:
        raise ToolkitError("a report of several runs needs at least two run folders")
    out = ReportFolder(out_dir)
    t0 = time.perf_counter()
    analyses, links = [], []
    ext = "html" if "html" in formats else "md"
    for k, run_dir in enumerate(run_dirs):
        a = analyse_run(run_dir, progress=progress, allow_incomplete=allow_incomplete,
                        card_checker=card_checker)
        analyses.append(a)
        doc = build_document(a, make_figures(a))
        sub = f"run-{k + 1}"
        if "html" in formats:
            out.add(f"{sub}/report.html", render_html(doc))
        if "md" in formats:
            text, figures = render_markdown(doc)
            for rel, data in figures.items():
                out.add(f"{sub}/{rel}", data)
            out.add(f"{sub}/report.md", text)
        links.append(f"{sub}/report.{ext}")
    doc = several_document(analyses, links)
    files = {}
    if "html" in formats:
        files["html"] = out.add("report.html", render_html(doc))
    if "md" in formats:
        text, figures = render_markdown(_links_to(doc, ".md"))
        for rel, data in figures.items():
            out.add(rel, data)
        files["md"] = out.add("report.md", text)
    out.commit(source=", ".join(os.path.abspath(d) for d in run_dirs))
    result = ReportFiles(html=files.get("html"), markdown=files.get("md"),
                         analysis=analyses[0], seconds=time.perf_counter() - t0)
    result.analyses = analyses
    return result


def _links_to(doc, ext: str):
    """The document with its links to the runs' own reports pointing at their `ext` file."""
    import dataclasses

    from reports.several import Link
    sections = [dataclasses.replace(s, blocks=[
        Link(b.text, os.path.splitext(b.href)[0] + ext) if isinstance(b, Link) else b
        for b in s.blocks]) for s in doc.sections]
    return dataclasses.replace(doc, sections=sections)
