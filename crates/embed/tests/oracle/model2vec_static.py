"""The reference of the static embedding test: model2vec itself (the version pinned in
crates/chunk-core/tests/differential/requirements.txt), StaticModel.from_pretrained on the model
folder, offline (the folder exists, so nothing is fetched; HF_HUB_OFFLINE is set all the same).

Usage: model2vec_static.py MODEL_DIR < lines, one JSON string (a text) a line.
Prints first a line of the model's settings:
  {"version", "dim", "median_token_length", "max_length", "normalize"}
then, a line per text:
  {"ids": [...], "vector": [...], "mean": [...]}
- ids: the ids model2vec averages, from its own functions as `encode` calls them
  (`_encode_dispatch`: the text cut to max_length * median_token_length characters; then
  `tokenize`: the tokenizer with its truncation at max_length, add_special_tokens=False, the unk
  id removed);
- vector: `model.encode(text)`;
- mean: `model.encode(text, normalize=False)`.
The float32 values are printed exactly (a float32 converts to a float without rounding).
"""

import json
import os
import sys

os.environ["HF_HUB_OFFLINE"] = "1"

import model2vec  # noqa: E402
from model2vec import StaticModel  # noqa: E402


def main():
    model = StaticModel.from_pretrained(sys.argv[1])
    print(
        json.dumps(
            {
                "version": model2vec.__version__,
                "dim": model.dim,
                "median_token_length": model.median_token_length,
                "max_length": model.max_length,
                "normalize": model.normalize,
            }
        )
    )
    for line in sys.stdin:
        text = json.loads(line)
        cut = text
        if model.max_length is not None:
            cut = text[: model.max_length * model.median_token_length]
        ids = model.tokenize([cut])[0]
        vector = model.encode(text, use_multiprocessing=False)
        mean = model.encode(text, normalize=False, use_multiprocessing=False)
        print(
            json.dumps(
                {
                    "ids": [int(i) for i in ids],
                    "vector": [float(v) for v in vector],
                    "mean": [float(v) for v in mean],
                }
            )
        )


if __name__ == "__main__":
    main()
