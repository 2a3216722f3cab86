//! Route bots sent from item to item over a waypoint graph: an item tour (the routing
//! acceptance run, shared by the routing tests and `examples/item_tour.rs`: one routing bot,
//! starting at spawn point 0, is sent to every item waypoint in turn and given a fixed time
//! to get there), and one leg compared with the travel-time planner (`botarena times
//! --waypoints`).
//!
//! Entry points: [`tour`], [`TourReport`], [`compare`].

use std::sync::Arc;

use glam::Vec3;

use crate::bot::control::Controller;
use crate::bot::control::ControllerConfig;
use crate::bot::learned::ROUTE_CACHE_BYTES;
use crate::bot::routing::goal_waypoint;
use crate::map::{CollisionMap, Level};
use crate::nav::routing::{RouteCaches, RouteParams, TravelFlags, build_cache};
use crate::nav::waypoints::{WaypointGraph, WaypointKind};
use crate::planner::times::ItemRef;
use crate::tick::{Match, MatchConfig, MatchError, PlayerConfig};

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
/// across and 40 up or down. `after` sees the match after each stop (for diagnostics).
pub fn tour(
    level: Arc<Level>,
    cmap: CollisionMap,
    graph: WaypointGraph,
    seed: u64,
    seconds: f32,
    mut after: impl FnMut(&Match, &TourStop),
) -> Result<TourReport, MatchError> {
    let players = vec![PlayerConfig {
        name: "tourist".into(),
        controller: ControllerConfig::Idle,
        spawn: Some(0),
        start: None,
        senses: Default::default(),
    }];
    let cfg = MatchConfig::new(seed, players);
    let mut m = Match::new(level, cmap, &cfg)?;
    m.set_waypoints(graph);
    let items: Vec<(u32, String, Vec3)> = m
        .learned
        .waypoints
        .waypoints()
        .iter()
        .filter_map(|w| match &w.kind {
            WaypointKind::Item { class, .. } => Some((w.number, class.clone(), w.origin)),
            _ => None,
        })
        .collect();
    let e = m.sim.players[0].entity;
    let ticks = (seconds / m.sim.dt).round() as usize;
    let mut stops = Vec::new();
    for (n, class, at) in items {
        let waypoints = m.learned.waypoints.len();
        let routes_from = build_cache(
            &m.learned.waypoints,
            n,
            0.0,
            TravelFlags::ALL,
            &Default::default(),
        )
        .dist
        .iter()
        .filter(|d| d.is_finite())
        .count();
        m.sim
            .world
            .insert_one(e, Controller::Route { goal: at })
            .expect("the tourist exists");
        let got = (0..ticks).find(|_| {
            m.step();
            let s = m.sim.player_state(0).expect("the tourist exists");
            (s.origin - at).truncate().length() < 32.0 && (s.origin.z - at.z).abs() < 40.0
        });
        let stop = TourStop {
            waypoint: n,
            class,
            at,
            routes_from,
            waypoints,
            reached_after: got.map(|t| (t + 1) as f32 * m.sim.dt),
        };
        after(&m, &stop);
        stops.push(stop);
    }
    Ok(TourReport {
        waypoints: m.learned.waypoints.len(),
        stops,
    })
}

/// The two estimates of one leg from item `from` to item `to` that a waypoint graph gives,
/// beside the travel-time planner's (`botarena times --waypoints`): the route distance / 320
/// u/s, from the nearest waypoint the start reaches to the nearest that reaches the goal,
/// with the straight ends; and a route bot sent there through the simulation (seed 1, at
/// most 60 s at 20 Hz). `None` where there is no route or the bot did not arrive.
pub fn compare(
    level: &Arc<Level>,
    cmap: &CollisionMap,
    graph: &WaypointGraph,
    from: &ItemRef,
    to: &ItemRef,
) -> (Option<f32>, Option<f32>) {
    let a = goal_waypoint(cmap, graph, from.stand);
    let b = goal_waypoint(cmap, graph, to.stand);
    let route = match (a, b) {
        (Some(a), Some(b)) => {
            let mut caches = RouteCaches::new(ROUTE_CACHE_BYTES, RouteParams::default());
            caches.get(graph, b, TravelFlags::ALL).distance(a).map(|d| {
                let ends = from.stand.distance(graph.get(a).expect("waypoint").origin)
                    + to.stand.distance(graph.get(b).expect("waypoint").origin);
                (d + ends) / 320.0
            })
        }
        _ => None,
    };
    let cfg = MatchConfig::new(
        1,
        vec![PlayerConfig {
            name: "runner".into(),
            controller: ControllerConfig::Route(to.stand),
            spawn: None,
            start: Some((from.stand, 0.0)),
            senses: Default::default(),
        }],
    );
    let Ok(mut m) = Match::new(Arc::clone(level), cmap.clone(), &cfg) else {
        return (route, None);
    };
    m.set_waypoints(graph.clone());
    let mut bot = None;
    for _ in 0..1200 {
        m.step();
        if m.sim.player_state(0).is_some_and(|s| to.goal.reached(&s)) {
            bot = Some(m.sim.tick as f32 / 20.0);
            break;
        }
    }
    (route, bot)
}
