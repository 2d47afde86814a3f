#!/usr/bin/env python3
"""Report module-level import cycles in Rust crates (Python 3 standard library only).

Usage: scripts/import-cycles.py [--include-tests] SRC_DIR [SRC_DIR ...] | --self-test

For each crate source directory (e.g. `crates/chunk-core/src`, or `src` for the page):

- every file is a module: `lib.rs`/`main.rs` is the crate root, `a/b.rs` and `a/b/mod.rs` are
  both the module `a::b`;
- the edges are the paths the file names: `use crate::…`, `use super::…`, `use self::…`,
  `use child::…` (a child module of the file's own module), with braces expanded, and the same
  paths written inline in the code (`crate::x::f(…)`). A path is an edge to the deepest module
  of it that exists: `crate::strategy::Chunks` is an edge to `strategy`, and
  `crate::strategy::fixed::Fixed` one to `strategy::fixed`;
- an edge between a module and one of its ancestors (a child's `use super::Settings`) is not a
  circle: a parent that declares its children and the children that use the parent's types is
  how Rust modules are written. Every other edge is lifted to the two siblings below the two
  modules' nearest common ancestor (`analysis::compare -> strategy` is `analysis -> strategy`
  in the crate root), and a circle is a strongly connected set of siblings.

`#[cfg(test)]` modules are left out unless `--include-tests` is given (a test may use what it
likes). Comments, string and char literals are blanked before reading.

Prints every circle with the `file:line` of each edge that makes it, and exits 1 if any exists
(0 if none; 2 on a usage error).
"""

import os
import re
import sys
from collections import defaultdict

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments_and_strings(text):
    """Blanks comments, string and char literals, keeping every line break (line numbers hold)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and nxt == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 260]) and not re.match(r"[A-Za-z0-9_]", text[i - 1] if i else " "):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}'), not a lifetime ('a).
            m = re.match(r"'(\\u\{[0-9A-Fa-f]+\}|\\.|[^\\'])'", text[i:i + 12])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_test_modules(text):
    """Blanks the bodies of `#[cfg(test)] mod name { … }` (keeping line breaks)."""
    pattern = re.compile(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*\{")
    while True:
        m = pattern.search(text)
        if not m:
            return text
        depth, j = 1, m.end()
        while j < len(text) and depth:
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
            j += 1
        text = text[: m.start()] + re.sub(r"[^\n]", " ", text[m.start():j]) + text[j:]


def expand_use_tree(tree):
    """`a::{b::C, d::{e, f}}` -> [[a, b, C], [a, d, e], [a, d, f]] (`self` in a group is its prefix).

    `as` renames are removed by the caller."""
    tree = re.sub(r"\s+", "", tree)

    def split_top(s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        return parts

    def expand(s):
        brace = s.find("{")
        if brace < 0:
            segs = [seg for seg in s.split("::") if seg]
            return [segs] if segs else [[]]
        prefix = [seg for seg in s[:brace].split("::") if seg]
        inner = s[brace + 1: s.rfind("}")]
        result = []
        for part in split_top(inner):
            for tail in expand(part):
                if tail == ["self"]:
                    tail = []
                result.append(prefix + tail)
        return result

    return expand(tree)


def module_of(rel_path):
    """`a/b.rs` and `a/b/mod.rs` -> ("a", "b"); `lib.rs`/`main.rs` -> ()."""
    parts = rel_path[:-3].split(os.sep)
    if parts[-1] == "mod":
        parts = parts[:-1]
    if len(parts) == 1 and parts[0] in ("lib", "main"):
        return ()
    return tuple(parts)


def read_crate(src, include_tests):
    """Returns ({module: file}, [(from_module, to_path_segments, file, line)])."""
    files = {}
    for root, _dirs, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                mod = module_of(os.path.relpath(path, src))
                # lib.rs and main.rs both are roots; keep lib.rs as the root's file.
                if mod in files and os.path.basename(path) == "main.rs":
                    continue
                files[mod] = path
    uses = []
    use_re = re.compile(r"\buse\s+([^;]+);")
    inline_re = re.compile(r"(?<![A-Za-z0-9_:])((?:crate|super|self)(?:::(?:super|" + IDENT + r"))+)")
    for mod, path in files.items():
        with open(path, encoding="utf-8") as f:
            text = strip_comments_and_strings(f.read())
        if not include_tests:
            text = drop_test_modules(text)
        taken = []
        for m in use_re.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            tree = re.sub(r"\s+as\s+" + IDENT, "", m.group(1))
            for segs in expand_use_tree(tree):
                uses.append((mod, segs, path, line))
            taken.append((m.start(), m.end()))
        for m in inline_re.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue
            line = text.count("\n", 0, m.start()) + 1
            uses.append((mod, m.group(1).split("::"), path, line))
    return files, uses


def resolve(mod, segs, modules):
    """The deepest existing module a path names, or None (an outside crate, or the module itself)."""
    if not segs:
        return None
    head = segs[0]
    if head == "crate":
        base, rest = (), segs[1:]
    elif head in ("super", "self"):
        base, rest = mod, segs
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                base = base[:-1]
            rest = rest[1:]
    elif mod + (head,) in modules:
        base, rest = mod, segs
    else:
        return None  # an outside crate (std, leptos, chunk_core…)
    target = base
    for seg in rest:
        if target + (seg,) in modules:
            target = target + (seg,)
        else:
            break
    return target


def sccs(nodes, edges):
    """Tarjan's strongly connected components (iterative); only the ones of two or more nodes."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def shortest_cycles(comp, edges):
    """For every edge a -> b inside a component, the shortest way back b -> … -> a: the circles
    a reader can break one edge of (rotations counted once)."""
    members, seen, out = set(comp), set(), []
    for a in comp:
        for b in sorted(edges.get(a, ())):
            if b not in members:
                continue
            previous, queue = {b: None}, [b]
            while queue and a not in previous:
                nxt_queue = []
                for node in queue:
                    for nxt in sorted(edges.get(node, ())):
                        if nxt in members and nxt not in previous:
                            previous[nxt] = node
                            nxt_queue.append(nxt)
                queue = nxt_queue
            path, node = [], a
            while node is not None:
                path.append(node)
                node = previous[node]
            back = list(reversed(path))  # b … a
            cycle = [a] + back[:-1]
            start = cycle.index(min(cycle))
            key = tuple(cycle[start:] + cycle[:start])
            if key not in seen:
                seen.add(key)
                out.append(key)
    return sorted(out, key=lambda c: (len(c), c))


def name(mod):
    return "::".join(mod) if mod else "crate"


def check(src, include_tests):
    """Prints the crate's circles; returns how many there are."""
    modules, uses = read_crate(src, include_tests)
    modules = set(modules)
    # (parent scope, from sibling, to sibling) -> [evidence]
    lifted = defaultdict(list)
    for mod, segs, path, line in uses:
        target = resolve(mod, segs, modules)
        if target is None or target == mod:
            continue
        common = 0
        while common < min(len(mod), len(target)) and mod[common] == target[common]:
            common += 1
        if common == len(mod) or common == len(target):
            continue  # an ancestor and its descendant
        scope = mod[:common]
        a, b = mod[: common + 1], target[: common + 1]
        lifted[(scope, a, b)].append((path, line, name(mod), "::".join(segs)))
    by_scope = defaultdict(lambda: defaultdict(set))
    for scope, a, b in lifted:
        by_scope[scope][a].add(b)
    found = 0
    for scope in sorted(by_scope):
        edges = by_scope[scope]
        nodes = set(edges) | {b for targets in edges.values() for b in targets}
        for comp in sccs(nodes, edges):
            found += 1
            members = set(comp)
            print(f"{src}: import circle in {name(scope)} among " + ", ".join(name(m) for m in comp))
            for cycle in shortest_cycles(comp, edges):
                print("  circle: " + " -> ".join(name(m) for m in cycle + (cycle[0],)))
            for a in comp:
                for b in sorted(edges.get(a, ())):
                    if b not in members:
                        continue
                    evidence = lifted[(scope, a, b)]
                    print(f"  {name(a)} -> {name(b)}:")
                    for path, line, from_mod, used in evidence[:4]:
                        print(f"    {path}:{line}: {from_mod} uses {used}")
                    if len(evidence) > 4:
                        print(f"    … and {len(evidence) - 4} more")
    return found


def self_test():
    """Shows that the check can fail: a two-module circle is found (exit 1's count), an
    ancestor/descendant pair and a test module's use are not. Returns 0 when all hold."""
    import contextlib
    import io
    import tempfile

    cases = {
        # a -> b -> a: one circle.
        "circle": ({"lib.rs": "mod a;\nmod b;\n", "a.rs": "use crate::b::B;\npub struct A;\n",
                    "b.rs": "use crate::a::A;\npub struct B;\n"}, 1),
        # A child using its parent's type is how modules are written, not a circle.
        "parent": ({"lib.rs": "mod a;\npub struct T;\n", "a/mod.rs": "mod c;\nuse crate::T;\n",
                    "a/c.rs": "use super::super::T;\nuse crate::a::X;\n"}, 0),
        # A use inside `#[cfg(test)] mod tests { … }` is left out.
        "tests": ({"lib.rs": "mod a;\nmod b;\n", "a.rs": "use crate::b::B;\npub struct A;\n",
                   "b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n"}, 0),
    }
    failures = 0
    for label, (files, want) in cases.items():
        with tempfile.TemporaryDirectory() as src:
            for rel, text in files.items():
                path = os.path.join(src, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
            with contextlib.redirect_stdout(io.StringIO()):
                got = check(src, include_tests=False)
        if got != want:
            failures += 1
            print(f"self-test {label}: {got} circle(s), expected {want}")
    print("self-test: " + ("ok" if not failures else f"{failures} case(s) wrong"))
    return 1 if failures else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    include_tests = "--include-tests" in argv
    dirs = [a for a in argv if a != "--include-tests"]
    if not dirs or any(a.startswith("-") for a in dirs):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    total = 0
    for src in dirs:
        if not os.path.isdir(src):
            print(f"{src}: not a directory", file=sys.stderr)
            return 2
        total += check(src, include_tests)
    if total:
        print(f"{total} import circle(s)")
        return 1
    print("no import circles in " + ", ".join(dirs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
