//! Match rules: time and frag limits, item rules, and the stage that ends a match.
//!
//! Frags follow Quake's ClientObituary: killing another player scores +1 for the killer
//! (a telefrag too); dying by one's own weapon, a hazard (lava, slime, drowning, falls,
//! crushing) or the `kill` command scores −1 for the victim.

use serde::Serialize;

use crate::sim::components::PlayerStats;
use crate::sim::{Sim, SimEvent};

/// The rules of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchRules {
    /// Seconds after which the match ends (`None`: it runs for the ticks asked).
    pub time_limit: Option<f32>,
    /// Frags at which the match ends.
    pub frag_limit: Option<i32>,
    /// Multiplies every item's respawn time (1: Quake's).
    pub respawn_scale: f32,
    /// Item classes taken out of the map.
    pub removed_items: Vec<String>,
    /// Running players make footstep sounds (Quake has none; off by default).
    pub footsteps: bool,
}

impl Default for MatchRules {
    fn default() -> Self {
        MatchRules {
            time_limit: None,
            frag_limit: None,
            respawn_scale: 1.0,
            removed_items: Vec::new(),
            footsteps: false,
        }
    }
}

/// The rules stage: ends the match when a limit of `rules` is reached, once: `over` says
/// why from then on. Reads [`PlayerStats`] and the clock; writes `over` and
/// [`SimEvent::MatchEnd`].
pub fn rules_system(sim: &mut Sim, rules: &MatchRules, over: &mut Option<&'static str>) {
    if over.is_some() {
        return;
    }
    let reason = if rules
        .time_limit
        .is_some_and(|t| (sim.tick + 1) as f64 * sim.dt as f64 >= t as f64 - 1e-6)
    {
        Some("time limit")
    } else if let Some(limit) = rules.frag_limit {
        sim.players
            .iter()
            .any(|p| {
                sim.world
                    .get::<&PlayerStats>(p.entity)
                    .is_ok_and(|s| s.0.frags >= limit)
            })
            .then_some("frag limit")
    } else {
        None
    };
    if let Some(reason) = reason {
        *over = Some(reason);
        sim.events.push(SimEvent::MatchEnd { reason });
    }
}
