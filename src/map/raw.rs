//! Reading `.map` text as written: each entity's keys and brushes (faces' three points and
//! texture), with the lines they start on, through the `quake-map` crate; the errors and
//! warnings of reading a map. The crate reports a line for a syntax error; this module adds
//! the file name and a column, and a light pre-scan gives every entity and brush its line.
//! Entry points: [`MapError`], [`MapWarning`], `read_raw`.

/// A `.map` file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// A file of another kind given for this one (the message names both).
    #[error("{0}")]
    WrongKind(String),
    /// The file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The text is not a valid `.map`.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A `misc_external_map` that cannot be brought in: no file named, a file missing or
    /// unreadable, or a map that includes itself.
    #[error("{path}:{line}: {message}")]
    External {
        /// The file holding the entity.
        path: String,
        /// 1-based line of the entity.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// More than a map may hold ([`MAX_MAP_BYTES`], [`MAX_BRUSHES`]): refused before the
    /// memory and time it would take.
    #[error("{path}: {message}")]
    TooLarge {
        /// The file.
        path: String,
        /// What is too large, and the limit.
        message: String,
    },
    /// The file parsed but holds no worldspawn entity.
    #[error("{path}: no worldspawn entity (the first entity of a map must be worldspawn)")]
    NoWorldspawn {
        /// The file.
        path: String,
    },
}

/// Something in the map that was skipped or looked odd; loading went on without it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MapWarning {
    /// 1-based line of the entity or brush concerned (0 when unknown).
    pub line: usize,
    /// What was skipped and why.
    pub message: String,
}

/// One face as written: three points on its plane (clockwise seen from outside) and its
/// texture's name.
#[derive(Clone, Debug)]
pub(super) struct RawFace {
    pub(super) points: [[f64; 3]; 3],
    pub(super) texture: String,
}

/// One brush as written, with the line of its opening brace.
#[derive(Clone, Debug)]
pub(super) struct RawBrush {
    pub(super) line: usize,
    pub(super) faces: Vec<RawFace>,
}

/// One entity as written: its position in the file, line, keys and brushes.
#[derive(Clone, Debug)]
pub(super) struct RawEntity {
    pub(super) index: usize,
    pub(super) line: usize,
    pub(super) keys: Vec<(String, String)>,
    pub(super) brushes: Vec<RawBrush>,
}

impl RawEntity {
    /// The value of `key` (first occurrence, any case).
    pub(super) fn get(&self, key: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// The largest `.map` file read, bytes: several times the largest maps made today.
pub const MAX_MAP_BYTES: usize = 256 << 20;
/// The most brushes a map may have, external maps included: many times today's largest
/// maps (a few tens of thousands), and about what fits this program's memory per brush.
pub const MAX_BRUSHES: usize = 1 << 19;

/// The error for a map over `what`'s limit.
pub(super) fn too_large(source: &str, what: &str, n: usize, limit: usize) -> MapError {
    MapError::TooLarge {
        path: source.to_string(),
        message: format!("{n} {what}, more than a map may have ({limit})"),
    }
}

/// The entities of `.map` text as written, each with its line and its brushes' lines.
pub(super) fn read_raw(text: &[u8], source: &str) -> Result<Vec<RawEntity>, MapError> {
    if text.len() > MAX_MAP_BYTES {
        return Err(too_large(source, "bytes", text.len(), MAX_MAP_BYTES));
    }
    // Counted before parsing, so that a huge map costs a scan of its text and no more.
    let lines = prescan_lines(text);
    let brushes: usize = lines.iter().map(|(_, b)| b.len()).sum();
    if brushes > MAX_BRUSHES {
        return Err(too_large(source, "brushes", brushes, MAX_BRUSHES));
    }
    let mut reader = text;
    let parsed = quake_map::parse(&mut reader).map_err(|e| syntax_error(e, text, source))?;
    Ok(parsed
        .entities
        .iter()
        .enumerate()
        .map(|(index, ent)| {
            let (line, brush_lines) = lines
                .get(index)
                .map(|(l, b)| (*l, b.as_slice()))
                .unwrap_or((0, &[]));
            RawEntity {
                index,
                line,
                keys: ent
                    .edict
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.to_string_lossy().into_owned(),
                            v.to_string_lossy().into_owned(),
                        )
                    })
                    .collect(),
                brushes: ent
                    .brushes
                    .iter()
                    .enumerate()
                    .map(|(bi, b)| RawBrush {
                        line: brush_lines.get(bi).copied().unwrap_or(line),
                        faces: b
                            .iter()
                            .map(|f| RawFace {
                                points: f.half_space,
                                texture: f.texture.to_string_lossy().into_owned(),
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect())
}

fn syntax_error(e: quake_map::TextParseError, text: &[u8], source: &str) -> MapError {
    let (line, message) = match &e {
        quake_map::TextParseError::Io(io) => (None, io.to_string()),
        quake_map::TextParseError::Lexer(l) | quake_map::TextParseError::Parser(l) => {
            (l.line_number.map(|n| n.get() as usize), l.message.clone())
        }
    };
    let total_lines = text.split(|b| *b == b'\n').count().max(1);
    let line = line.unwrap_or(total_lines);
    let line_text = text
        .split(|b| *b == b'\n')
        .nth(line.saturating_sub(1))
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .unwrap_or_default();
    // The crate quotes the offending token as "got `TOKEN`": find it on the line for a column.
    let column = message
        .rsplit_once("got `")
        .and_then(|(_, rest)| rest.strip_suffix('`'))
        .and_then(|tok| line_text.find(tok))
        .or_else(|| line_text.find(|c: char| !c.is_whitespace()))
        .map(|c| c + 1)
        .unwrap_or(1);
    let message = if message == "Unexpected end-of-file" {
        "unexpected end of file (an entity or brush is not closed with `}`)".to_string()
    } else {
        message
    };
    MapError::Syntax {
        path: source.to_string(),
        line,
        column,
        message,
    }
}

/// Line of each entity's and brush's opening brace, skipping comments and quoted strings.
fn prescan_lines(text: &[u8]) -> Vec<(usize, Vec<usize>)> {
    let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut line = 1;
    let mut depth = 0;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'\n' => line += 1,
            b'/' if text.get(i + 1) == Some(&b'/') => {
                while i < text.len() && text[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    if text[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
            b'{' => {
                if depth == 0 {
                    out.push((line, Vec::new()));
                } else if let Some(e) = out.last_mut() {
                    e.1.push(line);
                }
                depth += 1;
            }
            b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    out
}
