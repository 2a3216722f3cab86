//! Routing cache builds on generated graphs of 1k, 10k and 100k waypoints against the
//! `pathfinding` crate's Dijkstra on the same graph in the same run (the ratio is printed),
//! the cost of a cached query, and on 100k a hierarchical single query against the flat build.
//!
//! Graphs: waypoints on a jittered square grid 64 units apart, each linked both ways to its
//! right, upper and upper-right neighbours, with terrain weights and travel types mixed in.

use std::time::Instant;

use botarena::nav::routing::{RouteCaches, RouteParams, TravelFlags, build_cache, link_cost};
use botarena::nav::waypoints::{Travel, WaypointGraph, WaypointKind};
use botarena::sim::rng::SimRng;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;

fn graph(n: usize) -> WaypointGraph {
    let side = (n as f32).sqrt().ceil() as usize;
    let mut rng = SimRng::new(7, 1);
    let mut g = WaypointGraph::new();
    for i in 0..n {
        let (x, y) = ((i % side) as f32, (i / side) as f32);
        let jitter = Vec3::new(rng.range(-12.0, 12.0), rng.range(-12.0, 12.0), 0.0);
        g.add(
            Vec3::new(x * 64.0, y * 64.0, 24.0) + jitter,
            WaypointKind::Normal,
        );
    }
    for i in 0..n {
        let (x, y) = (i % side, i / side);
        for (dx, dy) in [(1, 0), (0, 1), (1, 1)] {
            let (nx, ny) = (x + dx, y + dy);
            let j = ny * side + nx;
            if nx >= side || j >= n {
                continue;
            }
            let d = g
                .get(i as u32)
                .unwrap()
                .origin
                .distance(g.get(j as u32).unwrap().origin);
            let weight = if rng.chance(0.1) { 1.5 } else { 1.0 };
            let travel = if rng.chance(0.05) {
                Travel::Jump
            } else {
                Travel::Walk
            };
            g.link(i as u32, j as u32, d, travel, weight);
            g.link(j as u32, i as u32, d, travel, weight);
        }
    }
    g
}

/// Dijkstra from the `pathfinding` crate over the same reversed links (integer costs in
/// thousandths, as it needs totally ordered costs).
fn pathfinding_all(g: &WaypointGraph, goal: u32, p: &RouteParams) -> usize {
    let r = pathfinding::directed::dijkstra::dijkstra_all(&goal, |&v: &u32| {
        g.get(v)
            .unwrap()
            .links
            .iter()
            .filter_map(|l| {
                link_cost(l, TravelFlags::ALL, p).map(|c| (l.from, (c * 1000.0) as u64))
            })
            .collect::<Vec<_>>()
    });
    r.len()
}

fn median_seconds(mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..5)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[2]
}

fn routing(c: &mut Criterion) {
    let p = RouteParams::default();
    let mut g = c.benchmark_group("routing");
    g.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let graph = graph(n);
        let goal = (n / 2) as u32;
        g.bench_with_input(BenchmarkId::new("cache_build", n), &n, |b, _| {
            b.iter(|| build_cache(&graph, goal, 0.0, TravelFlags::ALL, &p))
        });
        g.bench_with_input(
            BenchmarkId::new("pathfinding_dijkstra_all", n),
            &n,
            |b, _| b.iter(|| pathfinding_all(&graph, goal, &p)),
        );
        let mut caches = RouteCaches::new(usize::MAX, p);
        caches.get(&graph, goal, TravelFlags::ALL);
        g.bench_with_input(BenchmarkId::new("cached_query", n), &n, |b, _| {
            b.iter(|| caches.get(&graph, goal, TravelFlags::ALL).distance(7))
        });
        if n == 100_000 {
            // Hierarchical vs flat: one distance needs a whole flat cache, but only the goal's
            // cluster, the portal level and the start's cluster hierarchically.
            let h = botarena::nav::hierarchy::Hierarchy::build(&graph, 512.0, TravelFlags::ALL, p);
            let start = 17u32;
            g.bench_with_input(BenchmarkId::new("hierarchical_query", n), &n, |b, _| {
                b.iter(|| h.distance(&graph, start, goal))
            });
            let hb = median_seconds(|| {
                std::hint::black_box(botarena::nav::hierarchy::Hierarchy::build(
                    &graph,
                    512.0,
                    TravelFlags::ALL,
                    p,
                ));
            });
            let hq = median_seconds(|| {
                std::hint::black_box(h.distance(&graph, start, goal));
            });
            // A start a few clusters from the goal: the portal search stops early.
            let near = goal + 40;
            let hn = median_seconds(|| {
                std::hint::black_box(h.distance(&graph, near, goal));
            });
            println!(
                "routing {n} waypoints: hierarchy build (once) {:.1} ms with {} portals; hierarchical query {:.3} ms from a corner, {:.3} ms from nearby",
                hb * 1e3,
                h.portal_count(),
                hq * 1e3,
                hn * 1e3
            );
        }
        let ours = median_seconds(|| {
            std::hint::black_box(build_cache(&graph, goal, 0.0, TravelFlags::ALL, &p));
        });
        let theirs = median_seconds(|| {
            std::hint::black_box(pathfinding_all(&graph, goal, &p));
        });
        println!(
            "routing {n} waypoints: cache build {:.3} ms, pathfinding Dijkstra {:.3} ms, ratio {:.2}",
            ours * 1e3,
            theirs * 1e3,
            ours / theirs
        );
    }
    g.finish();
}

criterion_group!(benches, routing);
criterion_main!(benches);
