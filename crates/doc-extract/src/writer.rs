//! The markdown-like text both readers write: collapsed whitespace, line and block breaks,
//! and markers (`# `, `- `, ` | `) at the places the readers choose.

/// Builds the extracted text.
#[derive(Default)]
pub(crate) struct Writer {
    out: String,
    /// Whitespace was seen since the last character written: one space goes before the next
    /// character, unless a line starts there.
    pending_space: bool,
}

impl Writer {
    /// Text whose whitespace runs collapse to one space (none at a line's start).
    pub(crate) fn text(&mut self, s: &str) {
        for c in s.chars() {
            if c.is_whitespace() {
                self.pending_space = true;
                continue;
            }
            if self.pending_space && !self.out.is_empty() && !self.out.ends_with([' ', '\n', '\t'])
            {
                self.out.push(' ');
            }
            self.pending_space = false;
            self.out.push(c);
        }
    }

    /// Text written as it is (preformatted text, a tab).
    pub(crate) fn raw(&mut self, s: &str) {
        if self.pending_space && !self.out.is_empty() && !self.out.ends_with([' ', '\n', '\t']) {
            self.out.push(' ');
        }
        self.pending_space = false;
        self.out.push_str(s);
    }

    /// Ends the current line so that at least `newlines` line feeds follow the text written
    /// (1: a new line; 2: a blank line, a new block). Nothing at the very start.
    pub(crate) fn end_line(&mut self, newlines: usize) {
        self.pending_space = false;
        let kept = self.out.trim_end_matches(' ').len();
        self.out.truncate(kept);
        if self.out.is_empty() {
            return;
        }
        let have = self.out.len() - self.out.trim_end_matches('\n').len();
        for _ in have..newlines {
            self.out.push('\n');
        }
    }

    /// A marker at the start of a new line (`# `, `- `, an indent).
    pub(crate) fn marker(&mut self, m: &str) {
        self.end_line(1);
        self.out.push_str(m);
        self.pending_space = false;
    }

    /// A separator inside a line (` | ` between table cells); none at a line's start.
    pub(crate) fn separator(&mut self, s: &str) {
        self.pending_space = false;
        let kept = self.out.trim_end_matches(' ').len();
        self.out.truncate(kept);
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push_str(s);
        }
    }

    /// The text, trailing whitespace removed.
    pub(crate) fn finish(mut self) -> String {
        let kept = self.out.trim_end().len();
        self.out.truncate(kept);
        self.out
    }
}

/// The fence of a code block whose text is `code`: three backticks, or one more than the
/// longest run of backticks inside it, so that the code cannot close it (CommonMark 0.31,
/// §4.5: a closing fence is at least as long as the opening one). Both readers' (HTML `pre`,
/// DOCX code paragraphs).
pub(crate) fn fence_for(code: &str) -> String {
    "`".repeat((longest_backticks(code) + 1).max(3))
}

/// The longest run of backticks in `s` (0 without any).
pub(crate) fn longest_backticks(s: &str) -> usize {
    s.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_collapses_and_lines_and_blocks_break() {
        let mut w = Writer::default();
        w.text("  a \n\t b ");
        w.end_line(2);
        w.marker("- ");
        w.text(" c");
        w.separator(" | ");
        w.text("d ");
        w.end_line(1);
        w.raw("  e  f");
        assert_eq!(w.finish(), "a b\n\n- c | d\n  e  f");
    }

    #[test]
    fn a_fence_is_longer_than_any_backtick_run_inside() {
        assert_eq!(fence_for("a `` b"), "```");
        assert_eq!(fence_for("x = ```y```"), "````");
        assert_eq!(fence_for("`````"), "``````");
    }

    #[test]
    fn nothing_written_gives_an_empty_text() {
        let mut w = Writer::default();
        w.end_line(2);
        w.separator(" | ");
        w.text("   ");
        assert_eq!(w.finish(), "");
    }
}
