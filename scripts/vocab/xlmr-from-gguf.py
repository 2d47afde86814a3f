#!/usr/bin/env python3
"""Writes crates/chunk-core/vocab/xlm-roberta.unigram, XLM-RoBERTa's SentencePiece Unigram model
(250,002 pieces, their scores, the nmt_nfkc normalisation charsmap and the added tokens) in the
format that crates/chunk-core/src/tokenizer/unigram.rs reads (described in its module doc).

Source: the GGUF vocabulary `ggml-vocab-nomic-bert-moe.gguf` vendored by llama.cpp in the PyPI
source distribution llama-cpp-python==0.3.16 (path inside the archive:
llama_cpp_python-0.3.16/vendor/llama.cpp/models/ggml-vocab-nomic-bert-moe.gguf). Its sha256 is
checked. Python standard library only (any Python >= 3.8; the oracle venv works):

    python3 -m pip download --no-deps --no-binary :all: llama-cpp-python==0.3.16 -d /tmp/llama
    python3 scripts/vocab/xlmr-from-gguf.py /tmp/llama/llama_cpp_python-0.3.16.tar.gz
    # or, with the .gguf already extracted:
    python3 scripts/vocab/xlmr-from-gguf.py path/to/ggml-vocab-nomic-bert-moe.gguf

The output path defaults to crates/chunk-core/vocab/xlm-roberta.unigram (second argument to
change it). The script prints the output's size and sha256 (recorded in vocab/SOURCE.md and
checked by the Rust tests).
"""
import hashlib
import os
import struct
import sys
import tarfile

GGUF_SHA256 = "90a6746926454784a98389ad36a36d89bc9cfc81db9cb0f33c941bcc959fe5f9"
MEMBER = "llama_cpp_python-0.3.16/vendor/llama.cpp/models/ggml-vocab-nomic-bert-moe.gguf"
# XLM-R's ids: the GGUF pads the vocabulary to 250,048 entries ([PAD250001]...); the model has
# 250,002 (the last is <mask>).
N_PIECES = 250002
UNK_ID = 3
# Hugging Face's added tokens of XLM-R (tokenizer.json of xlm-roberta-base and of its
# descendants): (id, lstrip, rstrip). All special, normalized=false, single_word=false.
ADDED = [(0, False, False), (1, False, False), (2, False, False), (3, False, False),
         (250001, True, False)]
MAGIC = b"CHUNKUNI"
VERSION = 1


def read_gguf_bytes(path):
    if path.endswith((".tar.gz", ".tgz")):
        with tarfile.open(path, "r:gz") as tar:
            f = tar.extractfile(MEMBER)
            if f is None:
                sys.exit(f"{MEMBER} not found in {path}")
            return f.read()
    with open(path, "rb") as f:
        return f.read()


class Reader:
    """The key-value section of a GGUF file (versions 2 and 3), enough for the tokenizer keys."""

    SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
               10: "<Q", 11: "<q", 12: "<d"}

    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, fmt):
        (v,) = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += struct.calcsize(fmt)
        return v

    def string(self):
        n = self.take("<Q")
        s = self.data[self.pos:self.pos + n]
        self.pos += n
        return s

    def value(self, typ):
        if typ in self.SCALARS:
            return self.take(self.SCALARS[typ])
        if typ == 8:
            return self.string()
        if typ == 9:
            elem, count = self.take("<I"), self.take("<Q")
            return [self.value(elem) for _ in range(count)]
        raise ValueError(f"unknown GGUF value type {typ}")

    def kvs(self):
        if self.data[:4] != b"GGUF":
            raise ValueError("not a GGUF file")
        self.pos = 4
        version = self.take("<I")
        if version not in (2, 3):
            raise ValueError(f"GGUF version {version}")
        self.take("<Q")  # tensor count
        n_kv = self.take("<Q")
        out = {}
        for _ in range(n_kv):
            key = self.string().decode("utf-8")
            out[key] = self.value(self.take("<I"))
        return out


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out_path = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        root, "crates/chunk-core/vocab/xlm-roberta.unigram")
    data = read_gguf_bytes(sys.argv[1])
    digest = hashlib.sha256(data).hexdigest()
    if digest != GGUF_SHA256:
        sys.exit(f"unexpected GGUF sha256 {digest} (want {GGUF_SHA256})")
    kv = Reader(data).kvs()
    assert kv["tokenizer.ggml.model"] == b"t5", kv["tokenizer.ggml.model"]
    tokens = [t.decode("utf-8") for t in kv["tokenizer.ggml.tokens"]]
    scores = kv["tokenizer.ggml.scores"]
    charsmap = bytes(kv["tokenizer.ggml.precompiled_charsmap"])
    assert len(tokens) == len(scores) >= N_PIECES
    tokens, scores = tokens[:N_PIECES], scores[:N_PIECES]
    assert tokens[:4] == ["<s>", "<pad>", "</s>", "<unk>"] and tokens[-1] == "<mask>", tokens[:4]
    assert kv["tokenizer.ggml.unknown_token_id"] == UNK_ID
    assert len(set(tokens)) == len(tokens), "duplicate pieces"

    out = bytearray(MAGIC)
    out += struct.pack("<IIII", VERSION, len(tokens), UNK_ID, len(ADDED))
    for i, lstrip, rstrip in ADDED:
        out += struct.pack("<IB", i, int(lstrip) | int(rstrip) << 1)
    out += struct.pack("<I", len(charsmap)) + charsmap
    for t in tokens:
        b = t.encode("utf-8")
        assert 0 < len(b) < 256, t
        out += bytes([len(b)]) + b
    # Scores: the f32 bit patterns as wrapping differences from the previous one (the first
    # from 0), split into four byte planes (all low bytes, then the next ...). XLM-R's scores
    # fall monotonically from id 4, so the high planes are nearly constant and gzip well.
    bits = struct.unpack(f"<{len(scores)}I", struct.pack(f"<{len(scores)}f", *scores))
    deltas = struct.pack(f"<{len(bits)}I", *((b - p) & 0xFFFFFFFF for p, b in zip((0,) + bits, bits)))
    for plane in range(4):
        out += deltas[plane::4]
    with open(out_path, "wb") as f:
        f.write(out)
    print(f"{out_path}: {len(out)} bytes, sha256 {hashlib.sha256(out).hexdigest()}")


if __name__ == "__main__":
    main()
