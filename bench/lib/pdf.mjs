// A large PDF for bench/documents.mjs, written object by object (no PDF library): text pages
// in Helvetica and pages holding one incompressible grey image each.
import crypto from "node:crypto";

/** A PDF of `textPages` pages of `lines` (60 to a page) and `imagePages` pages of one
 *  incompressible grey image of `imageBytes` bytes each, written object by object. */
export function largePdf(lines, textPages, imagePages, imageBytes) {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", null,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"].map((o) => o && Buffer.from(o));
  const kids = [];
  const side = Math.floor(Math.sqrt(imageBytes));
  const add = (body) => { objects.push(body); return objects.length; };
  const page = (content, resources) => {
    const c = add(Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from("\nendstream")]));
    kids.push(add(Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources ${resources} /Contents ${c} 0 R >>`)));
  };
  const esc = (s) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, "?");
  let at = 0;
  const total = textPages + imagePages;
  const every = Math.floor(total / Math.max(imagePages, 1));
  let images = 0;
  for (let p = 0; p < total; p++) {
    if (images < imagePages && p % every === every - 1) {
      images += 1;
      const pixels = crypto.randomBytes(side * side);
      const img = add(Buffer.concat([Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n`), pixels, Buffer.from("\nendstream")]));
      page(Buffer.from("q 500 0 0 500 47 170 cm /Im1 Do Q"), `<< /XObject << /Im1 ${img} 0 R >> >>`);
      continue;
    }
    const body = [];
    for (let l = 0; l < 60; l++) body.push(`(${esc(lines[at++ % lines.length])}) Tj T*`);
    page(Buffer.from(`BT /F1 9 Tf 11 TL 40 800 Td ${body.join("\n")} ET`), "<< /Font << /F1 3 0 R >> >>");
  }
  objects[1] = Buffer.from(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`);
  const parts = [Buffer.from("%PDF-1.4\n")];
  let length = parts[0].length;
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    parts.push(obj);
    length += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return { bytes: Buffer.concat(parts), pages: kids.length };
}

