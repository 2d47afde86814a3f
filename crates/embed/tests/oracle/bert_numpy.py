"""The reference of the embedding tests: an INDEPENDENT NumPy implementation of a
sentence-transformers BERT model (not the library itself: sentence-transformers needs torch, whose
PyPI wheel for Linux pulls in the CUDA libraries, several GB, too much for CI; see
crates/embed/models/LICENSES.md and ARCHITECTURE.md).

Usage: bert_numpy.py MODEL_DIR < lines, one JSON string (a text) a line.
Prints, a line per text: {"ids": [...], "vector": [...]}.

What it follows, each from the model folder's own files:
- tokenizer.json through Hugging Face `tokenizers` (the library sentence-transformers uses), with
  truncation to sentence_bert_config.json's max_seq_length (the library sets it over the
  tokenizer's own 128) and no padding: one text at a time, so no padding token is ever pooled;
- transformers' BertModel (modeling_bert.py) in float64: embeddings summed then LayerNorm, each
  layer's self-attention softmax(q k^T / sqrt(d)) v, output dense + residual + LayerNorm,
  intermediate dense + erf GELU, output dense + residual + LayerNorm;
- 1_Pooling/config.json (mean over every token, or the CLS token), then Normalize when
  modules.json lists it.
The weights are read from model.safetensors with the format's own layout (u64 header length,
JSON header, little-endian data); no safetensors package is used.
"""

import json
import math
import os
import struct
import sys

import numpy as np
from tokenizers import Tokenizer

DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    body = data[8 + n :]
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        arr = np.frombuffer(body[begin:end], dtype=DTYPES[info["dtype"]]).reshape(info["shape"])
        out[name] = arr.astype(np.float64) if info["dtype"] != "I64" else arr
    return out


def layer_norm(x, g, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def erf_gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def main():
    folder = sys.argv[1]
    read = lambda name: json.load(open(os.path.join(folder, name)))
    config = read("config.json")
    max_len = read("sentence_bert_config.json")["max_seq_length"]
    pooling = read(os.path.join("1_Pooling", "config.json"))
    normalize = any(m["type"].endswith(".Normalize") for m in read("modules.json"))
    w = read_safetensors(os.path.join(folder, "model.safetensors"))
    p = "bert." if "bert.embeddings.word_embeddings.weight" in w else ""
    W = lambda name: w[p + name]
    tok = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
    tok.enable_truncation(max_length=max_len)
    tok.no_padding()
    h, heads, eps = config["hidden_size"], config["num_attention_heads"], config["layer_norm_eps"]
    d = h // heads

    def linear(x, name):
        return x @ W(name + ".weight").T + W(name + ".bias")

    for line in sys.stdin:
        text = json.loads(line)
        ids = tok.encode(text).ids
        n = len(ids)
        x = (
            W("embeddings.word_embeddings.weight")[ids]
            + W("embeddings.position_embeddings.weight")[:n]
            + W("embeddings.token_type_embeddings.weight")[0]
        )
        x = layer_norm(x, W("embeddings.LayerNorm.weight"), W("embeddings.LayerNorm.bias"), eps)
        for l in range(config["num_hidden_layers"]):
            pre = f"encoder.layer.{l}"
            q = linear(x, pre + ".attention.self.query").reshape(n, heads, d).transpose(1, 0, 2)
            k = linear(x, pre + ".attention.self.key").reshape(n, heads, d).transpose(1, 0, 2)
            v = linear(x, pre + ".attention.self.value").reshape(n, heads, d).transpose(1, 0, 2)
            s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            ctx = (s @ v).transpose(1, 0, 2).reshape(n, h)
            a = layer_norm(
                x + linear(ctx, pre + ".attention.output.dense"),
                W(pre + ".attention.output.LayerNorm.weight"),
                W(pre + ".attention.output.LayerNorm.bias"),
                eps,
            )
            inter = erf_gelu(linear(a, pre + ".intermediate.dense"))
            x = layer_norm(
                a + linear(inter, pre + ".output.dense"),
                W(pre + ".output.LayerNorm.weight"),
                W(pre + ".output.LayerNorm.bias"),
                eps,
            )
        if pooling.get("pooling_mode_cls_token"):
            vec = x[0]
        else:
            vec = x.mean(0)
        if normalize:
            vec = vec / max(np.linalg.norm(vec), 1e-12)
        print(json.dumps({"ids": ids, "vector": [float(v) for v in vec]}))


if __name__ == "__main__":
    main()
