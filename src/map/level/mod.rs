//! What the simulation needs from a parsed map: static brushes, movers (plats, doors,
//! trains, buttons), trigger volumes, spawn points, items, teleport destinations and path
//! corners, with Quake's default values filled in.
//!
//! Entry point: [`Level::from_map`]. Bad values never stop loading: they become warnings
//! that name the entity's line, and the entity keeps Quake's default.
//!
//! Files: this one (the types), `load` (building a level from a parsed map).

mod load;

use glam::Vec3;
use serde::Serialize;

use super::brush::{Brush, Contents};
use super::collision::EntId;
use super::parse::MapData;

/// Quake's item classes (items.qc): what a scenario's `items.remove` may name on any map.
/// Other `weapon_*` and `item_*` classes load too (mission packs, mods), as what they seem.
pub const ITEM_CLASSES: &[&str] = &[
    "weapon_supershotgun",
    "weapon_nailgun",
    "weapon_supernailgun",
    "weapon_grenadelauncher",
    "weapon_rocketlauncher",
    "weapon_lightning",
    "item_health",
    "item_armor1",
    "item_armor2",
    "item_armorInv",
    "item_shells",
    "item_spikes",
    "item_rockets",
    "item_cells",
    "item_weapon",
    "item_key1",
    "item_key2",
    "item_sigil",
    "item_artifact_invulnerability",
    "item_artifact_envirosuit",
    "item_artifact_invisibility",
    "item_artifact_super_damage",
];

/// What kind of item an item entity is, with Quake's pickup box and respawn time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ItemKind {
    /// `item_health` (15 rotten, 25 normal).
    Health,
    /// `item_health` with spawnflag 2: +100 up to 250.
    MegaHealth,
    /// `item_armor1`, `item_armor2`, `item_armorInv`.
    Armor,
    /// `weapon_*`.
    Weapon,
    /// `item_shells`, `item_spikes`, `item_rockets`, `item_cells`, `item_weapon`.
    Ammo,
    /// `item_artifact_*`.
    Powerup,
    /// Keys and anything else `item_*`.
    Other,
}

impl ItemKind {
    /// Classifies an entity class name; `None` when it is not an item.
    pub fn from_classname(class: &str, spawnflags: u32) -> Option<ItemKind> {
        Some(match class {
            "item_health" if spawnflags & 2 != 0 => ItemKind::MegaHealth,
            "item_health" => ItemKind::Health,
            "item_armor1" | "item_armor2" | "item_armorInv" => ItemKind::Armor,
            c if c.starts_with("weapon_") => ItemKind::Weapon,
            "item_shells" | "item_spikes" | "item_rockets" | "item_cells" | "item_weapon" => {
                ItemKind::Ammo
            }
            c if c.starts_with("item_artifact_") => ItemKind::Powerup,
            c if c.starts_with("item_") => ItemKind::Other,
            _ => return None,
        })
    }

    /// Quake deathmatch respawn time in seconds (items.qc); `None`: never respawns.
    pub fn respawn_seconds(self, class: &str) -> Option<f32> {
        match self {
            ItemKind::Health | ItemKind::MegaHealth | ItemKind::Armor => Some(20.0),
            ItemKind::Weapon | ItemKind::Ammo => Some(30.0),
            ItemKind::Powerup => Some(match class {
                "item_artifact_invisibility" | "item_artifact_invulnerability" => 300.0,
                _ => 60.0, // quad damage and the biosuit
            }),
            ItemKind::Other => None,
        }
    }

    /// The pickup box relative to the item origin (items.qc `setsize`).
    pub fn bounds(self) -> (Vec3, Vec3) {
        match self {
            ItemKind::Health | ItemKind::MegaHealth | ItemKind::Ammo => {
                (Vec3::ZERO, Vec3::new(32., 32., 56.))
            }
            ItemKind::Armor | ItemKind::Weapon => {
                (Vec3::new(-16., -16., 0.), Vec3::new(16., 16., 56.))
            }
            ItemKind::Powerup | ItemKind::Other => {
                (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.))
            }
        }
    }
}

/// An item placed in the map.
#[derive(Clone, Debug, Serialize)]
pub struct ItemDef {
    /// Entity class, e.g. `weapon_rocketlauncher`.
    pub classname: String,
    /// Its kind.
    pub kind: ItemKind,
    /// Origin as written in the map (dropped to the floor when the simulation spawns it).
    pub origin: Vec3,
    /// Respawn delay in seconds, `None` for never.
    pub respawn: Option<f32>,
    /// Spawn flags (1 on ammo: the big box).
    pub spawnflags: u32,
    /// Line of the entity in the map.
    pub line: usize,
}

/// A deathmatch spawn point.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SpawnPoint {
    /// Where the player's origin is put (Quake adds 1 unit).
    pub origin: Vec3,
    /// Facing, degrees.
    pub yaw: f32,
}

/// An `info_teleport_destination` (or any targeted entity a teleporter points to).
#[derive(Clone, Debug, Serialize)]
pub struct TeleportDest {
    /// Its targetname.
    pub name: String,
    /// Arrival origin: the entity origin plus 27 units up, as Quake does.
    pub origin: Vec3,
    /// Facing after arrival, degrees.
    pub yaw: f32,
}

/// A `path_corner` that trains move along.
#[derive(Clone, Debug, Serialize)]
pub struct PathCorner {
    /// Its targetname.
    pub name: String,
    /// The next corner's name.
    pub target: Option<String>,
    /// Position.
    pub origin: Vec3,
    /// Seconds to wait here.
    pub wait: f32,
}

/// How a mover behaves.
#[derive(Clone, Debug, Serialize)]
pub enum MoverKind {
    /// `func_plat`: waits low, rises when stood on, waits 3 s at the top, returns.
    Plat {
        /// Offset of the low position (the high one is zero).
        low: Vec3,
    },
    /// `func_door`: opens (moves to `open`) when a player comes near or it is triggered.
    Door {
        /// Offset of the open position.
        open: Vec3,
        /// Spawnflag 1: starts open and closes when used.
        start_open: bool,
        /// Opens by proximity (no targetname, no health, no key).
        touch_opens: bool,
        /// Key spawnflags set: never opens in a bot match.
        locked: bool,
        /// Spawnflag 4: not linked with touching doors.
        no_link: bool,
        /// Has health (doors.qc: damage opens it, and all the doors linked with it): it,
        /// or a door linked with it.
        shootable: bool,
        /// Spawnflag 32 (doors.qc's DOOR_TOGGLE): once open it stays open until fired
        /// again, which closes it.
        toggle: bool,
    },
    /// `func_button`: pressed by touch, fires its targets, returns after `wait`.
    Button {
        /// Offset of the pressed position.
        pressed: Vec3,
        /// Has health (buttons.qc): pressed by damage, not by touch.
        shot: bool,
    },
    /// `trigger_multiple` or `trigger_once` with health (triggers.qc): a solid box
    /// (`SOLID_BBOX`, it blocks players too) that fires its targets when shot, or when fired
    /// itself; a `trigger_multiple` takes damage again `wait` seconds later. A
    /// `trigger_once` is removed once fired in Quake; here it stays, an inert box.
    ShotTrigger,
    /// `func_train`: follows `path_corner`s.
    Train {
        /// Name of the first corner.
        first: String,
    },
    /// `func_door_secret` (doors.qc): when shot or triggered, moves to `first`, waits 1 s,
    /// moves on to `open`, waits `wait` (forever with spawnflag 1), and comes back the same
    /// way. Quake fixes its speed at 50.
    SecretDoor {
        /// Offset after the first move (down with spawnflag 4, else right, or left with 2).
        first: Vec3,
        /// Offset when open: `first` plus the door's length along its facing.
        open: Vec3,
        /// Damage opens it (no targetname, or spawnflag 16).
        shootable: bool,
    },
    /// A mover whose motion is not simulated (a train without corners): stays where it is.
    Fixed,
}

impl MoverKind {
    /// A secret door, a door or button with health, or a trigger with health: damage
    /// opens, presses or fires it.
    pub fn is_shootable(&self) -> bool {
        matches!(
            self,
            MoverKind::SecretDoor {
                shootable: true,
                ..
            } | MoverKind::Door {
                shootable: true,
                ..
            } | MoverKind::Button { shot: true, .. }
                | MoverKind::ShotTrigger
        )
    }
}

/// A moving brush entity.
#[derive(Clone, Debug, Serialize)]
pub struct MoverDef {
    /// Its id in traces.
    pub id: EntId,
    /// Entity class.
    pub classname: String,
    /// Behaviour.
    pub kind: MoverKind,
    /// Brushes at their map position.
    pub brushes: Vec<Brush>,
    /// Bounds at the map position.
    pub mins: Vec3,
    /// Bounds at the map position.
    pub maxs: Vec3,
    /// Speed, units per second.
    pub speed: f32,
    /// Wait at the end of travel, seconds (-1: stay).
    pub wait: f32,
    /// Damage when blocked.
    pub dmg: f32,
    /// Its name for triggers.
    pub targetname: Option<String>,
    /// What it fires.
    pub target: Option<String>,
    /// What it removes as it fires (Quake's `killtarget`).
    pub killtarget: Option<String>,
    /// Seconds between setting off and firing (Quake's `delay`).
    pub delay: f32,
    /// Doors linked with this one (indices into the mover list), including itself.
    pub linked: Vec<usize>,
    /// Line of the entity.
    pub line: usize,
}

/// What a trigger volume does.
#[derive(Clone, Debug, Serialize)]
pub enum TriggerKind {
    /// Sends players to a destination (index into [`Level::teleport_dests`]).
    Teleport {
        /// Destination, `None` when its target is missing (then it does nothing).
        dest: Option<usize>,
    },
    /// Fires its target whenever touched, at most once per `wait` seconds.
    Multiple {
        /// Re-arm delay.
        wait: f32,
    },
    /// Fires its target once.
    Once,
    /// Sets the velocity of a living player or a grenade in it (`trigger_push`, triggers.qc
    /// trigger_push_touch: `speed × 10` along its direction, every tick it is touched).
    Push {
        /// The velocity given.
        velocity: Vec3,
        /// Spawnflag PUSH_ONCE: removed after its first touch.
        once: bool,
    },
    /// Hurts whoever stands in it, `dmg` per second.
    Hurt {
        /// Damage per second.
        dmg: f32,
    },
    /// The raising trigger of a plat (index into the mover list).
    PlatRaise {
        /// The plat.
        mover: usize,
    },
    /// The proximity field of a door group (index of the first door).
    DoorField {
        /// The door.
        mover: usize,
    },
    /// A trigger with no effect in a bot match (changelevel, secret, ...).
    Inert,
}

/// A trigger volume: an axis-aligned box, touched when a player's box overlaps it (as in
/// Quake, where triggers touch by bounding box).
#[derive(Clone, Debug, Serialize)]
pub struct TriggerDef {
    /// Entity class.
    pub classname: String,
    /// Behaviour.
    pub kind: TriggerKind,
    /// Box minimum.
    pub mins: Vec3,
    /// Box maximum.
    pub maxs: Vec3,
    /// What it fires.
    pub target: Option<String>,
    /// What it removes as it fires (Quake's `killtarget`).
    pub killtarget: Option<String>,
    /// Seconds between being set off and firing (Quake's `delay`).
    pub delay: f32,
    /// Its own name: firing it by that name sets off a `trigger_once` or
    /// `trigger_multiple` as a touch does; a named teleporter or push works only once fired.
    pub targetname: Option<String>,
    /// Spawnflag NOTOUCH of a `trigger_once` / `trigger_multiple`: only firing it by name
    /// sets it off, never a touch.
    pub notouch: bool,
    /// Line of the entity (0 for triggers made by plats and doors).
    pub line: usize,
}

/// An entity with no volume that only passes firing on (triggers.qc): a `trigger_relay`
/// fires its targets whenever it is fired; a `trigger_counter` fires them once, the
/// `count`th time it is fired, and is gone after.
#[derive(Clone, Debug, Serialize)]
pub struct RelayDef {
    /// Entity class.
    pub classname: String,
    /// Relay or counter.
    pub kind: RelayKind,
    /// Its name (what fires it).
    pub targetname: Option<String>,
    /// What it fires.
    pub target: Option<String>,
    /// What it removes as it fires (Quake's `killtarget`).
    pub killtarget: Option<String>,
    /// Seconds between being set off and firing (Quake's `delay`).
    pub delay: f32,
    /// Line of the entity.
    pub line: usize,
}

/// What a [`RelayDef`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RelayKind {
    /// `trigger_relay`: fires each time.
    Relay,
    /// `trigger_counter`: fires the `count`th time (2 when the map gives none).
    Counter {
        /// Firings it takes.
        count: u32,
    },
}

/// The spawnflag of entities a deathmatch leaves out (Quake's `SPAWNFLAG_NOT_DEATHMATCH`).
pub const SPAWNFLAG_NOT_DEATHMATCH: u32 = 2048;

/// Everything the simulation needs from a map.
#[derive(Clone, Debug)]
pub struct Level {
    /// The parsed file (entities and warnings).
    pub map: MapData,
    /// World brushes and never-moving brush entities.
    pub static_brushes: Vec<Brush>,
    /// Moving brush entities, ids 1..
    pub movers: Vec<MoverDef>,
    /// Trigger volumes.
    pub triggers: Vec<TriggerDef>,
    /// Relays and counters.
    pub relays: Vec<RelayDef>,
    /// Deathmatch spawn points (`info_player_start` when there are none).
    pub spawns: Vec<SpawnPoint>,
    /// Items.
    pub items: Vec<ItemDef>,
    /// Teleport destinations.
    pub teleport_dests: Vec<TeleportDest>,
    /// Path corners.
    pub path_corners: Vec<PathCorner>,
    /// `*teleport` surface brushes.
    pub teleport_surfaces: Vec<Brush>,
}

impl Level {
    /// Number of static brushes with the given contents.
    pub fn count_static(&self, c: Contents) -> usize {
        self.static_brushes
            .iter()
            .filter(|b| b.contents == c)
            .count()
    }
}

#[cfg(test)]
mod tests;
