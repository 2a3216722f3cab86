//! How each brush-entity class is treated, as id's game code and today's compilers
//! (ericw-tools' qbsp) treat it: merged into the solid world, left out of it, a mover, a
//! trigger volume. One table, read by the level loader and by `map info`.
//! Entry point: [`treatment`].

use serde::Serialize;

/// What becomes of an entity's brushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Treatment {
    /// Solid world: the world itself, walls, and what compilers merge into it (TrenchBroom's
    /// groups and layers, detail brushes).
    World,
    /// Drawn but not solid.
    NotSolid,
    /// Not there during a match (episode gates appear only once an episode is completed).
    Absent,
    /// A mover (plat, door, button, train, secret door).
    Mover,
    /// A trigger volume.
    Trigger,
    /// A class this program does not know: solid, as a `func_wall` (with a warning).
    Unknown,
    /// A point entity (no brushes expected).
    Point,
}

impl Treatment {
    /// A few words for `map info`.
    pub fn describe(self) -> &'static str {
        match self {
            Treatment::World => "solid world",
            Treatment::NotSolid => "not solid",
            Treatment::Absent => "not in a match",
            Treatment::Mover => "mover",
            Treatment::Trigger => "trigger volume",
            Treatment::Unknown => "unknown class: solid, as func_wall",
            Treatment::Point => "point entity",
        }
    }
}

/// How an entity of `class` with brushes (`brushes`) is treated.
pub fn treatment(class: &str, brushes: bool) -> Treatment {
    match class {
        "worldspawn" | "func_wall" | "func_bossgate" | "func_group" | "func_detail"
        | "func_detail_wall" | "func_detail_fence" => Treatment::World,
        "func_illusionary" | "func_detail_illusionary" | "func_illusionary_visblocker" => {
            Treatment::NotSolid
        }
        "func_episodegate" => Treatment::Absent,
        "func_plat" | "func_door" | "func_button" | "func_train" | "func_door_secret" => {
            Treatment::Mover
        }
        c if c.starts_with("trigger_") => Treatment::Trigger,
        _ if brushes => Treatment::Unknown,
        _ => Treatment::Point,
    }
}
