"""Every library strategy of rag_chunk as an oracle function (text, case) -> chunks: the
package's `split_text`, which returns the texts as the library's own split does."""

import rag_chunk


def _split(strategy):
    def run(text, case):
        texts = rag_chunk.split_text(text, strategy, case["chunk_size"], case["chunk_overlap"],
                                     case["unit"], case["encoding"])
        return [{"text": t} for t in texts]

    return run


ORACLES = {s["id"]: _split(s["id"]) for s in rag_chunk.strategies() if s["library"]}
