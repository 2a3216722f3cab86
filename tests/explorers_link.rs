//! Explorers close the loops their drops leave open: on dm4, where a drop is the quick way
//! down every storey and the stairs back up are walked seldom, four explorers' graph has
//! every waypoint routable to every other after ten minutes, because an explorer with
//! nothing new near it plans a run up to the waypoints the team's graph has no route to
//! from where it stands (a third of the waypoints were routable without those runs).

mod common;

use std::sync::Arc;

use botarena::map::{CollisionMap, Level};
use botarena::nav::waypoints::{GraphStats, Travel, WaypointGraph, WaypointKind};
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

/// Two rooms' waypoints, each three linked both ways, with a wall between them that only
/// a walk round its end passes: no straight line joins the two parts, so the straight-line
/// closing adds nothing, and the planned closing lays a chain each way round the wall's
/// end — every waypoint routable to every other, each new link confirmed by straight-line
/// reachability.
#[test]
fn the_closing_pass_joins_two_parts_by_a_way_round_a_wall() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 512., 128.));
    b.solid(v(504., 0., 0.), v(520., 400., 128.), "WALL");
    let (level, cmap) = b.build();
    let mut g = two_parts();
    assert_eq!(g.clone().connect_strays(&cmap, 512.0, 6, 4), 0);
    let (added, st) = closed(&mut g, level, &cmap);
    assert!(added >= 2, "{added} links");
    assert!(st.waypoints > 6, "waypoints laid round the wall");
    links_hold(&g, &cmap, None);
}

/// A lone waypoint behind the same wall (one an explorer dropped once and never linked
/// back): the planned closing joins a part of any size, not only parts of several.
#[test]
fn the_closing_pass_joins_a_lone_waypoint_round_a_wall() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 512., 128.));
    b.solid(v(504., 0., 0.), v(520., 400., 128.), "WALL");
    let (level, cmap) = b.build();
    // The western part as in [`two_parts`]; of the eastern one, one waypoint alone.
    let mut g = WaypointGraph::new();
    let at = |x: f32, y: f32| v(x, y, 24.03125);
    linked(&mut g, &[at(200., 100.), at(300., 100.), at(200., 200.)]);
    g.add(at(800., 100.), WaypointKind::Normal);
    assert_eq!(g.stats().largest_strong, 3);
    let (added, _) = closed(&mut g, level, &cmap);
    assert!(added >= 2, "{added} links");
    links_hold(&g, &cmap, None);
}

/// The same two parts in rooms that a wall parts for good, each with a teleporter into
/// the other: the planned closing goes into each teleporter and on from where it sends,
/// with a teleporter waypoint for each and its teleport link, as explorers drop them.
#[test]
fn the_closing_pass_joins_two_parts_through_teleporters_nobody_took() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 512., 128.));
    b.solid(v(504., 0., 0.), v(520., 512., 128.), "WALL");
    for (lo, target, dest) in [
        (v(64., 400., 0.), "east", v(900., 256., 0.)),
        (v(896., 400., 0.), "west", v(100., 256., 0.)),
    ] {
        b.brush_entity(
            &[("classname", "trigger_teleport"), ("target", target)],
            &[(lo, lo + v(64., 64., 64.), "TRIGGER")],
        );
        b.point(
            "info_teleport_destination",
            dest,
            &[("targetname", target), ("angle", "270")],
        );
    }
    let (level, cmap) = b.build();
    let mut g = two_parts();
    assert_eq!(g.clone().connect_strays(&cmap, 512.0, 6, 4), 0);
    let (added, st) = closed(&mut g, level, &cmap);
    assert!(added >= 4, "{added} links");
    assert_eq!(st.by_kind.get("teleporter"), Some(&2), "{:?}", st.by_kind);
    assert_eq!(st.links_by_travel.get("teleport"), Some(&2));
    let teleports: Vec<_> = g
        .waypoints()
        .iter()
        .flat_map(|w| w.links.iter().map(move |l| (l.from, l.travel)))
        .filter(|l| l.1 == Travel::Teleport)
        .collect();
    for (from, _) in teleports {
        assert!(matches!(
            g.get(from).unwrap().kind,
            WaypointKind::Teleporter { .. }
        ));
    }
    links_hold(&g, &cmap, None);
}

/// A ledge 224 units over the floor (deeper than the straight-line test's own 200-unit
/// limit), entered once from the floor (say by a jump pad) and never walked off: the
/// planned closing lays the drop down as a fall, as deep as explorers walk off themselves,
/// and every waypoint is routable.
#[test]
fn the_closing_pass_joins_a_ledge_by_a_drop_deeper_than_the_straight_test_takes() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 512., 384.));
    b.solid(v(600., 0., 0.), v(1024., 512., 224.), "LEDGE");
    let (level, cmap) = b.build();
    let mut g = two_parts_at(224.0);
    let (floor, ledge) = (0, 3);
    let d = g
        .get(floor)
        .unwrap()
        .origin
        .distance(g.get(ledge).unwrap().origin);
    g.link(floor, ledge, d, Travel::Jump, 1.0);
    assert_eq!(g.stats().largest_strong, 3, "one way up only");
    let (added, st) = closed(&mut g, level, &cmap);
    assert!(added >= 1, "{added} links");
    assert!(
        st.links_by_travel.contains_key("fall"),
        "{:?}",
        st.links_by_travel
    );
    links_hold(&g, &cmap, Some((floor, ledge)));
}

/// On e1m5 (four explorers, seed 1) the closing pass given the compiled area graph joins
/// parts the planner alone leaves one-way: where the planner's own search finds no way
/// between two parts, the graph's route run through the physics starts its tree, then a
/// bot follows the route (the way out of a part is often long, and far from the straight
/// line to the nearest core waypoint).
#[test]
fn the_closing_pass_joins_more_by_the_area_graph_on_e1m5() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let m = common::explorers_on_map(&dir, "e1m5", 1);
    let (level, cmap) = (&m.sim.level, &m.sim.cmap);
    let mesh = common::compiled(level, cmap);
    let share = |mesh: Option<Arc<botarena::aas::NavMesh>>| {
        let mut g = (*m.learned.waypoints).clone();
        use botarena::scenario::explore::{CONNECT_NEAREST, CONNECT_RADIUS, CONNECT_ROUNDS};
        g.connect_strays(cmap, CONNECT_RADIUS, CONNECT_NEAREST, CONNECT_ROUNDS);
        botarena::scenario::explore::plan_strays(&mut g, level, cmap, mesh);
        let st = g.stats();
        st.largest_strong as f64 / st.waypoints as f64
    };
    let (alone, guided) = (share(None), share(Some(Arc::new(mesh))));
    println!("routable: planner alone {alone:.3}, guided {guided:.3}");
    assert!(
        guided > alone + 0.02,
        "alone {alone:.3}, guided {guided:.3}"
    );
}

/// A ledge 224 units up whose only way up is a jump pad in front of it (the way down, a
/// drop): the planner finds the way up through the pad's throw, which no straight line
/// shows, and the closing pass lays the throw down as the observed jump explorers would
/// link had they been thrown (from where the player last stood to where it lands), then
/// on to the ledge's waypoints: every waypoint is routable.
#[test]
fn the_closing_pass_lays_a_jump_pads_throw_as_an_observed_jump() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., -512., 0.), v(1536., 512., 768.));
    b.solid(v(768., -512., 0.), v(1536., 512., 224.), "LEDGE")
        .brush_entity(
            &[
                ("classname", "trigger_push"),
                ("angles", "-72 0 0"),
                ("speed", "72"),
            ],
            &[(v(560., -32., 0.), v(624., 32., 64.), "TRIGGER")],
        );
    let (level, cmap) = b.build();
    let mut g = WaypointGraph::new();
    let at = |x: f32, y: f32, z: f32| v(x, y, z + 24.03125);
    linked(
        &mut g,
        &[at(300., 0., 0.), at(400., 100., 0.), at(400., -100., 0.)],
    );
    linked(
        &mut g,
        &[
            at(900., 0., 224.),
            at(1000., 100., 224.),
            at(1000., -100., 224.),
        ],
    );
    let (added, st) = closed(&mut g, level, &cmap);
    assert!(added >= 2, "{added} links");
    assert!(
        st.links_by_travel.contains_key("jump"),
        "{:?}",
        st.links_by_travel
    );
}

/// Waypoints in two rooms either side of x 512, three each, linked both ways within each
/// and not across.
fn two_parts() -> WaypointGraph {
    two_parts_at(0.0)
}

/// [`two_parts`] with the eastern part's floor `rise` units up.
fn two_parts_at(rise: f32) -> WaypointGraph {
    let v = |x: f32, y| Vec3::new(x, y, 24.03125 + if x > 512.0 { rise } else { 0.0 });
    let mut g = WaypointGraph::new();
    linked(&mut g, &[v(200., 100.), v(300., 100.), v(200., 200.)]);
    linked(&mut g, &[v(800., 100.), v(700., 100.), v(800., 200.)]);
    g
}

/// Adds `pts` to `g` as waypoints, each linked to every other by a walk both ways.
fn linked(g: &mut WaypointGraph, pts: &[Vec3]) {
    let ids: Vec<u32> = pts
        .iter()
        .map(|&p| g.add(p, WaypointKind::Normal))
        .collect();
    for &a in &ids {
        for &b in &ids {
            if a != b {
                let d = g.get(a).unwrap().origin.distance(g.get(b).unwrap().origin);
                g.link(a, b, d, Travel::Walk, 1.0);
            }
        }
    }
}

/// Every link but a teleport's (and `given`, from, to) is one straight-line reachability
/// confirms (with drops as deep as explorers walk off).
fn links_hold(g: &WaypointGraph, cmap: &botarena::CollisionMap, given: Option<(u32, u32)>) {
    use botarena::nav::{ReachParams, Reachability, reachable};
    let params = ReachParams {
        max_fall: botarena::bot::explore::MAX_DROP,
        ..Default::default()
    };
    for (n, w) in g.waypoints().iter().enumerate() {
        for l in w
            .links
            .iter()
            .filter(|l| l.travel != Travel::Teleport && given != Some((l.from, n as u32)))
        {
            let from = g.get(l.from).unwrap().origin;
            assert!(
                !matches!(
                    reachable(cmap, from, w.origin, &params),
                    Reachability::Unreachable(_)
                ),
                "{from} -> {}",
                w.origin
            );
        }
    }
}

/// On e1m1, a waypoint in the water below the start and one on the walkway above it, each
/// its own part: the way up is a ride on a lift out of the water, which the planner's
/// search does not find alone or guided; a bot of compiled navigation following the area
/// graph's route rides it, and the closing pass lays its way down (the ride as explorers
/// link one, an elevator link): both waypoints routable.
#[test]
fn the_closing_pass_lays_the_way_a_route_follower_rides() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let (level, cmap) = common::quake_map(&dir, "e1m1");
    let mesh = Arc::new(common::compiled(&level, &cmap));
    let level = Arc::new(level);
    let two = || {
        let mut g = WaypointGraph::new();
        g.add(Vec3::new(74.41, 572.91, 24.03), WaypointKind::Normal);
        g.add(Vec3::new(-100.85, 534.08, -223.97), WaypointKind::Normal);
        g
    };
    let mut alone = two();
    let found = botarena::scenario::explore::plan_strays(&mut alone, &level, &cmap, None);
    let mut g = two();
    let added = botarena::scenario::explore::plan_strays(&mut g, &level, &cmap, Some(mesh));
    let st = g.stats();
    println!("planner alone {found} links; with the follower {added}: {st:?}");
    assert_eq!(found, 0, "the planner alone joined them");
    assert_eq!(st.largest_strong, st.waypoints, "all routable");
    assert!(
        st.links_by_travel.contains_key("elevator"),
        "{:?}",
        st.links_by_travel
    );
}

/// A ledge 128 units up whose only way up is a plat beside it: the planner rides it, and
/// the closing pass lays the ride down as explorers drop theirs (a waypoint at the centre
/// of the plat's top low and one high, an elevator link between), with the way there and
/// the step off it on to the ledge: every waypoint routable.
#[test]
fn the_closing_pass_lays_a_plat_ride_as_explorers_do() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(768., 512., 512.));
    b.solid(v(512., 0., 0.), v(768., 512., 128.), "LEDGE")
        .brush_entity(
            &[("classname", "func_plat")],
            &[(v(384., 192., 0.), v(512., 320., 128.), "PLAT")],
        )
        .point("info_player_deathmatch", v(64., 256., 24.), &[]);
    let (level, cmap) = b.build();
    let mut g = WaypointGraph::new();
    let at = |x: f32, y: f32, z: f32| v(x, y, z + 24.03125);
    linked(
        &mut g,
        &[at(100., 256., 0.), at(200., 150., 0.), at(200., 350., 0.)],
    );
    linked(
        &mut g,
        &[
            at(600., 256., 128.),
            at(700., 150., 128.),
            at(700., 350., 128.),
        ],
    );
    let (added, st) = closed(&mut g, level, &cmap);
    println!("{added} links: {st:?}");
    for kind in ["elevator_bottom", "elevator_top"] {
        assert_eq!(st.by_kind.get(kind), Some(&1), "{kind}: {:?}", st.by_kind);
    }
    assert!(
        st.links_by_travel.contains_key("elevator"),
        "{:?}",
        st.links_by_travel
    );
}

/// The closing pass's planned part over `g` in a built `level` (no area graph): the links
/// it added and the graph's stats after, every waypoint asserted routable.
fn closed(g: &mut WaypointGraph, level: Level, cmap: &CollisionMap) -> (usize, GraphStats) {
    let added = botarena::scenario::explore::plan_strays(g, &Arc::new(level), cmap, None);
    let st = g.stats();
    assert_eq!(st.largest_strong, st.waypoints, "all routable: {st:?}");
    (added, st)
}
