"""The designer's notebook (docs/designer-notebook.ipynb) runs from top to bottom: it is
executed here with nbclient, so it cannot go stale against the API."""
from pathlib import Path


NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "designer-notebook.ipynb"


def test_designer_notebook_runs(tmp_path, monkeypatch):
    import nbclient
    import nbformat   # the test extra installs both: a missing one fails, never skips
    monkeypatch.setenv("NOTEBOOK_GAMES", "200")
    monkeypatch.setenv("PYTHONPATH", str(NOTEBOOK.parent.parent) + ":" +
                       __import__("os").environ.get("PYTHONPATH", ""))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "report.html" in text
