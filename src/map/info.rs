//! Map statistics for `botarena map info`: brush, entity, liquid and trigger counts,
//! bounds and warnings.

use std::collections::BTreeMap;

use serde::Serialize;

use super::brush::Contents;
use super::classes::{Treatment, treatment};
use super::collision::CollisionMap;
use super::compose::Omitted;
use super::level::Level;
use super::parse::MapWarning;
use super::seal::{Leak, find_leak};

/// Counts of one map.
#[derive(Clone, Debug, Serialize)]
pub struct MapInfo {
    /// File stem.
    pub name: String,
    /// Path.
    pub source: String,
    /// Brushes written in the file.
    pub brushes_in_file: usize,
    /// Brushes built (static + movers + triggers + teleport surfaces + those of classes
    /// that are not solid).
    pub brushes_loaded: usize,
    /// Brushes of entities that are not solid or not there in a match.
    pub not_solid_brushes: usize,
    /// Brushes skipped as degenerate (no volume).
    pub degenerate_brushes: usize,
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
    /// Each class in the map: its entities, their brushes and how they are treated.
    pub classes: Vec<ClassRow>,
    /// Brushes of compiler tool textures (`hint`, `origin`) that leave nothing in the world.
    pub tool_brushes: usize,
    /// Entities left out with a TrenchBroom layer omitted from export.
    pub omitted: Vec<Omitted>,
    /// Brushes brought in by `misc_external_map` entities.
    pub external_brushes: usize,
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
    /// The way out of the map where its structural brushes do not seal it.
    pub leak: Option<Leak>,
    /// Skipped brushes and bad values.
    pub warnings: Vec<MapWarning>,
}

/// One class of entity in a map.
#[derive(Clone, Debug, Serialize)]
pub struct ClassRow {
    /// Class name.
    pub classname: String,
    /// Entities of the class.
    pub entities: usize,
    /// Brushes they have as written (degenerate and tool brushes included).
    pub brushes: usize,
    /// What becomes of them.
    pub treatment: Treatment,
}

impl MapInfo {
    /// Gathers the counts.
    pub fn new(level: &Level, cmap: &CollisionMap) -> MapInfo {
        let mut by_class = BTreeMap::new();
        let mut rows: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut brush_count = 0;
        let mut tool_brushes = 0;
        let (mut degenerate, mut not_solid) = (0, 0);
        for e in &level.map.entities {
            *by_class.entry(e.classname.clone()).or_insert(0) += 1;
            let row = rows.entry(e.classname.clone()).or_default();
            row.0 += 1;
            row.1 += e.brushes_written;
            let built = e.brushes.len() + e.teleport_surfaces.len();
            brush_count += built;
            tool_brushes += e.tool_brushes;
            degenerate += e.brushes_written - built - e.tool_brushes;
            if matches!(
                treatment(&e.classname, e.brushes_written > 0),
                Treatment::NotSolid | Treatment::Absent
            ) {
                not_solid += e.brushes.len();
            }
        }
        let classes = rows
            .into_iter()
            .map(|(classname, (entities, brushes))| ClassRow {
                treatment: treatment(&classname, brushes > 0),
                classname,
                entities,
                brushes,
            })
            .collect();
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
            not_solid_brushes: not_solid,
            degenerate_brushes: degenerate,
            solid_brushes: level.count_static(Contents::SOLID),
            clip_brushes: level.count_static(Contents::PLAYER_CLIP),
            liquid_brushes: liquid,
            teleport_surfaces: level.teleport_surfaces.len(),
            entities: level.map.entities.len(),
            entities_by_class: by_class,
            classes,
            tool_brushes,
            omitted: level.map.omitted.clone(),
            external_brushes: level.map.external_brushes,
            movers,
            triggers,
            spawn_points: level.spawns.len(),
            items: level.items.len(),
            teleport_destinations: level.teleport_dests.len(),
            bounds_min: mn.to_array(),
            bounds_max: mx.to_array(),
            leak: find_leak(level),
            warnings: level.map.warnings.clone(),
        }
    }

    /// A readable multi-line report.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(s, "map        {} ({})", self.name, self.source);
        let omitted: usize = self.omitted.iter().map(|o| o.brushes).sum();
        let _ = writeln!(
            s,
            "brushes    {} in file{}: {} solid, {} clip, {} teleport surfaces",
            self.brushes_in_file,
            if self.external_brushes > 0 {
                format!(" and {} from external maps", self.external_brushes)
            } else {
                String::new()
            },
            self.solid_brushes,
            self.clip_brushes,
            self.teleport_surfaces
        );
        let _ = writeln!(
            s,
            "           not in the world: {} not solid, {} tool (hint, origin), {} in omitted \
             layers, {} degenerate",
            self.not_solid_brushes, self.tool_brushes, omitted, self.degenerate_brushes
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
        let _ = writeln!(
            s,
            "entities   {} in all (count, brushes, class: treatment)",
            self.entities
        );
        for c in &self.classes {
            let brushes = if c.brushes > 0 {
                c.brushes.to_string()
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "  {:>4} {:>5}  {}: {}",
                c.entities,
                brushes,
                c.classname,
                c.treatment.describe()
            );
        }
        if !self.omitted.is_empty() {
            let _ = writeln!(
                s,
                "omitted    {} entities in TrenchBroom layers omitted from export",
                self.omitted.len()
            );
        }
        match &self.leak {
            None => {
                let _ = writeln!(s, "sealed     yes (no way out from any entity)");
            }
            Some(l) => {
                let _ = writeln!(
                    s,
                    "LEAK       {}:{}: {} at ({:.0} {:.0} {:.0}) has a way out of the map, \
                     {:.0} units long (`botarena lint --pointfile FILE.pts` writes it)",
                    self.source,
                    l.line,
                    l.classname,
                    l.origin[0],
                    l.origin[1],
                    l.origin[2],
                    l.length()
                );
            }
        }
        let _ = writeln!(s, "warnings   {}", self.warnings.len());
        for w in &self.warnings {
            let _ = writeln!(s, "  {}:{}: {}", self.source, w.line, w.message);
        }
        s
    }
}
