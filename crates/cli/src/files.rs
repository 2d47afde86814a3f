//! The files a run reads, from what the user named: files (always read, whatever their
//! name), folders (walked recursively, following symbolic links; their documents by extension,
//! [`doc_extract::DOCUMENT_EXTENSIONS`] in any case, every other file counted as ignored, never
//! silently), and glob patterns the shell left unexpanded (`'docs/**/*.md'`). A file named
//! twice (`a.txt` and `./a.txt`) is read once; a named folder without a document is reported.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A path named that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The path, as named or found.
    pub path: PathBuf,
    /// A stable reason (`not-found`, `unreadable`, `not-utf8`, `encrypted`…).
    pub reason: String,
    /// What happened, in words.
    pub message: String,
}

/// What the paths named: the files to read (sorted, each once), the paths that could not be
/// used, and the files of folders left out by type (extension → count; `""` for none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Files to read, with their sizes in bytes.
    pub files: Vec<(PathBuf, u64)>,
    /// Paths that could not be used.
    pub skipped: Vec<Skipped>,
    /// Files found in folders that are not documents, by extension.
    pub ignored: BTreeMap<String, u64>,
}

impl Listing {
    /// Bytes of every file to read.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|(_, b)| b).sum()
    }
}

/// True when a folder's file is read ([`doc_extract::DOCUMENT_EXTENSIONS`], in any case).
pub fn is_document(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(doc_extract::is_document_name)
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// Lists what `paths` name.
pub fn list(paths: &[PathBuf]) -> Listing {
    let mut out = Listing::default();
    // Canonical path → (the path as named or found, bytes): a file named twice is read once.
    let mut files: BTreeMap<PathBuf, (PathBuf, u64)> = BTreeMap::new();
    for path in paths {
        if path.exists() {
            add(path, true, &mut files, &mut out);
            continue;
        }
        let text = path.to_string_lossy();
        let pattern = text.contains(['*', '?', '[']);
        let matches = if pattern {
            glob::glob(&text).ok()
        } else {
            None
        };
        let Some(matches) = matches else {
            out.skipped.push(Skipped {
                path: path.clone(),
                reason: "not-found".into(),
                message: if pattern {
                    "not a valid glob pattern".into()
                } else {
                    "no such file or folder".into()
                },
            });
            continue;
        };
        let mut any = false;
        for m in matches {
            match m {
                Ok(p) => {
                    any = true;
                    add(&p, true, &mut files, &mut out);
                }
                Err(e) => out.skipped.push(Skipped {
                    path: e.path().to_path_buf(),
                    reason: "unreadable".into(),
                    message: e.error().to_string(),
                }),
            }
        }
        if !any {
            out.skipped.push(Skipped {
                path: path.clone(),
                reason: "not-found".into(),
                message: "the pattern matches no file".into(),
            });
        }
    }
    out.files = files.into_values().collect();
    out.files.sort();
    out
}

/// Adds a file (read whatever its name when `named`) or a folder's documents.
fn add(path: &Path, named: bool, files: &mut BTreeMap<PathBuf, (PathBuf, u64)>, out: &mut Listing) {
    if path.is_dir() {
        let before = files.len();
        // Symbolic links are followed (a loop is reported as unreadable, not walked forever).
        for entry in walkdir::WalkDir::new(path)
            .follow_links(true)
            .sort_by_file_name()
        {
            match entry {
                Ok(e) if e.file_type().is_file() => add(e.path(), false, files, out),
                Ok(_) => {}
                Err(e) => out.skipped.push(Skipped {
                    path: e
                        .path()
                        .map_or_else(|| path.to_path_buf(), Path::to_path_buf),
                    reason: "unreadable".into(),
                    message: e.to_string(),
                }),
            }
        }
        if named && files.len() == before {
            out.skipped.push(Skipped {
                path: path.to_path_buf(),
                reason: "no-documents".into(),
                message: format!(
                    "no document in this folder (.{})",
                    doc_extract::DOCUMENT_EXTENSIONS.join(" .")
                ),
            });
        }
        return;
    }
    if !named && !is_document(path) {
        *out.ignored
            .entry(extension(path).unwrap_or_default())
            .or_default() += 1;
        return;
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {
            let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            files
                .entry(key)
                .or_insert_with(|| (path.to_path_buf(), m.len()));
        }
        Ok(_) => out.skipped.push(Skipped {
            path: path.to_path_buf(),
            reason: "not-a-file".into(),
            message: "not a regular file (a device, socket or pipe)".into(),
        }),
        Err(e) => out.skipped.push(Skipped {
            path: path.to_path_buf(),
            reason: "unreadable".into(),
            message: e.to_string(),
        }),
    }
}

/// The listed input that is the file at `path` (the same file once links and `..` are
/// resolved), if any: an output written there would destroy it.
pub fn same_file<'a>(path: &Path, listing: &'a Listing) -> Option<&'a Path> {
    let target = std::fs::canonicalize(path).ok()?;
    listing
        .files
        .iter()
        .map(|(p, _)| p.as_path())
        .find(|p| std::fs::canonicalize(p).is_ok_and(|c| c == target))
}
