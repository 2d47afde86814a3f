"""Oracle of tests/retrieval.rs (`metrics_equal_llamaindex`): LlamaIndex's own retrieval
metrics, `MRR` and `NDCG` (linear gain), from llama-index-core as pinned in requirements.txt.

stdin: one JSON object a line, {"retrieved": [ids, best first], "expected": [ids]}, ids as
integers. stdout: one JSON object a line, {"mrr": float, "ndcg": float}. A line whose list is
empty gets {"mrr": null, "ndcg": null} (LlamaIndex raises on it).
"""
import json
import sys

from llama_index.core.evaluation.retrieval.metrics import MRR, NDCG


def main():
    mrr, ndcg = MRR(), NDCG(mode="linear")
    out = sys.stdout
    for line in sys.stdin.buffer.read().decode("utf-8").split("\n"):
        if not line:
            continue
        case = json.loads(line)
        retrieved = [str(i) for i in case["retrieved"]]
        expected = [str(i) for i in case["expected"]]
        if not retrieved or not expected:
            out.write('{"mrr": null, "ndcg": null}\n')
            continue
        scores = {
            "mrr": mrr.compute(expected_ids=expected, retrieved_ids=retrieved).score,
            "ndcg": ndcg.compute(expected_ids=expected, retrieved_ids=retrieved).score,
        }
        out.write(json.dumps(scores) + "\n")


if __name__ == "__main__":
    main()
