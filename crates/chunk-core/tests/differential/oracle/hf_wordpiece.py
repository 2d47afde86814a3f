"""Oracle of tests/wordpiece.rs: Hugging Face `tokenizers` with BERT uncased's pipeline.

argv[1]: the vocab.txt. stdin: one JSON string a line. stdout: first line
{"sha256": ...} of the vocab file, then one JSON list of ids a line (no [CLS]/[SEP]).
With `--save PATH` after the vocab: writes the pipeline as a tokenizer.json and exits (the
bench's JavaScript peer reads it).

The pipeline is the one of all-MiniLM-L6-v2's tokenizer.json (vocab/SOURCE.md) without its
truncation and padding, so that no count is capped.
"""
import hashlib
import json
import sys

from tokenizers import AddedToken, Tokenizer
from tokenizers.models import WordPiece
from tokenizers.normalizers import BertNormalizer
from tokenizers.pre_tokenizers import BertPreTokenizer


def build(path):
    """The pipeline over the vocab.txt at `path` (also used by hf_models.py)."""
    tok = Tokenizer(WordPiece.from_file(path, unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    tok.pre_tokenizer = BertPreTokenizer()
    tok.add_special_tokens(
        [AddedToken(t, special=True, normalized=False) for t in
         ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]]
    )
    return tok


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    tok = build(path)
    if sys.argv[2:3] == ["--save"]:
        tok.save(sys.argv[3])
        return
    # split("\n"), not splitlines(): JSON leaves U+0085 and U+2028 unescaped.
    lines = sys.stdin.buffer.read().decode("utf-8").split("\n")
    texts = [json.loads(line) for line in lines if line]
    out = sys.stdout
    out.write(json.dumps({"sha256": digest}) + "\n")
    for enc in tok.encode_batch(texts, add_special_tokens=False):
        out.write(json.dumps(enc.ids) + "\n")


if __name__ == "__main__":
    main()
