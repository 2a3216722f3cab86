//! The tick loop on the shipped arena (maps/arena.map): movers, teleporters, items, damage,
//! respawn, and determinism of the state hash.

mod common;

use botarena::bot::control::ControllerConfig;
use botarena::bot::control::ScriptStep;
use botarena::physics::movers::Phase;
use botarena::scenario::Scenario;
use botarena::sim::SimEvent;
use botarena::tick::Match;
use common::{match_on, root, scripted};
use glam::Vec3;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn hold(ticks: u32, forward: f32, yaw: f32) -> ScriptStep {
    ScriptStep {
        ticks,
        forward,
        side: 0.0,
        up: 0.0,
        yaw,
        pitch: 0.0,
        jump: false,
        fire: false,
        weapon: None,
    }
}

fn run(m: &mut Match, ticks: usize) -> Vec<SimEvent> {
    let mut all = Vec::new();
    for _ in 0..ticks {
        m.step();
        all.extend(m.sim.events.iter().cloned());
    }
    all
}

fn hashes(path: &str, ticks: usize) -> Vec<u64> {
    let sc = Scenario::load(&root().join(path)).unwrap();
    let mut m = sc.build().unwrap();
    (0..ticks)
        .map(|_| {
            m.step();
            m.state_hash()
        })
        .collect()
}

#[test]
fn same_scenario_same_hash_at_every_tick() {
    let a = hashes("scenarios/default.toml", 1200);
    let b = hashes("scenarios/default.toml", 1200);
    assert_eq!(a, b);
    // The hash follows the state: it changes as players move.
    assert!(a.windows(2).filter(|w| w[0] != w[1]).count() > 1000);
}

#[test]
fn another_seed_gives_another_run() {
    let sc = Scenario::load(&root().join("scenarios/default.toml")).unwrap();
    let mut cfg = sc.match_config();
    let mut build = |seed| {
        cfg.seed = seed;
        let (level, cmap) = common::shipped("arena");
        Match::new(std::sync::Arc::new(level), cmap, &cfg).unwrap()
    };
    let (mut a, mut b) = (build(1), build(2));
    run(&mut a, 200);
    run(&mut b, 200);
    assert_ne!(a.state_hash(), b.state_hash());
}

#[test]
fn plat_carries_a_player_up_and_returns_when_left() {
    // Stand on the lowered plat (top at z = 8), wait for the ride, then walk east onto the
    // balcony (z = 128).
    let steps = vec![hold(50, 0.0, 0.0), hold(30, 320.0, 0.0)];
    let mut m = match_on(
        "arena",
        1,
        vec![scripted(
            "rider",
            v(304., 0., 8. + 25.),
            0.,
            ControllerConfig::Script(steps),
        )],
    );
    assert_eq!(m.sim.mover_state(0).unwrap().phase, Phase::AtA);
    let ev = run(&mut m, 2);
    assert!(
        ev.iter().any(|e| matches!(e, SimEvent::MoverStart { .. })),
        "standing on it starts it"
    );
    run(&mut m, 30);
    // 120 units at 150 u/s: at the top after 0.8 s.
    let s = m.sim.player_state(0).unwrap();
    assert!(
        (s.origin.z - (128.0 + 24.0)).abs() < 0.2,
        "rode up: {:?}",
        s.origin
    );
    assert_eq!(m.sim.mover_state(0).unwrap().phase, Phase::AtB);
    assert!(m.sim.player_stats(0).unwrap().ticks_on_mover > 5);
    run(&mut m, 48);
    let s = m.sim.player_state(0).unwrap();
    assert!(
        s.origin.x > 380.0 && (s.origin.z - 152.0).abs() < 0.2,
        "on the balcony: {:?}",
        s.origin
    );
    // Three seconds at the top, then 0.8 s down.
    run(&mut m, 100);
    let m = m.sim.mover_state(0).unwrap();
    assert_eq!(m.phase, Phase::AtA);
    assert!((m.offset.z - -120.0).abs() < 1e-3);
}

#[test]
fn door_opens_for_a_player_and_closes_after() {
    // The door (x -64..64, y -524..-516) rises 120 units; walk south through it.
    let steps = vec![hold(60, 320.0, 270.0)];
    let mut m = match_on(
        "arena",
        1,
        vec![scripted(
            "walker",
            v(0., -200., 25.),
            270.,
            ControllerConfig::Script(steps),
        )],
    );
    let door = m
        .sim
        .level
        .movers
        .iter()
        .position(|m| m.classname == "func_door")
        .unwrap();
    run(&mut m, 5);
    assert_eq!(
        m.sim.mover_state(door).unwrap().phase,
        Phase::AtA,
        "closed while nobody is near"
    );
    run(&mut m, 55);
    let s = m.sim.player_state(0).unwrap();
    assert!(
        s.origin.y < -560.0,
        "walked through the doorway: {:?}",
        s.origin
    );
    // wait 2 s after opening, then it closes again.
    run(&mut m, 120);
    let m = m.sim.mover_state(door).unwrap();
    assert_eq!(m.phase, Phase::AtA);
    assert_eq!(m.offset, Vec3::ZERO);
}

#[test]
fn closed_door_blocks() {
    let mut m = match_on(
        "arena",
        1,
        vec![scripted(
            "idle",
            v(0., -200., 25.),
            0.,
            ControllerConfig::Idle,
        )],
    );
    run(&mut m, 1);
    let t = m.sim.cmap.trace_ray(
        v(0., -400., 64.),
        v(0., -700., 64.),
        botarena::Contents::MASK_SIGHT,
        None,
    );
    assert!((t.end_pos.y - -516.0).abs() < 0.1, "{:?}", t.end_pos);
    assert_eq!(t.ent, Some(m.sim.level.movers[1].id));
}

#[test]
fn teleporter_moves_turns_and_pushes() {
    let steps = vec![hold(40, 320.0, 180.0)];
    let mut m = match_on(
        "arena",
        1,
        vec![scripted(
            "jumper",
            v(-300., 0., 25.),
            180.,
            ControllerConfig::Script(steps),
        )],
    );
    let mut tele_tick = None;
    for t in 0..40 {
        m.step();
        if m.sim
            .events
            .iter()
            .any(|e| matches!(e, SimEvent::Teleport { .. }))
        {
            tele_tick = Some(t);
            break;
        }
    }
    assert!(tele_tick.is_some(), "reached the teleporter");
    let s = m.sim.player_state(0).unwrap();
    assert_eq!(s.origin, v(400., -800., 27.));
    assert_eq!(s.yaw, 180.0);
    assert!(
        (s.velocity - v(-300., 0., 0.)).length() < 1e-3,
        "{:?}",
        s.velocity
    );
    assert!(s.teleport_time > 0.0);
    assert_eq!(m.sim.player_stats(0).unwrap().teleports, 1);
}

#[test]
fn teleport_destination_telefrags() {
    let steps = vec![hold(40, 320.0, 180.0)];
    let mut m = match_on(
        "arena",
        1,
        vec![
            scripted(
                "jumper",
                v(-300., 0., 25.),
                180.,
                ControllerConfig::Script(steps),
            ),
            scripted("victim", v(400., -800., 25.), 0., ControllerConfig::Idle),
        ],
    );
    let ev = run(&mut m, 40);
    assert!(ev.iter().any(|e| matches!(
        e,
        SimEvent::Death {
            cause: "telefrag",
            ..
        }
    )));
    assert_eq!(m.sim.player_stats(1).unwrap().deaths, 1);
}

#[test]
fn items_are_picked_up_and_respawn_on_quake_times() {
    // Proving lane 1 ends with shells (ammo: 30 s) on the 18-unit step.
    let steps = vec![hold(120, 320.0, 0.0)];
    let mut m = match_on(
        "proving",
        1,
        vec![scripted(
            "runner",
            v(64., 352., 25.),
            0.,
            ControllerConfig::Script(steps),
        )],
    );
    let shells = m
        .sim
        .level
        .items
        .iter()
        .position(|i| i.classname == "item_shells")
        .unwrap();
    let mut picked_at = None;
    for t in 0..200 {
        m.step();
        if m.sim
            .events
            .iter()
            .any(|e| matches!(e, SimEvent::Pickup { item, .. } if item == "item_shells"))
        {
            picked_at = Some(t);
            break;
        }
    }
    assert!(picked_at.is_some(), "picked up the shells");
    assert_eq!(m.sim.item_available(shells), Some(false));
    // Walk away so that it is not taken again the moment it is back.
    m.sim
        .world
        .insert_one(
            m.sim.players[0].entity,
            botarena::bot::control::Controller::Script {
                steps: vec![hold(100, 320.0, 180.0)],
                index: 0,
                done: 0,
            },
        )
        .unwrap();
    run(&mut m, 30 * 20 - 2);
    assert_eq!(
        m.sim.item_available(shells),
        Some(false),
        "still away before 30 s"
    );
    run(&mut m, 2);
    assert_eq!(m.sim.item_available(shells), Some(true), "back after 30 s");
}

#[test]
fn health_is_left_for_the_wounded() {
    // Proving lane 3's health pack: at full health the runner leaves it (run the 200 gap).
    let steps = vec![
        hold(28, 320.0, 0.0),
        ScriptStep {
            jump: true,
            fire: false,
            weapon: None,
            ..hold(1, 320.0, 0.0)
        },
        hold(120, 320.0, 0.0),
    ];
    let mut m = match_on(
        "proving",
        1,
        vec![scripted(
            "runner",
            v(64., 864., 25.),
            0.,
            ControllerConfig::Script(steps),
        )],
    );
    let ev = run(&mut m, 150);
    assert!(m.sim.player_state(0).unwrap().origin.x > 1850.0);
    assert!(!ev.iter().any(|e| matches!(e, SimEvent::Pickup { .. })));
}

#[test]
fn lava_kills_and_the_player_respawns() {
    // Drop into the arena's lava pit (x -256..-128, y 128..320).
    let mut m = match_on(
        "arena",
        3,
        vec![scripted(
            "unlucky",
            v(-192., 224., 40.),
            0.,
            ControllerConfig::Idle,
        )],
    );
    let ev = run(&mut m, 100);
    let death = ev
        .iter()
        .position(|e| matches!(e, SimEvent::Death { cause: "lava", .. }));
    assert!(death.is_some(), "died in lava: {ev:?}");
    let spawn = ev
        .iter()
        .skip(death.unwrap())
        .any(|e| matches!(e, SimEvent::Spawn { .. }));
    assert!(spawn, "respawned");
    let v = m.sim.player_vitals(0).unwrap();
    assert!(v.alive && v.health == 100.0);
    let st = m.sim.player_stats(0).unwrap();
    assert_eq!(st.deaths, 1);
    assert!(st.damage_taken >= 100.0);
    let s = m.sim.player_state(0).unwrap();
    assert!(
        m.sim
            .level
            .spawns
            .iter()
            .any(|sp| (sp.origin.truncate() - s.origin.truncate()).length() < 1.0),
        "at a spawn point"
    );
}

#[test]
fn players_spawn_on_distinct_free_points() {
    let players = (0..4)
        .map(|i| botarena::tick::PlayerConfig {
            name: format!("p{i}"),
            controller: ControllerConfig::Idle,
            spawn: None,
            start: None,
            senses: Default::default(),
            navigation: Default::default(),
        })
        .collect();
    let m = match_on("arena", 9, players);
    let mut spots: Vec<[i32; 3]> = (0..4)
        .map(|i| m.sim.player_state(i).unwrap().origin.as_ivec3().to_array())
        .collect();
    spots.sort();
    spots.dedup();
    assert_eq!(spots.len(), 4);
}

#[test]
fn train_follows_its_corners_and_carries_a_rider() {
    let mut m = match_on(
        "arena",
        1,
        vec![scripted(
            "rider",
            v(128., -668., 41.),
            0.,
            ControllerConfig::Idle,
        )],
    );
    let train = m
        .sim
        .level
        .movers
        .iter()
        .position(|m| m.classname == "func_train")
        .unwrap();
    assert_eq!(
        m.sim.mover_state(train).unwrap().offset,
        v(96., -700., 0.),
        "starts at its first corner"
    );
    // 0.1 s start delay, then 200 units at 100 u/s.
    run(&mut m, 2 + 40);
    let train_state = m.sim.mover_state(train).unwrap();
    assert_eq!(train_state.offset, v(296., -700., 0.));
    assert_eq!(train_state.phase, Phase::TrainWaiting);
    let s = m.sim.player_state(0).unwrap();
    assert!(
        (s.origin.x - 328.0).abs() < 0.5 && (s.origin.z - 40.03).abs() < 0.1,
        "carried: {:?}",
        s.origin
    );
    // Waits 1 s, then goes back.
    run(&mut m, 20 + 41);
    assert_eq!(m.sim.mover_state(train).unwrap().offset, v(96., -700., 0.));
    assert!((m.sim.player_state(0).unwrap().origin.x - 128.0).abs() < 0.5);
}

#[test]
fn a_button_opens_the_door_it_targets_on_e1m1() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let (level, cmap) = common::quake_map(&dir, "e1m1");
    let (bi, button, di) = level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| m.classname == "func_button")
        .find_map(|(bi, b)| {
            let t = b.target.as_deref()?;
            let di = level
                .movers
                .iter()
                .position(|d| d.classname == "func_door" && d.targetname.as_deref() == Some(t))?;
            Some((bi, b.clone(), di))
        })
        .expect("e1m1 has a button that opens a door");
    // Stand in front of the button, on the side it is pushed from.
    let botarena::map::level::MoverKind::Button { pressed, .. } = button.kind else {
        unreachable!()
    };
    let dir3 = pressed.normalize();
    let centre = (button.mins + button.maxs) * 0.5;
    let half = ((button.maxs - button.mins) * 0.5).dot(dir3.abs());
    let spot = centre - dir3 * (half + 16.5);
    let mut m = Match::new(
        std::sync::Arc::new(level),
        cmap,
        &botarena::MatchConfig::new(
            1,
            vec![scripted(
                "presser",
                v(spot.x, spot.y, spot.z),
                0.,
                ControllerConfig::Idle,
            )],
        ),
    )
    .unwrap();
    assert_eq!(m.sim.mover_state(di).unwrap().phase, Phase::AtA);
    let ev = run(&mut m, 40);
    assert!(
        ev.contains(&SimEvent::MoverStart {
            mover: m.sim.level.movers[bi].id.0
        }),
        "button pressed: {ev:?}"
    );
    assert!(
        ev.contains(&SimEvent::MoverStart {
            mover: m.sim.level.movers[di].id.0
        }),
        "door opened: {ev:?}"
    );
    assert_ne!(m.sim.mover_state(di).unwrap().offset, Vec3::ZERO);
}

/// A match is built from the layers' parts: a bad tick rate is refused before anything is
/// spawned; every layer's components are read through the one accessor (engine, game, bot);
/// the hash has a part per player and one for the world, named alike.
#[test]
fn a_match_refuses_a_bad_tick_rate_and_reads_every_layers_components() {
    use botarena::bot::routing::RouteState;
    use botarena::game::{Inventory, Weapon};
    use botarena::sim::components::Vitals;
    use botarena::tick::MatchConfig;
    use std::sync::Arc;
    let (level, cmap) = common::shipped("arena");
    let players = common::players(2, ControllerConfig::Brain(Default::default()));
    let mut cfg = MatchConfig::new(1, players);
    for bad in [0, 1001] {
        cfg.tick_rate = bad;
        let e = Match::new(Arc::new(level.clone()), cmap.clone(), &cfg)
            .err()
            .expect("a bad tick rate is refused");
        assert_eq!(
            e.to_string(),
            format!("tick rate {bad} is outside 1..=1000")
        );
    }
    cfg.tick_rate = 20;
    let mut m = Match::new(Arc::new(level), cmap, &cfg).unwrap();
    for _ in 0..40 {
        m.step();
    }
    let vitals: Vitals = m.sim.player_component(0).unwrap();
    assert!(vitals.alive);
    let inv: Inventory = m.sim.player_component(1).unwrap();
    assert!(inv.has(Weapon::Shotgun));
    assert_eq!(
        m.sim.player_component::<RouteState>(0),
        m.player_route(0),
        "the match's bot accessors read the same components"
    );
    assert!(m.sim.player_component::<Inventory>(2).is_none());
    assert_eq!(m.part_hashes().len(), 3);
    assert_eq!(m.part_names().len(), 3);
    assert!(m.part_names()[2].starts_with("world"));
    assert_eq!(m.tick(), 40);
}
