//! Reads Quake `.map` text (id standard and Valve 220) through the `quake-map` crate and
//! turns it into [`MapData`]: entities with their key/values and convex brushes.
//!
//! The crate reports a line for a syntax error; this module adds the file name and a column,
//! and a light pre-scan gives every entity and brush its line so warnings can name it.

use std::path::Path;

use glam::Vec3;

use super::brush::{Brush, BrushKind, Contents, brush_kind, texture_kind};

/// A `.map` file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
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

/// One entity of the map file.
#[derive(Clone, Debug)]
pub struct MapEntity {
    /// Position in the file, 0 = worldspawn.
    pub index: usize,
    /// 1-based line of its opening brace.
    pub line: usize,
    /// The `classname` value ("" when missing).
    pub classname: String,
    /// Key/value pairs in file order.
    pub keys: Vec<(String, String)>,
    /// Its brushes that have volume (solid, clip or liquid), absolute coordinates.
    pub brushes: Vec<Brush>,
    /// Brushes that are only a `*teleport` surface (kept for pictures and counts).
    pub teleport_surfaces: Vec<Brush>,
}

impl MapEntity {
    /// The value of `key`, if present (first occurrence).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.keys
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// A parsed map: entities in file order plus the warnings of loading.
#[derive(Clone, Debug)]
pub struct MapData {
    /// Where it came from (path or a label for in-memory text).
    pub source: String,
    /// File stem, e.g. `dm4`.
    pub name: String,
    /// All entities; index 0 is worldspawn.
    pub entities: Vec<MapEntity>,
    /// Skipped brushes and bad values.
    pub warnings: Vec<MapWarning>,
    /// Number of brushes written in the file (including skipped ones).
    pub brushes_in_file: usize,
}

impl MapData {
    /// Reads and parses a `.map` file.
    pub fn load(path: &Path) -> Result<MapData, MapError> {
        let text = std::fs::read(path).map_err(|source| MapError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Self::parse(&text, &path.display().to_string(), &name)
    }

    /// Parses `.map` text; `source` names it in errors.
    pub fn parse(text: &[u8], source: &str, name: &str) -> Result<MapData, MapError> {
        let mut reader = text;
        let parsed = quake_map::parse(&mut reader).map_err(|e| syntax_error(e, text, source))?;
        let lines = prescan_lines(text);
        let mut warnings = Vec::new();
        let mut entities = Vec::with_capacity(parsed.entities.len());
        let mut brushes_in_file = 0;
        for (index, ent) in parsed.entities.iter().enumerate() {
            let (eline, brush_lines) = lines
                .get(index)
                .map(|(l, b)| (*l, b.as_slice()))
                .unwrap_or((0, &[]));
            let keys: Vec<(String, String)> = ent
                .edict
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string_lossy().into_owned(),
                        v.to_string_lossy().into_owned(),
                    )
                })
                .collect();
            let classname = keys
                .iter()
                .find(|(k, _)| k == "classname")
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            if classname.is_empty() {
                warnings.push(MapWarning {
                    line: eline,
                    message: format!("entity {index} has no classname"),
                });
            }
            let mut brushes = Vec::new();
            let mut teleport_surfaces = Vec::new();
            for (bi, b) in ent.brushes.iter().enumerate() {
                brushes_in_file += 1;
                let bline = brush_lines.get(bi).copied().unwrap_or(eline);
                let kinds: Vec<_> = b
                    .iter()
                    .map(|s| texture_kind(&s.texture.to_string_lossy()))
                    .collect();
                let kind = brush_kind(&kinds);
                let contents = match kind {
                    BrushKind::Volume(c) => c,
                    BrushKind::TeleportSurface => Contents::EMPTY,
                };
                let faces: Vec<[[f64; 3]; 3]> = b.iter().map(|s| s.half_space).collect();
                match Brush::from_point_triples(&faces, contents) {
                    Ok(brush) => match kind {
                        BrushKind::TeleportSurface => teleport_surfaces.push(brush),
                        BrushKind::Volume(_) => brushes.push(brush),
                    },
                    Err(e) => warnings.push(MapWarning {
                        line: bline,
                        message: format!(
                            "skipped degenerate brush {} of entity {index} ({classname}): {e}",
                            bi + 1
                        ),
                    }),
                }
            }
            entities.push(MapEntity {
                index,
                line: eline,
                classname,
                keys,
                brushes,
                teleport_surfaces,
            });
        }
        if entities.first().map(|e| e.classname.as_str()) != Some("worldspawn") {
            return Err(MapError::NoWorldspawn {
                path: source.to_string(),
            });
        }
        Ok(MapData {
            source: source.to_string(),
            name: name.to_string(),
            entities,
            warnings,
            brushes_in_file,
        })
    }

    /// Records a warning about a bad value on an entity.
    pub fn warn(&mut self, line: usize, message: String) {
        self.warnings.push(MapWarning { line, message });
    }
}

/// Parses `"x y z"`.
pub fn parse_vec3(s: &str) -> Option<Vec3> {
    let mut it = s.split_whitespace().map(|t| t.parse::<f32>().ok());
    let v = Vec3::new(it.next()??, it.next()??, it.next()??);
    (it.next().is_none() && v.is_finite()).then_some(v)
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

#[cfg(test)]
mod tests {
    use super::*;

    const BOX: &str = "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) T 0 0 0 1 1\n( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) T 0 0 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) T 0 0 0 1 1\n( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) T 0 0 0 1 1\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) T 0 0 0 1 1\n( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) T 0 0 0 1 1\n}\n}\n";

    #[test]
    fn parses_a_box_with_outward_normals() {
        let m = MapData::parse(BOX.as_bytes(), "box.map", "box").unwrap();
        assert_eq!(m.entities.len(), 1);
        let b = &m.entities[0].brushes[0];
        assert_eq!(b.mins, Vec3::ZERO);
        assert_eq!(b.maxs, Vec3::splat(64.0));
        assert!(b.contains_point(Vec3::splat(32.0)));
        assert_eq!(m.entities[0].line, 1);
    }

    #[test]
    fn syntax_error_names_file_line_and_column() {
        let bad = "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) oops 0 0 1 ) T 0 0 0 1 1\n}\n}\n";
        let e = MapData::parse(bad.as_bytes(), "bad.map", "bad").unwrap_err();
        let s = e.to_string();
        assert!(s.starts_with("bad.map:4:"), "{s}");
        match e {
            MapError::Syntax { line, column, .. } => {
                assert_eq!(line, 4);
                assert_eq!(column, 21, "{s}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn truncated_file_is_an_error_not_a_panic() {
        let e = MapData::parse(&BOX.as_bytes()[..BOX.len() - 4], "t.map", "t").unwrap_err();
        assert!(e.to_string().contains("t.map:"), "{e}");
        let e = MapData::parse(b"", "empty.map", "empty").unwrap_err();
        assert!(e.to_string().contains("worldspawn"), "{e}");
        let e = MapData::parse(&[0xff, 0xfe, b'{', 0, 1], "bin.map", "bin").unwrap_err();
        assert!(e.to_string().starts_with("bin.map:"), "{e}");
    }

    #[test]
    fn degenerate_brush_is_skipped_with_a_warning() {
        let text = "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) T 0 0 0 1 1\n( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) T 0 0 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) T 0 0 0 1 1\n}\n}\n";
        let m = MapData::parse(text.as_bytes(), "d.map", "d").unwrap();
        assert_eq!(m.entities[0].brushes.len(), 0);
        assert_eq!(m.warnings.len(), 1);
        assert_eq!(m.warnings[0].line, 3);
        assert_eq!(m.brushes_in_file, 1);
    }

    #[test]
    fn valve_220_faces_parse() {
        let text = "{\n\"classname\" \"worldspawn\"\n\"mapversion\" \"220\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) T [ 0 1 0 0 ] [ 0 0 -1 0 ] 0 1 1\n( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) T [ 0 1 0 0 ] [ 0 0 -1 0 ] 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) T [ 1 0 0 0 ] [ 0 0 -1 0 ] 0 1 1\n( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) T [ 1 0 0 0 ] [ 0 0 -1 0 ] 0 1 1\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) T [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1\n( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) T [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1\n}\n}\n";
        let m = MapData::parse(text.as_bytes(), "v.map", "v").unwrap();
        assert_eq!(m.entities[0].brushes.len(), 1);
        assert_eq!(m.entities[0].brushes[0].maxs, Vec3::splat(64.0));
    }

    #[test]
    fn vec3_values() {
        assert_eq!(parse_vec3("1 -2 3.5"), Some(Vec3::new(1., -2., 3.5)));
        assert_eq!(parse_vec3("1 2"), None);
        assert_eq!(parse_vec3("1 2 x"), None);
        assert_eq!(parse_vec3("1 2 3 4"), None);
    }
}
