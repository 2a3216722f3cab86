//! Explores a map, then sends one routing bot to every item waypoint in turn and reports
//! which it reached: `cargo run --release --example item_tour -- MAP.map [SEED] [grid]`
//! (`TOUR_SECONDS` sets the exploration time, default 600).
use std::sync::Arc;

use botarena::map::{MapData, build_level};
use botarena::nav::waypoints::WaypointKind;
use botarena::scenario::explore::{ExploreConfig, explore};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::Path::new(&args[1]);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let (level, cmap) = build_level(MapData::load(path).unwrap());
    let cfg = ExploreConfig {
        bots: 4,
        seconds: std::env::var("TOUR_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(600.0),
        seed,
        tick_rate: 20,
        every: 600.0,
        connect: true,
    };
    let explored = explore(Arc::new(level), cmap, &cfg, |_| {}).unwrap();
    let mut graph = (*explored.learned.waypoints).clone();
    {
        // How many waypoints reach each item waypoint (a strongly connected graph: all).
        let n = graph.len();
        let mut counts = Vec::new();
        for w in graph.waypoints() {
            if matches!(w.kind, WaypointKind::Item { .. }) {
                let c = botarena::nav::routing::build_cache(
                    &graph,
                    w.number,
                    0.0,
                    botarena::nav::routing::TravelFlags::ALL,
                    &Default::default(),
                );
                counts.push(c.dist.iter().filter(|d| d.is_finite()).count());
            }
        }
        println!(
            "explored {} s: {n} waypoints; waypoints with a route to each item: {counts:?}",
            cfg.seconds
        );
    }
    let (level, cmap) = build_level(MapData::load(path).unwrap());
    if args.get(3).map(String::as_str) == Some("grid") {
        // Merge a grid and stitch the explored waypoints into it.
        let grid = botarena::nav::grid::seed_grid(&cmap, &Default::default());
        let explored_n = graph.len() as u32;
        graph.merge(&grid);
        let added = botarena::nav::grid::stitch(&cmap, &mut graph, 0..explored_n, 96.0, 6);
        println!(
            "merged a grid of {} waypoints, {added} stitching links",
            grid.len()
        );
    }
    let (mut core_items, mut core_reached) = (0, 0);
    let report = botarena::scenario::tour::tour(
        Arc::new(level),
        cmap,
        graph,
        seed,
        60.0,
        |m, stop| {
            let (n, class, at) = (stop.waypoint, &stop.class, stop.at);
            let core = stop.in_core();
            core_items += core as usize;
            if let Some(t) = stop.reached_after {
                core_reached += core as usize;
                println!("item waypoint {n} ({class}): reached in {t:.1} s");
                return;
            }
            let s = m.sim.player_state(0).unwrap();
            let r = m.player_route(0).unwrap_or_default();
            let wp = |k: Option<u32>| k.and_then(|k| m.learned.waypoints.get(k)).map(|w| w.origin);
            println!(
                "item waypoint {n} ({class}) at {at}: NOT reached; bot at {}, {:?}; next {:?} at {:?} (from {:?} at {:?}){}",
                s.origin,
                m.player_move_status(0),
                r.next,
                wp(r.next),
                r.previous,
                wp(r.previous),
                if r.no_route { "; no route" } else { "" }
            );
            if let (Some(a), Some(b)) = (r.previous, r.next)
                && let Some(w) = m.learned.waypoints.get(b)
            {
                for l in w.links.iter().filter(|l| l.from == a) {
                    println!("  link {a} -> {b}: {:?}", l);
                }
                let c = botarena::nav::routing::build_cache(
                    &m.learned.waypoints,
                    r.goal_waypoint.unwrap(),
                    0.0,
                    botarena::nav::routing::TravelFlags::ALL,
                    &Default::default(),
                );
                for x in m.learned.waypoints.waypoints() {
                    for l in x.links.iter().filter(|l| l.from == b || l.from == a) {
                        println!(
                            "  out {} -> {} at {}: {:?} {} (goal wp {:?}, to goal {} / from {} {})",
                            l.from,
                            x.number,
                            x.origin,
                            l.travel,
                            l.distance,
                            r.goal_waypoint,
                            c.dist[x.number as usize],
                            l.from,
                            c.dist[l.from as usize]
                        );
                    }
                }
            }
        },
    )
    .unwrap();
    println!(
        "{} of {} item waypoints reached",
        report.reached(),
        report.stops.len()
    );
    println!("core items reached: {core_reached} of {core_items}");
}
