//! Bots on the compiled area graph (`navigation = "compiled"`, issue: routing, bots and
//! lint on the area graph): item tours on dm4 and dm6 over seeds 1–10 reach every weapon,
//! armour and powerup; the times the bots take beside the graph's predictions; the same
//! hashes for any thread count; the scenario keys and their bad input.
//!
//! Files: this one (the helpers, maps and tours several subjects share), `tours`,
//! `scenario`, `hearing`, `doors`, `e1m1`, `runs`, `following`.

#[path = "../common/mod.rs"]
mod common;

mod doors;
mod e1m1;
mod following;
mod hatch;
mod hearing;
mod runs;
mod scenario;
mod tours;

use std::sync::Arc;

use botarena::aas::{CompileParams, NavMesh, compile};
use botarena::bot::compiled::{AreaNav, Navigation};
use botarena::map::{MapData, build_level};
use botarena::scenario::Scenario;
use botarena::scenario::tour::{CompiledStop, tour_compiled, tour_items};
use common::{TempDir, quake_maps, root, shipped};

fn tour_all(
    name: &str,
    seeds: std::ops::RangeInclusive<u64>,
) -> Option<Vec<(u64, Vec<CompiledStop>)>> {
    let dir = quake_maps()?;
    let (level, cmap) =
        build_level(MapData::load(&dir.join(format!("{name}.map"))).expect("id map loads"));
    let mesh =
        Arc::new(compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap());
    let items = tour_items(&level, &cmap);
    let level = Arc::new(level);
    Some(
        seeds
            .map(|seed| {
                let stops = tour_compiled(
                    Arc::clone(&level),
                    cmap.clone(),
                    Arc::clone(&mesh),
                    &items,
                    seed,
                    60.0,
                    |_, _| {},
                )
                .expect("tour match");
                (seed, stops)
            })
            .collect(),
    )
}

/// e1m1 (from ../shared/quake-maps; `None` where it is absent) and its compiled graph.
fn e1m1_compiled() -> Option<(botarena::map::Level, botarena::map::CollisionMap, NavMesh)> {
    let dir = quake_maps()?;
    let (level, cmap) = build_level(MapData::load(&dir.join("e1m1.map")).expect("e1m1 loads"));
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    Some((level, cmap, mesh))
}

/// A match on e1m1's `level` with one idle compiled-navigation bot, at `start` (origin,
/// yaw) or at the spawn point `spawn`.
fn one_compiled_bot(
    level: botarena::map::Level,
    cmap: botarena::map::CollisionMap,
    mesh: Arc<NavMesh>,
    spawn: Option<usize>,
    start: Option<(glam::Vec3, f32)>,
) -> botarena::tick::Match {
    use botarena::bot::control::ControllerConfig;
    use botarena::tick::{Match, MatchConfig, PlayerConfig};
    let mut cfg = MatchConfig::new(
        1,
        vec![PlayerConfig {
            name: "bot".into(),
            controller: ControllerConfig::Idle,
            spawn,
            start,
            senses: Default::default(),
            navigation: Navigation::Compiled,
        }],
    );
    cfg.nav = Some(mesh);
    Match::new(Arc::new(level), cmap, &cfg).unwrap()
}

/// Tours by seed: each seed's stops.
type Tours = Vec<(u64, Vec<CompiledStop>)>;

/// e1m1's tours on seeds 1–2, run once for the tests that read them.
fn e1m1_tours() -> Option<&'static [(u64, Vec<CompiledStop>)]> {
    static TOURS: std::sync::OnceLock<Option<Tours>> = std::sync::OnceLock::new();
    TOURS.get_or_init(|| tour_all("e1m1", 1..=2)).as_deref()
}

/// Asserts the leg to `label` was reached within 10 % of its predicted time on every tour.
fn leg_within(tours: &[(u64, Vec<CompiledStop>)], label: &str) {
    leg_within_share(tours, label, 0.1);
}

/// Asserts the leg to `label` was reached within `share` of its predicted time on every
/// tour.
fn leg_within_share(tours: &[(u64, Vec<CompiledStop>)], label: &str, share: f32) {
    for (seed, stops) in tours {
        let stop = stops
            .iter()
            .find(|s| s.item.label == label)
            .unwrap_or_else(|| panic!("{label} is toured"));
        let ratio = stop.ratio().expect("reached, with a prediction");
        println!("seed {seed}, {label}: ratio {ratio:.2}");
        assert!(
            (1.0 - share..=1.0 + share).contains(&ratio),
            "seed {seed}, {label}: took {:?} s, predicted {:?} s",
            stop.reached_after,
            stop.predicted
        );
    }
}

fn scenario(dir: &TempDir, text: &str) -> Result<Scenario, String> {
    let p = dir.join("s/test.toml");
    std::fs::write(&p, text).unwrap();
    Scenario::load(&p).map_err(|e| e.to_string())
}

const HEAD: &str = "map = \"../maps/arena.map\"\nseed = 3\nthreads = 1\n";

/// Two rooms side by side, a wall between them, joined only by a way round through a hall
/// to the north (about 1,900 units): a listener in one and a speaker in the other, 288
/// units apart in a straight line.
fn two_rooms(listener_model: botarena::bot::hearing::HearingModel) -> botarena::tick::Match {
    use botarena::bot::Senses;
    use botarena::bot::control::ControllerConfig;
    use botarena::tick::{Match, MatchConfig, PlayerConfig};
    use glam::Vec3;
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(544., 832., 128.));
    b
        // Between the two corridors north of the rooms, and between the rooms.
        .solid(v(64., 256., 0.), v(480., 768., 128.), "BLOCK")
        .solid(v(256., 0., 0.), v(288., 256., 128.), "WALL")
        .point("info_player_deathmatch", v(128., 128., 24.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let player = |name: &str, at: Vec3, model| PlayerConfig {
        name: name.into(),
        controller: ControllerConfig::Idle,
        spawn: None,
        start: Some((at, 0.0)),
        senses: Senses {
            hearing_model: model,
            ..Default::default()
        },
        navigation: Default::default(),
    };
    let mut cfg = MatchConfig::new(
        1,
        vec![
            player("listener", v(128., 128., 24.), listener_model),
            player("speaker", v(416., 128., 24.), Default::default()),
        ],
    );
    cfg.nav = Some(Arc::new(mesh));
    Match::new(Arc::new(level), cmap, &cfg).unwrap()
}

/// Two rooms (x 0..504 and 520..1024) split by a wall whose doorway (y 200..312) a gate
/// named "gate" fills, a button on the first room's west wall firing `target`, and a
/// deathmatch spawn in the first room.
fn gated_rooms(target: &str) -> botarena::map::builder::MapBuilder {
    let v = glam::Vec3::new;
    // Pressed westward.
    gated_rooms_with((v(0., 432., 32.), v(8., 464., 64.)), "180", target)
}

/// [`gated_rooms`] with the button's box and `angle` (the way it is pushed) given.
fn gated_rooms_with(
    (lo, hi): (glam::Vec3, glam::Vec3),
    angle: &str,
    target: &str,
) -> botarena::map::builder::MapBuilder {
    let v = glam::Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 512., 128.));
    b.solid(v(504., 0., 0.), v(520., 200., 128.), "WALL")
        .solid(v(504., 312., 0.), v(520., 512., 128.), "WALL")
        .brush_entity(
            &[
                ("classname", "func_door"),
                ("angle", "-1"),
                ("targetname", "gate"),
                ("wait", "-1"),
            ],
            &[(v(504., 200., 0.), v(520., 312., 128.), "DOOR")],
        )
        .brush_entity(
            &[
                ("classname", "func_button"),
                ("angle", angle),
                ("target", target),
            ],
            &[(lo, hi, "BUTTON")],
        )
        .point("info_player_deathmatch", v(300., 100., 24.), &[]);
    b
}

/// A built map's only toured item (`what`, for the message), toured from seed 1's spawn
/// for up to 30 s on the map's compiled graph: its stop.
fn tour_the_one_item(
    level: botarena::map::Level,
    cmap: botarena::map::CollisionMap,
    what: &str,
) -> CompiledStop {
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let items = tour_items(&level, &cmap);
    assert_eq!(items.len(), 1, "{what} is toured");
    tour_compiled(
        Arc::new(level),
        cmap,
        Arc::new(mesh),
        &items,
        1,
        30.0,
        |_, _| {},
    )
    .expect("tour match")
    .remove(0)
}

/// Gives the match's one bot a route controller to `goal`.
fn route_to(m: &mut botarena::tick::Match, goal: glam::Vec3) {
    let e = m.sim.players[0].entity;
    m.sim
        .world
        .insert_one(e, botarena::bot::control::Controller::Route { goal })
        .unwrap();
}

/// What [`bridge_run`] saw: the tick the bridge's button was pressed, the tick the secret
/// door was fired, the westmost x after the press, shots fired till the door was.
struct BridgeRun {
    pressed: Option<u64>,
    fired: Option<u64>,
    westmost: f32,
    shots: u32,
}

/// One compiled bot on e1m1 from `start` (facing east) routed to the second super shotgun
/// behind the secret door (mover 23) a trigger shot from the bridge (mover 7) opens, the
/// bridge slid out first and the bot started once it is where `bridge_out`, for up to 20 s
/// or until the door is fired.
fn bridge_run(start: glam::Vec3, bridge_out: bool) -> Option<BridgeRun> {
    use botarena::physics::movers::Phase;
    let (bridge, door) = (7, 23);
    let goal = glam::Vec3::new(-360.0, 2912.0, -55.97);
    let mut m = e1m1_placed(start, glam::Vec3::ZERO, goal, bridge_out)?;
    assert_eq!(m.sim.level.movers[door].targetname.as_deref(), Some("t18"));
    let phase = |m: &botarena::tick::Match, i: usize| m.sim.mover_state(i).map(|s| s.phase);
    let mut run = BridgeRun {
        pressed: None,
        fired: None,
        westmost: f32::MAX,
        shots: 0,
    };
    for _ in 0..400 {
        m.step();
        let s = m.sim.player_state(0).unwrap();
        if run.pressed.is_none() && phase(&m, bridge) != Some(Phase::AtA) {
            run.pressed = Some(m.sim.tick);
        }
        if run.pressed.is_some() {
            run.westmost = run.westmost.min(s.origin.x);
        }
        if phase(&m, door) != Some(Phase::AtA) {
            run.fired = Some(m.sim.tick);
            break;
        }
    }
    run.shots = m.sim.player_stats(0).map_or(0, |s| s.shots);
    println!(
        "pressed at {:?}, the door fired at {:?}, {} shots, westmost after the press x {:.0}",
        run.pressed, run.fired, run.shots, run.westmost
    );
    Some(run)
}

/// A match on e1m1 with one compiled bot routed to `goal`, put at `start` moving at
/// `velocity` once e1m1's bridge (mover 7) has slid out over the slime `if bridge_out`
/// (sliding out, it pushes a bot on its edge); `None` where e1m1 is absent.
fn e1m1_placed(
    start: glam::Vec3,
    velocity: glam::Vec3,
    goal: glam::Vec3,
    bridge_out: bool,
) -> Option<botarena::tick::Match> {
    use botarena::physics::movers::Phase;
    let (level, cmap, mesh) = e1m1_compiled()?;
    let bridge = 7;
    assert_eq!(level.movers[bridge].targetname.as_deref(), Some("t2"));
    let mut m = one_compiled_bot(level, cmap, Arc::new(mesh), None, Some((start, 0.0)));
    if bridge_out {
        botarena::game::movers::fire_targets(&mut m.sim, "t2");
        while m.sim.mover_state(bridge).map(|s| s.phase) != Some(Phase::AtB) {
            m.step();
        }
    }
    route_to(&mut m, goal);
    if let Ok(mut mo) = m
        .sim
        .world
        .get::<&mut botarena::sim::components::Motion>(m.sim.players[0].entity)
    {
        mo.0.origin = start;
        mo.0.velocity = velocity;
    }
    Some(m)
}

/// A room (floor z 0) with a balcony (top z 192) along its east side, reached only by a plat
/// beside it and then through a door across the balcony's edge (opening upward for 3.7 s),
/// which a trigger low in the west half of the plat's shaft fires (as e1m1's secret door at
/// the top of the quad's lift): the rider fires the door on the way up and waits at the top
/// for the rest of its opening. A rocket launcher lies on the balcony.
fn plat_to_a_triggered_door() -> (botarena::map::Level, botarena::map::CollisionMap) {
    let v = glam::Vec3::new;
    let mut b = common::sealed_room(v(-512., -256., 0.), v(528., 256., 384.));
    b.solid(v(208., -256., 0.), v(528., 256., 192.), "BALCONY")
        .brush_entity(
            &[("classname", "func_plat")],
            &[(v(80., -64., 0.), v(208., 64., 192.), "PLAT")],
        )
        .brush_entity(
            &[
                ("classname", "func_door"),
                ("angle", "-1"),
                ("targetname", "top"),
                ("speed", "50"),
            ],
            &[(v(208., -256., 192.), v(224., 256., 384.), "DOOR")],
        )
        .brush_entity(
            &[("classname", "trigger_multiple"), ("target", "top")],
            &[(v(80., -64., 100.), v(150., 64., 116.), "TRIGGER")],
        )
        .point("weapon_rocketlauncher", v(400., 0., 192.), &[])
        .point("info_player_deathmatch", v(-300., 0., 24.), &[]);
    b.build()
}
