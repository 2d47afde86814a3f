// One small ES module per tokenizer × encoding × environment, generated into bench/pkg-adapters/
// (ignored by git), so that each imports only its own encoding's data: that is what a page would
// ship for that encoding, and what the browser bundles (bench/pkg-browser/) contain.
//
// Every adapter exports:
//   load(base?)  brings code and data into memory (wasm instantiation); `base` is the page URL
//                in the browser, unused in Node. Importing the module is part of the load.
//   create()     builds the encoder for the adapter's encoding; returns
//                { count(text) -> tokens, encode(text) -> token ids, reset?() } (reset empties
//                a cache that would otherwise carry over from one timed run to the next).
// Special-token strings such as <|endoftext|> are ordinary text everywhere (tiktoken's
// encode_ordinary), as in the page.
import fs from "node:fs";
import path from "node:path";

export const BENCH = path.resolve(import.meta.dirname, "..");
export const ADAPTERS = path.join(BENCH, "pkg-adapters");

export const ENCODINGS = ["cl100k_base", "o200k_base"];

/** The tokenizers compared; `ours` is the page's (chunk-core compiled to wasm). */
export const TOKENIZERS = [
  { id: "ours", label: "ours (chunk-core wasm)" },
  { id: "js-tiktoken", label: "js-tiktoken" },
  { id: "gpt-tokenizer", label: "gpt-tokenizer" },
  { id: "tiktoken", label: "tiktoken (wasm, lite)" },
  // Built by scripts/bench-common.sh (bench_peer_wasm); left out when that build failed.
  ...(fs.existsSync(path.join(BENCH, "pkg-web", "peer_bpe_openai_bg.wasm")) &&
  fs.existsSync(path.join(BENCH, "pkg-node", "peer_bpe_openai.js"))
    ? [{ id: "bpe-openai", label: "bpe-openai (wasm)" }]
    : []),
];
export const PEERS = TOKENIZERS.filter((t) => t.id !== "ours");

const SOURCES = {
  ours: {
    node: (enc) => `import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
// The nodejs target compiles and instantiates the wasm synchronously when required.
const w = require("../pkg-node/tokenize_engine.js");
export async function load() {}
export function create() {
  w.prepare("${enc}");
  return { count: (t) => w.count("${enc}", t), encode: (t) => w.encode("${enc}", t) };
}
`,
    browser: (enc) => `import init, * as w from "../pkg-web/tokenize_engine.js";
export async function load(base) {
  await init({ module_or_path: new URL("pkg-web/tokenize_engine_bg.wasm", base) });
}
export function create() {
  w.prepare("${enc}");
  return { count: (t) => w.count("${enc}", t), encode: (t) => w.encode("${enc}", t) };
}
`,
  },
  "js-tiktoken": {
    any: (enc) => `import { Tiktoken } from "js-tiktoken/lite";
import ranks from "js-tiktoken/ranks/${enc}";
export async function load() {}
export function create() {
  const t = new Tiktoken(ranks);
  const encode = (s) => t.encode(s, [], []);
  return { count: (s) => encode(s).length, encode };
}
`,
  },
  "gpt-tokenizer": {
    any: (enc) => `import { clearMergeCache, countTokens, encode } from "gpt-tokenizer/encoding/${enc}";
const ordinary = { disallowedSpecial: new Set() };
export async function load() {}
export function create() {
  return {
    count: (s) => countTokens(s, ordinary),
    encode: (s) => encode(s, ordinary),
    // Its merge cache outlives a call; emptied before each timed run so that no run reuses
    // the merges of the previous one (a page tokenizes a new document).
    reset: () => clearMergeCache(),
  };
}
`,
  },
  tiktoken: {
    node: (enc) => `import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { Tiktoken } = require("tiktoken/lite");
const data = require("tiktoken/encoders/${enc}.json");
export async function load() {}
export function create() {
  const t = new Tiktoken(data.bpe_ranks, data.special_tokens, data.pat_str);
  return { count: (s) => t.encode_ordinary(s).length, encode: (s) => t.encode_ordinary(s) };
}
`,
    browser: (enc) => `import { init, Tiktoken } from "tiktoken/lite/init";
import data from "tiktoken/encoders/${enc}.json";
export async function load(base) {
  const url = new URL("node_modules/tiktoken/lite/tiktoken_bg.wasm", base);
  await init((imports) => WebAssembly.instantiateStreaming(fetch(url), imports));
}
export function create() {
  const t = new Tiktoken(data.bpe_ranks, data.special_tokens, data.pat_str);
  return { count: (s) => t.encode_ordinary(s).length, encode: (s) => t.encode_ordinary(s) };
}
`,
  },
};

/** `source` with `from` replaced by `to`; throws when `from` is not in it. */
function swap(source, from, to) {
  if (!source.includes(from)) throw new Error(`adapter source lacks ${from}`);
  return source.replace(from, to);
}

// github/rust-gems' bpe-openai 0.3.2 in wasm (bench/peer-bpe-openai): the same exports as ours.
// Its one module holds the tables of both encodings.
SOURCES["bpe-openai"] = {
  node: (enc) => swap(SOURCES.ours.node(enc), "../pkg-node/tokenize_engine.js", "../pkg-node/peer_bpe_openai.js"),
  browser: (enc) =>
    swap(
      swap(SOURCES.ours.browser(enc), "../pkg-web/tokenize_engine.js", "../pkg-web/peer_bpe_openai.js"),
      "pkg-web/tokenize_engine_bg.wasm",
      "pkg-web/peer_bpe_openai_bg.wasm",
    ),
};

/** Path of the adapter module of `tok` × `enc` for `env` ("node" or "browser"). */
export function adapterPath(tok, enc, env) {
  return path.join(ADAPTERS, `${env}-${tok}-${enc}.mjs`);
}

/** Writes every adapter module (cheap; done on each run). */
export function writeAdapters() {
  fs.mkdirSync(ADAPTERS, { recursive: true });
  for (const { id } of TOKENIZERS) {
    for (const enc of ENCODINGS) {
      for (const env of ["node", "browser"]) {
        const make = SOURCES[id][env] ?? SOURCES[id].any;
        fs.writeFileSync(adapterPath(id, enc, env), make(enc));
      }
    }
  }
}

/** The wasm file that `tok` instantiates at load (its size counts in what it ships), or null. */
export function wasmFile(tok) {
  if (tok === "ours") return path.join(BENCH, "pkg-web", "tokenize_engine_bg.wasm");
  if (tok === "tiktoken") return path.join(BENCH, "node_modules", "tiktoken", "lite", "tiktoken_bg.wasm");
  if (tok === "bpe-openai") return path.join(BENCH, "pkg-web", "peer_bpe_openai_bg.wasm");
  return null;
}
