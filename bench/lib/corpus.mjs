// Assembles the mixed benchmark corpus from files installed on this machine (Debian man-page
// packages and one crate of the cargo registry), deterministically, into target/bench/.
// Sources and licences: bench/corpus/SOURCES.md. Nothing here is committed: the text is rebuilt
// from the same package versions on every run (their versions are printed with the figures).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

/** Repository root (bench/lib/../..). */
export const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** Where the assembled corpus goes (target/ is ignored by git). */
export const OUT = path.join(ROOT, "target", "bench");

/** Size of the cold-start sample, in bytes (UTF-8). */
export const SAMPLE_BYTES = 100_000;

/** Size of the mixed text the chunking strategies are timed on (bench/strategies.mjs), at most. */
export const MIXED_BYTES = 1_000_000;

/**
 * The parts of the corpus: a Debian package (or a crate) each, with a byte budget.
 * `pick` filters the package's files; `strip` turns a file into plain text.
 */
const PARTS = [
  { name: "English prose", debian: "manpages", pick: /^\/usr\/share\/man\/man[157]\//, budget: 300_000 },
  { name: "Rust code", crate: "regex-automata", budget: 300_000 },
  { name: "Russian", debian: "manpages-ru", pick: /^\/usr\/share\/man\/ru\//, budget: 200_000 },
  { name: "Polish", debian: "manpages-pl", pick: /^\/usr\/share\/man\/pl\//, budget: 200_000 },
  { name: "Vietnamese", debian: "manpages-vi", pick: /^\/usr\/share\/man\/vi\//, budget: 200_000 },
  { name: "Japanese", debian: "manpages-ja", pick: /^\/usr\/share\/man\/ja\//, budget: 150_000 },
  { name: "Chinese (simplified)", debian: "manpages-zh", pick: /^\/usr\/share\/man\/zh_CN\//, budget: 150_000 },
];

/** Debian packages the corpus needs; scripts/bench.sh installs the missing ones. */
export const DEBIAN_PACKAGES = PARTS.filter((p) => p.debian).map((p) => p.debian);

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so file choice is stable. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled(items, seed) {
  const out = [...items];
  const r = rng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const NAMED = {
  em: "—", en: "–", aq: "'", dq: '"', lq: "“", rq: "”", oq: "‘", cq: "’", bu: "•", co: "©",
  rg: "®", tm: "™", mi: "−", hy: "-", ti: "~", ha: "^", rs: "\\", fo: "«", fc: "»", Fo: "«",
  Fc: "»", ua: "↑", da: "↓", "->": "→", "<-": "←", "<=": "≤", ">=": "≥", "!=": "≠", mu: "×",
  de: "°", pl: "+", eq: "=", sc: "§", ga: "`", aa: "´", at: "@", sh: "#", ba: "|", br: "|",
};
/** Macros whose arguments are text to keep (headings, font and hyperlink macros). */
const TEXT_MACROS = new Set(["SH", "SS", "B", "I", "BR", "RB", "IR", "RI", "BI", "IB", "SM", "SB", "IP", "TP", "UR", "MT", "Nm", "Nd"]);

const ALTERNATING = new Set(["BR", "RB", "IR", "RI", "BI", "IB"]);

/** Man-page source (roff) to plain text: comments and layout requests dropped, escapes resolved. */
export function stripRoff(src) {
  const out = [];
  for (const raw of src.split("\n")) {
    let line = raw;
    if (/^['.]\s*\\"/.test(line) || line.startsWith('.\\"') || line.startsWith("\\\"")) continue;
    if (line.startsWith(".") || line.startsWith("'")) {
      const m = /^[.']\s*(\S+)\s*(.*)$/.exec(line);
      if (!m || !TEXT_MACROS.has(m[1]) || m[2] === "") continue;
      // Font-alternating macros (.BR, .IR …) join their arguments without a space.
      const args = [...m[2].matchAll(/"([^"]*)"|(\S+)/g)].map((a) => a[1] ?? a[2]);
      line = args.join(ALTERNATING.has(m[1]) ? "" : " ");
    }
    line = line
      .replace(/\\f(\[[^\]]*\]|\(..|.)/g, "")
      .replace(/\\\*(\[[^\]]*\]|\(..|.)/g, "")
      .replace(/\\\[([^\]]*)\]/g, (_, n) => NAMED[n] ?? "")
      .replace(/\\\((..)/g, (_, n) => NAMED[n] ?? "")
      .replace(/\\s[-+]?\d/g, "")
      .replace(/\\[&|^c%:)]/g, "")
      .replace(/\\[ ~0]/g, " ")
      .replace(/\\-/g, "-")
      .replace(/\\e/g, "\\")
      .replace(/\\(.)/g, "$1");
    out.push(line);
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

function packageVersion(pkg) {
  try {
    return execFileSync("dpkg-query", ["-W", "-f=${Version}", pkg], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(`Debian package ${pkg} is not installed (scripts/bench.sh installs it: apt-get install -y ${pkg})`);
  }
}

/** Files of an installed Debian package that match `pick`, sorted. */
function debianFiles(pkg, pick) {
  const list = execFileSync("dpkg", ["-L", pkg], { encoding: "utf8" }).split("\n");
  return list.filter((f) => pick.test(f) && fs.statSync(f, { throwIfNoEntry: false })?.isFile()).sort();
}

/** The crate's version in Cargo.lock and its sources in the cargo registry. */
function crateFiles(name) {
  const lock = fs.readFileSync(path.join(ROOT, "Cargo.lock"), "utf8");
  const versions = [...lock.matchAll(new RegExp(`name = "${name}"\\nversion = "([^"]+)"`, "g"))].map((m) => m[1]);
  if (versions.length === 0) throw new Error(`${name} is not in Cargo.lock`);
  const version = versions.sort().at(-1);
  const registry = path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), ".cargo"), "registry", "src");
  for (const index of fs.existsSync(registry) ? fs.readdirSync(registry).sort() : []) {
    const dir = path.join(registry, index, `${name}-${version}`);
    if (fs.existsSync(dir)) {
      const files = fs.readdirSync(path.join(dir, "src"), { recursive: true })
        .filter((f) => f.endsWith(".rs"))
        .map((f) => path.join(dir, "src", f))
        .sort();
      return { version, files };
    }
  }
  throw new Error(`${name}-${version} is not in the cargo registry (run: cargo fetch)`);
}

function readText(file) {
  const bytes = fs.readFileSync(file);
  const plain = file.endsWith(".gz") ? zlib.gunzipSync(bytes) : bytes;
  try {
    return decoder.decode(plain);
  } catch {
    return null; // not UTF-8: skipped
  }
}

/** Takes whole files in a fixed shuffled order until `budget` bytes; the last one is cut at a line end. */
function fill(files, budget, seed, toText) {
  const chunks = [];
  let bytes = 0;
  let used = 0;
  for (const file of shuffled(files, seed)) {
    if (bytes >= budget) break;
    const text = readText(file);
    if (text === null) continue;
    const plain = toText(text);
    if (plain.length < 200) continue; // a link page (.so) or nearly empty
    let piece = plain + "\n\n";
    const size = Buffer.byteLength(piece);
    if (bytes + size > budget) {
      const room = budget - bytes;
      const cut = Buffer.from(piece).subarray(0, room).toString("utf8").replace(/\uFFFD$/, "");
      piece = cut.slice(0, Math.max(0, cut.lastIndexOf("\n") + 1));
    }
    chunks.push(piece);
    bytes += Buffer.byteLength(piece);
    used++;
    if (size > Buffer.byteLength(piece)) break; // the budget is reached
  }
  return { text: chunks.join(""), files: used };
}

/**
 * Builds (or reuses, when its recipe is unchanged) the corpus. Returns
 * `{ text, sample, mixed, parts: [{ name, source, bytes, chars, files }], bytes, sha256, paths }`.
 */
export function assembleCorpus() {
  const parts = [];
  PARTS.forEach((spec, i) => {
    let files, source;
    if (spec.debian) {
      files = debianFiles(spec.debian, spec.pick);
      source = `Debian ${spec.debian} ${packageVersion(spec.debian)}`;
    } else {
      const c = crateFiles(spec.crate);
      files = c.files;
      source = `crate ${spec.crate} ${c.version} (src/**/*.rs)`;
    }
    const toText = spec.debian ? stripRoff : (t) => t;
    const { text, files: used } = fill(files, spec.budget, 1000 + i, toText);
    parts.push({ name: spec.name, source, text, bytes: Buffer.byteLength(text), chars: [...text].length, files: used });
  });
  const text = parts.map((p) => p.text).join("");
  const total = Buffer.byteLength(text);
  // The head of every part, in proportion to the part's size, `bytes` in all (at most).
  // `atLine`: each head ends at its last line end, so no part is cut mid-line.
  const heads = (bytes, atLine) =>
    parts
      .map((p) => {
        const share = Math.floor((bytes * p.bytes) / total);
        const head = Buffer.from(p.text).subarray(0, share).toString("utf8").replace(/\uFFFD+$/, "");
        return atLine ? head.slice(0, head.lastIndexOf("\n") + 1) : head;
      })
      .join("");
  // The cold-start sample.
  const sample = heads(SAMPLE_BYTES, false);
  // The mixed text the chunking strategies are timed on (every part, ~1 MB).
  const mixed = heads(MIXED_BYTES, true);
  fs.mkdirSync(OUT, { recursive: true });
  const paths = {
    corpus: path.join(OUT, "corpus.txt"),
    sample: path.join(OUT, "sample-100k.txt"),
    mixed: path.join(OUT, "mixed-1mb.txt"),
  };
  fs.writeFileSync(paths.corpus, text);
  fs.writeFileSync(paths.sample, sample);
  fs.writeFileSync(paths.mixed, mixed);
  const sha256 = createHash("sha256").update(text).digest("hex");
  return {
    text,
    sample,
    mixed,
    bytes: total,
    sha256,
    paths,
    parts: parts.map(({ text: _t, ...rest }) => rest),
  };
}

/** `text` repeated and cut to at most `size` bytes of UTF-8, at a character boundary. */
export function repeatTo(text, size) {
  const buf = Buffer.from(text.repeat(Math.ceil(size / Buffer.byteLength(text))));
  let end = Math.min(size, buf.length);
  while (end < buf.length && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}
