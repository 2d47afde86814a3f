"""Reference extractions for tests/reference.rs: the text BeautifulSoup (html5lib's parser,
the WHATWG algorithm), python-docx and pypdf get out of a document, by the crate's rules stated
here again independently. Prints one JSON object: {"text", "title", "headings", "list_items",
"tables"}, for HTML also "code_blocks", "removed", "boilerplate" and "images" (left out as the
crate's rules count them), for a DOCX also "notes" (its footnotes and endnotes, whose text
follows the body's), and for a PDF also "pages" (each page's text), or {"error": "password"} for a PDF
that opens only with a password. Usage: reference.py html|docx|pdf PATH. Also imported by
tests/e2e/reference_count.py.
"""
import json
import sys


# Left out with everything inside them, wherever they are (the head too, apart from its title).
REMOVED = ["script", "style", "noscript", "template", "iframe", "object", "svg", "canvas",
           "select"]
# What scopes a header, footer or aside to itself (HTML-AAM's landmark scoping).
SCOPES = ["article", "aside", "main", "nav", "section"]
SCOPE_ROLES = ["article", "complementary", "main", "navigation", "region"]


def css_hiding_selectors(soup):
    """The selectors of the page's own <style> sheets whose rules, outside at-rule blocks,
    declare display:none or visibility:hidden, when made only of names, classes, ids and
    descendant combinators (the crate's documented subset; soupsieve then matches them)."""
    import re

    out = []
    for sheet in soup.find_all("style"):
        # (get_text() leaves out a style sheet's own text: it is not the page's text.)
        text = "".join(str(s) for s in sheet.contents)
        css = re.sub(r"/\*.*?(\*/|$)", "", text, flags=re.S)
        depth, start, prelude = 0, 0, None
        for i, c in enumerate(css):
            if c == "{":
                if depth == 0:
                    prelude, start = css[start:i], i + 1
                depth += 1
            elif c == "}":
                depth = max(depth - 1, 0)
                if depth == 0:
                    decls = "".join(css[start:i].split()).lower()
                    if (prelude is not None and not prelude.strip().startswith("@")
                            and ("display:none" in decls or "visibility:hidden" in decls)):
                        for sel in prelude.split(","):
                            words = sel.split()
                            if words and all(re.fullmatch(r"[\w-]*(\.[\w-]+)*(#[\w-]+)?(\.[\w-]+)*", w)
                                             for w in words):
                                out.append(" ".join(words))
                    prelude, start = None, i + 1
            elif c == ";" and depth == 0:
                start = i + 1
    return out


def html_reference(path):
    import re

    from bs4 import BeautifulSoup, NavigableString, Tag

    with open(path, encoding="utf-8") as f:
        soup = BeautifulSoup(f.read(), "html5lib")
    title = soup.title.get_text() if soup.title else None
    by_sheet = set()
    for sel in css_hiding_selectors(soup):
        by_sheet.update(id(t) for t in soup.select(sel) if t.name not in ("html", "body"))

    def role(tag):
        words = tag.get("role", "").split()
        return words[0].lower() if words else None

    def hidden(tag):
        style = "".join(tag.get("style", "").split()).lower()
        return (tag.has_attr("hidden") or tag.get("aria-hidden", "").strip().lower() == "true"
                or "display:none" in style or "visibility:hidden" in style
                or id(tag) in by_sheet)

    def boilerplate(tag):
        if tag.name == "nav" or role(tag) == "navigation":
            return True
        page_level = tag.name in ("header", "footer", "aside") or role(tag) in (
            "banner", "contentinfo", "complementary")
        return page_level and tag.find_parent(
            lambda p: p.name in SCOPES or role(p) in SCOPE_ROLES or id(p) in scoped_titles) is None

    def is_banner(tag):
        return (tag.name == "header" or role(tag) == "banner") and role(tag) != "navigation"

    def banner_titles(banner):
        """The h1 elements of a page-level banner that are the page's title: neither they nor
        anything between them and the banner is hidden, a nav, a navigation or REMOVED (and
        not inside another h1 of the banner, which takes them along)."""
        out = []
        for h in banner.find_all("h1"):
            node, ok = h, True
            while node is not banner:
                if (node.name == "nav" or role(node) == "navigation" or node.name in REMOVED
                        or hidden(node) or (node is not h and node.name == "h1")):
                    ok = False
                    break
                node = node.parent
            if ok:
                out.append(h)
        return out

    # Counted as the crate counts: every REMOVED element not inside another one, and the
    # outermost hidden or boilerplate element (hidden first), left out. A banner's title is
    # taken out of it and kept where the banner was (not again inside a title so kept).
    removed = boilerplate_count = 0
    drop = []
    # Titles taken out of a banner from inside a scoping element of it: what they hold stays
    # scoped by it (the crate counts the scoping elements open around the title).
    scoped_titles = set()

    def walk(tag, dropped, in_removed, in_title=False):
        nonlocal removed, boilerplate_count
        for child in list(tag.children):
            if not isinstance(child, Tag):
                continue
            is_removed = child.name in REMOVED
            if is_removed and not in_removed:
                removed += 1
            if dropped:
                walk(child, True, in_removed or is_removed, in_title)
                continue
            if child.name == "head" or is_removed or hidden(child):
                removed += child.name != "head" and not is_removed
                drop.append(child)
                walk(child, True, is_removed, in_title)
            elif boilerplate(child):
                boilerplate_count += 1
                titles = banner_titles(child) if is_banner(child) and not in_title else []
                for h in titles:
                    if h.find_parent(lambda p: p is child or p.name in SCOPES
                                     or role(p) in SCOPE_ROLES) is not child:
                        scoped_titles.add(id(h))
                    child.insert_before(h.extract())
                    walk(h, False, False, True)
                drop.append(child)
                walk(child, True, False, in_title)
            else:
                walk(child, False, False, in_title)

    walk(soup, False, False)
    for tag in drop:
        tag.decompose()
    body = soup.body or soup

    prefixes = ["language-", "lang-", "highlight-source-", "highlight-"]

    def language(pre):
        code = pre.find("code", recursive=False)
        places = ([code] if code else []) + [pre] + [p for p in list(pre.parents)[:2]]
        for tag in places:
            for c in tag.get("class") or []:
                for p in prefixes:
                    if c.startswith(p):
                        lang = c[len(p):]
                        if lang and lang != "default" and "`" not in lang:
                            return lang
                        break
            lang = (tag.get("data-lang") or "").strip()
            if lang and lang != "default" and "`" not in lang and not any(
                    ch.isspace() for ch in lang):
                return lang
        return ""

    def ticks(text):
        return max((len(run) for run in re.findall("`+", text)), default=0)

    # Code blocks: the outermost pre, fenced, with its language; inline code outside them:
    # between backticks (one more than its longest run of them).
    blocks = [pre for pre in body.find_all("pre") if pre.find_parent("pre") is None]
    for pre in blocks:
        code = pre.get_text()
        fence = "`" * max(3, ticks(code) + 1)
        pre.insert(0, NavigableString(f"\n{fence}{language(pre)}\n"))
        pre.append(NavigableString(f"\n{fence}\n"))
    for code in body.find_all("code"):
        if code.find_parent("pre") is None and code.find_parent("code") is None:
            raw = code.get_text()
            text = " ".join(raw.split())
            if text:
                n = "`" * (ticks(text) + 1)
                pad = " " if text.startswith("`") or text.endswith("`") else ""
                before = " " if raw[:1].isspace() else ""
                after = " " if raw[-1:].isspace() else ""
                code.replace_with(NavigableString(f"{before}{n}{pad}{text}{pad}{n}{after}"))
    return {
        "text": body.get_text(""),
        "title": " ".join(title.split()) if title else None,
        "headings": len(body.find_all(["h1", "h2", "h3", "h4", "h5", "h6"])),
        "list_items": len(body.find_all("li")),
        "tables": len(body.find_all("table")),
        "code_blocks": len(blocks),
        "removed": removed,
        "boilerplate": boilerplate_count,
        "images": len(body.find_all("img")),
    }


def docx_reference(path):
    import docx
    from docx.table import Table

    d = docx.Document(path)
    parts, headings, items, tables = [], 0, 0, 0
    for block in d.iter_inner_content():
        if isinstance(block, Table):
            tables += 1
            for row in block.rows:
                for cell in row.cells:
                    parts.append(cell.text)
        else:
            name = block.style.name if block.style is not None else ""
            if name.startswith("Heading") or name == "Title":
                headings += 1
            elif name.startswith("List"):
                items += 1
            parts.append(block.text)
    # Footnotes and endnotes after the body, in order of first reference (python-docx has no
    # API for them: their parts' XML, with python-docx's own lxml).
    from lxml import etree
    from docx.oxml.ns import qn

    note_parts = {}
    for rel in d.part.rels.values():
        kind = rel.reltype.rsplit("/", 1)[-1]
        if not rel.is_external and kind in ("footnotes", "endnotes"):
            note_parts[kind] = etree.fromstring(rel.target_part.blob)
    order = []
    for ref in d.element.body.iter(qn("w:footnoteReference"), qn("w:endnoteReference")):
        kind = "footnotes" if ref.tag == qn("w:footnoteReference") else "endnotes"
        if (kind, ref.get(qn("w:id"))) not in order:
            order.append((kind, ref.get(qn("w:id"))))
    for kind, note_id in order:
        for note in note_parts[kind]:
            if note.get(qn("w:id")) == note_id:
                parts.append("".join(t.text or "" for t in note.iter(qn("w:t"))))
    return {"text": "\n".join(parts), "title": None, "headings": headings,
            "list_items": items, "tables": tables, "notes": len(order)}


def pdf_reference(path):
    import pypdf

    reader = pypdf.PdfReader(path)
    # pypdf opens a PDF encrypted with an owner password only (the empty user password), as
    # viewers do; one that needs a user password stays encrypted.
    if reader.is_encrypted and not reader.decrypt(""):
        return {"error": "password"}
    pages = [page.extract_text() for page in reader.pages]
    title = reader.metadata.title if reader.metadata else None
    return {"text": "\n".join(pages), "pages": pages,
            "title": " ".join(title.split()) if title else None,
            "images": sum(len(page.images) for page in reader.pages),
            "headings": 0, "list_items": 0, "tables": 0}


def reference(kind, path):
    """The reference extraction of the file at `path`, `kind` "html", "docx" or "pdf"."""
    return {"html": html_reference, "docx": docx_reference, "pdf": pdf_reference}[kind](path)


if __name__ == "__main__":
    print(json.dumps(reference(sys.argv[1], sys.argv[2])))
