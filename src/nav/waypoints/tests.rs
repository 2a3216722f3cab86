use super::*;

use glam::Vec3;

#[test]
fn links_are_reversed_and_deduplicated() {
    let mut g = WaypointGraph::new();
    let a = g.add(Vec3::ZERO, WaypointKind::Normal);
    let b = g.add(Vec3::new(100., 0., 0.), WaypointKind::Normal);
    assert!(g.link(a, b, 100.0, Travel::Walk, 1.0));
    // Stored on b, naming a.
    assert_eq!(g.get(b).unwrap().links[0].from, a);
    assert!(g.get(a).unwrap().links.is_empty());
    assert!(g.has_link(a, b) && !g.has_link(b, a));
    assert!(
        !g.link(a, b, 120.0, Travel::Walk, 1.0),
        "a longer duplicate is dropped"
    );
    assert!(
        g.link(a, b, 90.0, Travel::Walk, 1.0),
        "a shorter one replaces it"
    );
    assert_eq!(g.get(b).unwrap().links.len(), 1);
    assert!(
        g.link(a, b, 80.0, Travel::Jump, 1.0),
        "another travel type is another link"
    );
    assert_eq!(g.get(b).unwrap().links.len(), 2);
    assert!(!g.link(a, a, 1.0, Travel::Walk, 1.0));
    assert!(!g.link(a, 9, 1.0, Travel::Walk, 1.0));
}

#[test]
fn near_uses_the_grid_and_sorts_by_distance() {
    let mut g = WaypointGraph::new();
    for i in 0..50 {
        g.add(Vec3::new(i as f32 * 40.0, 0., 0.), WaypointKind::Normal);
    }
    let n = g.near(Vec3::new(205., 0., 0.), 100.0);
    let nums: Vec<u32> = n.iter().map(|x| x.0).collect();
    assert_eq!(nums, vec![5, 6, 4, 7, 3]);
}

#[test]
fn the_nearest_few_are_the_first_of_near() {
    // Seeded clouds with ties (waypoints on a coarse lattice, probes on it too): a dense
    // one, and a sparse one where the nearest often lies beyond the 3 × 3 columns that
    // `nearest` looks in first.
    let mut rng = crate::sim::rng::SimRng::new(7, 0);
    for spacing in [16.0, 96.0] {
        let mut g = WaypointGraph::new();
        for _ in 0..400 {
            let q = |r: &mut crate::sim::rng::SimRng| (r.range(-20.0, 20.0).round()) * spacing;
            let p = Vec3::new(q(&mut rng), q(&mut rng), q(&mut rng) * 0.25);
            g.add(p, WaypointKind::Normal);
        }
        for _ in 0..200 {
            let p = Vec3::new(
                (rng.range(-20.0, 20.0).round()) * spacing * 0.5,
                (rng.range(-20.0, 20.0).round()) * spacing * 0.5,
                0.0,
            );
            for radius in [0.0, 40.0, 128.0, 129.0, 200.0, 256.0, 320.0, 512.0, 600.0] {
                let all = g.near(p, radius);
                assert_eq!(g.nearest(p, radius), all.first().copied());
                assert_eq!(g.count_within(p, radius), all.len());
                for k in [0, 1, 2, 4, 6, 8, 32, 1000] {
                    let want: Vec<_> = all.iter().copied().take(k).collect();
                    assert_eq!(g.near_k(p, radius, k), want, "{p} {radius} {k}");
                }
            }
        }
    }
}

#[test]
fn links_that_would_cost_less_than_nothing_are_refused() {
    let mut g = WaypointGraph::new();
    let a = g.add(Vec3::ZERO, WaypointKind::Normal);
    let b = g.add(Vec3::X * 64.0, WaypointKind::Normal);
    let rev = g.revision;
    for (d, w) in [
        (-1.0, 1.0),
        (64.0, 0.0),
        (64.0, -2.0),
        (f32::NAN, 1.0),
        (64.0, f32::INFINITY),
    ] {
        assert!(!g.link(a, b, d, Travel::Walk, w), "{d} {w}");
    }
    assert_eq!(g.revision, rev);
    assert!(!g.has_link(a, b));
    assert!(g.link(a, b, 64.0, Travel::Walk, 1.0));
    assert!(g.link(a, b, 0.0, Travel::Jump, 1.0));
}

#[test]
fn components_and_merge() {
    let mut g = WaypointGraph::new();
    let a = g.add(Vec3::ZERO, WaypointKind::Normal);
    let b = g.add(Vec3::X, WaypointKind::Normal);
    let _c = g.add(Vec3::Y * 500.0, WaypointKind::Normal);
    g.link(a, b, 1.0, Travel::Walk, 1.0);
    assert_eq!(g.components(), 2);
    let mut h = WaypointGraph::new();
    let base = h.merge(&g);
    assert_eq!(base, 0);
    let base = h.merge(&g);
    assert_eq!(base, 3);
    assert_eq!(h.len(), 6);
    assert!(h.has_link(3, 4));
    assert_eq!(h.components(), 4);
}
