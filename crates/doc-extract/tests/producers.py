"""Word-level agreement of the crate's PDF text with pypdf's, for tests/producers.rs.

Usage: producers.py PDF < OURS.txt   (our text of the PDF on standard input, UTF-8)

Prints one JSON object:
- "ours", "pypdf": the number of words of each text (words: whitespace-separated runs, so that
  line breaks, blank lines and runs of spaces count alike);
- "ratio": difflib.SequenceMatcher(None, ours, pypdf).ratio() over the two word lists (2 M / T:
  M words in matching blocks, T the words of both; 1.0 when equal);
- "splits": our split words, each as {"at": word index in ours, "ours": [the pieces],
  "pypdf": the word}. A split is a run of 2 to 4 adjacent words of ours whose concatenation
  is one word of pypdf's text, while pypdf's text never has that same run of words (so where
  pypdf splits the same way, or a phrase like "a way" stands next to "away", it is no split).
  A word counts once: the run starting at the first piece, the longest one.
"""
import difflib
import json
import sys

import pypdf

MAX_PIECES = 4


def pypdf_words(path):
    reader = pypdf.PdfReader(path)
    return "\n".join(page.extract_text() for page in reader.pages).split()


def splits(ours, theirs):
    """Runs of words of `ours` that are one word of `theirs`, as defined above."""
    words = set(theirs)
    runs = set()
    for k in range(2, MAX_PIECES + 1):
        runs.update(tuple(theirs[i:i + k]) for i in range(len(theirs) - k + 1))
    found, i = [], 0
    while i < len(ours):
        for k in range(MAX_PIECES, 1, -1):
            run = tuple(ours[i:i + k])
            if len(run) == k and "".join(run) in words and run not in runs:
                found.append({"at": i, "ours": list(run), "pypdf": "".join(run)})
                i += k - 1
                break
        i += 1
    return found


def main():
    ours = sys.stdin.buffer.read().decode("utf-8").split()
    theirs = pypdf_words(sys.argv[1])
    print(json.dumps({
        "ours": len(ours),
        "pypdf": len(theirs),
        "ratio": difflib.SequenceMatcher(None, ours, theirs).ratio(),
        "splits": splits(ours, theirs),
    }))


if __name__ == "__main__":
    main()
