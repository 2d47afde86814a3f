// The oracles the end-to-end tests share: the libraries' own chunks (library_chunks.py) and
// Hugging Face `tokenizers`' counts (the differential tests' oracle scripts), both run in the
// oracle venv (CHUNK_ORACLE_PYTHON, made by scripts/ensure-oracle.sh).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

function python() {
  const bin = process.env.CHUNK_ORACLE_PYTHON;
  assert.ok(bin, 'CHUNK_ORACLE_PYTHON is not set: run through `make test-e2e` (scripts/ensure-oracle.sh makes the venv)');
  return bin;
}

/** The libraries' chunks of `text` for `cases` ({strategy, chunk_size, chunk_overlap, unit, encoding}). */
export function libraryChunks(text, cases) {
  const run = spawnSync(python(), [path.join(import.meta.dirname, 'library_chunks.py')], {
    input: JSON.stringify({ text, cases }),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  assert.equal(run.status, 0, `library_chunks.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout).results;
}

/** The oracle script and vocabulary file of each open vocabulary (crates/chunk-core/tests/differential/oracle). */
const ORACLES = {
  'bert-uncased': ['hf_wordpiece.py', 'bert-base-uncased.txt'],
  'xlm-roberta': ['hf_unigram.py', 'xlm-roberta.unigram'],
};

/** Hugging Face `tokenizers`' count of each of `texts` (no special tokens) with `vocab`'s tokenizer. */
export function huggingFaceCounts(vocab, texts) {
  const [script, file] = ORACLES[vocab];
  const run = spawnSync(
    python(),
    [path.join(ROOT, 'crates/chunk-core/tests/differential/oracle', script), path.join(ROOT, 'crates/chunk-core/vocab', file)],
    { input: texts.map((t) => `${JSON.stringify(t)}\n`).join(''), encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  assert.equal(run.status, 0, run.stderr);
  // The first line is the vocabulary's sha256, then one list of ids per text.
  const lines = run.stdout.trim().split('\n').slice(1);
  assert.equal(lines.length, texts.length, 'one count per text');
  return lines.map((line) => JSON.parse(line).length);
}
