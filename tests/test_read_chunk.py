"""sim/run_folder.read_chunk: a chunk read through pyarrow's ParquetFile is the table
`pyarrow.parquet.read_table` gives (every column, and a selection), schema metadata included."""
import pyarrow.parquet as pq

from scripts.cli import main
from sim.run_folder import read_chunk
from sim.runner import chunk_files, read_logs


def test_read_chunk_is_read_table(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "sunset", "--games", "300", "--chunk-size", "100", "--workers", "1",
                 "--seed", "3", "--out", str(out), "--no-progress"]) == 0
    capsys.readouterr()
    files = chunk_files(str(out))
    assert len(files) == 3
    for path in files:
        whole = pq.read_table(path)
        assert read_chunk(path).equals(whole)
        assert read_chunk(path).schema.equals(whole.schema, check_metadata=True)
        some = ["game", "seat", whole.column_names[-1]]
        assert read_chunk(path, some).equals(pq.read_table(path, columns=some))
    logs = read_logs(str(out))
    assert len(logs) == sum(pq.ParquetFile(p).metadata.num_rows for p in files)
    assert list(logs["game"].drop_duplicates()) == list(range(300))
