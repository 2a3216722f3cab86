//! `func_door_secret`: parsed offsets, the two-leg motion of doors.qc, opening by a shot (and
//! not when the door has a targetname), and explorers that shoot one and go through.

mod common;

use botarena::bot::control::ControllerConfig;
use botarena::bot::control::ScriptStep;
use botarena::map::builder::MapBuilder;
use botarena::map::level::MoverKind;
use botarena::map::{CollisionMap, Level};
use botarena::physics::movers::Phase;
use botarena::tick::Match;
use common::{quake_map, quake_maps, scripted};
use glam::Vec3;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// An upper floor (z 0) over a lower room (floor z −256) with a 128-unit hole at x 0..128,
/// y 0..128, closed by a secret hatch that drops 24 and slides 128 toward −x under the floor.
fn hatch_map(extra_keys: &[(&str, &str)]) -> (Level, CollisionMap) {
    hatch_map_flags("4", extra_keys)
}

fn hatch_map_flags(spawnflags: &str, extra_keys: &[(&str, &str)]) -> (Level, CollisionMap) {
    let mut b = MapBuilder::new();
    // Lower room floor, walls and ceiling.
    b.solid(v(-512., -512., -272.), v(512., 512., -256.), "floor");
    b.solid(v(-528., -512., -272.), v(-512., 512., 256.), "wall");
    b.solid(v(512., -512., -272.), v(528., 512., 256.), "wall");
    b.solid(v(-528., -528., -272.), v(528., -512., 256.), "wall");
    b.solid(v(-528., 512., -272.), v(528., 528., 256.), "wall");
    b.solid(v(-528., -528., 256.), v(528., 528., 272.), "ceiling");
    // Upper floor around the hole.
    b.solid(v(-512., -512., -16.), v(0., 512., 0.), "floor");
    b.solid(v(128., -512., -16.), v(512., 512., 0.), "floor");
    b.solid(v(0., -512., -16.), v(128., 0., 0.), "floor");
    b.solid(v(0., 128., -16.), v(128., 512., 0.), "floor");
    let mut keys = vec![
        ("classname", "func_door_secret"),
        ("angle", "180"),
        ("spawnflags", spawnflags),
    ];
    keys.extend_from_slice(extra_keys);
    b.brush_entity(&keys, &[(v(0., 0., -24.), v(128., 128., 0.), "door")]);
    b.point("info_player_deathmatch", v(256., 64., 24.), &[]);
    b.build()
}

fn match_with(
    level: Level,
    cmap: CollisionMap,
    players: Vec<botarena::tick::PlayerConfig>,
) -> Match {
    common::match_of(level, cmap, 3, players)
}

/// A player 192 units east of the hatch shooting down at it for `fire_ticks`.
fn shooter(fire_ticks: u32) -> botarena::tick::PlayerConfig {
    let aim = ScriptStep {
        ticks: fire_ticks,
        yaw: 180.0,
        pitch: 16.0,
        fire: true,
        ..Default::default()
    };
    let wait = ScriptStep {
        ticks: 100_000,
        yaw: 180.0,
        ..Default::default()
    };
    scripted(
        "shooter",
        v(256., 64., 25.),
        180.,
        ControllerConfig::Script(vec![aim, wait]),
    )
}

/// A secret door's (first, open, shootable), or a panic naming what the mover is.
fn secret(kind: &MoverKind) -> (Vec3, Vec3, bool) {
    match *kind {
        MoverKind::SecretDoor {
            first,
            open,
            shootable,
        } => (first, open, shootable),
        ref k => panic!("not a secret door: {k:?}"),
    }
}

/// Asserts a secret door's two offsets.
fn assert_moves(kind: &MoverKind, want_first: Vec3, want_open: Vec3) {
    let (first, open, _) = secret(kind);
    assert!(
        first.abs_diff_eq(want_first, 1e-3),
        "first {first}, want {want_first}"
    );
    assert!(
        open.abs_diff_eq(want_open, 1e-3),
        "open {open}, want {want_open}"
    );
}

#[test]
fn parsed_offsets_follow_doors_qc() {
    let (level, _) = hatch_map(&[]);
    let m = &level.movers[0];
    assert_eq!(m.speed, 50.0, "Quake fixes secret doors at 50 u/s");
    assert_eq!(m.wait, 5.0);
    assert!(secret(&m.kind).2);
    assert_moves(&m.kind, v(0., 0., -24.), v(-128., 0., -24.));
    // First move to the right of the facing (angle 0 faces +x, right is −y), or to its left
    // with spawnflag 2; explicit widths and lengths; spawnflag 1 stays open; a targetname
    // makes it deaf to shots unless spawnflag 16.
    let (level, _) = hatch_map(&[("t_width", "40"), ("t_length", "64")]);
    assert_moves(&level.movers[0].kind, v(0., 0., -40.), v(-64., 0., -40.));
    for (flags, want_first) in [("0", v(0., -128., 0.)), ("2", v(0., 128., 0.))] {
        let mut b = MapBuilder::new();
        b.solid(v(-64., -64., -16.), v(64., 64., 0.), "floor");
        b.brush_entity(
            &[
                ("classname", "func_door_secret"),
                ("angle", "0"),
                ("spawnflags", flags),
            ],
            &[(v(0., 0., 0.), v(16., 128., 96.), "door")],
        );
        let (level, _) = b.build();
        assert_moves(
            &level.movers[0].kind,
            want_first,
            want_first + v(16., 0., 0.),
        );
    }
    let (level, _) = hatch_map_flags("5", &[]);
    assert_eq!(level.movers[0].wait, -1.0, "spawnflag 1 stays open");
    let (level, _) = hatch_map(&[("targetname", "t1")]);
    assert!(!secret(&level.movers[0].kind).2);
    let (level, _) = hatch_map_flags("20", &[("targetname", "t1")]);
    assert!(secret(&level.movers[0].kind).2);
}

#[test]
fn a_shot_opens_it_in_two_moves_and_it_comes_back() {
    let (level, cmap) = hatch_map(&[]);
    let mut m = match_with(level, cmap, vec![shooter(2)]);
    assert_eq!(m.sim.mover_state(0).unwrap().phase, Phase::AtA);
    let mut seen = vec![(Phase::AtA, Vec3::ZERO)];
    for _ in 0..400 {
        m.step();
        let m = m.sim.mover_state(0).unwrap();
        if seen.last().map(|l: &(Phase, Vec3)| l.0) != Some(m.phase) {
            seen.push((m.phase, m.offset));
        }
    }
    let phases: Vec<Phase> = seen.iter().map(|s| s.0).collect();
    assert_eq!(
        phases,
        vec![
            Phase::AtA,
            Phase::SecretOut,
            Phase::SecretOutPause,
            Phase::ToB,
            Phase::AtB,
            Phase::SecretIn,
            Phase::SecretInPause,
            Phase::ToA,
            Phase::AtA
        ],
        "{seen:?}"
    );
    // The pause comes after the drop, AtB after the slide.
    assert!(seen[2].1.abs_diff_eq(v(0., 0., -24.), 1e-3), "{seen:?}");
    assert!(seen[4].1.abs_diff_eq(v(-128., 0., -24.), 1e-2), "{seen:?}");
    assert_eq!(m.sim.mover_state(0).unwrap().offset, Vec3::ZERO);
}

#[test]
fn a_door_with_a_targetname_ignores_shots() {
    let (level, cmap) = hatch_map(&[("targetname", "t1")]);
    let mut m = match_with(level, cmap, vec![shooter(20)]);
    for _ in 0..60 {
        m.step();
    }
    let m = m.sim.mover_state(0).unwrap();
    assert_eq!((m.phase, m.offset), (Phase::AtA, Vec3::ZERO));
}

#[test]
fn a_rocket_blast_nearby_opens_it() {
    let (level, cmap) = hatch_map(&[]);
    let mut m = match_with(level, cmap, vec![shooter(0)]);
    // Splash only: a blast 112 units from the hatch's centre, in sight of it.
    let shooter_id = m.sim.players[0].id;
    botarena::game::combat::radius_damage(
        &mut m.sim,
        v(164., 64., 40.),
        120.0,
        shooter_id,
        None,
        "rocket",
    );
    m.step();
    assert_ne!(m.sim.mover_state(0).unwrap().phase, Phase::AtA);
    // Out of reach (over 240 units away) it stays shut.
    let (level, cmap) = hatch_map(&[]);
    let mut m = match_with(level, cmap, vec![shooter(0)]);
    let shooter_id = m.sim.players[0].id;
    botarena::game::combat::radius_damage(
        &mut m.sim,
        v(400., 64., 1.),
        120.0,
        shooter_id,
        None,
        "rocket",
    );
    m.step();
    assert_eq!(m.sim.mover_state(0).unwrap().phase, Phase::AtA);
}

/// Runs 20 s: the tick the hatch first left its closed place and the tick player 0 first
/// got below the upper floor.
fn through_the_hatch(m: &mut Match) -> (Option<u32>, Option<u32>) {
    let (mut opened, mut below) = (None, None);
    for t in 0..20 * 20 {
        m.step();
        if opened.is_none() && m.sim.mover_state(0).unwrap().phase != Phase::AtA {
            opened = Some(t);
        }
        if below.is_none() && m.sim.player_state(0).unwrap().origin.z < -200.0 {
            below = Some(t);
        }
    }
    (opened, below)
}

#[test]
fn an_explorer_shoots_the_hatch_and_drops_through() {
    let (level, cmap) = hatch_map(&[]);
    let mut m = match_with(
        level,
        cmap,
        vec![scripted(
            "explorer",
            v(300., 300., 25.),
            225.,
            ControllerConfig::Explore,
        )],
    );
    let (opened, below) = through_the_hatch(&mut m);
    println!("hatch opened at tick {opened:?}, explorer below at tick {below:?}");
    assert!(opened.is_some(), "the explorer never shot the hatch");
    // Through while the door it opened stands open (it starts closing at 9.4 s, tick 188).
    assert!(
        below.is_some_and(|b| b < 188),
        "the explorer did not go through the opening it made"
    );
}

#[test]
fn dm6_secret_hatch_matches_doors_qc() {
    let Some(dir) = quake_maps() else {
        return;
    };
    let (level, _) = quake_map(&dir, "dm6");
    let m = level
        .movers
        .iter()
        .find(|m| m.classname == "func_door_secret")
        .expect("dm6 has a secret door");
    // angle 180, spawnflags 4 (first down), a 20-unit-thick 128 × 136 slab (z −88..−68).
    assert!(secret(&m.kind).2);
    assert_moves(&m.kind, v(0., 0., -20.), v(-128., 0., -20.));
}

#[test]
fn a_routing_bot_shoots_the_hatch_its_route_goes_through_and_drops_through() {
    // Two waypoints, one beside the hatch on the upper floor and one in the room below it,
    // linked through the hatch (as an explorer who went through the open hatch leaves them).
    let (level, cmap) = hatch_map(&[]);
    let mut g = botarena::nav::waypoints::WaypointGraph::new();
    let up = g.add(
        v(200., 64., 24.03125),
        botarena::nav::waypoints::WaypointKind::Normal,
    );
    let down = g.add(
        v(64., 64., -231.96875),
        botarena::nav::waypoints::WaypointKind::Normal,
    );
    g.link(up, down, 290.0, botarena::nav::waypoints::Travel::Fall, 1.0);
    let goal = v(-200., 64., -231.96875);
    let mut m = match_with(
        level,
        cmap,
        vec![scripted(
            "router",
            v(300., 64., 25.),
            180.,
            ControllerConfig::Route(goal),
        )],
    );
    m.set_waypoints(g);
    let (opened, below) = through_the_hatch(&mut m);
    println!("hatch opened at tick {opened:?}, router below at tick {below:?}");
    assert!(opened.is_some(), "the router never shot the hatch");
    assert!(
        below.is_some_and(|b| b < 188),
        "the router did not go through the opening"
    );
}

/// A hall (floor z 0) with a balcony at its west end (x −512..−256, 192 units up) and a
/// secret door at its east end (x 400..416, 128 tall, its brush reaching 16 units into
/// what it stands on, as id's do): on the hall's floor, or (`on_ledge`) on a ledge 96
/// units up whose top in front of the door is only 16 units deep (e3m2's rocket-launcher
/// room: its door is reached along an 8-unit ledge over the hall).
fn balcony_and_wall_door(on_ledge: bool) -> (Level, CollisionMap) {
    let mut b = common::sealed_room(v(-512., -512., 0.), v(512., 512., 320.));
    b.solid(v(-512., -512., 0.), v(-256., 512., 192.), "balcony");
    let foot = if on_ledge {
        b.solid(v(384., -512., 0.), v(512., 512., 96.), "ledge");
        96.
    } else {
        0.
    };
    b.brush_entity(
        &[("classname", "func_door_secret"), ("angle", "0")],
        &[(v(400., -64., foot - 16.), v(416., 64., foot + 128.), "door")],
    );
    b.point("info_player_deathmatch", v(0., 0., 24.), &[]);
    b.build()
}

#[test]
fn an_explorer_shoots_a_door_in_a_wall_only_where_it_can_walk_in() {
    use botarena::bot::explore::{Explorer, shootables};
    use botarena::physics::pmove::PlayerState;
    for on_ledge in [false, true] {
        let (level, cmap) = balcony_and_wall_door(on_ledge);
        let m = match_with(level, cmap, vec![]);
        let doors = shootables(&m.sim);
        assert_eq!(doors.len(), 1);
        let (door, map) = (&doors[0], &m.sim.cmap);
        // Shot (and walked at) or not, from a standing origin at `at`.
        let shoots = |at: Vec3| {
            let mut ex = Explorer::new(at);
            let (go, view) = ex.secret_door(map, &doors, &PlayerState::at(at, 0.0), 0.05);
            assert_eq!(view.is_some(), ex.door.is_some());
            go.is_none() && view.is_some()
        };
        let (balcony, hall, ledge) = (v(-300., 0., 216.), v(0., 0., 24.), v(392., 0., 120.));
        if on_ledge {
            // The opening's floor is the ledge's (origin 120), not the brush's foot 16 lower;
            // in front of the door lies the hall, 96 below it: from the hall and from the
            // balcony (96 over it) there is no walking in, from the ledge there is.
            assert!(door.walked_through_from(map, ledge));
            assert!(door.walked_through_from(map, ledge + v(-8., 0., 32.)));
            assert!(!door.walked_through_from(map, hall));
            assert!(!door.walked_through_from(map, balcony));
            assert!(!shoots(balcony) && !shoots(hall + v(200., 0., 0.)));
            assert!(shoots(ledge));
        } else {
            // On the hall's floor: walked into from the hall, and from the balcony by way of
            // the hall.
            assert!(door.walked_through_from(map, hall));
            assert!(door.walked_through_from(map, balcony));
            assert!(shoots(balcony) && shoots(hall));
        }
    }
    // A hatch in a floor (thinner than a player is tall) is shot from anywhere above it.
    let (level, cmap) = hatch_map(&[]);
    let m = match_with(level, cmap, vec![]);
    let hatch = &shootables(&m.sim)[0];
    assert!(hatch.walked_through_from(&m.sim.cmap, v(300., 300., 500.)));
}

/// An explorer that shot a secret door waits while it moves and walks into its opening once
/// it is open, until it stands in it or a teleporter (behind the door) has taken it
/// elsewhere: then the door no longer holds it (e1m3's secret door before the teleporter to
/// the super nailgun kept the bots it sent up there standing at the exit while it moved).
#[test]
fn an_explorer_lets_go_of_a_shot_door_once_in_its_opening_or_teleported() {
    use botarena::bot::explore::{DOOR_STOOD, Explorer, shootables};
    use botarena::bot::movement::MoveTarget;
    use botarena::physics::pmove::PlayerState;
    use botarena::physics::teleport::TELEPORT_LOCK;
    let (level, cmap) = balcony_and_wall_door(false);
    let m = match_with(level, cmap, vec![]);
    let map = &m.sim.cmap;
    let shut = shootables(&m.sim);
    let hall = PlayerState::at(v(0., 0., 24.), 0.0);
    let shot = || {
        let mut ex = Explorer::new(hall.origin);
        let (go, view) = ex.secret_door(map, &shut, &hall, 0.05);
        assert!(go.is_none() && view.is_some() && ex.door.is_some(), "shot");
        ex
    };
    let moving = [botarena::bot::explore::ShootableView {
        closed: false,
        open: false,
        ..shut[0]
    }];
    let open = [botarena::bot::explore::ShootableView {
        open: true,
        ..moving[0]
    }];
    // While it moves: stand still, in the hall; teleported (anywhere), let go.
    let mut ex = shot();
    assert_eq!(ex.secret_door(map, &moving, &hall, 0.05).0, Some(None));
    let mut away = PlayerState::at(v(-300., 0., 216.), 0.0);
    away.teleport_time = TELEPORT_LOCK;
    assert_eq!(ex.secret_door(map, &moving, &away, 0.05), (None, None));
    assert!(ex.door.is_none());
    // Open: walked into, until the bot stands in the opening.
    let mut ex = shot();
    let go = ex.secret_door(map, &open, &hall, 0.05).0;
    let Some(Some(req)) = go else {
        panic!("walks into the opening: {go:?}");
    };
    let MoveTarget::Point(p) = req.target else {
        panic!("a point");
    };
    assert!((p.x - 408.).abs() < 1.0 && p.y.abs() < 1.0, "{p}");
    let nearly = PlayerState::at(v(p.x - DOOR_STOOD - 8., 0., 24.), 0.0);
    assert!(matches!(
        ex.secret_door(map, &open, &nearly, 0.05).0,
        Some(Some(_))
    ));
    let there = PlayerState::at(v(p.x - DOOR_STOOD + 8., 0., 24.), 0.0);
    assert_eq!(ex.secret_door(map, &open, &there, 0.05), (None, None));
    assert!(ex.door.is_none());
}

/// Where a player stands to shoot a wall door and walk in, and where it comes out: on the
/// opening's floor just off each face (a box touching the face reads as inside it), on
/// the side the player is on — the 16-unit strip of ledge in front of the door over the
/// hall, seen from the hall or the balcony; the team has been beyond it once someone stood
/// in the visit cell past its far face. A hatch has no front.
#[test]
fn a_wall_doors_front_and_far_side_are_on_its_openings_floor() {
    use botarena::bot::explore::{DOOR_GAP, VisitMap, shootables};
    for on_ledge in [false, true] {
        let (level, cmap) = balcony_and_wall_door(on_ledge);
        let m = match_with(level, cmap, vec![]);
        let doors = shootables(&m.sim);
        let (door, map) = (&doors[0], &m.sim.cmap);
        let z = if on_ledge { 120. } else { 24. };
        // The door is x 400..416: the front 16 + DOOR_GAP off its west face, the far side
        // as far off its east face.
        let (front, beyond) = (v(384. - DOOR_GAP, 0., z), v(432. + DOOR_GAP, 0., z));
        let (balcony, hall) = (v(-300., 0., 216.), v(0., 0., 24.));
        for from in [balcony, hall] {
            let stand = door.front_stand(map, from).expect("a front");
            assert!(stand.distance(front) < 0.1, "{stand} from {from}");
            let out = door.beyond_stand(map, from).expect("a far side");
            assert!(out.distance(beyond) < 0.1, "{out} from {from}");
        }
        // From the far side, the other way round.
        let far = door.front_stand(map, v(480., 0., z)).expect("a front");
        assert!(far.distance(beyond) < 0.1, "{far}");
        let mut visits = VisitMap::default();
        assert!(!door.leads_where_known(map, &visits, hall));
        visits.visit(hall);
        visits.visit(front);
        assert!(
            !door.leads_where_known(map, &visits, hall),
            "this side only"
        );
        visits.visit(v(480., 0., z));
        assert!(door.leads_where_known(map, &visits, hall));
    }
    let (level, cmap) = hatch_map(&[]);
    let m = match_with(level, cmap, vec![]);
    let hatch = &shootables(&m.sim)[0];
    assert_eq!(hatch.front_stand(&m.sim.cmap, v(300., 300., 24.)), None);
}

/// e3m2's rocket-launcher room: its door (x 712..736) stands over an 8-unit ledge 96
/// units above the hall in front of it, and the ledge is reached only by a drop from the
/// balcony or a raised plat's corner. An explorer on the balcony that sees the door plans
/// a run over the physics to stand on the ledge in front of it — standing, not falling
/// past — shoots it from there, and runs in once it is open (walking in, the movement
/// stage turned off the opening's corner and stepped off the ledge). Before, nobody went
/// for the ledge: the rocket launcher was marked on 5 of 16 explorations.
#[test]
fn an_explorer_gets_into_e3m2s_rocket_launcher_room_over_the_ledge_below_its_door() {
    use botarena::bot::explore::{PlannedRun, RunGoal, shootables};
    use botarena::physics::pmove::{PLAYER_MINS, pmove};
    let Some(dir) = quake_maps() else {
        return;
    };
    let balcony = v(570., -740., -39.);
    let (level, cmap) = quake_map(&dir, "e3m2");
    let m = match_with(level, cmap, vec![]);
    let doors = shootables(&m.sim);
    let door = doors
        .iter()
        .find(|d| d.home.0.x == 712. && d.home.1.x == 736.)
        .expect("the rocket-launcher room's door");
    let map = &m.sim.cmap;
    assert!(!door.walked_through_from(map, balcony));
    let stand = door.front_stand(map, balcony).expect("its front");
    assert!(
        (stand.z + 136.).abs() < 1.0 && (stand.x - 692.).abs() < 1.0,
        "{stand}"
    );
    // A run planned to stand there ends standing on the ledge, seeds 1-4.
    let floor = botarena::nav::sample::floor_points(&m.sim.level, map, 32.0);
    let start = botarena::nav::sample::stand_still(map, &m.sim.params, balcony);
    let feet = stand + v(0., 0., PLAYER_MINS.z);
    let goal = RunGoal {
        standing: true,
        ..RunGoal::touch(botarena::planner::Goal {
            mins: feet - v(2., 2., 1.),
            maxs: feet + v(2., 2., 1.),
        })
    };
    let me = botarena::map::EntId(1);
    for seed in 1..=4 {
        let run = PlannedRun::plan(map, &floor, &start, me, &goal, seed, 0.05, &m.sim.params)
            .unwrap_or_else(|| panic!("seed {seed}: a run to the ledge"));
        let mut s = start;
        for c in &run.cmds {
            s = pmove(&s, c, map, &m.sim.params, 0.05, Some(me)).0;
        }
        assert!(
            s.on_ground.is_some(),
            "seed {seed}: standing at {}",
            s.origin
        );
        assert!(
            (s.origin.z + 136.).abs() < 1.0,
            "seed {seed}: on the ledge {}",
            s.origin
        );
    }
    // A real explorer on the balcony gets into the room and marks the rocket launcher.
    let rl = m
        .sim
        .level
        .items
        .iter()
        .position(|i| i.classname == "weapon_rocketlauncher")
        .expect("the rocket launcher");
    for seed in [1, 2] {
        let mut m = common::explorer_on(&dir, "e3m2", seed, balcony, 45.);
        let mut marked = None;
        for tick in 0..30 * 20 {
            m.step();
            if m.learned.waypoints.item_waypoint(rl).is_some() {
                marked = Some(tick);
                break;
            }
        }
        println!("seed {seed}: rocket launcher marked at tick {marked:?}");
        assert!(marked.is_some(), "seed {seed}: not marked in 30 s");
    }
}
