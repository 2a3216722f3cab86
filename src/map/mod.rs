//! Maps: `.map` parsing ([`parse`]), TrenchBroom layers and external maps ([`compose`]),
//! convex brushes ([`brush`]), how each brush-entity class is treated ([`classes`]), the
//! collision world that answers every geometry question ([`collision`]), the
//! interpretation of entities for the simulation ([`level`]), whether the map is sealed
//! ([`seal`]), map statistics ([`info`]) and a small writer for box-built maps ([`builder`]).

pub mod brush;
pub mod builder;
pub mod classes;
pub mod collision;
pub mod compose;
pub mod file_kind;
pub mod info;
pub mod level;
pub mod parse;
mod raw;
pub mod seal;

pub use brush::{Brush, Contents, Plane};
pub use collision::{CollisionMap, EntId, Trace};
pub use level::Level;
pub use parse::{MapData, MapError, MapWarning};
pub use raw::{MAX_BRUSHES, MAX_MAP_BYTES};

use std::path::Path;

/// Loads a `.map` file into a [`Level`] and its [`CollisionMap`] (movers at their spawn
/// position).
pub fn load_level(path: &Path) -> Result<(Level, CollisionMap), MapError> {
    let data = MapData::load(path)?;
    Ok(build_level(data))
}

/// Interprets parsed map data and builds its collision world.
pub fn build_level(data: MapData) -> (Level, CollisionMap) {
    let level = Level::from_map(data);
    let cmap = CollisionMap::new(
        level.static_brushes.clone(),
        level
            .movers
            .iter()
            .map(|m| (m.id, m.brushes.clone()))
            .collect(),
    );
    (level, cmap)
}
