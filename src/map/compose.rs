//! What today's editors and compilers do to a map's entities before its brushes are built:
//! TrenchBroom layers marked "omit from export" are left out with everything in them, and
//! each `misc_external_map` (ericw-tools' prefabs) brings in the brushes of another `.map`,
//! scaled, turned and moved by its keys, as an entity of the class it names.
//! Entry points: `omit_layers`, `place_external_maps` (called by [`super::MapData::load`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use glam::DVec3;
use serde::Serialize;

use super::raw::{MapError, MapWarning, RawBrush, RawEntity, read_raw};

/// An entity left out because the TrenchBroom layer it is in is omitted from export.
#[derive(Clone, Debug, Serialize)]
pub struct Omitted {
    /// Its class.
    pub classname: String,
    /// 1-based line of its opening brace.
    pub line: usize,
    /// Brushes it had.
    pub brushes: usize,
}

/// The class an external map's brushes become when `_external_map_classname` is not
/// given: detail, as the compiler's own maintainers suggest for that case.
pub const EXTERNAL_DEFAULT_CLASS: &str = "func_detail";

/// How deep groups may nest inside groups before the chain is taken as broken.
const GROUP_DEPTH: usize = 64;

/// Leaves out of `entities` every layer TrenchBroom marks `_tb_layer_omit_from_export`
/// "1", with the groups and entities in it (an entity's `_tb_layer`, or through the groups
/// it is in, `_tb_group`); returns what was left out, in file order.
pub(super) fn omit_layers(entities: &mut Vec<RawEntity>) -> Vec<Omitted> {
    let tb = |e: &RawEntity, k: &str| e.get(k).map(str::to_string);
    let omitted_layers: Vec<String> = entities
        .iter()
        .filter(|e| e.get("_tb_type") == Some("_tb_layer"))
        .filter(|e| e.get("_tb_layer_omit_from_export") == Some("1"))
        .filter_map(|e| tb(e, "_tb_id"))
        .collect();
    if omitted_layers.is_empty() {
        return Vec::new();
    }
    // Each group's layer and parent group, by id.
    let groups: BTreeMap<String, (Option<String>, Option<String>)> = entities
        .iter()
        .filter(|e| e.get("_tb_type") == Some("_tb_group"))
        .filter_map(|e| Some((tb(e, "_tb_id")?, (tb(e, "_tb_layer"), tb(e, "_tb_group")))))
        .collect();
    let in_omitted = |e: &RawEntity| {
        if e.get("_tb_type") == Some("_tb_layer") {
            return e
                .get("_tb_id")
                .is_some_and(|id| omitted_layers.iter().any(|l| l == id));
        }
        let (mut layer, mut group) = (tb(e, "_tb_layer"), tb(e, "_tb_group"));
        for _ in 0..GROUP_DEPTH {
            if let Some(l) = &layer {
                return omitted_layers.contains(l);
            }
            let Some(g) = group.take() else { break };
            let Some((l, parent)) = groups.get(&g) else {
                break;
            };
            (layer, group) = (l.clone(), parent.clone());
        }
        false
    };
    let mut out = Vec::new();
    entities.retain(|e| {
        // The world itself is never in a layer.
        let omit = e.index > 0 && in_omitted(e);
        if omit {
            out.push(Omitted {
                classname: e.get("classname").unwrap_or_default().to_string(),
                line: e.line,
                brushes: e.brushes.len(),
            });
        }
        !omit
    });
    out
}

/// Canonical form of a map file's path, for telling a file that includes itself; the path
/// as given where it cannot be resolved (in-memory text).
pub(super) fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Replaces each `misc_external_map` of `entities` (read from `source`, whose folder is
/// `base`) with the brushes of the map its `_external_map` names (relative to `base`):
/// every brush of that map's entities, scaled by `_external_map_scale`, turned by
/// `_external_map_angles` (pitch yaw roll; else `_external_map_angle`, a yaw) and moved to
/// its `origin`, as an entity of class `_external_map_classname`. Maps it names are read
/// the same way in turn; `stack` holds the files being read. Returns the brushes brought
/// in. A missing key or file, a file that does not parse, or a file that includes itself
/// is an error naming the entity's line.
pub(super) fn place_external_maps(
    entities: &mut [RawEntity],
    source: &str,
    base: &Path,
    stack: &[PathBuf],
    warnings: &mut Vec<MapWarning>,
) -> Result<usize, MapError> {
    let mut count = 0;
    for e in entities
        .iter_mut()
        .filter(|e| e.get("classname") == Some("misc_external_map"))
    {
        let err = |message: String| MapError::External {
            path: source.to_string(),
            line: e.line,
            message,
        };
        let Some(file) = e.get("_external_map").filter(|f| !f.trim().is_empty()) else {
            return Err(err(
                "misc_external_map has no \"_external_map\" key naming the map to bring in".into(),
            ));
        };
        // Maps made on Windows write the folder separator as a backslash.
        let path = base.join(file.trim().replace('\\', "/"));
        let key = canonical(&path);
        if let Some(first) = stack.iter().position(|p| *p == key) {
            let chain: Vec<String> = stack[first..]
                .iter()
                .chain([&key])
                .map(|p| p.display().to_string())
                .collect();
            return Err(err(format!(
                "misc_external_map includes a map that includes it: {}",
                chain.join(" -> ")
            )));
        }
        let text =
            crate::map::file_kind::read_at_most(&path, super::raw::MAX_MAP_BYTES as u64, "a map")
                .map_err(|io| err(format!("misc_external_map: {}: {io}", path.display())))?;
        let inner_source = path.display().to_string();
        let mut inner = read_raw(&text, &inner_source)?;
        if inner.first().and_then(|w| w.get("classname")) != Some("worldspawn") {
            return Err(MapError::NoWorldspawn { path: inner_source });
        }
        omit_layers(&mut inner);
        let inner_base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut inner_stack = stack.to_vec();
        inner_stack.push(key);
        place_external_maps(
            &mut inner,
            &inner_source,
            &inner_base,
            &inner_stack,
            warnings,
        )?;
        let place = Placement::of(e, warnings);
        let brushes: Vec<RawBrush> = inner
            .into_iter()
            .flat_map(|i| i.brushes)
            .map(|b| place.apply(b, e.line))
            .collect();
        if brushes.is_empty() {
            warnings.push(MapWarning {
                line: e.line,
                message: format!("misc_external_map: {} has no brushes", path.display()),
            });
        }
        let class = match e.get("_external_map_classname").filter(|c| !c.is_empty()) {
            Some(c) => c.to_string(),
            None => {
                warnings.push(MapWarning {
                    line: e.line,
                    message: format!(
                        "misc_external_map has no \"_external_map_classname\"; its brushes \
                         are taken as {EXTERNAL_DEFAULT_CLASS}"
                    ),
                });
                EXTERNAL_DEFAULT_CLASS.to_string()
            }
        };
        set_key(e, "classname", &class);
        // The brushes are placed: the entity itself stands at the world's origin.
        set_key(e, "origin", "0 0 0");
        count += brushes.len();
        e.brushes = brushes;
    }
    Ok(count)
}

/// Sets `key` to `value`, adding it where absent.
fn set_key(e: &mut RawEntity, key: &str, value: &str) {
    match e.keys.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(key)) {
        Some(kv) => kv.1 = value.to_string(),
        None => e.keys.push((key.to_string(), value.to_string())),
    }
}

/// How an external map's brushes are placed: scaled, then turned, then moved.
struct Placement {
    scale: DVec3,
    /// Rows of the rotation.
    turn: [DVec3; 3],
    origin: DVec3,
}

impl Placement {
    /// From a `misc_external_map`'s keys; a key that is not numbers is warned of and
    /// left at its default.
    fn of(e: &RawEntity, warnings: &mut Vec<MapWarning>) -> Placement {
        let mut nums = |key: &str| -> Option<Vec<f64>> {
            let v = e.get(key)?;
            let n: Option<Vec<f64>> = v
                .split_whitespace()
                .map(|t| t.parse::<f64>().ok().filter(|x| x.is_finite()))
                .collect();
            if n.is_none() {
                warnings.push(MapWarning {
                    line: e.line,
                    message: format!(
                        "misc_external_map: \"{key}\" \"{v}\" is not numbers; ignored"
                    ),
                });
            }
            n
        };
        let scale = match nums("_external_map_scale").as_deref() {
            Some([s]) if *s != 0.0 => DVec3::splat(*s),
            Some([x, y, z]) => DVec3::new(*x, *y, *z),
            _ => DVec3::ONE,
        };
        let angles = match nums("_external_map_angles").as_deref() {
            Some([p, y, r]) if [p, y, r].iter().any(|a| **a != 0.0) => DVec3::new(*p, *y, *r),
            _ => match nums("_external_map_angle").as_deref() {
                Some([y]) => DVec3::new(0.0, *y, 0.0),
                _ => DVec3::ZERO,
            },
        };
        let origin = match nums("origin").as_deref() {
            Some([x, y, z]) => DVec3::new(*x, *y, *z),
            _ => DVec3::ZERO,
        };
        let (p, y, r) = (
            angles.x.to_radians(),
            angles.y.to_radians(),
            angles.z.to_radians(),
        );
        // About z by the yaw, y by the pitch, x by the roll, the roll first.
        let rz = |v: DVec3| {
            DVec3::new(
                v.x * y.cos() - v.y * y.sin(),
                v.x * y.sin() + v.y * y.cos(),
                v.z,
            )
        };
        let ry = |v: DVec3| {
            DVec3::new(
                v.x * p.cos() + v.z * p.sin(),
                v.y,
                -v.x * p.sin() + v.z * p.cos(),
            )
        };
        let rx = |v: DVec3| {
            DVec3::new(
                v.x,
                v.y * r.cos() - v.z * r.sin(),
                v.y * r.sin() + v.z * r.cos(),
            )
        };
        let col = |v: DVec3| rz(ry(rx(v)));
        let (cx, cy, cz) = (col(DVec3::X), col(DVec3::Y), col(DVec3::Z));
        Placement {
            scale,
            turn: [
                DVec3::new(cx.x, cy.x, cz.x),
                DVec3::new(cx.y, cy.y, cz.y),
                DVec3::new(cx.z, cy.z, cz.z),
            ],
            origin,
        }
    }

    /// `b` placed; its line becomes the including entity's (`line`), where it is reported.
    fn apply(&self, mut b: RawBrush, line: usize) -> RawBrush {
        // A mirroring scale turns each face's points the other way round: swapped back, the
        // faces still face out.
        let mirrored = self.scale.x * self.scale.y * self.scale.z < 0.0;
        for f in &mut b.faces {
            for p in &mut f.points {
                let v = DVec3::from_array(*p) * self.scale;
                let v = DVec3::new(
                    self.turn[0].dot(v),
                    self.turn[1].dot(v),
                    self.turn[2].dot(v),
                ) + self.origin;
                *p = v.to_array();
            }
            if mirrored {
                f.points.swap(0, 2);
            }
        }
        b.line = line;
        b
    }
}
