"""Oracle of tests/unigram.rs: Hugging Face tokenizers' XLM-RoBERTa pipeline, built from the
committed data file crates/chunk-core/vocab/xlm-roberta.unigram (format: the module doc of
crates/chunk-core/src/tokenizer/unigram.rs), the same tokenizer.json as the models'
(normalizer Sequence[Precompiled(charsmap), Replace(" {2,}", " ")], pre-tokenizer Metaspace
(▁, prepend_scheme always, split), Unigram(unk_id, byte_fallback false), added tokens special
and not normalized, <mask> with lstrip).

stdin: one JSON string per line. stdout: first line {"sha256": ...} of the data file, then one
JSON array of ids per line, in order: tokenizer.encode(text, add_special_tokens=False).ids.
Usage: python hf_unigram.py [path/to/xlm-roberta.unigram [--save tokenizer.json]]
"""
import base64
import hashlib
import json
import os
import struct
import sys

from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "..", "..", "vocab", "xlm-roberta.unigram")


def read_unigram(path):
    data = open(path, "rb").read()
    assert data[:8] == b"CHUNKUNI", "bad magic"
    version, n, unk_id, n_added = struct.unpack_from("<IIII", data, 8)
    assert version == 1, version
    pos = 24
    added = []
    for _ in range(n_added):
        i, flags = struct.unpack_from("<IB", data, pos)
        pos += 5
        added.append((i, bool(flags & 1), bool(flags & 2)))
    (clen,) = struct.unpack_from("<I", data, pos)
    charsmap = data[pos + 4:pos + 4 + clen]
    pos += 4 + clen
    pieces = []
    for _ in range(n):
        ln = data[pos]
        pieces.append(data[pos + 1:pos + 1 + ln].decode("utf-8"))
        pos += 1 + ln
    planes = [data[pos + k * n:pos + (k + 1) * n] for k in range(4)]
    assert pos + 4 * n == len(data), "trailing bytes"
    bits, scores = 0, []
    for i in range(n):
        bits = (bits + (planes[0][i] | planes[1][i] << 8 | planes[2][i] << 16 | planes[3][i] << 24)) & 0xFFFFFFFF
        scores.append(struct.unpack("<f", struct.pack("<I", bits))[0])
    return pieces, scores, unk_id, added, charsmap


def build(path):
    pieces, scores, unk_id, added, charsmap = read_unigram(path)
    tj = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [
            dict(id=i, content=pieces[i], single_word=False, lstrip=l, rstrip=r,
                 normalized=False, special=True)
            for i, l, r in added
        ],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(charsmap).decode()},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
        ]},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581",
                          "prepend_scheme": "always", "split": True},
        "post_processor": None,
        "decoder": {"type": "Metaspace", "replacement": "\u2581",
                    "prepend_scheme": "always", "split": True},
        "model": {"type": "Unigram", "unk_id": unk_id,
                  "vocab": [[p, s] for p, s in zip(pieces, scores)], "byte_fallback": False},
    }
    return Tokenizer.from_str(json.dumps(tj))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    tok = build(path)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if sys.argv[2:3] == ["--save"]:
        # The pipeline as a tokenizer.json, for the bench's JavaScript peer.
        tok.save(sys.argv[3])
        return
    texts = [json.loads(line) for line in sys.stdin if line.strip()]
    out = sys.stdout
    out.write(json.dumps({"sha256": digest}) + "\n")
    for enc in tok.encode_batch(texts, add_special_tokens=False):
        out.write(json.dumps(enc.ids))
        out.write("\n")
    out.flush()


if __name__ == "__main__":
    main()
