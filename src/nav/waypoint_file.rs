//! The waypoint file: versioned JSON naming the map and a hash of its geometry, so a graph is
//! never used on a map it was not made for. Loading checks everything before it returns, so a
//! truncated or invalid file is an error and never half-loads.
//!
//! ```json
//! { "format": "botarena-waypoints", "version": 1, "map": "dm4",
//!   "geometry_hash": "5f0c…", "waypoints": [
//!     { "number": 0, "origin": [x, y, z], "kind": { "type": "normal" },
//!       "links": [ { "from": 3, "distance": 96.0, "travel": "walk", "weight": 1.0 } ] } ] }
//! ```
//! A link stored on waypoint V with `from: W` means one can travel from W to V. Origins are
//! where a player's origin is when standing there (24 units above the floor). Kinds:
//! `normal`, `item` (`class`, `item`), `teleporter` (`trigger`), `elevator_bottom` and
//! `elevator_top` (`mover`). Travel: `walk`, `jump`, `fall`, `swim`, `teleport`, `elevator`.
//!
//! Entry points: [`save`], [`load`], [`load_for`], [`merge_files`], [`geometry_hash`].

use std::path::Path;

use crate::map::file_kind::{FileKind, mismatch};

use serde::{Deserialize, Serialize};

use crate::map::Level;
use crate::sim::hash::StateHasher;

use super::waypoints::{Waypoint, WaypointGraph};

/// The `format` field of every waypoint file.
pub const FORMAT: &str = "botarena-waypoints";
/// The version this build writes and reads.
pub const VERSION: u32 = 1;

/// What a waypoint file says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// Format version.
    pub version: u32,
    /// Map name (file stem).
    pub map: String,
    /// [`geometry_hash`] of the map, hex.
    pub geometry_hash: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    version: u32,
    map: String,
    geometry_hash: String,
    waypoints: Vec<Waypoint>,
}

/// A waypoint file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum WaypointFileError {
    /// A file of another kind given for this one (the message names both).
    #[error("{0}")]
    WrongKind(String),
    /// Could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// Not valid JSON of this format (truncated, misspelt key, wrong type).
    #[error("{path}:{line}:{column}: {message}")]
    Json {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Another format or a version this build does not read.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Made for another map.
    #[error(
        "{path}: made for map {file_map:?} (geometry {file_hash}), not for {map:?} (geometry {hash})"
    )]
    WrongMap {
        /// The file.
        path: String,
        /// Map named in the file.
        file_map: String,
        /// Hash in the file.
        file_hash: String,
        /// Map it was loaded for.
        map: String,
        /// That map's hash.
        hash: String,
    },
    /// Well-formed JSON describing a broken graph.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// A hash of the map's collision geometry (static brushes and movers at spawn), hex.
pub fn geometry_hash(level: &Level) -> String {
    let mut h = StateHasher::default();
    let brushes = level
        .static_brushes
        .iter()
        .chain(level.movers.iter().flat_map(|m| m.brushes.iter()));
    for b in brushes {
        h.u64(b.contents.0 as u64);
        for p in &b.planes {
            h.vec3(p.normal);
            h.f32(p.dist);
        }
    }
    format!("{:016x}", h.finish())
}

/// Writes the graph of map `map` (with its geometry hash) to `path`.
pub fn save(
    graph: &WaypointGraph,
    map: &str,
    hash: &str,
    path: &Path,
) -> Result<(), WaypointFileError> {
    let file = File {
        format: FORMAT.into(),
        version: VERSION,
        map: map.into(),
        geometry_hash: hash.into(),
        waypoints: graph.waypoints().to_vec(),
    };
    let text = serde_json::to_string_pretty(&file).expect("waypoints serialise");
    std::fs::write(path, text).map_err(|source| WaypointFileError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Parses waypoint file text; with `expect` = (map name, geometry hash) a file made for
/// another map is refused.
pub fn parse(
    text: &str,
    path: &str,
    expect: Option<(&str, &str)>,
) -> Result<(Header, WaypointGraph), WaypointFileError> {
    // Read the header first, so another format is named as such rather than as a bad key.
    #[derive(Deserialize)]
    struct Peek {
        format: Option<String>,
        version: Option<u32>,
    }
    let json_err = |e: serde_json::Error| WaypointFileError::Json {
        path: path.into(),
        line: e.line(),
        column: e.column(),
        message: e
            .to_string()
            .split(" at line")
            .next()
            .unwrap_or_default()
            .to_string(),
    };
    let peek: Peek = serde_json::from_str(text).map_err(json_err)?;
    if peek.format.as_deref() != Some(FORMAT) {
        return Err(WaypointFileError::Format {
            path: path.into(),
            message: format!(
                "not a botarena waypoint file (format {:?}, expected {FORMAT:?})",
                peek.format.unwrap_or_default()
            ),
        });
    }
    if peek.version != Some(VERSION) {
        return Err(WaypointFileError::Format {
            path: path.into(),
            message: format!(
                "waypoint file version {:?}; this build reads version {VERSION}",
                peek.version
            ),
        });
    }
    let file: File = serde_json::from_str(text).map_err(json_err)?;
    if let Some((map, hash)) = expect
        && (file.map != map || file.geometry_hash != hash)
    {
        return Err(WaypointFileError::WrongMap {
            path: path.into(),
            file_map: file.map,
            file_hash: file.geometry_hash,
            map: map.into(),
            hash: hash.into(),
        });
    }
    let header = Header {
        format: file.format,
        version: file.version,
        map: file.map,
        geometry_hash: file.geometry_hash,
    };
    let graph = WaypointGraph::from_waypoints(file.waypoints).map_err(|message| {
        WaypointFileError::Invalid {
            path: path.into(),
            message,
        }
    })?;
    Ok((header, graph))
}

/// Reads a waypoint file; see [`parse`].
pub fn load(
    path: &Path,
    expect: Option<(&str, &str)>,
) -> Result<(Header, WaypointGraph), WaypointFileError> {
    let bytes = crate::map::file_kind::read_at_most(
        path,
        crate::map::file_kind::MAX_DATA_BYTES,
        "a waypoint file",
    )
    .map_err(|source| WaypointFileError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let name = path.display().to_string();
    let text = String::from_utf8_lossy(&bytes);
    parse(&text, &name, expect).map_err(|e| {
        mismatch(&name, &bytes, FileKind::Waypoints)
            .map(WaypointFileError::WrongKind)
            .unwrap_or(e)
    })
}

/// Reads a waypoint file that must have been made for `level` (its name and geometry hash).
pub fn load_for(path: &Path, level: &Level) -> Result<WaypointGraph, WaypointFileError> {
    let hash = geometry_hash(level);
    load(path, Some((&level.map.name, &hash))).map(|(_, g)| g)
}

/// Waypoint files made for one map, merged into one graph (`botarena waypoints merge`).
#[derive(Clone, Debug)]
pub struct Merged {
    /// The first file's header (every file has the same map and geometry).
    pub header: Header,
    /// The graphs one after the other, renumbered.
    pub graph: WaypointGraph,
    /// How many of its waypoints came from the first file (numbers `0..first`).
    pub first: u32,
}

/// Loads `files` (each must be made for the map of the first) and merges them in order.
pub fn merge_files<P: AsRef<Path>>(files: &[P]) -> Result<Merged, WaypointFileError> {
    let mut graph = WaypointGraph::new();
    let mut header: Option<Header> = None;
    let mut first = 0;
    for f in files {
        let expect = header
            .as_ref()
            .map(|h| (h.map.clone(), h.geometry_hash.clone()));
        let (h, g) = load(
            f.as_ref(),
            expect.as_ref().map(|(m, x)| (m.as_str(), x.as_str())),
        )?;
        graph.merge(&g);
        if header.is_none() {
            first = graph.len() as u32;
        }
        header.get_or_insert(h);
    }
    let header = header.ok_or_else(|| WaypointFileError::Invalid {
        path: "waypoints merge".into(),
        message: "no waypoint file to merge".into(),
    })?;
    Ok(Merged {
        header,
        graph,
        first,
    })
}
