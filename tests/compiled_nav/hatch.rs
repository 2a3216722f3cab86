//! A hatch that a timer lowers, with a weapon on it (a door fired for good by a relay's
//! delayed firing, as LibreQuake's unlocking pedestals are): no run lands where it will be
//! until it is there, no ride goes back up on it, and an item tour goes for the weapon
//! where the hatch has carried it.

use super::*;
use botarena::aas::ReachKind;
use glam::Vec3;

/// A room (x 0..768, y 0..512, floor top z 0) with a 128-unit hatch (x 448..576,
/// y 192..320) floating at z 152..160 with a nailgun on it; entering the room's west end
/// (a `trigger_once` round the spawn point) fires a relay that lowers the hatch 2 s later,
/// 144 units, to a step 16 high. Nothing a player touches fires the hatch itself.
fn hatch_room() -> (botarena::map::Level, botarena::map::CollisionMap) {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(768., 512., 256.));
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("targetname", "hatch"),
            ("angle", "-2"),
            ("wait", "-1"),
            ("lip", "-136"),
        ],
        &[(v(448., 192., 152.), v(576., 320., 160.), "HATCH")],
    )
    .brush_entity(
        &[("classname", "trigger_once"), ("target", "go")],
        &[(v(0., 0., 0.), v(256., 512., 128.), "trigger")],
    )
    .point(
        "trigger_relay",
        v(64., 64., 64.),
        &[("targetname", "go"), ("target", "hatch"), ("delay", "2")],
    )
    .point("weapon_nailgun", v(512., 256., 176.), &[])
    .point("info_player_deathmatch", v(96., 256., 24.), &[]);
    b.build()
}

fn hatch_mesh(
    level: &botarena::map::Level,
    cmap: &botarena::map::CollisionMap,
) -> (Arc<NavMesh>, u32) {
    let mesh = compile(level, cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let id = level.movers[0].id.0;
    (Arc::new(mesh), id)
}

#[test]
fn a_door_fired_for_good_carries_no_one_back_to_where_it_rested() {
    let (level, cmap) = hatch_room();
    let (mesh, id) = hatch_mesh(&level, &cmap);
    let areas = mesh.areas();
    let on = |a: u32, moved: bool| {
        let a = &areas[a as usize];
        a.mover == Some(id) && a.moved.is_some() == moved
    };
    let down: Vec<_> = mesh
        .reaches()
        .iter()
        .filter(|r| r.kind == ReachKind::Elevator && on(r.from, true) && on(r.to, false))
        .collect();
    assert!(!down.is_empty(), "standing on the hatch rides it down");
    let back: Vec<_> = mesh
        .reaches()
        .iter()
        .filter(|r| r.kind == ReachKind::Elevator && on(r.from, false) && on(r.to, true))
        .map(|r| (r.from, r.to))
        .collect();
    assert!(
        back.is_empty(),
        "rides back up on a door that never returns: {back:?}"
    );
}

#[test]
fn a_tour_waits_for_the_hatch_and_takes_the_weapon_where_it_came_down() {
    let (level, cmap) = hatch_room();
    let (mesh, id) = hatch_mesh(&level, &cmap);
    let areas = mesh.areas();
    let onto: Vec<u32> = (mesh.reaches().iter().enumerate())
        .filter(|(_, r)| {
            areas[r.to as usize].mover == Some(id)
                && areas[r.to as usize].moved.is_none()
                && areas[r.from as usize].mover != Some(id)
        })
        .map(|(i, _)| i as u32)
        .collect();
    assert!(
        !onto.is_empty(),
        "runs from the floor onto the lowered hatch"
    );
    let items = tour_items(&level, &cmap);
    assert_eq!(items.len(), 1);
    // Whether every run onto the lowered hatch was blocked, first at the match's first
    // tick (the hatch up), then once it has come down.
    let (mut first, mut last) = (None, None);
    let stops = tour_compiled(
        Arc::new(level),
        cmap,
        Arc::clone(&mesh),
        &items,
        1,
        20.0,
        |m, _| {
            let nav = m.nav.as_ref().expect("a compiled match");
            let blocked = onto.iter().all(|&r| nav.doors.is_blocked(r));
            first.get_or_insert(blocked);
            last = Some(onto.iter().any(|&r| nav.doors.is_blocked(r)));
        },
    )
    .unwrap();
    assert_eq!(
        first,
        Some(true),
        "the hatch is up: no run lands where it comes down"
    );
    assert_eq!(
        last,
        Some(false),
        "the hatch is down: the runs onto it are free"
    );
    let stop = &stops[0];
    assert!(
        stop.item.stand.z < 100.0,
        "the leg goes where the hatch took the weapon: {:?}",
        stop.item.stand
    );
    assert!(
        stop.predicted.is_some(),
        "predicted once the weapon has come down"
    );
    assert!(stop.reached_after.is_some(), "{stop:?}");
}
