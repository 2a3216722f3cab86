//! Bots, one stage per file, each a plain function (or a stage object owning its scratch)
//! whose doc says what it reads and writes: what a bot sees and can reach ([`perception`])
//! and hears ([`hearing`]) — both fill its [`Percepts`], the one place later stages read —
//! where its enemies are going ([`prediction`]), what its controller asks ([`control`]), what
//! the deathmatch brain wants ([`brain`]), which waypoint it heads for ([`routing`]), how it
//! moves there ([`movement`]) and looks ([`aim`]), how it learns the map by dropping waypoints
//! ([`waypoints`]) and where it goes with nothing better to do ([`explore`]). A bot with
//! compiled navigation routes on the compiled area graph instead ([`compiled`]).
//!
//! What the bots have learned of the map together — the waypoint graph, its routing caches
//! and where they have been — is the [`learned::LearnedMap`]; the components a bot
//! carries are inserted by [`spawn::insert_components`].

pub mod aim;
pub mod brain;
pub mod compiled;
pub mod control;
pub mod explore;
pub mod hearing;
pub mod learned;
pub mod movement;
pub mod perception;
pub mod prediction;
pub mod routing;
pub mod spawn;
pub mod waypoints;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::map::EntId;
use crate::nav::Reachability;
use crate::sim::hash::{StateHash, StateHasher};
use crate::sim::sound::SoundKind;

/// How a bot knows its way (a component of every bot; [`compiled`] is the compiled way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Navigation {
    /// It drops waypoints as it goes and routes over what it has learned (reference 000).
    #[default]
    Learned,
    /// It routes on the compiled area graph from tick 0.
    Compiled,
}

impl Navigation {
    /// Its name in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            Navigation::Learned => "learned",
            Navigation::Compiled => "compiled",
        }
    }

    /// Parses `learned` or `compiled`.
    pub fn parse(s: &str) -> Result<Navigation, String> {
        match s {
            "learned" => Ok(Navigation::Learned),
            "compiled" => Ok(Navigation::Compiled),
            _ => Err(format!(
                "unknown navigation {s:?} (learned: waypoints dropped as it goes; compiled: the compiled area graph)"
            )),
        }
    }
}

/// A bot's senses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Senses {
    /// Field of view, degrees (360: sees all around, the reference's behaviour).
    pub fov: f32,
    /// Farthest distance it sees.
    pub sight: f32,
    /// Multiplies every sound's audible distance (1: normal hearing).
    pub hearing: f32,
    /// How a sound's distance is measured: straight, or along the way through the map.
    pub hearing_model: hearing::HearingModel,
    /// Whether perception tests the straight-line reachability of the nearest visible
    /// things ([`Percepts::reachable`]); `None` (the default) is settled when the bot is
    /// spawned: tested for the controllers that read it (the explorer's). A brain bot never
    /// reads the list, and the tests were most of its perception's traces (nine in ten with
    /// 8 bots on dm4).
    #[serde(default)]
    pub reach_checks: Option<bool>,
}

impl Default for Senses {
    fn default() -> Self {
        Senses {
            fov: 360.0,
            sight: 8192.0,
            hearing: 1.0,
            hearing_model: Default::default(),
            reach_checks: None,
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
    /// Reachable things among the visible ones (refreshed at 10 Hz), for bots whose
    /// [`Senses::reach_checks`] ask for it; empty for the others.
    pub reachable: Vec<Reached>,
    /// Sounds heard, oldest first.
    pub heard: Vec<Heard>,
    /// Traces spent on this bot this tick.
    pub traces: u32,
}

impl StateHash for Thing {
    fn hash_state(&self, h: &mut StateHasher) {
        match *self {
            Thing::Player(id) => h.u64(id.0 as u64),
            Thing::Item(i) => h.u64(i as u64 | 1 << 40),
        }
    }
}

/// What is seen and reached, and which heard sounds were located: the rest (positions,
/// distances, trace counts) follows from the world.
impl StateHash for Percepts {
    fn hash_state(&self, h: &mut StateHasher) {
        for v in &self.visible {
            v.thing.hash_state(h);
        }
        h.u64(u64::MAX);
        for r in &self.reachable {
            r.thing.hash_state(h);
            r.how.hash_state(h);
        }
        h.u64(u64::MAX);
        for s in &self.heard {
            h.u64(s.sound);
            h.u64(s.position.is_some() as u64);
        }
    }
}
