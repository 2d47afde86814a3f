"""The Python package's own contract: what each function returns and how it refuses. Run by
`make test-python` (plain asserts; prints one line). The chunks themselves are proven equal to
the libraries by differential.py, and the rows to the page's by the Spark test."""

import os
import threading

import rag_chunk

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def raises(exc, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        return e
    raise AssertionError(f"{fn.__name__}{args} did not raise {exc.__name__}")


def main():
    text = fixture("moonstone-short.txt").decode("utf-8")

    # chunk: the export fields; offsets slice the str by characters and the bytes by bytes.
    chunks = rag_chunk.chunk(text, "recursive", 200, 20)
    assert len(chunks) > 100
    data = text.encode("utf-8")
    for i, c in enumerate(chunks):
        assert c["index"] == i
        assert text[c["char_start"]:c["char_end"]] == c["text"]
        assert data[c["byte_start"]:c["byte_end"]].decode("utf-8") == c["text"]
        assert c["tokens"] == rag_chunk.count(c["text"]) <= 200
        assert c["page_start"] is None
    assert chunks[-1]["reason"] == "end-of-text"

    # split_text: the same texts.
    assert rag_chunk.split_text(text, "recursive", 200, 20) == [c["text"] for c in chunks]

    # Refusals: the library's own (Refused, with .kind), bad settings (ValueError).
    e = raises(rag_chunk.Refused, rag_chunk.chunk, text, "langchain-token", 10, 11)
    assert e.kind == "overlap-refused" and isinstance(e, ValueError)
    for bad in [dict(strategy="nope"), dict(strategy="semantic"), dict(unit="words"),
                dict(encoding="p50k_base"), dict(chunk_size=0), dict(model="gpt-9"),
                dict(unit="model")]:
        e = raises(ValueError, rag_chunk.chunk, text, **bad)
        assert not isinstance(e, rag_chunk.Refused), bad
    e = raises(ValueError, rag_chunk.chunk, text, "fixed", -1)
    assert "chunk_size" in str(e)
    raises(TypeError, rag_chunk.read, "not bytes", "a.txt")
    assert rag_chunk.read(bytearray(b"hi"), "a.txt")["text"] == "hi"

    # read: formats, pages, and why a file is not read.
    pdf = rag_chunk.read(fixture("moonstone.pdf"), "moonstone.pdf")
    assert pdf["format"] == "pdf" and len(pdf["page_starts"]) > 1
    paged = rag_chunk.chunk(pdf["text"], "fixed", 128, 0, page_starts=pdf["page_starts"])
    assert paged[0]["page_start"] == 1 and paged[-1]["page_end"] == len(pdf["page_starts"])
    assert rag_chunk.read(fixture("moonstone.docx"), "m.docx")["format"] == "docx"
    assert rag_chunk.read(fixture("docs-page.html"), "p.html")["format"] == "html"
    raises(ValueError, rag_chunk.chunk, pdf["text"], "fixed", 128, 0, page_starts=[5, 3])
    assert "md" in rag_chunk.document_extensions() and "png" not in rag_chunk.document_extensions()
    assert issubclass(rag_chunk.InternalError, RuntimeError)
    assert rag_chunk.read(b"# T\n\nbody", "notes.md") == {
        "text": "# T\n\nbody", "format": "text", "page_starts": []}
    for data, name, reason in [(b"caf\xe9", "a.txt", "not-utf8"), (b"a\0b", "a.txt", "binary"),
                               (fixture("locked.pdf"), "l.pdf", "password"),
                               (fixture("scanned.pdf"), "s.pdf", "no-text-layer"),
                               (b"PK\x03\x04junk", "x.docx", None)]:
        e = raises(rag_chunk.Unreadable, rag_chunk.read, data, name)
        assert reason is None or e.reason == reason, (name, e.reason)

    # compare: every strategy that sizes in the unit, the page's figures, refusals as data.
    rows = rag_chunk.compare(text, 512, 64, model="all-minilm-l6-v2")
    ids = [s["id"] for s in rag_chunk.strategies()]
    assert [r["strategy"] for r in rows] == ids
    for r in rows:
        assert r["refused"] is None and r["vectors"] == r["chunks"]
        assert r["storage_bytes"] == r["chunks"] * 384 * 4 and not r["overlap_clamped"]
        assert sum(r["chunk_tokens"]) == r["total_tokens"] and len(r["chunk_tokens"]) == r["chunks"]
        assert r["max_input_tokens"] == 256 and r["over_limit"] > 0
    unlimited = rag_chunk.compare(text, 512, 64, strategies=["fixed"])[0]
    assert unlimited["max_input_tokens"] is None and unlimited["over_limit"] == 0
    chars = rag_chunk.compare(text, 300, 400, unit="characters")
    assert {r["refused"]["kind"] for r in chars if r["refused"]} == {"overlap-refused"}
    assert all(r["strategy"] != "langchain-token" for r in chars), "tokens-only strategies are left out"
    s = rag_chunk.settings(model="openai-text-embedding-3-large")
    assert rag_chunk.settings(price_per_million=1.5)["price_per_million"] == 1.5
    assert s["price_per_million"] == 0.13 and s["unit"] == "tokens" and len(s["strategies"]) == 17
    assert s["dimensions"] == 3072
    clamped = rag_chunk.compare(text, 100, 200, strategies=["fixed"],
                                model="openai-text-embedding-3-small")[0]
    assert clamped["overlap_clamped"] and clamped["storage_bytes"] == clamped["chunks"] * 1536 * 4

    # The GIL is released while cutting: threads give the same chunks.
    out = [None] * 4
    def work(i):
        out[i] = rag_chunk.split_text(text, "semchunk", 128, 0)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(o == out[0] for o in out) and len(out[0]) > 100
    print(f"rag_chunk {rag_chunk.__version__}: the API's contract holds")


if __name__ == "__main__":
    main()
