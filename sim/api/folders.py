"""The folder policy of compare / sweep / tune / cards / ladder result folders, the same
for the command line and the Python API.

A result folder holds one plan (designer.json): the same plan resumes, another needs
overwrite=True, which removes only what the toolkit wrote there (sub-runs, reports, plan,
suggested file) and names what it keeps. A folder of other files is refused whatever the flags.
"""
from __future__ import annotations

import os
import sys

from sim import folder_lock
from sim.game_api import ToolkitError


def claim_root(root: str, plan: dict, overwrite: bool, err=None) -> None:
    from reports.output import check_report_dir
    from sim import designer
    from sim import run_folder as rf

    err = err or sys.stderr
    folder_lock.keep(root)   # held until the caller's scope ends (its last write)
    if os.path.exists(root) and not os.path.isdir(root):
        raise ToolkitError(f"{root} is a file; choose a folder with --out")
    if os.path.isdir(root) and rf.listing(root):
        try:
            old = designer.read_plan(root)
        except ToolkitError as exc:
            raise rf.foreign_folder_error(root, str(exc.lines[0]).split(": ", 1)[-1]) from None
        same = {k: v for k, v in old.items() if k != "result"} == plan
        if not same and not overwrite:
            raise ToolkitError(f"{root} holds a different result; pass --overwrite to replace "
                               f"it or choose a new --out folder")
        owned, changed = designer.owned_files(root, old)
        if changed:
            raise ToolkitError(
                f"{changed[0]} was changed after the toolkit wrote it and would be replaced; "
                f"move it out of {root} first or choose another --out folder")
        if same:  # resumed: the earlier result stays recorded until the new one replaces it
            plan = {**plan, "result": old.get("result")}
        else:
            rf.remove_owned(owned, root)
            kept = rf.list_files(root)
            if kept:
                print(f"note: {root}: --overwrite kept {len(kept)} file(s) the toolkit did not "
                      f"write: {rf.describe_kept(kept, root)}", file=err)
    for name in designer.REPORT_DIRS:  # before any game is played
        check_report_dir(os.path.join(root, name))
    designer.write_plan(root, plan)


def result_root(out, spec, kind: str) -> tuple[str, bool]:
    """(absolute result folder, temporary?): `out`, or a fresh temporary folder for None."""
    from sim.api.common import temporary_out
    if out is None:
        return temporary_out(kind), True
    return os.path.abspath(out), False
