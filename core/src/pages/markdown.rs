//! Text the product puts into a line of markdown (a title, a category, a figure): escaped so it
//! cannot become markup. The build's markdown twins and the twins of pages rendered per request
//! (the weather page) use this one function (docs/spec/api-spec.md#markdown-twins).

/// Characters that markdown reads as markup somewhere in a line.
const MARKUP: &[char] = &['\\', '`', '*', '_', '[', ']', '(', ')', '<', '>', '!', '#', '|', '~', '&'];

/// `text` as literal text inside a markdown line: markup characters escaped, line breaks as spaces.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if MARKUP.contains(&c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped_and_lines_are_joined() {
        assert_eq!(escape("a *b* [c](d)\r\nx|y"), "a \\*b\\* \\[c\\]\\(d\\)  x\\|y");
    }
}
