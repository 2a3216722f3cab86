//! Doors and buttons: a door only a button opens, one that opens as a player comes near,
//! one opened or a button pressed by a shot, a button beside an alcove or over a ledge
//! reached from its face, a door standing open.

use super::*;

#[test]
fn an_explorer_presses_the_button_that_opens_the_way_to_a_weapon() {
    let (opened, through, marked) = explore(Door::Wired);
    assert!(opened, "the explorer never pressed the button");
    assert!(through, "the explorer never went through the door");
    assert!(marked, "the rocket launcher has no item waypoint");
}

#[test]
fn a_button_that_fires_nothing_is_left_alone_and_the_door_stays_shut() {
    // Only buttons with a target are tried; the door has no other way to open.
    let (opened, through, marked) = explore(Door::Unwired);
    assert!(!opened && !through && !marked);
}

#[test]
fn an_explorer_walks_through_a_door_that_opens_as_it_comes_near() {
    // (Here the pull toward where nobody has been leads into the door anyway; the next
    // test checks the choice itself.)
    let (opened, through, marked) = explore(Door::Touch);
    assert!(opened, "the door never opened");
    assert!(through, "the explorer never went through the door");
    assert!(marked, "the rocket launcher has no item waypoint");
}

/// The first room of [`two_rooms`] (x −512..0) with its north part walled up to y 192
/// but for an alcove (x −160..−96) beside a button in the new wall's face (x −80..−32,
/// y 184..192, pressed north) that opens the door to the second room.
fn button_by_an_alcove() -> (Level, CollisionMap) {
    let mut b = shell(256.);
    middle_wall(
        &mut b,
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("targetname", "d1"),
            ("wait", "-1"),
        ],
    );
    b.solid(v(-512., 192., 0.), v(-160., 256., 256.), "wall");
    b.solid(v(-96., 192., 0.), v(0., 256., 256.), "wall");
    b.brush_entity(
        &[
            ("classname", "func_button"),
            ("angle", "90"),
            ("wait", "-1"),
            ("target", "d1"),
        ],
        &[(v(-80., 184., 32.), v(-32., 192., 64.), "button")],
    );
    b.point("info_player_deathmatch", v(-256., 0., 24.), &[]);
    b.build()
}

#[test]
fn an_explorer_beside_a_button_in_a_wall_goes_round_to_its_face_to_press_it() {
    // Standing half in the alcove, level with the button: running straight at it runs
    // into the alcove's side, square on (the way e4m3's cage button was never pressed).
    let (level, cmap) = button_by_an_alcove();
    let door = door_of(&level);
    let mut m = explorer_in(level, cmap, v(-128., 188., 25.));
    let opened = first_tick(&mut m, 30, |m| {
        m.sim.mover_state(door).unwrap().phase != Phase::AtA
    });
    // On the first try (pressing square on, the bot stood against the alcove's side until
    // the try ran out, tick 128, and pressed on the second from where it had drifted).
    let first_try = (botarena::bot::explore::BUTTON_SECONDS * 20.0) as u32;
    assert!(
        opened.is_some_and(|t| t < first_try),
        "the button was not pressed on the first try: {opened:?}"
    );
}

#[test]
fn an_explorer_shoots_open_a_door_with_health_and_goes_through() {
    // doors.qc: a door with health opens when shot, not when walked up to.
    let (opened, through, marked) = explore(Door::Shot);
    assert!(opened, "the door never opened");
    assert!(through, "the explorer never went through the door");
    assert!(marked, "the rocket launcher has no item waypoint");
}

#[test]
fn an_explorer_shoots_a_button_with_health_that_opens_the_way_to_a_weapon() {
    // buttons.qc: a button with health is pressed by damage, never by touch.
    let (opened, through, marked) = explore(Door::ShotButton);
    assert!(opened, "the explorer never shot the button");
    assert!(through, "the explorer never went through the door");
    assert!(marked, "the rocket launcher has no item waypoint");
}

#[test]
fn an_explorer_blocked_on_its_way_to_a_button_is_routed_round_to_its_front() {
    use botarena::bot::explore::{ButtonGo, Explorer, buttons};
    use botarena::bot::movement::{BlockReason, MoveStatus};
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = two_rooms(Door::Wired);
    let m = common::match_of(level, cmap, 4, vec![]);
    let views = buttons(&m.sim);
    assert_eq!(views.len(), 1);
    let here = PlayerState::at(v(-256., 160., 24.), 0.0);
    let dt = 0.05;
    let moving = (&MoveStatus::Moving, (None, false));
    let blocked = (&MoveStatus::Blocked(BlockReason::Hazard), (None, false));
    let mut ex = Explorer::new(here.origin);
    // Seen: walked to straight, in front of its face (x -504, pushed west) at the bot's
    // height.
    let go = ex.button(&m.sim.cmap, &views, &here, moving, None, dt);
    let at = |q: Option<Vec3>, p: Vec3| q.is_some_and(|q| q.distance(p) < 0.01);
    assert!(at(target(go), v(-480., 0., 24.)), "{go:?}");
    // The movement stage was blocked (slime between, say): routed over the team's graph
    // to the floor in front of it (a standing origin there), and on while routed.
    let front = v(-480., 0., 24.03125);
    let routed = |go: Option<ButtonGo>| match go {
        Some(ButtonGo::Route(q)) => Some(q),
        _ => None,
    };
    let first = routed(ex.button(&m.sim.cmap, &views, &here, blocked, None, dt));
    assert!(at(first, front), "{first:?}");
    let front = first.unwrap();
    assert_eq!(
        routed(ex.button(&m.sim.cmap, &views, &here, moving, None, dt)),
        Some(front)
    );
    assert!(ex.routes(), "the routing stage moves it meanwhile");
    // By the front: straight on (running into the button) again.
    let by = PlayerState::at(v(-470., 10., 24.), 0.0);
    let go = ex.button(&m.sim.cmap, &views, &by, moving, None, dt);
    assert!(matches!(go, Some(ButtonGo::Press(_))), "{go:?}");
    assert!(!ex.routes());
    // Routed again from afar, where the routing stage finds no way there the try ends.
    ex.button(&m.sim.cmap, &views, &here, blocked, None, dt);
    let none = (&MoveStatus::Moving, (Some(front), true));
    assert_eq!(ex.button(&m.sim.cmap, &views, &here, none, None, dt), None);
    assert!(!ex.routes());
}

#[test]
fn an_explorer_walks_through_a_door_standing_open_to_where_nobody_has_been() {
    use botarena::bot::explore::{Explorer, VisitMap, doorways};
    use botarena::bot::movement::MoveStatus;
    use botarena::physics::pmove::PlayerState;
    // The door waits to be fired: no doorway while shut, one once the button's name is
    // fired and it stands open (risen; wait -1), seen through its opening.
    let (level, cmap) = two_rooms(Door::Wired);
    let mut m = common::match_of(level, cmap, 4, vec![]);
    let door = door_of(&m.sim.level);
    assert!(doorways(&m.sim).is_empty());
    botarena::game::movers::fire_targets(&mut m.sim, "d1");
    for _ in 0..100 {
        m.step();
    }
    assert_eq!(m.sim.mover_state(door).unwrap().phase, Phase::AtB);
    let views = doorways(&m.sim);
    assert_eq!(views.len(), 1);
    assert!(views[0].open);
    let here = PlayerState::at(v(-256., 0., 24.), 0.0);
    let visits = VisitMap::default();
    let moving = (&MoveStatus::Moving, (None, false));
    let mut ex = Explorer::new(here.origin);
    let go = ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, 0.05);
    assert_eq!(target(go), Some(v(64., 0., 24.)));
    // From where the wall beside the opening hides it (hard by the wall, far to the
    // side): left alone.
    let behind = PlayerState::at(v(-8., 240., 24.), 0.0);
    let mut other = Explorer::new(behind.origin);
    let seen = m.sim.cmap.trace_ray(
        behind.origin + v(0., 0., 22.),
        views[0].centre,
        botarena::Contents::SOLID,
        None,
    );
    assert!(seen.fraction < 1.0, "the wall hides the opening");
    assert_eq!(
        other.doorway(&m.sim.cmap, &visits, &views, &behind, moving, 0.05),
        None
    );
}

/// An explorer in the middle of a narrow ledge (56 wide, x −512..528 at y −28..28, top
/// z 0) over a pit 192 deep on both sides: nearly every walk from there ends in the pit,
/// and only one along the ledge stays on it. Its choice of where to go is along the ledge
/// (the walks stopped at its edges are choices too), whatever the seed: start.map's ring
/// of ledges round its pit, the way to the Nightmare hall, was left for the pit.
#[test]
fn an_explorer_on_a_narrow_ledge_walks_along_it_before_dropping_into_the_pit() {
    use botarena::bot::explore::{EDGE_BACK, MAX_DROP, hazards, walk_run_to_edge};
    use botarena::physics::pmove::PlayerState;
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -208.), v(544., 272., -192.), "pitfloor")
        .solid(v(-512., -28., -192.), v(528., 28., 0.), "ledge")
        .solid(v(-528., -272., 256.), v(544., 272., 272.), "ceiling")
        .solid(v(-528., -272., -192.), v(-512., 272., 256.), "wall")
        .solid(v(528., -272., -192.), v(544., 272., 256.), "wall")
        .solid(v(-528., -272., -192.), v(544., -256., 256.), "wall")
        .solid(v(-528., 256., -192.), v(544., 272., 256.), "wall");
    b.point("info_player_deathmatch", v(-300., 0., 25.), &[]);
    let (level, cmap) = b.build();
    let here = v(-300., 0., 24.03125);
    // Straight across the ledge: the walk ends in the pit; stopped at the edge, it ends
    // EDGE_BACK short of where the player's box leaves the ledge (y 28 + 16), on it.
    let ((_, end), edge) = walk_run_to_edge(&cmap, here, Vec3::Y, 512.0, MAX_DROP, hazards(0.0));
    assert!(end.z < -150.0, "the whole walk: {end:?}");
    assert!(
        edge.is_some_and(|(travel, _)| travel < 48.0),
        "44 units to the edge: nothing worth walking before it: {edge:?}"
    );
    let dir = v(1.0, 0.2, 0.0).normalize();
    let ((_, end), edge) = walk_run_to_edge(&cmap, here, dir, 512.0, MAX_DROP, hazards(0.0));
    let (travel, at) = edge.expect("a slant walk leaves the ledge");
    assert!(end.z < -150.0, "the whole walk: {end:?}");
    assert!(
        at.z > -1.0 && at.y <= 44.0 - EDGE_BACK * dir.y + 1.0,
        "edge stop {at:?}"
    );
    assert!(travel >= 48.0, "{travel}");
    let pit = pit_choices(&level, &cmap, &PlayerState::at(here, 0.0));
    assert_eq!(pit, 0, "of 40 seeds, the pit chosen by {pit}");
}

/// A button pressed from a ledge over the hall the explorer stands in is routed to over the
/// team's graph (to the ledge's floor in front of it) from the start, not walked at: walked
/// at, the explorer stood under it for the whole try (e1m3's by its east doors).
#[test]
fn an_explorer_routes_to_a_button_over_a_ledge_rather_than_standing_under_it() {
    use botarena::bot::explore::{ButtonGo, Explorer, buttons};
    use botarena::bot::movement::MoveStatus;
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = button_over_a_ledge();
    let m = common::match_of(level, cmap, 4, vec![]);
    let views = buttons(&m.sim);
    assert_eq!(views.len(), 1);
    let moving = (&MoveStatus::Moving, (None, false));
    let floor = PlayerState::at(v(-100., 0., 24.), 0.0);
    let mut ex = Explorer::new(floor.origin);
    match ex.button(&m.sim.cmap, &views, &floor, moving, None, 0.05) {
        Some(ButtonGo::Route(q)) => {
            assert!(q.x > 448.0 && (q.z - 216.0).abs() < 1.0, "routed to {q}");
            assert_eq!(ex.detour, Some(q));
        }
        other => panic!("the button over the ledge is {other:?}"),
    }
    // From the ledge itself it is walked at, as before.
    let ledge = PlayerState::at(v(470., 100., 216.), 180.0);
    let mut ex = Explorer::new(ledge.origin);
    assert!(matches!(
        ex.button(&m.sim.cmap, &views, &ledge, moving, None, 0.05),
        Some(ButtonGo::Walk(_))
    ));
}

/// An explorer that arrives where it walked for an item and has not got it (the item on a
/// ledge over that spot) gives the item up for a while instead of choosing it again at once.
#[test]
fn an_explorer_that_arrives_under_an_item_it_cannot_get_leaves_it_for_a_while() {
    use botarena::bot::explore::{Explorer, SKIP_SECONDS, VisitMap};
    use botarena::bot::movement::MoveStatus;
    use botarena::nav::waypoints::WaypointGraph;
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = flooded_tunnel();
    let item = (0..level.items.len())
        .find(|&i| level.items[i].classname == "weapon_rocketlauncher")
        .expect("the rocket launcher");
    let s = PlayerState::at(v(-400., 0., 24.), 0.0);
    let (graph, visits) = (WaypointGraph::new(), VisitMap::default());
    let mut rng = botarena::sim::rng::SimRng::new(1, 1);
    let mut ex = Explorer::new(s.origin);
    ex.item = Some(item);
    ex.target = Some(s.origin);
    ex.timer = 4.0;
    ex.step(
        &cmap,
        &graph,
        &visits,
        &level,
        &s,
        &Default::default(),
        &MoveStatus::Arrived,
        &mut rng,
        0.05,
        None,
    );
    assert!(
        ex.skip
            .iter()
            .any(|k| k.0 == item && k.1 > SKIP_SECONDS - 0.1),
        "skipped: {:?}",
        ex.skip
    );
    assert_ne!(ex.item, Some(item));
}
