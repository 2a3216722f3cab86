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
//!
//! Files: this one (the helpers and the maps several subjects share), `doors`, `lifts`,
//! `teleporters`, `water`, `choices` (where an explorer goes next).

#[path = "../common/mod.rs"]
mod common;

mod choices;
mod doors;
mod lifts;
mod teleporters;
mod water;

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

/// A hall `height` high (floor z 0) with a ledge in its west part (x −512..0, top z
/// `top`) where a spawn point stands, and a rocket launcher on the hall's floor at x 300.
fn ledge_over_hall(top: f32, height: f32) -> MapBuilder {
    let mut b = shell(height);
    b.solid(v(-512., -256., 0.), v(0., 256., top), "ledge");
    b.point("weapon_rocketlauncher", v(300., 0., 0.), &[]);
    b.point("info_player_deathmatch", v(-300., 0., top + 24.), &[]);
    b
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
