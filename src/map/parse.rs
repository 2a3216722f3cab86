//! Turns Quake `.map` text (id standard and Valve 220), as read by `raw`, into [`MapData`]:
//! entities with their key/values and convex brushes, after TrenchBroom's omitted layers
//! are left out and external maps brought in ([`super::compose`]).
//! Entry points: [`MapData::load`], [`MapData::parse`].

use std::path::Path;

use glam::Vec3;

use super::brush::{Brush, BrushKind, Contents, brush_kind, texture_kind};
use super::raw::read_raw;
pub use super::raw::{MapError, MapWarning};

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
    /// Brushes of compiler tool textures that leave nothing in the world (`hint`, `origin`).
    pub tool_brushes: usize,
    /// Brushes written for it (in the file, or brought in from an external map), degenerate
    /// ones included.
    pub brushes_written: usize,
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
    /// Entities left out with the TrenchBroom layer they are in (omitted from export).
    pub omitted: Vec<super::compose::Omitted>,
    /// Brushes brought in by `misc_external_map` entities from other files.
    pub external_brushes: usize,
}

impl MapData {
    /// Reads and parses a `.map` file.
    pub fn load(path: &Path) -> Result<MapData, MapError> {
        let text =
            crate::map::file_kind::read_at_most(path, super::raw::MAX_MAP_BYTES as u64, "a map")
                .map_err(|source| MapError::Io {
                    path: path.display().to_string(),
                    source,
                })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let stack = vec![super::compose::canonical(path)];
        let source = path.display().to_string();
        Self::parse_in(&text, &source, &name, &base, &stack).map_err(|e| {
            super::file_kind::mismatch(&source, &text, super::file_kind::FileKind::Map)
                .map(MapError::WrongKind)
                .unwrap_or(e)
        })
    }

    /// Parses `.map` text; `source` names it in errors, and the folder it names is where
    /// `misc_external_map` paths are resolved from.
    pub fn parse(text: &[u8], source: &str, name: &str) -> Result<MapData, MapError> {
        let base = Path::new(source)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let stack = vec![super::compose::canonical(Path::new(source))];
        Self::parse_in(text, source, name, &base, &stack)
    }

    /// [`MapData::parse`] with external maps resolved from `base`, `stack` the files being
    /// read (each includes the next), so that a file including itself is refused.
    fn parse_in(
        text: &[u8],
        source: &str,
        name: &str,
        base: &Path,
        stack: &[std::path::PathBuf],
    ) -> Result<MapData, MapError> {
        let mut raw = read_raw(text, source)?;
        if raw.first().and_then(|e| e.get("classname")) != Some("worldspawn") {
            return Err(MapError::NoWorldspawn {
                path: source.to_string(),
            });
        }
        let brushes_in_file = raw.iter().map(|e| e.brushes.len()).sum();
        let mut warnings = Vec::new();
        let omitted = super::compose::omit_layers(&mut raw);
        let external =
            super::compose::place_external_maps(&mut raw, source, base, stack, &mut warnings)?;
        let total: usize = raw.iter().map(|e| e.brushes.len()).sum();
        if total > super::raw::MAX_BRUSHES {
            let what = "brushes with its external maps";
            return Err(super::raw::too_large(
                source,
                what,
                total,
                super::raw::MAX_BRUSHES,
            ));
        }
        let mut entities = Vec::with_capacity(raw.len());
        for ent in raw {
            let classname = ent.get("classname").unwrap_or_default().to_string();
            if classname.is_empty() {
                warnings.push(MapWarning {
                    line: ent.line,
                    message: format!("entity {} has no classname", ent.index),
                });
            }
            let mut brushes = Vec::new();
            let mut teleport_surfaces = Vec::new();
            let mut tool_brushes = 0;
            for (bi, b) in ent.brushes.iter().enumerate() {
                let kinds: Vec<_> = b.faces.iter().map(|f| texture_kind(&f.texture)).collect();
                let kind = brush_kind(&kinds);
                let contents = match kind {
                    BrushKind::Volume(c) => c,
                    BrushKind::TeleportSurface | BrushKind::Tool => Contents::EMPTY,
                };
                let faces: Vec<[[f64; 3]; 3]> = b.faces.iter().map(|f| f.points).collect();
                match Brush::from_point_triples(&faces, contents) {
                    Ok(brush) => match kind {
                        BrushKind::TeleportSurface => teleport_surfaces.push(brush),
                        BrushKind::Volume(_) => brushes.push(brush),
                        BrushKind::Tool => tool_brushes += 1,
                    },
                    Err(e) => warnings.push(MapWarning {
                        line: b.line,
                        message: format!(
                            "skipped degenerate brush {} of entity {} ({classname}): {e}",
                            bi + 1,
                            ent.index
                        ),
                    }),
                }
            }
            entities.push(MapEntity {
                index: ent.index,
                line: ent.line,
                classname,
                keys: ent.keys,
                brushes,
                teleport_surfaces,
                tool_brushes,
                brushes_written: ent.brushes.len(),
            });
        }
        Ok(MapData {
            source: source.to_string(),
            name: name.to_string(),
            entities,
            warnings,
            brushes_in_file,
            omitted,
            external_brushes: external,
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
