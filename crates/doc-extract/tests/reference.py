"""Reference extractions for tests/reference.rs: the text BeautifulSoup (html5lib's parser,
the WHATWG algorithm), python-docx and pypdf get out of a document, by the crate's rules stated
here again independently. Prints one JSON object: {"text", "title", "headings", "list_items",
"tables"}, for a DOCX also "notes" (its footnotes and endnotes, whose text follows the body's),
for a PDF also "pages" (each page's text), or {"error": "password"} for a PDF
that opens only with a password. Usage: reference.py html|docx|pdf PATH. Also imported by
tests/e2e/reference_count.py.
"""
import json
import sys


def html_reference(path):
    from bs4 import BeautifulSoup

    with open(path, encoding="utf-8") as f:
        soup = BeautifulSoup(f.read(), "html5lib")
    title = soup.title.get_text() if soup.title else None
    removed = ["head", "script", "style", "noscript", "template", "iframe", "object", "svg",
               "canvas", "select"]

    def hidden(tag):
        if tag.has_attr("hidden"):
            return True
        style = "".join(tag.get("style", "").split()).lower()
        return "display:none" in style or "visibility:hidden" in style

    for tag in soup.find_all(lambda t: t.name in removed or hidden(t)):
        if not tag.decomposed:
            tag.decompose()
    body = soup.body or soup
    return {
        "text": body.get_text(""),
        "title": " ".join(title.split()) if title else None,
        "headings": len(body.find_all(["h1", "h2", "h3", "h4", "h5", "h6"])),
        "list_items": len(body.find_all("li")),
        "tables": len(body.find_all("table")),
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
