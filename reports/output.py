"""Writing a report folder without touching what the toolkit did not write.

A report goes into a new or empty folder, or into a folder holding a report of this toolkit:
one with `report.json` (REPORT_RECORD), the list of the files the report writer wrote there
and their SHA-256. Writing a report there replaces those files and removes the ones the new
report no longer has; a user's own files are kept, and a file of the old report that a user
changed since is never replaced (refused with one line). Everything is rendered in memory
first and checked before the first byte is written.

    out = ReportFolder(path)        # checks the folder (ToolkitError: one line)
    out.add("report.html", data)    # bytes, path relative to the folder
    out.commit()                    # writes, records, removes stale files of the old report
"""
from __future__ import annotations

import json
import os

from sim import run_folder as rf
from sim.game_api import ToolkitError

RECORD_FORMAT = 1


class ReportFolder:
    def __init__(self, out_dir: str, flag: str = "--out"):
        self.out_dir = os.path.abspath(str(out_dir))
        self.flag = flag
        self.files: dict[str, bytes] = {}
        self.owned, self.changed = check_report_dir(self.out_dir, flag)

    def add(self, rel: str, data: bytes | str) -> str:
        if isinstance(data, str):
            data = data.encode("utf-8")
        rel = os.path.normpath(rel)
        if rel.startswith("..") or os.path.isabs(rel) or rel == rf.REPORT_RECORD:
            raise ValueError(f"report file name {rel!r} is outside the report folder")
        self.files[rel] = data
        return os.path.join(self.out_dir, rel)

    def commit(self, source: str | None = None) -> None:
        owned = set(self.owned)
        for rel in self.files:
            path = os.path.join(self.out_dir, rel)
            if os.path.exists(path) and path not in owned:
                raise ToolkitError(
                    f"{path} was not written by this toolkit's report (or was changed since) and "
                    f"the report would replace it; move it away or choose another {self.flag} "
                    f"folder")
        record_path = os.path.join(self.out_dir, rf.REPORT_RECORD)
        new = {rel.replace(os.sep, "/"): rf.sha256_bytes(data)
               for rel, data in sorted(self.files.items())}
        old = {os.path.relpath(p, self.out_dir).replace(os.sep, "/"): rf.sha256_file(p)
               for p in self.owned if p != record_path}
        try:
            os.makedirs(self.out_dir, exist_ok=True)
            # first the record of what is there and what is about to be: an interrupted write
            # leaves a folder the next report still recognises as its own
            self._record(record_path, source, old, pending=new)
            for rel, data in self.files.items():
                path = os.path.join(self.out_dir, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                tmp = path + ".tmp"
                with open(tmp, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, path)
            written = {os.path.join(self.out_dir, rel) for rel in self.files}
            stale = [p for p in self.owned if p not in written and p != record_path]
            rf.remove_owned(stale, self.out_dir)
            self._record(record_path, source, new)
        except OSError as exc:
            raise ToolkitError(f"cannot write the report folder {self.out_dir}: "
                               f"{exc.strerror or exc}") from None


    @staticmethod
    def _record(path: str, source, files: dict, pending: dict | None = None) -> None:
        record = {"tool": rf.TOOL, "kind": "report", "format": RECORD_FORMAT, "source": source,
                  "files": files}
        if pending:
            record["pending"] = pending
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(record, fh, indent=2)
            fh.write("\n")
        os.replace(tmp, path)


def check_report_dir(out_dir: str, flag: str = "--out") -> tuple[list, list]:
    """(the old report's unchanged files, its files a user changed) of a folder a report may
    be written to; ToolkitError (one line) for a file or a folder of other files."""
    out_dir = os.path.abspath(str(out_dir))
    if not os.path.exists(out_dir):
        return [], []
    if not os.path.isdir(out_dir):
        raise ToolkitError(f"report folder {out_dir} is a file; choose a folder with {flag}")
    if not rf.listing(out_dir):
        return [], []
    owned, changed, why = rf.report_owned(out_dir)
    if why is not None:
        raise ToolkitError(
            f"report folder {out_dir} is not empty and {why}; the toolkit writes a report only "
            f"into a new or empty folder or over its own report, and never deletes files it did "
            f"not write: choose another {flag} folder")
    return owned, changed


def render_into(out: ReportFolder, doc, formats=("html", "md"), source: str | None = None) -> dict:
    """Render a report document (reports/document.py) as HTML and/or Markdown into `out`;
    returns {"html": path, "md": path} of what was written."""
    from reports.html import render_html
    from reports.markdown import render_markdown

    files = {}
    if "html" in formats:
        files["html"] = out.add("report.html", render_html(doc))
    if "md" in formats:
        text, figures = render_markdown(doc)
        for rel, data in figures.items():
            out.add(rel, data)
        files["md"] = out.add("report.md", text)
    out.commit(source)
    return files
