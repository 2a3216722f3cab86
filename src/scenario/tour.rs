//! An item tour over a waypoint graph (issue #6's acceptance run, shared by the routing tests
//! and `examples/item_tour.rs`): one routing bot, starting at spawn point 0, is sent to every
//! item waypoint in turn and given a fixed time to get there.
//!
//! Entry points: [`tour`], [`TourReport`].

use std::sync::Arc;

use glam::Vec3;

use crate::bot::control::Controller;
use crate::bot::control::ControllerConfig;
use crate::map::{CollisionMap, Level};
use crate::nav::routing::{TravelFlags, build_cache};
use crate::nav::waypoints::{WaypointGraph, WaypointKind};
use crate::sim::{PlayerConfig, Sim, SimConfig, SimError};

/// One item waypoint of a tour.
#[derive(Clone, Debug)]
pub struct TourStop {
    /// The item waypoint.
    pub waypoint: u32,
    /// Its item class.
    pub class: String,
    /// Where it is.
    pub at: Vec3,
    /// Waypoints with a route to it when the bot set off (the tourist drops waypoints too).
    pub routes_from: usize,
    /// Waypoints in the graph then.
    pub waypoints: usize,
    /// Seconds the bot took to get there; `None`: not in the time given.
    pub reached_after: Option<f32>,
}

/// What a tour reached.
#[derive(Clone, Debug)]
pub struct TourReport {
    /// Waypoints in the graph at the end (the tourist drops waypoints too).
    pub waypoints: usize,
    /// The item waypoints in waypoint order.
    pub stops: Vec<TourStop>,
}

impl TourStop {
    /// Whether the item was in the graph's routable part: at least 90 % of the waypoints had
    /// a route to it when the bot set off.
    pub fn in_core(&self) -> bool {
        self.routes_from * 10 >= self.waypoints * 9
    }
}

impl TourReport {
    /// Item waypoints reached.
    pub fn reached(&self) -> usize {
        self.stops
            .iter()
            .filter(|s| s.reached_after.is_some())
            .count()
    }

    /// Item waypoints in the routable part, and how many of those were reached.
    pub fn core(&self) -> (usize, usize) {
        let core = self.stops.iter().filter(|s| s.in_core());
        (
            core.clone().count(),
            core.filter(|s| s.reached_after.is_some()).count(),
        )
    }
}

/// Tours `graph`'s item waypoints on `level` with one routing bot (seed `seed`, spawn 0),
/// `seconds` per item; an item counts as reached when the bot is within 32 units of it
/// across and 40 up or down. `after` sees the sim after each stop (for diagnostics).
pub fn tour(
    level: Arc<Level>,
    cmap: CollisionMap,
    graph: WaypointGraph,
    seed: u64,
    seconds: f32,
    mut after: impl FnMut(&Sim, &TourStop),
) -> Result<TourReport, SimError> {
    let players = vec![PlayerConfig {
        name: "tourist".into(),
        controller: ControllerConfig::Idle,
        spawn: Some(0),
        start: None,
        senses: Default::default(),
    }];
    let cfg = SimConfig::new(seed, players);
    let mut sim = Sim::new(level, cmap, &cfg)?;
    sim.waypoints = graph;
    let items: Vec<(u32, String, Vec3)> = sim
        .waypoints
        .waypoints()
        .iter()
        .filter_map(|w| match &w.kind {
            WaypointKind::Item { class, .. } => Some((w.number, class.clone(), w.origin)),
            _ => None,
        })
        .collect();
    let e = sim.players[0].entity;
    let ticks = (seconds / sim.dt).round() as usize;
    let mut stops = Vec::new();
    for (n, class, at) in items {
        let waypoints = sim.waypoints.len();
        let routes_from = build_cache(
            &sim.waypoints,
            n,
            0.0,
            TravelFlags::ALL,
            &Default::default(),
        )
        .dist
        .iter()
        .filter(|d| d.is_finite())
        .count();
        sim.world
            .insert_one(e, Controller::Route { goal: at })
            .expect("the tourist exists");
        let got = (0..ticks).find(|_| {
            sim.step();
            let s = sim.player_state(0).expect("the tourist exists");
            (s.origin - at).truncate().length() < 32.0 && (s.origin.z - at.z).abs() < 40.0
        });
        let stop = TourStop {
            waypoint: n,
            class,
            at,
            routes_from,
            waypoints,
            reached_after: got.map(|t| (t + 1) as f32 * sim.dt),
        };
        after(&sim, &stop);
        stops.push(stop);
    }
    Ok(TourReport {
        waypoints: sim.waypoints.len(),
        stops,
    })
}
