//! Bot systems, one file each: what a bot sees and can reach ([`perception`]) and what it
//! hears ([`hearing`]) — both fill the bot's [`Percepts`], the one place later brain and
//! navigation systems read — where its enemies are going ([`prediction`]) and how it moves
//! toward a nearby target ([`movement`]); how it learns the map by dropping waypoints
//! ([`waypoints`]), how it follows routes over them ([`routing`]) and where it goes when it
//! has nothing better to do ([`explore`]).

pub mod aim;
pub mod brain;
pub mod control;
pub mod explore;
pub mod hearing;
pub mod movement;
pub mod perception;
pub mod prediction;
pub mod routing;
pub mod waypoints;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::map::EntId;
use crate::nav::Reachability;
use crate::sim::sound::SoundKind;

/// A bot's senses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Senses {
    /// Field of view, degrees (360: sees all around, the reference's behaviour).
    pub fov: f32,
    /// Farthest distance it sees.
    pub sight: f32,
    /// Multiplies every sound's audible distance (1: normal hearing).
    pub hearing: f32,
}

impl Default for Senses {
    fn default() -> Self {
        Senses {
            fov: 360.0,
            sight: 8192.0,
            hearing: 1.0,
        }
    }
}

/// Something a bot can perceive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Thing {
    /// A player, by id.
    Player(EntId),
    /// An item, by index into the level's items.
    Item(usize),
}

/// A visible thing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Seen {
    /// What.
    pub thing: Thing,
    /// Where its centre is.
    pub pos: Vec3,
    /// Distance from the eye.
    pub distance: f32,
}

/// A thing with its straight-line reachability, as of the last refresh.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Reached {
    /// What.
    pub thing: Thing,
    /// How (never `Unreachable`: only reachable things are listed).
    pub how: Reachability,
}

/// A sound the bot hears.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Heard {
    /// The sound's id in the sound list.
    pub sound: u64,
    /// What kind of sound.
    pub kind: SoundKind,
    /// Who made it.
    pub source: Option<EntId>,
    /// Distance from the ear to the sound.
    pub distance: f32,
    /// Its exact position when the bot could locate it; `None`: only heard.
    pub position: Option<Vec3>,
}

/// Everything a bot perceived this tick.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Percepts {
    /// Visible players and items, nearest first.
    pub visible: Vec<Seen>,
    /// Reachable things among the visible ones (refreshed at 10 Hz).
    pub reachable: Vec<Reached>,
    /// Sounds heard, oldest first.
    pub heard: Vec<Heard>,
    /// Traces spent on this bot this tick.
    pub traces: u32,
}
