//! Explorers close the loops their drops leave open: on dm4, where a drop is the quick way
//! down every storey and the stairs back up are walked seldom, four explorers' graph has
//! every waypoint routable to every other after ten minutes, because an explorer with
//! nothing new near it plans a run up to the waypoints the team's graph has no route to
//! from where it stands (a third of the waypoints were routable without those runs).

mod common;

use botarena::nav::waypoints::{Travel, WaypointGraph, WaypointKind};
use glam::Vec3;

#[test]
fn explorers_on_dm4_climb_back_to_what_they_dropped_from() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let m = common::explorers_on_map(&dir, "dm4", 1);
    let st = m.learned.waypoints.stats();
    println!(
        "{} of {} waypoints routable",
        st.largest_strong, st.waypoints
    );
    assert!(
        st.largest_strong as f64 >= 0.9 * st.waypoints as f64,
        "{} of {} waypoints routable",
        st.largest_strong,
        st.waypoints
    );
}

/// `routed_from` follows links in their direction only: a drop's waypoint is reached
/// from the ledge, not the ledge from it.
#[test]
fn routes_from_a_waypoint_follow_links_one_way() {
    let mut g = WaypointGraph::new();
    let ledge = g.add(Vec3::new(0., 0., 128.), WaypointKind::Normal);
    let edge = g.add(Vec3::new(64., 0., 128.), WaypointKind::Normal);
    let below = g.add(Vec3::new(160., 0., 0.), WaypointKind::Normal);
    let apart = g.add(Vec3::new(900., 0., 0.), WaypointKind::Normal);
    g.link(ledge, edge, 64., Travel::Walk, 1.0);
    g.link(edge, ledge, 64., Travel::Walk, 1.0);
    g.link(edge, below, 160., Travel::Fall, 1.0);
    assert_eq!(g.routed_from(ledge), vec![true, true, true, false]);
    assert_eq!(g.routed_from(below), vec![false, false, true, false]);
    assert_eq!(g.routed_from(apart), vec![false, false, false, true]);
    assert!(g.routed_from(99).iter().all(|r| !r));
}
