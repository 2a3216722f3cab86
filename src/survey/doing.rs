//! What a compiled tour bot is doing, tick by tick, in words a person reads in a survey
//! ("at a jump's start", "walking", "riding a lift"): summed over a leg that went badly, it
//! says where the time went and so which mechanism failed — the same failure seen on many
//! maps is one class to fix, not one place each.

use std::collections::BTreeMap;

use glam::Vec3;
use serde::Serialize;

use crate::aas::ReachKind;
use crate::aas::route::floor_walk;
use crate::bot::compiled::AreaNav;
use crate::sim::SimEvent;
use crate::tick::Match;

/// Under this speed (u/s) a bot on the ground on a walked reachability has stopped (at a
/// door, against a wall) rather than walking: a tenth of a run.
const STOPPED: f32 = 32.0;

/// The tourist's activity this tick: dead, off any route (`no route`), walking, stopped or
/// in the air on a walked reachability, going to or waiting at the start of a run (`at a jump's start`),
/// playing one (`on a jump`), or settling after one.
pub fn doing(m: &Match) -> String {
    if !m.sim.player_vitals(0).is_none_or(|v| v.alive) {
        return "dead".into();
    }
    let (Some(nav), Some(s), Some(graph)) = (
        m.sim.player_component::<AreaNav>(0),
        m.sim.player_state(0),
        m.nav.as_ref(),
    ) else {
        return "no route".into();
    };
    let mesh = &graph.mesh;
    let grounded = s.on_ground.is_some() || s.water_level >= 2;
    let reach = nav.reach.and_then(|r| mesh.reaches().get(r as usize));
    match (reach, nav.played) {
        (Some(r), Some(_)) => format!("on {}", kind_words(r.kind)),
        (Some(r), None) if floor_walk(mesh, r) => {
            let how = if s.water_level >= 2 {
                "swimming"
            } else if !grounded {
                "in the air"
            } else if s.velocity.truncate().length() < STOPPED {
                "stopped on the way"
            } else {
                "walking"
            };
            how.into()
        }
        (Some(r), None) => format!("at {}'s start", kind_words(r.kind)),
        (None, _) if nav.settle => "settling after a run".into(),
        (None, _) if !grounded => "in the air".into(),
        (None, _) => "no route".into(),
    }
}

/// A reachability kind with its article: "a jump", "a lift".
fn kind_words(k: ReachKind) -> &'static str {
    match k {
        ReachKind::Walk => "a walk",
        ReachKind::StepUp => "a step up",
        ReachKind::BarrierJump => "a barrier jump",
        ReachKind::Jump => "a jump",
        ReachKind::WalkOffLedge => "a drop off a ledge",
        ReachKind::Swim => "a swim",
        ReachKind::WaterJump => "a water jump",
        ReachKind::Teleport => "a teleporter",
        ReachKind::Elevator => "a lift",
        ReachKind::JumpPad => "a jump pad",
    }
}

/// Seconds spent on one activity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spent {
    /// The activity ([`doing`]).
    pub doing: String,
    /// Seconds.
    pub seconds: f32,
}

/// One leg's record of what the tourist did: ticks by activity, the causes of its deaths,
/// and where it was when the leg ended.
#[derive(Clone, Debug, Default)]
pub struct LegDoing {
    /// Ticks by activity ([`doing`]).
    pub ticks: BTreeMap<String, u32>,
    /// Death causes, with how many.
    pub deaths: BTreeMap<&'static str, u32>,
    /// The tourist's origin at the last tick seen.
    pub last: Vec3,
}

impl LegDoing {
    /// Counts the tick `m` has just run.
    pub fn tick(&mut self, m: &Match) {
        *self.ticks.entry(doing(m)).or_default() += 1;
        let me = m.sim.players.first().map(|p| p.id.0);
        for e in &m.sim.events {
            if let SimEvent::Death { player, cause, .. } = e
                && Some(*player) == me
            {
                *self.deaths.entry(cause).or_default() += 1;
            }
        }
        if let Some(s) = m.sim.player_state(0) {
            self.last = s.origin;
        }
    }

    /// The activities by seconds (`dt` a tick), most first; ties in name order.
    pub fn seconds(&self, dt: f32) -> Vec<Spent> {
        most_first(
            self.ticks
                .iter()
                .map(|(k, n)| (k.clone(), *n as f32 * dt))
                .collect(),
        )
    }
}

/// Seconds by activity, most first; ties in name order.
pub fn most_first(by: BTreeMap<String, f32>) -> Vec<Spent> {
    let mut v: Vec<Spent> = by
        .into_iter()
        .map(|(doing, seconds)| Spent { doing, seconds })
        .collect();
    v.sort_by(|a, b| {
        b.seconds
            .total_cmp(&a.seconds)
            .then_with(|| a.doing.cmp(&b.doing))
    });
    v
}
