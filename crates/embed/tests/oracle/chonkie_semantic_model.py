"""The end-to-end reference of the semantic test: chonkie 1.7.0 `SemanticChunker` with its real
model family, model2vec's potion-base-8M loaded from the model folder offline (chonkie's default,
potion-base-32M, is on no package index), everything else at chonkie's defaults but
`chunk_size`.

Usage: chonkie_semantic_model.py MODEL_DIR < lines, one JSON object a line:
  {"text": str, "chunk_size": int}
Prints a line per input:
  {"chunks": [{"text": str, "start": int}], "similarities": [float, ...], "sentences": int}
where similarities are chonkie's own (`_get_similarity` on its sentences), for the cut report.
"""

import json
import os
import sys

os.environ["HF_HUB_OFFLINE"] = "1"

from chonkie import SemanticChunker  # noqa: E402
from chonkie.embeddings import Model2VecEmbeddings  # noqa: E402
from model2vec import StaticModel  # noqa: E402


def main():
    model = Model2VecEmbeddings(StaticModel.from_pretrained(sys.argv[1]))
    for line in sys.stdin.read().split("\n"):
        if not line.strip():
            continue
        case = json.loads(line)
        chunker = SemanticChunker(embedding_model=model, chunk_size=case["chunk_size"])
        text = case["text"]
        sentences = chunker._prepare_sentences(text)
        sims = []
        if len(sentences) > chunker.similarity_window:
            sims = [float(s) for s in chunker._get_similarity(sentences)]
        chunks = chunker.chunk(text)
        out = {
            "chunks": [{"text": c.text, "start": c.start_index} for c in chunks],
            "similarities": sims,
            "sentences": len(sentences),
        }
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
