//! The `.nav` file: versioned JSON naming the map and its geometry hash (as waypoint files
//! do), so a file is never used with another map or an edited one.
//!
//! ```text
//! { "format": "botarena-nav", "version": 3, "map": "dm4", "geometry_hash": "5f0c…",
//!   "params": { "cell": 8.0, "tick_rate": 20 },
//!   "frame": { "origin": [x, y], "cell": 8.0, "nx": 310, "ny": 262 },
//!   "stats": { "seconds": 0.9, "columns": …, "spans": …, "candidates": …, "dropped": …,
//!              "ticks_simulated": … },
//!   "positions": [ { "mover": id, "offset": [x, y, z], "corner": index | null }, … ],
//!   "areas": [ { "id": 0, "flags": 33, "cell_min": [ix, iy], "cell_max": [ix, iy],
//!                "mins": [x, y, z], "maxs": [x, y, z], "plane": [[nx, ny, nz], d] | null,
//!                "center": [x, y, z], "mover": id | null, "trigger": index | null,
//!                "moved": position | null }, … ],
//!   "reaches": [ { "from": 0, "to": 1, "kind": "Walk", "start": [x, y, z], "end": [x, y, z],
//!                  "commands": [ { "ticks": 3, "cmd": { "forward_move": 320.0, … } } ],
//!                  "seconds": 0.15, "needs": [ { "Open": 3 } ] }, … ] }
//! ```
//! Area flags are the bits of [`super::mesh::AreaFlags`]. The point → area lookup and the
//! per-area reachability lists are rebuilt on load. Files are written whole to a temporary
//! name and renamed, so a failed write leaves nothing half written.
//!
//! Entry points: [`save`], [`load`], [`load_for`].

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::map::Level;
use crate::map::file_kind::{FileKind, mismatch};

use super::mesh::{
    Area, CompileParams, CompileStats, Frame, MoverNeed, MoverPosition, NavMesh, Reach,
};

/// The `format` field.
pub const FORMAT: &str = "botarena-nav";
/// The version this build writes and reads.
pub const VERSION: u32 = 3;

#[derive(Serialize, Deserialize)]
struct NavFile {
    format: String,
    version: u32,
    map: String,
    geometry_hash: String,
    params: CompileParams,
    frame: Frame,
    stats: CompileStats,
    positions: Vec<MoverPosition>,
    areas: Vec<Area>,
    reaches: Vec<Reach>,
}

/// Why a `.nav` file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum NavFileError {
    /// A file of another kind given for this one (the message names both).
    #[error("{0}")]
    WrongKind(String),
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// Not JSON of the expected shape (truncated, or another kind of file).
    #[error("{path}: not a botarena .nav file ({message})")]
    Parse {
        /// The file.
        path: String,
        /// What serde said, with line and column.
        message: String,
    },
    /// Another format, or a version this build does not read.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Made for another map or another version of it.
    #[error(
        "{path}: compiled for map {file_map:?} (geometry {file_hash}), not for {map:?} (geometry {hash}); compile it again"
    )]
    WrongMap {
        /// The file.
        path: String,
        /// Its map.
        file_map: String,
        /// Its geometry hash.
        file_hash: String,
        /// The map given.
        map: String,
        /// That map's hash.
        hash: String,
    },
}

/// Writes `mesh` to `path` (whole, or not at all).
pub fn save(mesh: &NavMesh, path: &Path) -> Result<(), NavFileError> {
    let file = NavFile {
        format: FORMAT.into(),
        version: VERSION,
        map: mesh.map.clone(),
        geometry_hash: mesh.geometry_hash.clone(),
        params: mesh.params,
        frame: mesh.frame,
        stats: mesh.stats.clone(),
        positions: mesh.positions.clone(),
        areas: mesh.areas().to_vec(),
        reaches: mesh.reaches().to_vec(),
    };
    let text = serde_json::to_string(&file).expect("nav mesh serialises");
    let io = |source| NavFileError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

/// Parses `.nav` text (named `path` in errors) and checks that it holds together.
pub fn parse(text: &str, path: &str) -> Result<NavMesh, NavFileError> {
    #[derive(Deserialize)]
    struct Peek {
        format: Option<String>,
        version: Option<u32>,
    }
    let bad = |message: String| NavFileError::Parse {
        path: path.into(),
        message,
    };
    let peek: Peek = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    if peek.format.as_deref() != Some(FORMAT) {
        return Err(NavFileError::Format {
            path: path.into(),
            message: format!(
                "format {:?}, expected {FORMAT:?} (is this a .nav file?)",
                peek.format.unwrap_or_default()
            ),
        });
    }
    if peek.version != Some(VERSION) {
        return Err(NavFileError::Format {
            path: path.into(),
            message: format!(
                "version {:?}; this build reads version {VERSION}: compile it again",
                peek.version
            ),
        });
    }
    let f: NavFile = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let inconsistent = |m: String| NavFileError::Format {
        path: path.into(),
        message: format!("inconsistent: {m}"),
    };
    let fr = f.frame;
    if fr.cell.is_nan()
        || fr.cell <= 0.0
        || fr.nx == 0
        || fr.ny == 0
        || (fr.nx as u64 * fr.ny as u64) > 1 << 26
    {
        return Err(inconsistent(format!(
            "grid {} x {} of {}-unit cells",
            fr.nx, fr.ny, fr.cell
        )));
    }
    for (i, a) in f.areas.iter().enumerate() {
        if a.id as usize != i
            || a.cell_min[0] > a.cell_max[0]
            || a.cell_min[1] > a.cell_max[1]
            || a.cell_max[0] >= fr.nx
            || a.cell_max[1] >= fr.ny
        {
            return Err(inconsistent(format!(
                "area {i} (id {}, cells out of the grid)",
                a.id
            )));
        }
    }
    let np = f.positions.len() as u32;
    if let Some(a) = f.areas.iter().find(|a| a.moved.is_some_and(|m| m >= np)) {
        return Err(inconsistent(format!(
            "area {} names mover position {:?} of {np}",
            a.id, a.moved
        )));
    }
    if let Some((i, _)) = f.reaches.iter().enumerate().find(|(_, r)| {
        r.needs
            .iter()
            .any(|n| matches!(n, MoverNeed::Moved(m) if *m >= np))
    }) {
        return Err(inconsistent(format!(
            "reachability {i} names a mover position beyond the {np} there are"
        )));
    }
    let n = f.areas.len() as u32;
    if let Some((i, r)) = f
        .reaches
        .iter()
        .enumerate()
        .find(|(_, r)| r.from >= n || r.to >= n)
    {
        return Err(inconsistent(format!(
            "reachability {i} joins areas {} and {} of {n}",
            r.from, r.to
        )));
    }
    let mut mesh = NavMesh::new(
        f.map,
        f.geometry_hash,
        f.params,
        f.frame,
        f.areas,
        f.reaches,
        f.stats,
    );
    mesh.positions = f.positions;
    Ok(mesh)
}

/// Reads a `.nav` file.
pub fn load(path: &Path) -> Result<NavMesh, NavFileError> {
    let bytes = crate::map::file_kind::read_at_most(
        path,
        crate::map::file_kind::MAX_DATA_BYTES,
        "a .nav file",
    )
    .map_err(|source| NavFileError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = path.display().to_string();
    let text = String::from_utf8_lossy(&bytes);
    parse(&text, &name).map_err(|e| {
        mismatch(&name, &bytes, FileKind::Nav)
            .map(NavFileError::WrongKind)
            .unwrap_or(e)
    })
}

/// Reads a `.nav` file and checks it was compiled for `level` as it is now.
pub fn load_for(path: &Path, level: &Level) -> Result<NavMesh, NavFileError> {
    let mesh = load(path)?;
    let hash = crate::nav::waypoint_file::geometry_hash(level);
    if mesh.map != level.map.name || mesh.geometry_hash != hash {
        return Err(NavFileError::WrongMap {
            path: path.display().to_string(),
            file_map: mesh.map,
            file_hash: mesh.geometry_hash,
            map: level.map.name.clone(),
            hash,
        });
    }
    Ok(mesh)
}
