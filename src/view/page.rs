//! The viewer page: `viewer.html` with its stylesheet, script and a match's frames put
//! inside, so that one file opens anywhere with no network.

use super::frames::Frames;

const HTML: &str = include_str!("page/viewer.html");
const CSS: &str = include_str!("page/viewer.css");
const JS: &str = include_str!("page/viewer.js");

/// Text made safe inside HTML elements and attributes.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The whole page for `frames`, titled `title`.
pub fn page(frames: &Frames, title: &str) -> String {
    // Inside a <script> element only "</" can end it early; JSON allows "<\/" for it.
    let data = frames.to_json().replace("</", "<\\/");
    let title = escape(title);
    fill(HTML, |name| match name {
        "VERSION" => Some(env!("CARGO_PKG_VERSION")),
        "TITLE" => Some(&title),
        "STYLE" => Some(CSS),
        "SCRIPT" => Some(JS),
        "FRAMES" => Some(&data),
        _ => None,
    })
}

/// The template with each `{{NAME}}` replaced by `value(NAME)`, in one pass over the
/// template alone, so nothing inserted (a map's name, the frames) is read as a placeholder.
fn fill<'a>(template: &str, value: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after
            .find("}}")
            .and_then(|j| value(&after[..j]).map(|v| (j, v)))
        {
            Some((j, v)) => {
                out.push_str(v);
                rest = &after[j + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_escaped() {
        assert_eq!(escape("<a&\"b\">"), "&lt;a&amp;&quot;b&quot;&gt;");
    }

    #[test]
    fn placeholders_are_filled_once_from_the_template_only() {
        let out = fill("a {{X}} b {{Y}} {{Z}} {{", |n| match n {
            "X" => Some("{{Y}}"),
            "Y" => Some("y"),
            _ => None,
        });
        assert_eq!(out, "a {{Y}} b y {{Z}} {{");
    }

    #[test]
    fn the_template_has_each_placeholder_where_expected() {
        for p in ["{{VERSION}}", "{{STYLE}}", "{{SCRIPT}}", "{{FRAMES}}"] {
            assert_eq!(HTML.matches(p).count(), 1, "{p}");
        }
        assert_eq!(HTML.matches("{{TITLE}}").count(), 2);
        assert!(
            !JS.contains("</script"),
            "the script would end its element early"
        );
        assert!(
            !CSS.contains("</style"),
            "the style would end its element early"
        );
    }
}
