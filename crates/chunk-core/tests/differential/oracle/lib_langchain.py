"""Oracles for LangChain's splitters (langchain-text-splitters 1.1.3)."""

from langchain_text_splitters import TokenTextSplitter


def token(text, case):
    splitter = TokenTextSplitter(
        encoding_name=case["encoding"],
        chunk_size=case["chunk_size"],
        chunk_overlap=case["chunk_overlap"],
    )
    return [{"text": t, "start": None, "end": None} for t in splitter.split_text(text)]


ORACLES = {"langchain-token": token}
