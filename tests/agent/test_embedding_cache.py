"""The agent's fixed texts (example bank, tool descriptions) are embedded once per machine: a second
process reads the rows from the cache folder instead of running the model over them again."""

from __future__ import annotations

import numpy as np
import pytest

from agent import embeddings


class CountingEncoder:
    cache_key = "counting-encoder-1"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode(self, texts: list[str]):
        self.calls.append(list(texts))
        return np.array([[len(t), t.count("a"), 1.0] for t in texts], dtype=np.float32)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setitem(embeddings._STATE, "cache_dir", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_second_start_reads_the_rows_instead_of_encoding(cache) -> None:
    texts = ["what is my collection worth", "psa 10 pop of a charizard"]
    first, second = CountingEncoder(), CountingEncoder()
    rows = embeddings.encode_fixed(first, texts)
    again = embeddings.encode_fixed(second, texts)
    assert len(first.calls) == 1 and second.calls == []
    assert np.array_equal(rows, again) and rows.shape == (2, 3)
    assert len(list(cache.glob("embeddings-*.npy"))) == 1


def test_changed_texts_are_embedded_again(cache) -> None:
    enc = CountingEncoder()
    embeddings.encode_fixed(enc, ["one example"])
    rows = embeddings.encode_fixed(enc, ["one example", "a new example"])
    assert len(enc.calls) == 2 and rows.shape[0] == 2


def test_a_damaged_cache_file_is_replaced(cache) -> None:
    enc = CountingEncoder()
    embeddings.encode_fixed(enc, ["x"])
    (path,) = cache.glob("embeddings-*.npy")
    path.write_bytes(b"not an array")
    rows = embeddings.encode_fixed(enc, ["x"])
    assert len(enc.calls) == 2 and rows.shape == (1, 3)
    assert np.array_equal(np.load(path), rows)


def test_an_unwritable_cache_folder_only_costs_time(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setitem(embeddings._STATE, "cache_dir", str(blocker / "cache"))
    enc = CountingEncoder()
    rows = embeddings.encode_fixed(enc, ["abc"])
    assert rows.tolist() == [[3.0, 1.0, 1.0]]


def test_another_model_never_reads_these_rows(cache) -> None:
    enc, other = CountingEncoder(), CountingEncoder()
    other.cache_key = "another-model"
    embeddings.encode_fixed(enc, ["same text"])
    embeddings.encode_fixed(other, ["same text"])
    assert len(other.calls) == 1


def test_only_the_most_recently_used_files_are_kept(cache) -> None:
    import os
    import time

    enc = CountingEncoder()
    embeddings.encode_fixed(enc, ["kept in use"])
    (in_use,) = cache.glob("embeddings-*.npy")
    os.utime(in_use, (1, 1))  # written long ago, but read again below
    for i in range(embeddings.CACHE_KEEP):
        embeddings.encode_fixed(enc, [f"bank version {i}"])
        if i == 0:
            time.sleep(0.05)  # past the file clock's granularity
            embeddings.encode_fixed(enc, ["kept in use"])  # a hit marks it as used now
    files = list(cache.glob("embeddings-*.npy"))
    assert len(files) == embeddings.CACHE_KEEP and in_use in files
    assert len(enc.calls) == 1 + embeddings.CACHE_KEEP  # the file in use was never embedded again
