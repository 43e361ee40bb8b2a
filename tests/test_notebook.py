"""The designer's notebook (docs/designer-notebook.ipynb) runs from top to bottom: it is
executed here with nbclient, so it cannot go stale against the API. It is shipped executed
(its outputs and figures read on GitHub) and removes the temporary folder it writes."""
import glob
import os
import tempfile
from pathlib import Path


NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "designer-notebook.ipynb"


def _outputs(nb) -> list:
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]


def test_the_notebook_is_shipped_executed_with_its_figures():
    import nbformat
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code), "a code cell was not executed"
    outputs = _outputs(nb)
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "no figure in the outputs"


def test_designer_notebook_runs(tmp_path, monkeypatch):
    import nbclient
    import nbformat   # the test extra installs both: a missing one fails, never skips
    monkeypatch.setenv("NOTEBOOK_GAMES", "200")
    monkeypatch.setenv("PYTHONPATH", str(NOTEBOOK.parent.parent) + ":" +
                       os.environ.get("PYTHONPATH", ""))
    before = set(glob.glob(os.path.join(tempfile.gettempdir(), "designer-notebook-*")))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = _outputs(nb)
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "report.html" in text and "removed" in text
    assert any("image/png" in o.get("data", {}) for o in outputs)
    after = set(glob.glob(os.path.join(tempfile.gettempdir(), "designer-notebook-*")))
    assert after <= before, f"the notebook left {sorted(after - before)}"
