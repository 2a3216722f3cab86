//! Map statistics for `botarena map info`: brush, entity, liquid and trigger counts,
//! bounds and warnings.

use std::collections::BTreeMap;

use serde::Serialize;

use super::brush::Contents;
use super::collision::CollisionMap;
use super::level::Level;
use super::parse::MapWarning;

/// Counts of one map.
#[derive(Clone, Debug, Serialize)]
pub struct MapInfo {
    /// File stem.
    pub name: String,
    /// Path.
    pub source: String,
    /// Brushes written in the file.
    pub brushes_in_file: usize,
    /// Brushes loaded (static + movers + triggers + teleport surfaces).
    pub brushes_loaded: usize,
    /// Static solid brushes (world, walls, sky).
    pub solid_brushes: usize,
    /// `clip` brushes.
    pub clip_brushes: usize,
    /// Liquid brushes by liquid.
    pub liquid_brushes: BTreeMap<&'static str, usize>,
    /// `*teleport` surface brushes.
    pub teleport_surfaces: usize,
    /// Entities in the file.
    pub entities: usize,
    /// Entities per class name.
    pub entities_by_class: BTreeMap<String, usize>,
    /// Movers per class.
    pub movers: BTreeMap<String, usize>,
    /// Trigger volumes per class (plat and door fields included).
    pub triggers: BTreeMap<String, usize>,
    /// Deathmatch spawn points.
    pub spawn_points: usize,
    /// Items.
    pub items: usize,
    /// Teleport destinations in use.
    pub teleport_destinations: usize,
    /// Minimum corner of all geometry.
    pub bounds_min: [f32; 3],
    /// Maximum corner of all geometry.
    pub bounds_max: [f32; 3],
    /// Skipped brushes and bad values.
    pub warnings: Vec<MapWarning>,
}

impl MapInfo {
    /// Gathers the counts.
    pub fn new(level: &Level, cmap: &CollisionMap) -> MapInfo {
        let mut by_class = BTreeMap::new();
        let mut brush_count = 0;
        for e in &level.map.entities {
            *by_class.entry(e.classname.clone()).or_insert(0) += 1;
            brush_count += e.brushes.len() + e.teleport_surfaces.len();
        }
        let mut movers = BTreeMap::new();
        for m in &level.movers {
            *movers.entry(m.classname.clone()).or_insert(0) += 1;
        }
        let mut triggers = BTreeMap::new();
        for t in &level.triggers {
            *triggers.entry(t.classname.clone()).or_insert(0) += 1;
        }
        let mut liquid = BTreeMap::new();
        for (name, c) in [
            ("water", Contents::WATER),
            ("slime", Contents::SLIME),
            ("lava", Contents::LAVA),
        ] {
            liquid.insert(name, level.count_static(c));
        }
        let (mn, mx) = cmap.bounds();
        MapInfo {
            name: level.map.name.clone(),
            source: level.map.source.clone(),
            brushes_in_file: level.map.brushes_in_file,
            brushes_loaded: brush_count,
            solid_brushes: level.count_static(Contents::SOLID),
            clip_brushes: level.count_static(Contents::PLAYER_CLIP),
            liquid_brushes: liquid,
            teleport_surfaces: level.teleport_surfaces.len(),
            entities: level.map.entities.len(),
            entities_by_class: by_class,
            movers,
            triggers,
            spawn_points: level.spawns.len(),
            items: level.items.len(),
            teleport_destinations: level.teleport_dests.len(),
            bounds_min: mn.to_array(),
            bounds_max: mx.to_array(),
            warnings: level.map.warnings.clone(),
        }
    }

    /// A readable multi-line report.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(s, "map        {} ({})", self.name, self.source);
        let _ = writeln!(
            s,
            "brushes    {} in file, {} loaded ({} skipped): {} solid, {} clip, {} teleport surfaces",
            self.brushes_in_file,
            self.brushes_loaded,
            self.brushes_in_file - self.brushes_loaded,
            self.solid_brushes,
            self.clip_brushes,
            self.teleport_surfaces
        );
        let liquids: Vec<String> = self
            .liquid_brushes
            .iter()
            .map(|(k, v)| format!("{v} {k}"))
            .collect();
        let _ = writeln!(s, "liquids    {}", liquids.join(", "));
        let join = |m: &BTreeMap<String, usize>| {
            if m.is_empty() {
                "none".to_string()
            } else {
                m.iter()
                    .map(|(k, v)| format!("{v} {k}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let _ = writeln!(s, "movers     {}", join(&self.movers));
        let _ = writeln!(s, "triggers   {}", join(&self.triggers));
        let _ = writeln!(
            s,
            "gameplay   {} spawn points, {} items, {} teleport destinations",
            self.spawn_points, self.items, self.teleport_destinations
        );
        let _ = writeln!(
            s,
            "bounds     ({:.0} {:.0} {:.0}) .. ({:.0} {:.0} {:.0})",
            self.bounds_min[0],
            self.bounds_min[1],
            self.bounds_min[2],
            self.bounds_max[0],
            self.bounds_max[1],
            self.bounds_max[2]
        );
        let _ = writeln!(s, "entities   {} in all", self.entities);
        for (k, v) in &self.entities_by_class {
            let _ = writeln!(s, "  {v:>4}  {k}");
        }
        let _ = writeln!(s, "warnings   {}", self.warnings.len());
        for w in &self.warnings {
            let _ = writeln!(s, "  {}:{}: {}", self.source, w.line, w.message);
        }
        s
    }
}
