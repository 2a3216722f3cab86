//! Explorers try what they see: a door that only a button opens leads to a room with a
//! weapon, and an explorer presses the button, goes through and marks the weapon; a door
//! that opens as a player comes near, and an explorer walks through it; a door that opens
//! when shot, or a button pressed only by a shot, and an explorer shoots it and goes
//! through; a balcony that only a plat reaches, and an explorer rides the plat up and
//! marks the weapon there, and so where the plat waits up until a button fires it; a
//! mesa over a hall, walked off (a 576-unit fall); a floor over a lava pit that a pressure
//! plate slides away, waited for and crossed;
//! a button beside an alcove, pressed from in front of its face by an explorer that starts
//! in the alcove; a room only an underwater tunnel leads to, and an explorer swims through; a
//! place the team's graph leads to the long way round, and an explorer routes there; a
//! teleporter beside another, stepped into from the side where it is touched first; a
//! ledge above a pit, explored before the pit it cannot climb back from, and a narrow one
//! walked along before it; a floating pool, dived out of only for floor under it; a pool
//! behind a rim, jumped into and swum through to the room its tunnel leads to.

mod common;

use botarena::bot::control::ControllerConfig;
use botarena::bot::explore::Activity;
use botarena::map::builder::MapBuilder;
use botarena::map::{CollisionMap, Level};
use botarena::nav::waypoints::WaypointKind;
use botarena::physics::movers::Phase;
use common::scripted;
use glam::Vec3;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// A closed box (x −512..528, y −256..256, floor z 0) `height` high, to build in.
fn shell(height: f32) -> MapBuilder {
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -16.), v(544., 272., 0.), "floor");
    b.solid(
        v(-528., -272., height),
        v(544., 272., height + 16.),
        "ceiling",
    );
    b.solid(v(-528., -272., 0.), v(-512., 272., height), "wall");
    b.solid(v(528., -272., 0.), v(544., 272., height), "wall");
    b.solid(v(-528., -272., 0.), v(544., -256., height), "wall");
    b.solid(v(-528., 256., 0.), v(544., 272., height), "wall");
    b
}

/// A match (seed 4) with one explorer standing at `at`.
fn explorer_in(level: Level, cmap: CollisionMap, at: Vec3) -> botarena::Match {
    common::match_of(
        level,
        cmap,
        4,
        vec![scripted("explorer", at, 0., ControllerConfig::Explore)],
    )
}

/// Steps `m` for `seconds` (20 Hz) and returns the first tick after which `at(m)` held
/// (`at` is asked after every tick, so it may also watch the match as it goes).
fn first_tick(
    m: &mut botarena::Match,
    seconds: u32,
    mut at: impl FnMut(&botarena::Match) -> bool,
) -> Option<u32> {
    let mut first = None;
    for t in 0..seconds * 20 {
        m.step();
        if at(m) && first.is_none() {
            first = Some(t);
        }
    }
    first
}

/// What `look` reads of the match's first player's explorer state (it is an explorer).
fn with_explorer<R>(
    m: &botarena::Match,
    look: impl FnOnce(&botarena::bot::explore::Explorer) -> R,
) -> R {
    use botarena::bot::control::Controller;
    let c = m
        .sim
        .world
        .get::<&Controller>(m.sim.players[0].entity)
        .expect("a controller");
    let Controller::Explore(e) = &*c else {
        panic!("an explorer");
    };
    look(e)
}

/// Whether the learned graph has a waypoint of the kind `kind` picks out.
fn has_waypoint(m: &botarena::Match, kind: impl Fn(&WaypointKind) -> bool) -> bool {
    m.learned.waypoints.find_kind(kind).is_some()
}

/// Whether the learned graph marks an item.
fn item_marked(m: &botarena::Match) -> bool {
    has_waypoint(m, |k| matches!(k, WaypointKind::Item { .. }))
}

/// The index of the level's (one) `func_door` among its movers.
fn door_of(level: &Level) -> usize {
    level
        .movers
        .iter()
        .position(|m| m.classname == "func_door")
        .expect("the door")
}

/// How the door between [`two_rooms`] opens.
#[derive(Clone, Copy, PartialEq)]
enum Door {
    /// Fired by the button (it rises and stays open).
    Wired,
    /// Never: the button fires nothing and the door waits to be fired.
    Unwired,
    /// When a player comes near (no targetname; it closes again after 3 s).
    Touch,
    /// When shot (health 1, no targetname; it closes again after 3 s).
    Shot,
    /// Fired by the button, which has health: shot, not pressed.
    ShotButton,
}

/// Two rooms side by side (x −512..0 and 16..528, floor z 0, ceiling 256) with a wall
/// between them whose 128-wide doorway holds a door that rises (see [`Door`]); a button on
/// the first room's west wall (chest high, facing east), and a rocket launcher lies in the
/// second room.
fn two_rooms(door: Door) -> (Level, CollisionMap) {
    let wired = matches!(door, Door::Wired | Door::ShotButton);
    let mut b = shell(256.);
    let door_keys: &[(&str, &str)] = if door == Door::Touch {
        &[("classname", "func_door"), ("angle", "-1"), ("wait", "3")]
    } else if door == Door::Shot {
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("wait", "3"),
            ("health", "1"),
        ]
    } else {
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("targetname", "d1"),
            ("wait", "-1"),
        ]
    };
    middle_wall(&mut b, door_keys);
    let mut keys = vec![
        ("classname", "func_button"),
        ("angle", "180"),
        ("wait", "-1"),
    ];
    if wired {
        keys.push(("target", "d1"));
    }
    if door == Door::ShotButton {
        keys.push(("health", "1"));
    }
    b.brush_entity(
        &keys,
        &[(v(-512., -24., 32.), v(-504., 24., 64.), "button")],
    );
    b.point("weapon_rocketlauncher", v(300., 0., 0.), &[]);
    b.point("info_player_deathmatch", v(-256., 160., 24.), &[]);
    b.build()
}

/// The wall between [`two_rooms`] (x 0..16), with a doorway at y −64..64 up to z 128 that
/// a door with `door_keys` fills.
fn middle_wall(b: &mut MapBuilder, door_keys: &[(&str, &str)]) {
    b.solid(v(0., -256., 0.), v(16., -64., 256.), "wall");
    b.solid(v(0., 64., 0.), v(16., 256., 256.), "wall");
    b.solid(v(0., -64., 128.), v(16., 64., 256.), "wall");
    b.brush_entity(door_keys, &[(v(0., -64., 0.), v(16., 64., 128.), "door")]);
}

/// Runs an explorer for 40 s from the first room: whether the door opened, whether the
/// explorer got into the second room, and whether the rocket launcher has an item waypoint.
fn explore(door: Door) -> (bool, bool, bool) {
    let (level, cmap) = two_rooms(door);
    let door = door_of(&level);
    let mut m = explorer_in(level, cmap, v(-256., 160., 25.));
    let (mut opened, mut through) = (false, false);
    for _ in 0..40 * 20 {
        m.step();
        opened |= m.sim.mover_state(door).unwrap().phase != Phase::AtA;
        through |= m.sim.player_state(0).unwrap().origin.x > 48.0;
    }
    (opened, through, item_marked(&m))
}

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

/// A room (floor z 0) with a balcony (top z 192) along its east side that only a plat
/// reaches: a column 192 high that waits down with its top at z 8 and rises when stood on.
/// A rocket launcher lies on the balcony.
fn balcony() -> (Level, CollisionMap) {
    balcony_with(&[("classname", "func_plat")]).build()
}

/// [`balcony`]'s room, balcony, weapon and spawn point, its plat with `plat_keys`.
fn balcony_with(plat_keys: &[(&str, &str)]) -> MapBuilder {
    let mut b = shell(384.);
    b.solid(v(192., -256., 0.), v(528., 256., 192.), "balcony");
    b.brush_entity(plat_keys, &[(v(64., -64., 0.), v(192., 64., 192.), "plat")]);
    b.point("weapon_rocketlauncher", v(400., 0., 192.), &[]);
    b.point("info_player_deathmatch", v(-300., 0., 24.), &[]);
    b
}

#[test]
fn an_explorer_rides_the_plat_it_sees_up_to_a_weapon() {
    let (level, cmap) = balcony();
    let mut m = explorer_in(level, cmap, v(-300., 0., 25.));
    // Fifteen seconds: it goes there on sight (a few seconds), not by chance.
    let up = first_tick(&mut m, 15, |m| {
        let s = m.sim.player_state(0).unwrap();
        s.origin.z > 200.0 && s.origin.x > 200.0
    });
    println!("on the balcony at tick {up:?}");
    assert!(up.is_some(), "the explorer never got onto the balcony");
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    assert!(
        has_waypoint(&m, |k| matches!(k, WaypointKind::ElevatorTop { .. })),
        "the ride is in the graph"
    );
}

/// [`balcony`] with its plat named (`lift`): it waits up, flush with the balcony, until
/// something fires it (plats.qc), here a button on the room's west wall (chest high,
/// facing east). Once fired it comes down and works as any plat (e1m5's, up to the room
/// at z 344, is fired by a button in another room).
fn balcony_fired_plat() -> (Level, CollisionMap) {
    let mut b = balcony_with(&[("classname", "func_plat"), ("targetname", "lift")]);
    b.brush_entity(
        &[
            ("classname", "func_button"),
            ("angle", "180"),
            ("wait", "-1"),
            ("target", "lift"),
        ],
        &[(v(-512., -24., 32.), v(-504., 24., 64.), "button")],
    );
    b.build()
}

#[test]
fn an_explorer_fires_a_plat_waiting_up_with_its_button_and_rides_it() {
    let (level, cmap) = balcony_fired_plat();
    let plat = level
        .movers
        .iter()
        .position(|m| m.classname == "func_plat")
        .expect("the plat");
    let mut m = explorer_in(level, cmap, v(-300., 0., 25.));
    assert_eq!(
        m.sim.mover_state(plat).unwrap().phase,
        Phase::AtB,
        "a named plat waits up until fired"
    );
    let mut fired = None;
    // Fifteen seconds, as for the plat waiting down: it rides the plat once it is down
    // (a few seconds); one that does not try it gets up by chance much later (28 s).
    let up = first_tick(&mut m, 15, |m| {
        if fired.is_none() && m.sim.mover_state(plat).unwrap().phase != Phase::AtB {
            fired = Some(m.sim.tick);
        }
        let s = m.sim.player_state(0).unwrap();
        s.origin.z > 200.0 && s.origin.x > 200.0
    });
    println!("plat fired at tick {fired:?}, on the balcony at tick {up:?}");
    assert!(
        fired.is_some(),
        "the explorer never pressed the plat's button"
    );
    assert!(up.is_some(), "the explorer never rode the fired plat up");
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    assert!(
        has_waypoint(&m, |k| matches!(k, WaypointKind::ElevatorTop { .. })),
        "the ride is in the graph"
    );
}

/// A mesa (x −512..0, top z 576) over a hall (x 0..528, floor z 0) where a rocket
/// launcher lies: nothing leads down but the fall off its edge, 576 units (e1m5's pit
/// under the room a fired plat rises to, down to a secret door; Quake's fall costs at most
/// 5 health from any height).
fn mesa() -> (Level, CollisionMap) {
    ledge_over_hall(576., 768.).build()
}

/// A hall `height` high (floor z 0) with a ledge in its west part (x −512..0, top z
/// `top`) where a spawn point stands, and a rocket launcher on the hall's floor at x 300.
fn ledge_over_hall(top: f32, height: f32) -> MapBuilder {
    let mut b = shell(height);
    b.solid(v(-512., -256., 0.), v(0., 256., top), "ledge");
    b.point("weapon_rocketlauncher", v(300., 0., 0.), &[]);
    b.point("info_player_deathmatch", v(-300., 0., top + 24.), &[]);
    b
}

#[test]
fn an_explorer_drops_off_a_mesa_as_deep_as_the_compiled_graph_falls() {
    let (level, cmap) = mesa();
    let mut m = explorer_in(level, cmap, v(-300., 0., 601.));
    // Walked off, as the compiled graph falls: not only down a run planned over the
    // physics to the unvisited floor below, as once the mesa's top is known (12 s) where
    // its walks stopped at drops deeper than 400 units.
    let mut planned = false;
    let down = first_tick(&mut m, 60, |m| {
        let low = m.sim.player_state(0).unwrap().origin.z < 100.0;
        if !low {
            planned |= with_explorer(m, |e| e.run.is_some());
        }
        low
    });
    println!("in the hall at tick {down:?}, down a planned run: {planned}");
    assert!(down.is_some(), "the explorer never dropped off the mesa");
    assert!(!planned, "the explorer got down only by a planned run");
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    let vitals: botarena::sim::components::Vitals = m.sim.player_component(0).unwrap();
    assert!(
        vitals.health >= 95.0,
        "the fall cost {}",
        100.0 - vitals.health
    );
}

/// Two ledges (x −512..−256 and 256..528, top z 128) across a lava pit, bridged by a floor
/// (a `func_door`, x −256..256, y −128..128, z 112..128, between walls) that slides 264
/// units south at 75 u/s when fired: by a pressure plate (a `func_button` sinking 8 units,
/// `wait` 2) on the west ledge's edge, south of the middle, and by a trigger over the
/// floor (`wait` 10); a rocket launcher lies on the east ledge. e4m3's floor to its quad
/// room: the plate slides it away before a player is on it; one already on it is carried
/// against the wall, which stops it, and crosses.
fn sliding_floor() -> (Level, CollisionMap) {
    let mut b = shell(256.);
    b.solid(v(-512., -256., 0.), v(-256., 256., 128.), "ledge");
    b.solid(v(256., -256., 0.), v(528., 256., 128.), "ledge");
    b.solid(v(-256., -256., 0.), v(256., 256., 32.), "*lava1");
    b.solid(v(-256., -256., 32.), v(256., -128., 256.), "wall");
    b.solid(v(-256., 128., 32.), v(256., 256., 256.), "wall");
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("targetname", "floor"),
            ("angle", "270"),
            ("speed", "75"),
            ("lip", "-8"),
        ],
        &[(v(-256., -128., 112.), v(256., 128., 128.), "floor")],
    );
    b.brush_entity(
        &[
            ("classname", "trigger_multiple"),
            ("target", "floor"),
            ("wait", "10"),
        ],
        &[(v(-192., -128., 136.), v(192., 128., 168.), "trigger")],
    );
    b.brush_entity(
        &[
            ("classname", "func_button"),
            ("angle", "-2"),
            ("wait", "2"),
            ("target", "floor"),
        ],
        &[(v(-320., -128., 128.), v(-256., 0., 136.), "plate")],
    );
    b.point("weapon_rocketlauncher", v(400., 0., 128.), &[]);
    b.point("info_player_deathmatch", v(-400., 0., 152.), &[]);
    b.build()
}

#[test]
fn an_explorer_waits_for_a_floor_that_slid_away_and_crosses_it() {
    let (level, cmap) = sliding_floor();
    let floor = door_of(&level);
    let mut m = explorer_in(level, cmap, v(-400., 0., 153.));
    let (mut slid, mut waited) = (None, None);
    // Twenty seconds: it waits for the floor once it has seen it slide away and goes for
    // it as it comes back (13 s); one that turned away from the pit got over by chance at
    // 31 s.
    let over = first_tick(&mut m, 20, |m| {
        if slid.is_none() && m.sim.mover_state(floor).unwrap().phase != Phase::AtA {
            slid = Some(m.sim.tick);
        }
        if waited.is_none() && with_explorer(m, |e| matches!(e.activity, Activity::Floor(..))) {
            waited = Some(m.sim.tick);
        }
        let s = m.sim.player_state(0).unwrap();
        s.origin.x > 280.0 && s.origin.z > 128.0
    });
    println!("floor slid at tick {slid:?}, waited from tick {waited:?}, over at tick {over:?}");
    assert!(slid.is_some(), "nothing fired the floor");
    assert!(waited.is_some(), "the explorer never waited for the floor");
    assert!(
        over.is_some(),
        "the explorer never crossed to the east ledge"
    );
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    // Stood on, the floor's cells are known (a mover's top drew explorers back for good).
    let known = [-64., 64.]
        .iter()
        .flat_map(|&x| [-64., 64.].map(|y| v(x, y, 153.)))
        .any(|p| m.learned.visits.visits(p) > 0);
    assert!(known, "no cell of the floor counts as visited");
}

/// Two closed rooms side by side; a teleporter in a corner of the first sends players to
/// the second, where a rocket launcher lies.
fn sealed_rooms() -> (Level, CollisionMap) {
    sealed_rooms_with((v(-160., -256., 0.), v(-96., -192., 64.)), |_| {})
}

/// [`sealed_rooms`] with the teleporter's volume `trigger` and what `more` adds.
fn sealed_rooms_with(
    trigger: (Vec3, Vec3),
    more: impl FnOnce(&mut MapBuilder),
) -> (Level, CollisionMap) {
    let mut b = shell(256.);
    b.solid(v(0., -256., 0.), v(16., 256., 256.), "wall");
    more(&mut b);
    b.brush_entity(
        &[("classname", "trigger_teleport"), ("target", "there")],
        &[(trigger.0, trigger.1, "trigger")],
    );
    b.point(
        "info_teleport_destination",
        v(300., 128., 0.),
        &[("targetname", "there"), ("angle", "0")],
    );
    b.point("weapon_rocketlauncher", v(400., -128., 0.), &[]);
    b.point("info_player_deathmatch", v(-400., 160., 24.), &[]);
    b.build()
}

/// An explorer standing in the first of [`sealed_rooms_with`]'s rooms, stepped 20 s: the
/// match and the first tick it was in the second room.
fn into_the_second_room(level: Level, cmap: CollisionMap) -> (botarena::Match, Option<u32>) {
    let mut m = explorer_in(level, cmap, v(-400., 160., 25.));
    let beyond = first_tick(&mut m, 20, |m| {
        m.sim.player_state(0).unwrap().origin.x > 16.0
    });
    println!("in the second room at tick {beyond:?}");
    (m, beyond)
}

#[test]
fn an_explorer_steps_into_the_teleporter_it_sees_and_finds_the_weapon_beyond() {
    let (level, cmap) = sealed_rooms();
    // Twenty seconds: it goes there on sight (a second or two), not by chance.
    let (m, beyond) = into_the_second_room(level, cmap);
    assert!(
        beyond.is_some(),
        "the explorer never went through the teleporter"
    );
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    assert!(
        has_waypoint(&m, |k| matches!(k, WaypointKind::Teleporter { .. })),
        "the teleporter is in the graph"
    );
}

/// [`sealed_rooms`] with the teleporter in the middle of the first room under a plat: a
/// slab (z 16..40 down, 104 higher up) resting on four posts 16 high, too low a gap for a
/// player to get under; it rises when stood on.
fn teleporter_under_plat() -> (Level, CollisionMap) {
    sealed_rooms_with((v(-112., -16., 0.), v(-80., 16., 16.)), |b| {
        for (x, y) in [(-176., -80.), (-32., -80.), (-176., 64.), (-32., 64.)] {
            b.solid(v(x, y, 0.), v(x + 16., y + 16., 16.), "post");
        }
        b.brush_entity(
            &[("classname", "func_plat"), ("height", "104")],
            &[(v(-176., -80., 120.), v(-16., 80., 144.), "plat")],
        );
    })
}

#[test]
fn an_explorer_uncovers_a_teleporter_under_a_plat_by_riding_it_and_stepping_back_off() {
    let (level, cmap) = teleporter_under_plat();
    // Twenty seconds: it goes there on sight (a few seconds), not by chance. Riding the
    // plat up alone leaves the teleporter under it.
    let (m, beyond) = into_the_second_room(level, cmap);
    assert!(
        beyond.is_some(),
        "the explorer never got into the teleporter under the plat"
    );
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// [`teleporter_under_plat`] as e4m3's: the teleporter in a well under the plat, closed by
/// a rim 24 units high and 32 wide that the plat rests on (z 24..32 down), which the
/// movement stage does not step up and only a jump gets over.
fn teleporter_in_a_well_under_plat() -> (Level, CollisionMap) {
    sealed_rooms_with((v(-112., -16., 0.), v(-80., 16., 16.)), |b| {
        b.solid(v(-176., -80., 0.), v(-144., 80., 24.), "rim");
        b.solid(v(-48., -80., 0.), v(-16., 80., 24.), "rim");
        b.solid(v(-144., -80., 0.), v(-48., -48., 24.), "rim");
        b.solid(v(-144., 48., 0.), v(-48., 80., 24.), "rim");
        b.brush_entity(
            &[("classname", "func_plat"), ("height", "96")],
            &[(v(-176., -80., 120.), v(-16., 80., 128.), "plat")],
        );
    })
}

#[test]
fn an_explorer_jumps_the_rim_of_a_teleporters_well_under_a_plat() {
    let (level, cmap) = teleporter_in_a_well_under_plat();
    // Where it sees the plat over the well (farther off, the rim hides it). Off the rising
    // plat, in under it over the rim with a standing jump, steered over the rim in the
    // air (steered back toward the plat's side, it came down where it left, for good).
    let mut m = explorer_in(level, cmap, v(-280., 0., 25.));
    let beyond = first_tick(&mut m, 20, |m| {
        m.sim.player_state(0).unwrap().origin.x > 16.0
    });
    println!("in the second room at tick {beyond:?}");
    assert!(
        beyond.is_some(),
        "the explorer never got into the teleporter in the well"
    );
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// The point an explorer's try walks to, if it walks to one.
fn target(go: Option<botarena::bot::explore::ButtonGo>) -> Option<Vec3> {
    use botarena::bot::explore::ButtonGo;
    use botarena::bot::movement::MoveTarget;
    match go {
        Some(ButtonGo::Walk(r)) => match r.target {
            MoveTarget::Point(p) => Some(p),
            _ => None,
        },
        _ => None,
    }
}

/// Two thin teleporters 12 units apart across the south of the east room (as e1m5's pair,
/// one for each way): the western one (x 416..420) sends a player back beside where the
/// explorer starts, the eastern one (x 432..436) to the sealed west room. Walked into
/// from the west, the western one is touched first.
fn teleporter_pair() -> (Level, CollisionMap) {
    let mut b = shell(256.);
    b.solid(v(0., -256., 0.), v(16., 256., 256.), "wall");
    for (x, target) in [(416., "back"), (432., "west")] {
        b.brush_entity(
            &[("classname", "trigger_teleport"), ("target", target)],
            &[(v(x, -256., 0.), v(x + 4., -160., 72.), "trigger")],
        );
    }
    b.point(
        "info_teleport_destination",
        v(150., -150., 0.),
        &[("targetname", "back"), ("angle", "0")],
    );
    b.point(
        "info_teleport_destination",
        v(-300., 0., 0.),
        &[("targetname", "west"), ("angle", "0")],
    );
    b.point("info_player_deathmatch", v(200., -208., 24.), &[]);
    b.build()
}

/// An explorer goes to a teleporter from the side where it touches that one first: from
/// the west of the pair, walking, it leaves the eastern one alone (walking at it, it would
/// touch the western one and be sent back where it has been), from the east it walks in
/// across the eastern one's east face; from above it, where no walk gets into it, it leaves
/// it alone. With a planner it runs into the eastern one from the west too, round the
/// pair's end, the western one never touched on the way.
#[test]
fn an_explorer_steps_into_a_teleporter_beside_another_from_the_side_it_is_touched_first() {
    use botarena::bot::explore::{Explorer, RunPlanner, VisitMap, teleporters, touched_first};
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = teleporter_pair();
    let m = common::match_of(level, cmap, 4, vec![]);
    let views = teleporters(&m.sim);
    assert_eq!(views.len(), 2);
    let (back, west) = (views[0], views[1]);
    // Each has a side where a player's box touches it alone: the western one's west face,
    // the eastern one's east face (16 units out, 2 in).
    assert_eq!(back.entry, Some((Vec3::NEG_X, v(402., -208., 36.))));
    assert_eq!(west.entry, Some((Vec3::X, v(450., -208., 36.))));
    let (wside, eside) = (v(200., -208., 24.), v(500., -208., 24.));
    assert_eq!(
        touched_first(&views, wside, west.walk_point(wside)),
        Some(back.index)
    );
    assert_eq!(
        touched_first(&views, eside, west.walk_point(eside)),
        Some(west.index)
    );
    assert_eq!(touched_first(&views, wside, v(300., 100., 24.)), None);
    // Where a teleporter leads is known once the team stood at its destination or where
    // arrivals come down, a little way on the way it faces (here the next visit cell).
    let north = botarena::bot::explore::TeleporterView {
        dest: v(100., 100., 24.),
        yaw: 90.,
        ..back
    };
    let mut known = VisitMap::default();
    assert!(!north.leads_where_known(&known));
    known.visit(v(100., 200., 24.));
    assert_ne!(
        VisitMap::cell(north.dest),
        VisitMap::cell(v(100., 200., 24.))
    );
    assert!(north.leads_where_known(&known));
    let mut visits = VisitMap::default();
    let walked_off = |v: &VisitMap| botarena::bot::explore::teleporter_boxes(&m.sim.level, v);
    assert_eq!(walked_off(&visits), vec![]);
    visits.visit(back.dest);
    assert!(back.leads_where_known(&visits));
    // Walks chosen keep off the one that leads where the team has stood, not the other.
    assert_eq!(walked_off(&visits), vec![(back.mins, back.maxs)]);
    let dt = 0.05;
    // West of the pair: the one that leads somewhere new is not walked at.
    let here = PlayerState::at(wside, 0.0);
    let mut ex = Explorer::new(here.origin);
    assert_eq!(
        ex.teleporter(&m.sim.cmap, &visits, &views, &here, None, dt),
        None
    );
    // East of it: walked into from the east.
    let there = PlayerState::at(eside, 0.0);
    let mut ex = Explorer::new(there.origin);
    let go = ex.teleporter(&m.sim.cmap, &visits, &views, &there, None, dt);
    assert_eq!(target(go), Some(v(450., -208., 24.)));
    // Seen from a balcony above it: no walk at the bot's own height gets into it.
    let above = PlayerState::at(v(500., -208., 150.), 0.0);
    let mut ex = Explorer::new(above.origin);
    assert_eq!(
        ex.teleporter(&m.sim.cmap, &visits, &views, &above, None, dt),
        None
    );
    // With a planner, from the west: a run whose first teleporter is the eastern one.
    let physics = botarena::physics::pmove::PhysicsParams::default();
    let mut rng = botarena::sim::rng::SimRng::new(7, 0);
    let stood = botarena::nav::sample::stand_still(&m.sim.cmap, &physics, wside + Vec3::Z);
    let mut ex = Explorer::new(stood.origin);
    let planner = RunPlanner {
        level: &m.sim.level,
        me: botarena::map::EntId(1),
        physics: &physics,
        rng: &mut rng,
    };
    let go = ex.teleporter(&m.sim.cmap, &visits, &views, &stood, Some(planner), dt);
    assert_eq!(go, None, "a run, not a walk");
    let run = ex.run.as_ref().expect("a run planned into the eastern one");
    let first = run
        .path
        .windows(2)
        .find_map(|w| touched_first(&views, w[0], w[1]));
    assert_eq!(first, Some(west.index), "touches the eastern one first");
    // And a real explorer started east of the pair gets to the west room through it.
    let (level, cmap) = teleporter_pair();
    let mut m = explorer_in(level, cmap, v(500., -208., 25.));
    let beyond = first_tick(&mut m, 20, |m| {
        m.sim.player_state(0).unwrap().origin.x < 0.0
    });
    assert!(beyond.is_some(), "the explorer never went through");
}

/// e1m5's teleporter to the quad (trigger 9, x 432..436) sits on the east face of a
/// 16-unit sill under an arch, the one back (trigger 8, x 416..420) on its west face; east
/// of the arch a player's centre has 7 units of room past the posts. An explorer that
/// starts west of the arch, where trigger 8 leads somewhere the team has been, runs round
/// the post into trigger 9: walking at it, the posts turned the bot away and it walked
/// round into trigger 8 (e1m5's quad was marked on 4 of 16 explorations).
#[test]
fn an_explorer_runs_into_e1m5s_quad_teleporter_past_the_arch_post() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    for seed in [4, 5, 6] {
        let mut m = common::explorer_on(&dir, "e1m5", seed, v(320., 2650., 425.), 0.);
        let back = m.sim.level.teleport_dests[1].origin;
        assert_eq!(back, v(704., 1520., 31.), "trigger 8's destination");
        m.learned.visits.visit(back);
        let mut first = None;
        for _ in 0..15 * 20 {
            m.step();
            for e in &m.sim.events {
                if let botarena::sim::SimEvent::Teleport { trigger, .. } = e {
                    first = first.or(Some(*trigger));
                }
            }
        }
        assert_eq!(first, Some(9), "seed {seed}: the first teleporter touched");
    }
}

#[test]
fn an_explorer_heads_through_a_door_it_sees_to_where_nobody_has_been_twice_at_most() {
    use botarena::bot::explore::{DoorwayView, Explorer, VisitMap, doorways};
    use botarena::bot::movement::MoveStatus;
    use botarena::physics::pmove::PlayerState;
    // A door that waits to be fired is not one to walk through.
    let (level, cmap) = two_rooms(Door::Wired);
    let m = common::match_of(level, cmap, 4, vec![]);
    assert!(doorways(&m.sim).is_empty());
    let (level, cmap) = two_rooms(Door::Touch);
    let m = common::match_of(level, cmap, 4, vec![]);
    let views: Vec<DoorwayView> = doorways(&m.sim);
    assert_eq!(views.len(), 1);
    // Across its thin side (x 0..16), 48 units past each face, at a standing origin.
    assert_eq!(views[0].sides, [v(-48., 0., 24.), v(64., 0., 24.)]);
    let here = PlayerState::at(v(-256., 0., 24.), 0.0);
    let beyond = PlayerState::at(v(64., 0., 24.), 0.0);
    let mut visits = VisitMap::default();
    let mut ex = Explorer::new(here.origin);
    let dt = 0.05;
    let moving = (&MoveStatus::Moving, (None, false));
    // The far side, until the bot stands there; then a second try, and no third.
    for _ in 0..2 {
        for _ in 0..3 {
            let go = ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, dt);
            assert_eq!(target(go), Some(v(64., 0., 24.)));
        }
        assert_eq!(
            ex.doorway(&m.sim.cmap, &visits, &views, &beyond, moving, dt),
            None
        );
    }
    assert_eq!(
        ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, dt),
        None
    );
    // A fresh explorer leaves it alone once somebody has been beyond it.
    let mut fresh = Explorer::new(here.origin);
    assert!(
        fresh
            .doorway(&m.sim.cmap, &visits, &views, &here, moving, dt)
            .is_some()
    );
    // A glance beyond it (a bot that touched it open and turned back) leaves it as unknown;
    // more than that, not.
    for _ in 0..botarena::bot::explore::FRESH_VISITS {
        visits.visit(v(64., 0., 24.));
    }
    let mut glanced = Explorer::new(here.origin);
    assert!(
        glanced
            .doorway(&m.sim.cmap, &visits, &views, &here, moving, dt)
            .is_some()
    );
    visits.visit(v(64., 0., 24.));
    let mut other = Explorer::new(here.origin);
    assert_eq!(
        other.doorway(&m.sim.cmap, &visits, &views, &here, moving, dt),
        None
    );
}

/// Two rooms (floor z 0) on either side of a thick wall (x 0..256) that comes down to
/// z −96: the only way between them is a pool (x −128..384, floor z −160, surface z 0)
/// whose bottom runs on under the wall, a tunnel 64 high. A rocket launcher lies in the
/// east room.
fn flooded_tunnel() -> (Level, CollisionMap) {
    flooded_tunnel_with(true)
}

/// [`flooded_tunnel`], with or without its rocket launcher.
fn flooded_tunnel_with(weapon: bool) -> (Level, CollisionMap) {
    let mut b = liquid_tunnel("*water0", -96.);
    if weapon {
        b.point("weapon_rocketlauncher", v(700., 0., 0.), &[]);
    }
    b.build()
}

/// Two rooms (floor z 0) on either side of a thick wall (x 0..256) that comes down to
/// z `roof`: the only way between them is a pool of `liquid` (x −128..384, floor z −160,
/// surface z 0) whose bottom runs on under the wall. A spawn point in the west room.
fn liquid_tunnel(liquid: &str, roof: f32) -> MapBuilder {
    liquid_tunnel_from(liquid, roof, 0.0)
}

/// [`liquid_tunnel`] with the west room's floor at z `west` (and its spawn point on it);
/// below the surface, the pool's west edge is a rim 32 above that floor (x −144..−128).
fn liquid_tunnel_from(liquid: &str, roof: f32, west: f32) -> MapBuilder {
    let mut b = MapBuilder::new();
    if west < 0.0 {
        b.solid(v(-144., -256., west), v(-128., 256., west + 32.), "rim");
    }
    b.solid(v(-528., -272., -176.), v(912., 272., -160.), "bottom");
    b.solid(v(-528., -272., 256.), v(912., 272., 272.), "ceiling");
    b.solid(v(-528., -272., -160.), v(-512., 272., 256.), "wall");
    b.solid(v(896., -272., -160.), v(912., 272., 256.), "wall");
    b.solid(v(-528., -272., -160.), v(912., -256., 256.), "wall");
    b.solid(v(-528., 256., -160.), v(912., 272., 256.), "wall");
    b.solid(v(-512., -256., -160.), v(-128., 256., west), "floor");
    b.solid(v(384., -256., -160.), v(896., 256., 0.), "floor");
    b.solid(v(0., -256., roof), v(256., 256., 256.), "wall");
    b.solid(v(-128., -256., -160.), v(0., 256., 0.), liquid);
    b.solid(v(0., -256., -160.), v(256., 256., roof), liquid);
    b.solid(v(256., -256., -160.), v(384., 256., 0.), liquid);
    b.point("info_player_deathmatch", v(-400., 0., west + 24.), &[]);
    b
}

/// Steps `m` (its explorer in a [`liquid_tunnel`]) for up to `seconds` and asserts the
/// explorer got to the east room.
fn to_the_east_room(m: &mut botarena::Match, seconds: u32) {
    let beyond = first_tick(m, seconds, |m| {
        let s = m.sim.player_state(0).unwrap();
        s.origin.x > 400.0 && s.origin.z > 0.0
    });
    println!("in the east room at tick {beyond:?}");
    assert!(beyond.is_some(), "the explorer never got to the east room");
}

/// With nothing in sight beyond it, a swimmer in the west part of [`flooded_tunnel`]'s pool
/// finds the tunnel by looking along the pool's bottom (e4m3's east part is entered only
/// by such a tunnel): the dive goes for its far end, down first, and the explorer comes up
/// in the east room.
#[test]
fn an_explorer_in_a_pool_dives_into_the_flooded_tunnel_at_its_bottom() {
    use botarena::bot::explore::{Explorer, VisitMap};
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = flooded_tunnel_with(false);
    let mut s = PlayerState::at(v(-64., 0., -30.), 90.0);
    s.water_level = 3;
    let mut ex = Explorer::new(s.origin);
    let visits = VisitMap::default();
    assert!(target(ex.dive(&cmap, &level, &visits, &s, 0.05)).is_some());
    let Activity::Dive(end, _) = ex.activity else {
        panic!("a dive into the tunnel, not {:?}", ex.activity);
    };
    assert!(end.x > 256.0 && end.z < -96.0, "the dive goes for {end}");
    // Down first: the tunnel's mouth lies under the wall ahead.
    let go = target(ex.dive(&cmap, &level, &visits, &s, 0.05)).expect("diving");
    assert!(
        go.truncate().distance(s.origin.truncate()) < 1.0 && go.z < -96.0,
        "{go}"
    );
    // Far under the surface (back from a passage), a swimmer gets air first.
    let deep = PlayerState {
        origin: v(-64., 0., -120.),
        ..s
    };
    assert!(
        Explorer::new(deep.origin)
            .dive(&cmap, &level, &visits, &deep, 0.05)
            .is_none()
    );
    // Somebody has been at its far end: a swimmer there looks no further.
    // (Across the width of the pool's east part: the far end along another direction,
    // under the other half, is another place.)
    let mut seen = VisitMap::default();
    for y in [-192., -64., 64., 192.] {
        seen.visit(v(end.x, y, end.z));
    }
    assert!(
        Explorer::new(s.origin)
            .dive(&cmap, &level, &seen, &s, 0.05)
            .is_none()
    );
    let mut m = explorer_in(level, cmap, s.origin);
    to_the_east_room(&mut m, 20);
}

#[test]
fn an_explorer_swims_through_a_flooded_tunnel_to_the_room_beyond() {
    let (level, cmap) = flooded_tunnel();
    let mut m = explorer_in(level, cmap, v(-400., 0., 25.));
    to_the_east_room(&mut m, 40);
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// [`flooded_tunnel`] with the west room's floor 24 under the water's surface and the
/// pool behind a rim 32 high (8 over the surface), as e4m3's pool in the hall west of its
/// flooded tunnel: no walk from the floor goes in. A rocket launcher in the east room.
fn rimmed_pool() -> (Level, CollisionMap) {
    let mut b = liquid_tunnel_from("*water0", -96., -24.);
    b.point("weapon_rocketlauncher", v(700., 0., 0.), &[]);
    b.build()
}

/// An explorer on the floor by [`rimmed_pool`]'s rim sees the water beyond it, with a
/// tunnel under it to where nobody has been, and walks (jumping the rim) to a point under
/// its surface; not where the team has swum, not where the tunnel leads where the team has
/// been, not a third time at one place, not from the water.
#[test]
fn an_explorer_goes_into_water_it_sees_where_nobody_has_swum() {
    use botarena::bot::explore::{BUTTON_TRIES, Explorer, VisitMap};
    use botarena::physics::pmove::PlayerState;
    let (_, cmap) = rimmed_pool();
    // The pool's surface, where a player's box rests on it (the tunnel's roof hides the
    // water under the wall).
    let surfaces = botarena::nav::sample::liquid_surfaces(&cmap, 64.0);
    assert!(!surfaces.is_empty());
    for (p, c) in &surfaces {
        assert_eq!(*c, botarena::map::Contents::WATER);
        assert!(
            (p.x > -128. && p.x < 0.) || (p.x > 256. && p.x < 384.),
            "{p}"
        );
        assert!((p.z - 24.).abs() < 1.0, "{p}");
    }
    let mut s = PlayerState::at(v(-300., 0., 0.), 0.0);
    s.on_ground = Some(botarena::map::EntId::WORLD);
    let visits = VisitMap::default();
    let mut ex = Explorer::new(s.origin);
    let to = target(ex.pool(&cmap, &visits, &s, 0.05)).expect("a walk into the pool");
    assert!(
        to.x > -128.0 && to.x < 0.0,
        "into the pool's west part: {to}"
    );
    assert!(to.z < -24.0, "under the surface: {to}");
    // Going on while out of the water; done once swimming.
    assert_eq!(target(ex.pool(&cmap, &visits, &s, 0.05)), Some(to));
    let swimming = PlayerState {
        origin: v(-64., 0., -30.),
        water_level: 3,
        on_ground: None,
        ..s
    };
    assert!(ex.pool(&cmap, &visits, &swimming, 0.05).is_none());
    assert!(matches!(ex.activity, Activity::Nothing));
    assert!(
        Explorer::new(s.origin)
            .pool(&cmap, &visits, &swimming, 0.05)
            .is_none()
    );
    // Where the team has swum, nothing to go in for.
    let mut swum = VisitMap::default();
    for y in [-192., -64., 64., 192.] {
        swum.visit_wet(v(-64., y, -30.));
    }
    assert!(
        Explorer::new(s.origin)
            .pool(&cmap, &swum, &s, 0.05)
            .is_none()
    );
    // Water with no way on under it to where nobody has been: left alone (the team has
    // been in the pool's east part, where its tunnel comes up).
    let mut beyond = VisitMap::default();
    for y in [-192., -64., 64., 192.] {
        beyond.visit(v(320., y, -135.));
    }
    let mut ex = Explorer::new(s.origin);
    for _ in 0..20 {
        assert!(ex.pool(&cmap, &beyond, &s, 0.05).is_none());
    }
    // At most BUTTON_TRIES times at one place, and then no more.
    let mut ex = Explorer::new(s.origin);
    let mut cells: Vec<(i32, i32, i32)> = Vec::new();
    for _ in 0..100 {
        let Some(to) = target(ex.pool(&cmap, &visits, &s, 0.05)) else {
            break;
        };
        cells.push(VisitMap::cell(to));
        ex.activity = Activity::Nothing;
    }
    assert!(
        !cells.is_empty() && cells.len() < 100,
        "{} tries",
        cells.len()
    );
    for c in &cells {
        let n = cells.iter().filter(|d| *d == c).count() as u32;
        assert!(n <= BUTTON_TRIES, "{n} tries at {c:?}");
    }
}

/// From [`rimmed_pool`]'s west room the explorer goes into the pool behind the rim, finds
/// the flooded tunnel at its bottom and comes up in the east room (e4m3's east part, behind
/// such a pool, was found on half the runs, by explorers that happened to fall in).
#[test]
fn an_explorer_jumps_into_a_pool_behind_a_rim_and_swims_its_tunnel_to_the_room_beyond() {
    let (level, cmap) = rimmed_pool();
    let mut m = explorer_in(level, cmap, v(-400., 0., 1.));
    to_the_east_room(&mut m, 40);
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// A swimmer with its head out at the surface of [`flooded_tunnel`]'s east pool (the room
/// beyond lies at the water's level, past the pool's edge) feels its way on from the
/// surface, as one with its head under does: its choices are in the east room. Felt from
/// where it swims, every walk east met the room's floor edge (above the swimmer's step) and
/// its choices all lay on the pool's bottom: e4m3's east part lies past such an edge 7
/// units over its pool's surface, and a swimmer that came up there turned back along the
/// bottom.
#[test]
fn a_swimmer_at_the_surface_feels_its_way_on_out_of_the_water() {
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = flooded_tunnel_with(false);
    let in_room = |s: &PlayerState| {
        choices(&level, &cmap, s)
            .iter()
            .filter(|t| t.x > 384.0 && t.z > 0.0)
            .count()
    };
    // Head out: eyes (22 over the origin) above the surface at z 0, waist under it.
    let mut s = PlayerState::at(v(320., -100., -10.), 0.0);
    s.water_level = 2;
    s.on_ground = None;
    let out = in_room(&s);
    println!("{out} of 40 choices in the east room");
    assert!(out >= 10, "{out} of 40 choices in the east room");
    // The same place with the head under: as before.
    let under = PlayerState {
        water_level: 3,
        origin: v(320., -100., -40.),
        ..s
    };
    assert!(in_room(&under) >= 10);
}

/// A hall (floor z 0, ceiling z 640) under a pool that floats in its east part (x 0..512,
/// z 352..480, nothing under it but air), beside a ledge in its west part (x −512..0, top
/// z 512) where the explorer starts: walked off, the ledge drops into the pool, which spans
/// the hall's width, so the hall's floor (512 below the ledge) is reached only out of the
/// pool's bottom, as start.map's Nightmare hall is. A rocket launcher lies on it.
fn floating_pool() -> (Level, CollisionMap) {
    let mut b = ledge_over_hall(512., 640.);
    b.solid(v(0., -256., 352.), v(528., 256., 480.), "*water0");
    b.build()
}

#[test]
fn an_explorer_in_a_floating_pool_dives_out_of_its_bottom_to_the_hall_below() {
    let (level, cmap) = floating_pool();
    let mut m = explorer_in(level, cmap, v(-300., 0., 537.));
    let mut swam = false;
    // Five seconds: it dives on getting into the pool (under three), not after planned
    // runs toward the rocket launcher seen through the water (seven without the dive).
    let down = first_tick(&mut m, 5, |m| {
        let s = m.sim.player_state(0).unwrap();
        swam |= s.water_level >= 2;
        s.origin.z < 64.0 && s.on_ground.is_some()
    });
    println!("on the hall's floor at tick {down:?}");
    assert!(swam, "the explorer never got into the pool");
    assert!(down.is_some(), "the explorer never got down to the hall");
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// A pillar (64 by 64, top z 0) in a hall whose floor is 320 lower: deeper than a match bot
/// walks off (200), a fall an explorer takes (Quake's fall costs at most 5 health). From
/// the pillar's top an explorer's choice of where to go is down in the hall, whatever the
/// seed; a bot that explores between fights stays on the pillar; and the movement stage of
/// an exploring bot is tuned to walk that drop.
#[test]
fn an_explorer_chooses_the_drop_into_a_hall_deeper_than_a_match_bot_walks_off() {
    use botarena::bot::explore::{MAX_DROP, VisitMap, choose_target, hazards};
    use botarena::bot::movement::MoveParams;
    use botarena::physics::pmove::PlayerState;
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -336.), v(544., 272., -320.), "floor")
        .solid(v(-528., -272., 256.), v(544., 272., 272.), "ceiling")
        .solid(v(-528., -272., -320.), v(-512., 272., 256.), "wall")
        .solid(v(528., -272., -320.), v(544., 272., 256.), "wall")
        .solid(v(-528., -272., -320.), v(544., -256., 256.), "wall")
        .solid(v(-528., 256., -320.), v(544., 272., 256.), "wall")
        .solid(v(-32., -32., -320.), v(32., 32., 0.), "pillar");
    b.point("info_player_deathmatch", v(0., 0., 25.), &[]);
    let (level, cmap) = b.build();
    let s = PlayerState::at(v(0., 0., 24.03125), 0.0);
    let (graph, visits) = (Default::default(), VisitMap::default());
    let down = |max_drop: f32| {
        (0..40)
            .filter(|seed| {
                let mut rng = botarena::sim::rng::SimRng::new(*seed, 7);
                let (t, item) = choose_target(
                    &cmap,
                    &graph,
                    &visits,
                    &level,
                    &s,
                    &Default::default(),
                    &[],
                    (max_drop, max_drop == MAX_DROP, hazards(0.0), |_| false),
                    &mut rng,
                );
                assert_eq!(item, None);
                t.z < -200.0
            })
            .count()
    };
    assert_eq!(down(MAX_DROP), 40, "an explorer's choice: the hall");
    let keeps = MoveParams::default().max_drop;
    assert_eq!(down(keeps), 0, "a match bot's choice: the corridor");
    let m = explorer_in(level, cmap, v(0., 0., 25.));
    let e = m.sim.players[0].entity;
    let tuned = *m.sim.world.get::<&MoveParams>(e).expect("a bot's tuning");
    assert_eq!(tuned.max_drop, MAX_DROP);
    assert!(
        tuned.hold_edges,
        "an explorer holds ledges' edges when it turns"
    );
    let c = m.sim.world.get::<&botarena::bot::control::Controller>(e);
    let Ok(botarena::bot::control::Controller::Explore(ex)) = c.as_deref() else {
        panic!("an explorer's controller");
    };
    assert!(ex.edge_stops && ex.exploring, "an exploring bot's choices");
}

/// Room A (x −512..0, y −256..256) and room C (x −512..0, y 512..1024) with a thick wall
/// between them; the only way from one to the other is a corridor 128 wide that leaves A
/// eastward, runs north and comes back west into C: some 2,300 units for 700 straight.
fn the_long_way_round() -> (Level, CollisionMap) {
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -16.), v(784., 1040., 0.), "floor");
    b.solid(v(-528., -272., 256.), v(784., 1040., 272.), "ceiling");
    // Outer walls.
    b.solid(v(-528., -272., 0.), v(-512., 1040., 256.), "wall");
    b.solid(v(768., -272., 0.), v(784., 1040., 256.), "wall");
    b.solid(v(-528., -272., 0.), v(784., -256., 256.), "wall");
    b.solid(v(-528., 1024., 0.), v(784., 1040., 256.), "wall");
    // Between the rooms, and the block the corridor runs round.
    b.solid(v(-512., 256., 0.), v(0., 512., 256.), "wall");
    b.solid(v(0., -128., 0.), v(640., 768., 256.), "block");
    // A's east wall north of the corridor's mouth, C's east wall but for its own, and
    // the corridor's far side north of C.
    b.solid(v(0., 896., 0.), v(768., 1024., 256.), "wall");
    b.point("info_player_deathmatch", v(-256., 0., 24.), &[]);
    b.build()
}

#[test]
fn an_explorer_routes_over_the_teams_graph_to_where_nobody_has_been() {
    use botarena::nav::waypoints::Travel;
    let (level, cmap) = the_long_way_round();
    let mut m = explorer_in(level, cmap, v(-256., 0., 25.));
    // What an earlier explorer left: waypoints along the corridor to C's doorway, walked
    // (every cell on the way and in room A visited), C itself unseen.
    const STAND: f32 = botarena::nav::sample::STAND;
    let path = [
        v(-256., 0., STAND),
        v(-64., -192., STAND),
        v(320., -192., STAND),
        v(704., -192., STAND),
        v(704., 320., STAND),
        v(704., 832., STAND),
        v(320., 832., STAND),
        v(64., 832., STAND),
    ];
    {
        let g = m.learned.waypoints_mut();
        let ids: Vec<u32> = path
            .iter()
            .map(|p| g.add(*p, WaypointKind::Normal))
            .collect();
        for w in ids.windows(2) {
            let d = path[w[0] as usize].distance(path[w[1] as usize]);
            g.link(w[0], w[1], d, Travel::Walk, 1.0);
            g.link(w[1], w[0], d, Travel::Walk, 1.0);
        }
    }
    for p in path.windows(2) {
        for k in 0..=16 {
            m.learned.visits.visit(p[0].lerp(p[1], k as f32 / 16.0));
        }
    }
    for x in [-448., -320., -192., -64.] {
        for y in [-192., -64., 64., 192.] {
            m.learned.visits.visit(v(x, y, 24.));
        }
    }
    let mut gated = false;
    let in_c = first_tick(&mut m, 30, |m| {
        gated |= with_explorer(m, |ex| ex.gate.is_some());
        let s = m.sim.player_state(0).unwrap();
        s.origin.y > 512.0 && s.origin.x < 0.0
    });
    println!("in room C at tick {in_c:?}, routed to the frontier: {gated}");
    // The frontier test is the routing stage's own goal test.
    use botarena::bot::explore::{GATE_REACH_CANDIDATES, GATE_REACH_RADIUS};
    use botarena::bot::routing::{PICK_CANDIDATES, PICK_RADIUS};
    assert_eq!(
        (GATE_REACH_CANDIDATES, GATE_REACH_RADIUS),
        (PICK_CANDIDATES, PICK_RADIUS)
    );
    assert!(gated, "the explorer never routed to a frontier point");
    assert!(in_c.is_some(), "the explorer never got to room C");
}

/// An explorer on a ledge (z 0, y 64..256, the length of the shell) above a pit 192 units
/// deep (y −256..64) that nothing climbs back out of: with nobody anywhere yet, its choice
/// of where to go stays on the ledge, whatever the seed: the pit can be dropped into later,
/// the ledge not walked again once it is left for the pit (start.map's ring of ledges round
/// its pit was left for the pit every time).
#[test]
fn an_explorer_on_a_ledge_explores_it_before_dropping_into_the_pit_below() {
    use botarena::physics::pmove::PlayerState;
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -208.), v(544., 272., -192.), "pitfloor")
        .solid(v(-528., 64., -192.), v(544., 272., 0.), "ledge")
        .solid(v(-528., -272., 256.), v(544., 272., 272.), "ceiling")
        .solid(v(-528., -272., -192.), v(-512., 272., 256.), "wall")
        .solid(v(528., -272., -192.), v(544., 272., 256.), "wall")
        .solid(v(-528., -272., -192.), v(544., -256., 256.), "wall")
        .solid(v(-528., 256., 0.), v(544., 272., 256.), "wall");
    b.point("info_player_deathmatch", v(440., 160., 25.), &[]);
    let (level, cmap) = b.build();
    let s = PlayerState::at(v(440., 160., 24.03125), 180.0);
    let pit = pit_choices(&level, &cmap, &s);
    assert_eq!(pit, 0, "of 40 seeds, the pit chosen by {pit}");
}

/// Of 40 seeds, how many an exploring bot at `s` with nothing seen and no graph chooses to
/// go below z −100 (into the pit under the ledges of the tests above and below).
fn pit_choices(
    level: &Level,
    cmap: &CollisionMap,
    s: &botarena::physics::pmove::PlayerState,
) -> usize {
    choices(level, cmap, s)
        .iter()
        .filter(|t| t.z < -100.0)
        .count()
}

/// Where an exploring bot at `s` with nothing seen and no graph chooses to go, for each of
/// 40 seeds.
fn choices(
    level: &Level,
    cmap: &CollisionMap,
    s: &botarena::physics::pmove::PlayerState,
) -> Vec<Vec3> {
    use botarena::bot::explore::{MAX_DROP, VisitMap, choose_target, hazards};
    let (graph, visits) = (Default::default(), VisitMap::default());
    (0..40)
        .map(|seed| {
            let mut rng = botarena::sim::rng::SimRng::new(seed, 7);
            let (t, item) = choose_target(
                cmap,
                &graph,
                &visits,
                level,
                s,
                &Default::default(),
                &[],
                (MAX_DROP, true, hazards(0.0), |_| false),
                &mut rng,
            );
            assert_eq!(item, None);
            t
        })
        .collect()
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

/// A pool floating over a hall (water x 0..384, z 352..480; the hall's floor z 0 under it)
/// with a shelf beside it (x 384..528, top z 160) seen aslant through the pool's open
/// bottom. Out of the bottom a player sinks nearly straight down, so a swimmer anywhere in
/// the pool dives for floor under the water, never for the shelf.
#[test]
fn an_explorer_dives_only_for_floor_under_the_pool_it_swims_in() {
    use botarena::bot::explore::{ButtonGo, Explorer, VisitMap};
    use botarena::physics::pmove::PlayerState;
    let mut b = shell(640.);
    b.solid(v(0., -256., 352.), v(384., 256., 480.), "*water0");
    b.solid(v(384., -256., 0.), v(528., 256., 160.), "shelf");
    b.point("info_player_deathmatch", v(-300., 0., 24.), &[]);
    let (level, cmap) = b.build();
    let visits = VisitMap::default();
    let mut dives = 0;
    for x in [250., 300., 372., 380.] {
        for y in [-200., -100., 0., 100., 200.] {
            let mut s = PlayerState::at(v(x, y, 420.), 0.0);
            s.water_level = 3;
            let mut ex = Explorer::new(s.origin);
            let to = match ex.dive(&cmap, &level, &visits, &s, 0.05) {
                Some(ButtonGo::Walk(req)) => match req.target {
                    botarena::bot::movement::MoveTarget::Point(p) => p,
                    other => panic!("{other:?}"),
                },
                None => continue,
                other => panic!("a dive is walked: {other:?}"),
            };
            dives += 1;
            assert!(
                to.x < 384.0 && to.z < 100.0,
                "from ({x}, {y}) the dive goes for {to:?}, not under the pool"
            );
        }
    }
    assert!(dives > 0, "no swimmer dived");
}

/// Under water the way on is felt from the surface: a swimmer at the bottom of
/// [`flooded_tunnel`]'s pool chooses where to go from where it comes up, not along the
/// bottom (it stayed down there until it drowned).
#[test]
fn an_explorer_under_water_chooses_its_way_from_the_surface() {
    use botarena::bot::explore::{VisitMap, choose_target};
    use botarena::nav::waypoints::WaypointGraph;
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = flooded_tunnel_with(false);
    let visits = VisitMap::default();
    let graph = WaypointGraph::new();
    for seed in 0..20 {
        let mut s = PlayerState::at(v(-64., 0., -130.), 0.0);
        s.water_level = 3;
        let mut rng = botarena::sim::rng::SimRng::new(seed, 1);
        let (to, _) = choose_target(
            &cmap,
            &graph,
            &visits,
            &level,
            &s,
            &Default::default(),
            &[],
            (
                botarena::bot::explore::MAX_DROP,
                true,
                botarena::bot::explore::hazards(0.0),
                |_| false,
            ),
            &mut rng,
        );
        assert!(to.z > -8.0, "seed {seed}: chose {to} down in the pool");
    }
}

/// A hall (floor z 0) with a 64-deep ledge along its east wall (top z 192) and, over the
/// ledge, a button chest high to a player standing on it that opens a door somewhere.
fn button_over_a_ledge() -> (Level, CollisionMap) {
    let mut b = shell(512.);
    b.solid(v(448., -256., 0.), v(528., 256., 192.), "ledge");
    b.brush_entity(
        &[
            ("classname", "func_button"),
            ("angle", "0"),
            ("target", "d1"),
            ("wait", "-1"),
        ],
        &[(v(520., -24., 224.), v(528., 24., 256.), "button")],
    );
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("targetname", "d1"),
        ],
        &[(v(-512., 128., 0.), v(-448., 256., 128.), "door")],
    );
    b.point("info_player_deathmatch", v(-100., 0., 24.), &[]);
    b.build()
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

/// Three spawn points; the team has been round two of them: a dead explorer asks for the
/// third, and the respawn stage puts it there (where it is free).
#[test]
fn a_dead_explorer_comes_back_at_the_spawn_point_its_team_knows_least() {
    use botarena::bot::explore::{VisitMap, least_known_spawn};
    use botarena::sim::components::SpawnWish;
    let mut b = shell(256.);
    for x in [-400., 0., 400.] {
        b.point("info_player_deathmatch", v(x, 0., 24.), &[]);
    }
    let (level, cmap) = b.build();
    let mut visits = VisitMap::default();
    for x in [-400., 0.] {
        visits.visit(v(x, 0., 24.));
    }
    let mut rng = botarena::sim::rng::SimRng::new(1, 1);
    let want = least_known_spawn(&visits, &level, &mut rng).expect("a spawn point");
    assert_eq!(level.spawns[want].origin.x, 400.0);
    // In a match: an explorer killed (given up where it is) comes back at the spawn point
    // nobody has been near, whichever spawn it started at.
    let mut m = common::match_of(
        level,
        cmap,
        2,
        vec![scripted(
            "explorer",
            v(-400., 0., 25.),
            0.,
            ControllerConfig::Explore,
        )],
    );
    for _ in 0..20 {
        m.step();
    }
    let p = m.sim.players[0];
    botarena::game::life::kill(&mut m.sim, p, "stuck", None);
    m.step();
    assert_eq!(
        m.sim.world.get::<&SpawnWish>(p.entity).unwrap().0,
        Some(want),
        "the dead explorer's wish"
    );
    let back = (0..40).find_map(|_| {
        m.step();
        m.sim.events.iter().find_map(|e| match e {
            botarena::sim::SimEvent::Spawn { spot, .. } => Some(*spot),
            _ => None,
        })
    });
    assert_eq!(back, Some(want), "came back at another spawn point");
    assert_eq!(m.sim.world.get::<&SpawnWish>(p.entity).unwrap().0, None);
}

/// Just teleported, an explorer chooses its way afresh where it came out (the target it
/// walked toward is behind it) and tries again the items it had given up on (e1m3's super
/// nailgun, given up on from the floor under its ledge, is in sight at the exit of the
/// teleporter up there); an item it goes for is walked at on the bot's own level, wherever
/// that is now (a target left below read as a way down to the movement stage).
#[test]
fn an_explorer_just_teleported_chooses_afresh_and_walks_at_items_on_its_own_level() {
    use botarena::bot::explore::{Explorer, TARGET_SECONDS, VisitMap};
    use botarena::bot::movement::MoveStatus;
    use botarena::bot::{Percepts, Seen, Thing};
    use botarena::nav::waypoints::WaypointGraph;
    use botarena::physics::pmove::PlayerState;
    use botarena::physics::teleport::TELEPORT_LOCK;
    let (level, cmap) = flooded_tunnel();
    let item = (0..level.items.len())
        .find(|&i| level.items[i].classname == "weapon_rocketlauncher")
        .expect("the rocket launcher");
    let (graph, visits) = (WaypointGraph::new(), VisitMap::default());
    let mut rng = botarena::sim::rng::SimRng::new(1, 1);
    let dt = 0.05;
    let mut step = |ex: &mut Explorer, s: &PlayerState, seen: &Percepts| {
        ex.step(
            &cmap,
            &graph,
            &visits,
            &level,
            s,
            seen,
            &MoveStatus::Moving,
            &mut rng,
            dt,
            None,
        )
    };
    let behind = v(-400., 200., 24.);
    let mut s = PlayerState::at(v(-300., 0., 24.), 0.0);
    s.teleport_time = TELEPORT_LOCK;
    // A bot that explores between fights goes on as it did.
    let mut between = Explorer::new(s.origin);
    between.skip = vec![(item, 10.0)];
    between.target = Some(behind);
    between.timer = 3.0;
    step(&mut between, &s, &Default::default());
    assert_eq!((between.skip.len(), between.target), (1, Some(behind)));
    let mut ex = Explorer {
        exploring: true,
        ..Explorer::new(s.origin)
    };
    ex.skip = vec![(item, 10.0)];
    ex.target = Some(behind);
    ex.timer = 3.0;
    step(&mut ex, &s, &Default::default());
    assert!(ex.skip.is_empty(), "tried again: {:?}", ex.skip);
    assert_ne!(ex.target, Some(behind));
    assert_eq!(ex.timer, TARGET_SECONDS);
    // Later in the teleport's lock the target chosen is kept.
    s.teleport_time = TELEPORT_LOCK - 3.0 * dt;
    ex.target = Some(behind);
    ex.timer = 3.0;
    step(&mut ex, &s, &Default::default());
    assert_eq!(ex.target, Some(behind));
    // Going for the rocket launcher with a target left 500 units below: the item in sight
    // is walked at on the bot's level.
    s.teleport_time = 0.0;
    ex.item = Some(item);
    ex.target = Some(v(700., 0., -476.));
    let seen = Percepts {
        visible: vec![Seen {
            thing: Thing::Item(item),
            pos: v(700., 0., 16.),
            distance: 1000.0,
        }],
        ..Default::default()
    };
    let (req, _) = step(&mut ex, &s, &seen);
    assert_eq!(ex.target, Some(v(700., 0., 24.)));
    assert_eq!(
        req.target,
        botarena::bot::movement::MoveTarget::Point(v(700., 0., 24.))
    );
}

/// An explorer going for an item it sees starts nothing new on the way: a door it passes
/// (or a plat, a teleporter, a button, a dive) waits until the item is marked or given up
/// (e1m3's super nailgun lies a jump from a teleporter's exit: bots that came out and saw
/// it turned for a door in sight below and walked off the exit's ledge).
#[test]
fn an_explorer_going_for_an_item_starts_nothing_new_on_the_way() {
    use botarena::bot::explore::{Explorer, VisitMap, doorways};
    use botarena::bot::movement::MoveStatus;
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = two_rooms(Door::Touch);
    let m = common::match_of(level, cmap, 4, vec![]);
    let views = doorways(&m.sim);
    let here = PlayerState::at(v(-256., 0., 24.), 0.0);
    let visits = VisitMap::default();
    let moving = (&MoveStatus::Moving, (None, false));
    let mut ex = Explorer::new(here.origin);
    ex.item = Some(0);
    assert_eq!(
        ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, 0.05),
        None
    );
    ex.item = None;
    assert!(
        ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, 0.05)
            .is_some()
    );
}

/// Floor on both sides (x < −80, x > 80) of a 160-unit pit with lava in it, a rocket
/// launcher on the far side.
fn lava_pit() -> (Level, CollisionMap) {
    let mut b = common::sealed_room(v(-512., -256., -128.), v(512., 256., 256.));
    b.solid(v(-512., -256., -16.), v(-80., 256., 0.), "floor");
    b.solid(v(80., -256., -16.), v(512., 256., 0.), "floor");
    b.solid(v(-80., -256., -128.), v(80., 256., -64.), "pit");
    b.solid(v(-80., -256., -64.), v(80., 256., -40.), "*lava1");
    b.point("weapon_rocketlauncher", v(216., 0., 0.), &[]);
    b.point("info_player_deathmatch", v(-250., 0., 24.), &[]);
    b.build()
}

/// An explorer blocked by the lava pit on its way to the rocket launcher plans a run over
/// it, and lets go of what it was trying when it does: a doorway walk or a shot door left
/// on would take it back once the run has landed (on e1m3 a run to the super nailgun's
/// ledge landed there, and the doorway walk from before took the bot back off it).
#[test]
fn an_explorer_that_plans_a_run_lets_go_of_what_it_was_trying() {
    use botarena::bot::explore::{Explorer, VisitMap};
    use botarena::bot::movement::{BlockReason, MoveStatus};
    use botarena::nav::waypoints::WaypointGraph;
    let (level, cmap) = lava_pit();
    let item = (0..level.items.len())
        .find(|&i| level.items[i].classname == "weapon_rocketlauncher")
        .expect("the rocket launcher");
    let physics = botarena::physics::pmove::PhysicsParams::default();
    let s = botarena::nav::sample::stand_still(&cmap, &physics, v(-250., 0., 25.));
    let (graph, visits) = (WaypointGraph::new(), VisitMap::default());
    let me = botarena::map::EntId(1);
    let planned = (1..9).find_map(|seed| {
        let mut rng = botarena::sim::rng::SimRng::new(seed, 1);
        let mut ex = Explorer::new(s.origin);
        ex.item = Some(item);
        ex.target = Some(v(216., 0., 24.));
        ex.timer = 3.0;
        ex.activity = Activity::Doorway(0, v(-400., 200., 24.), 5.0);
        ex.door = Some((0, 5.0));
        ex.detour = Some(v(-400., -200., 24.));
        ex.step(
            &cmap,
            &graph,
            &visits,
            &level,
            &s,
            &Default::default(),
            &MoveStatus::Blocked(BlockReason::Hazard),
            &mut rng,
            0.05,
            Some((me, &physics)),
        );
        ex.run.is_some().then_some(ex)
    });
    let ex = planned.expect("a run over the pit on one of eight seeds");
    assert_eq!(ex.item, Some(item));
    assert!(matches!(ex.activity, Activity::Nothing));
    assert!(ex.door.is_none() && ex.detour.is_none());
}

/// A ledge 72 units high (x 200..512) with a rocket launcher on it, and beside its face,
/// off the straight way to the launcher, a crate 36 high (x 120..200, y 96..160): up only
/// by two jumps.
fn crate_and_ledge() -> (Level, CollisionMap) {
    let mut b = shell(256.);
    b.solid(v(200., -256., 0.), v(512., 256., 72.), "ledge");
    b.solid(v(120., 96., 0.), v(200., 160., 36.), "crate");
    b.point("weapon_rocketlauncher", v(320., 0., 72.), &[]);
    b.point("info_player_deathmatch", v(-300., 0., 24.), &[]);
    b.build()
}

/// In a match, the explorer in [`crate_and_ledge`] walks at the rocket launcher it sees,
/// is blocked by the ledge's face, plans a run up by the crate and plays its first command
/// on the tick it planned it, from the state it was planned from (a tick of standing
/// first left the bot where the plan's physics no longer held: e1m3's super shotgun, five
/// barrier jumps up, was marked on 9 of 16 runs before, on all 16 since), and marks the
/// launcher.
#[test]
fn an_explorer_starts_a_planned_run_on_the_tick_it_plans_it() {
    use botarena::bot::control::Controller;
    use botarena::sim::components::Command;
    let (level, cmap) = crate_and_ledge();
    let mut m = explorer_in(level, cmap, v(-300., 0., 25.));
    let e = m.sim.players[0].entity;
    let mut started = None;
    for tick in 0..20 * 20 {
        m.step();
        let c = m.sim.world.get::<&Controller>(e).expect("a controller");
        let Controller::Explore(ex) = &*c else {
            panic!("an explorer");
        };
        if let Some(run) = &ex.run {
            let played = m.sim.world.get::<&Command>(e).expect("a command").0;
            assert!(run.next >= 1, "tick {tick}: the run waits a tick");
            if run.next == 1 {
                assert_eq!(played, run.cmds[0], "tick {tick}: its first command");
                started.get_or_insert(tick);
            }
        }
        drop(c);
        if item_marked(&m) {
            break;
        }
    }
    assert!(started.is_some(), "no run planned");
    assert!(item_marked(&m), "the rocket launcher is not marked");
}

/// start.map's corridor under the floating pool (z −168) is reached only by swimming out of
/// the pool's bottom, and the way on to its Nightmare hall is a 64-unit passage north off
/// its east end, up steps to a teleporter; from the corridor's ledges an explorer sees the
/// pit 192 units below, new to it and nearer, and dropped into it (its only way out
/// teleports back to the start), and the hall, 14 % of the map, was found on half the runs.
/// An explorer about to walk off its level plans a run to the nearest place nobody has been
/// on that level first, and goes up the passage before it drops (seeds 1–6 from the
/// corridor's east end; all six dropped into the pit before).
///
/// The same explorer come to the passage's mouth at a run (280 u/s east, 6 units from the
/// pit's edge, its walk over, the mouth's cells known), as walks arrive: a run planned at
/// that speed there falls whatever it does, so it brakes first and plans standing. Of
/// seeds 1–16 it went up the passage first on 15 (on the other its three plans failed
/// standing too, and it walked off east); without the braking on 11.
#[test]
fn an_explorer_about_to_drop_off_its_level_runs_to_where_nobody_has_been_on_it_first() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let mut passages_running = 0;
    for (seed, running) in (1..=6)
        .map(|s| (s, false))
        .chain((1..=16).map(|s| (s, true)))
    {
        let at = if running {
            v(1546., 1935., -167.)
        } else {
            v(1400., 1905., -167.)
        };
        let mut m = common::explorer_on(&dir, "start", seed, at, 90.);
        // The corridor is known; the passage north (y 1936..2096) and the pit are not.
        for x in [1216., 1344., 1472.] {
            for y in [1600., 1728., 1856.] {
                m.learned.visits.visit(v(x, y, -168.));
            }
        }
        if running {
            // It has been at the passage's mouth too: what is left on its level lies up
            // the passage and along the way at its top, 500 units west.
            for (x, y) in [(1504., 1984.), (1600., 1856.), (1600., 1984.)] {
                m.learned.visits.visit(v(x, y, -168.));
            }
        }
        if running {
            // On the floor first (a placed player is not yet), then coming along it at
            // a run with its walk over.
            m.step();
            let e = m.sim.players[0].entity;
            m.sim
                .world
                .get::<&mut botarena::sim::components::Motion>(e)
                .expect("a body")
                .0
                .velocity = v(280., -20., 0.);
            let mut c = m
                .sim
                .world
                .get::<&mut botarena::bot::control::Controller>(e)
                .expect("a controller");
            let botarena::bot::control::Controller::Explore(ex) = &mut *c else {
                panic!("an explorer");
            };
            ex.target = None;
            ex.run = None;
        }
        let mut outcome = None;
        for tick in 0..30 * 20 {
            m.step();
            let o = m.sim.player_state(0).unwrap().origin;
            if o.y > 1990. && o.z > -200. {
                outcome = Some(("passage", tick));
                break;
            }
            if o.z < -300. {
                outcome = Some(("pit", tick));
                break;
            }
        }
        println!("seed {seed}, running {running}: {outcome:?}");
        if running {
            passages_running += usize::from(outcome.is_some_and(|o| o.0 == "passage"));
        } else {
            assert_eq!(
                outcome.map(|o| o.0),
                Some("passage"),
                "seed {seed}: up the passage before the pit"
            );
        }
    }
    assert!(
        passages_running >= 15,
        "at a run, up the passage first on {passages_running} of 16 seeds"
    );
}

/// [`liquid_tunnel`] of slime, a tunnel 96 high (the wall comes down to z −64). A biosuit
/// lies in the west room, with `suit`; a rocket launcher in the east room.
fn slime_tunnel(suit: bool) -> (Level, CollisionMap) {
    let mut b = liquid_tunnel("*slime0", -64.);
    if suit {
        b.point("item_artifact_envirosuit", v(-300., 0., 0.), &[]);
    }
    b.point("weapon_rocketlauncher", v(700., 0., 0.), &[]);
    b.build()
}

/// A swimmer in [`slime_tunnel`]'s west pool, come from the west room, searches the slime
/// for where nobody has swum under a roof (the tunnel, not the pool open to the air, which
/// is seen from its banks), and with nothing new left, for an opening with land beside it
/// (the east pool); openings risen to before are not gone to again, but for a swimmer
/// running out of the biosuit.
#[test]
fn a_swimmer_in_slime_finds_the_tunnel_under_the_roof_and_the_opening_beyond() {
    use botarena::bot::explore::{SlimeWay, VisitMap, slime_way};
    use botarena::physics::pmove::PlayerState;
    let (_, cmap) = slime_tunnel(false);
    let s = PlayerState::at(v(-64., 0., -40.), 0.0);
    // The west room is where the swimmer came from.
    let mut visits = VisitMap::default();
    for x in [-400., -200., -100.] {
        for y in [-100., 100.] {
            visits.visit(v(x, y, 24.));
        }
    }
    let way = slime_way(&cmap, &visits, &s, (&[], &[]), false);
    let Some(SlimeWay::Swim(to, _)) = way else {
        panic!("no way into the tunnel: {way:?}");
    };
    // Down under the edge of the roof, then on under it.
    assert!(to.x > s.origin.x && to.z < -64.0, "toward the tunnel: {to}");
    let on = PlayerState::at(to, 0.0);
    let Some(SlimeWay::Swim(to, _)) = slime_way(&cmap, &visits, &on, (&[], &[]), false) else {
        panic!("no way on under the roof");
    };
    assert!(to.x >= 0.0 && to.z < -64.0, "under the roof: {to}");
    // The tunnel swum (its cells and those of the pools), the east pool is the way on,
    // risen to from below it.
    let mut swum = VisitMap::default();
    for (x, y, z) in [-64., 64., 192., 320.]
        .into_iter()
        .flat_map(|x| [-200., -100., 0., 100., 200.].map(|y| (x, y)))
        .flat_map(|(x, y)| [-140., -100., -20.].map(|z| (x, y, z)))
    {
        swum.visit(v(x, y, z));
        swum.visit_wet(v(x, y, z));
    }
    let under = PlayerState::at(v(320., 0., -120.), 0.0);
    match slime_way(&cmap, &swum, &under, (&[], &[]), false) {
        Some(SlimeWay::Rise(top, land)) => {
            assert!(top.x > 256.0 && top.z > 0.0, "rises at {top}");
            assert!(land.x > 384.0 && land.z > 0.0, "walks out onto {land}");
        }
        Some(SlimeWay::Swim(to, _)) => assert!(to.x > 256.0, "swims on to {to}"),
        None => panic!("no opening found"),
    }
    // Openings risen to before (every cell of both pools' surfaces) are not gone to again:
    // with nothing new either, there is nowhere to go.
    let surfaced: Vec<(i32, i32, i32)> = (-1..=3)
        .flat_map(|x| (-2..=1).map(move |y| (x, y, 0)))
        .collect();
    assert_eq!(
        slime_way(&cmap, &swum, &under, (&[], &surfaced), false),
        None
    );
    // Running out of the suit in the tunnel, the nearest opening is the way out, risen to
    // before or not.
    let mid = PlayerState::at(v(200., 0., -120.), 0.0);
    assert!(slime_way(&cmap, &swum, &mid, (&[], &surfaced), true).is_some());
}

/// In the biosuit an explorer goes into slime and swims through [`slime_tunnel`] to the
/// room beyond and its rocket launcher (e1m1's invulnerability lies past such a tunnel);
/// without it, it never goes into slime.
#[test]
fn an_explorer_in_the_biosuit_swims_a_tunnel_of_slime_and_one_without_keeps_out() {
    use botarena::map::Contents;
    for suit in [true, false] {
        let (level, cmap) = slime_tunnel(suit);
        let mut m = explorer_in(level, cmap, v(-300., 0., 25.));
        // Ticks swimming in slime (waist deep or more): one without the suit may slip in
        // at the edge of a pool level with the floor, and gets out.
        let mut swam = 0;
        let beyond = first_tick(&mut m, 40, |m| {
            let s = m.sim.player_state(0).unwrap();
            swam += (s.water_level >= 2 && s.water_type.intersects(Contents::SLIME)) as u32;
            s.origin.x > 400.0 && s.origin.z > 0.0
        });
        println!("biosuit {suit}: in the east room at tick {beyond:?}, {swam} ticks in slime");
        assert_eq!(beyond.is_some(), suit);
        assert_eq!(item_marked(&m), suit);
        assert_eq!(swam > 20, suit);
    }
}

/// e1m1's invulnerability lies behind a teleporter in a room reached only through a
/// tunnel of slime from under the biosuit's ledge: four explorers (seed 1) mark it (on 31
/// of seeds 0-31; on seed 0 the one explorer that takes the biosuit finds no slime to go
/// into while it lasts).
#[test]
fn explorers_on_e1m1_swim_its_slime_tunnel_in_the_biosuit_to_the_invulnerability() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let m = common::explorers_on_map(&dir, "e1m1", 1);
    let invulnerability = m
        .sim
        .level
        .items
        .iter()
        .position(|it| it.classname == "item_artifact_invulnerability")
        .expect("e1m1 has an invulnerability");
    assert!(
        m.learned.waypoints.item_waypoint(invulnerability).is_some(),
        "the invulnerability is not marked"
    );
}
