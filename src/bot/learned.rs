//! What the bots have learned of the map together (see [`LearnedMap`]).

use std::sync::Arc;

use crate::nav::routing::{RouteCache, RouteCaches, RouteParams, TravelFlags};
use crate::nav::waypoints::WaypointGraph;

use super::explore::VisitMap;

/// Memory cap of the routing caches.
pub const ROUTE_CACHE_BYTES: usize = 64 << 20;

/// What the bots have learned of the map, shared by all of them: the waypoint graph they drop
/// into and route over (reference 000), its routing caches, and where they have been
/// (exploration's memory). The graph and caches sit behind an `Arc` so that a stage can share
/// them with its worker threads without copying; change them through
/// [`LearnedMap::waypoints_mut`] and [`LearnedMap::route_cache`] between pool calls (no
/// worker holds a reference then, so nothing is copied).
#[derive(Clone, Debug)]
pub struct LearnedMap {
    /// The waypoint graph.
    pub waypoints: Arc<WaypointGraph>,
    /// Routing caches over the graph.
    pub routes: Arc<RouteCaches>,
    /// Where bots have been.
    pub visits: VisitMap,
}

impl Default for LearnedMap {
    fn default() -> Self {
        LearnedMap::new(WaypointGraph::new())
    }
}

impl LearnedMap {
    /// Starting from `graph` (empty: the bots know nothing yet), with empty caches under
    /// [`ROUTE_CACHE_BYTES`].
    pub fn new(graph: WaypointGraph) -> LearnedMap {
        LearnedMap {
            waypoints: Arc::new(graph),
            routes: Arc::new(RouteCaches::new(ROUTE_CACHE_BYTES, RouteParams::default())),
            visits: Default::default(),
        }
    }

    /// Replaces the waypoint graph; the caches start afresh (they were built over the
    /// old graph, whose changes the new one does not record).
    pub fn set_waypoints(&mut self, graph: WaypointGraph) {
        self.waypoints = Arc::new(graph);
        self.routes = Arc::new(RouteCaches::new(self.routes.cap_bytes, self.routes.params));
    }

    /// The graph for changing.
    pub fn waypoints_mut(&mut self) -> &mut WaypointGraph {
        Arc::make_mut(&mut self.waypoints)
    }

    /// The routing cache toward waypoint `goal` for `flags`, built or brought up to date with
    /// the graph first ([`RouteCaches::get`]).
    pub fn route_cache(&mut self, goal: u32, flags: TravelFlags) -> &RouteCache {
        Arc::make_mut(&mut self.routes).get(&self.waypoints, goal, flags)
    }
}
