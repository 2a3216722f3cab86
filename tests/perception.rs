//! Perception and hearing as stages of the tick, on the shipped arena.

mod common;

use botarena::bot::control::ControllerConfig;
use botarena::bot::control::ScriptStep;
use botarena::bot::{Senses, Thing};
use botarena::nav::Reachability;
use botarena::sim::sound::SoundKind;
use botarena::tick::{Match, PlayerConfig};
use common::{match_on, scripted};
use glam::Vec3;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn sees(m: &Match, who: usize, thing: Thing) -> bool {
    m.player_percepts(who)
        .unwrap()
        .visible
        .iter()
        .any(|s| s.thing == thing)
}

fn pid(m: &Match, i: usize) -> Thing {
    Thing::Player(m.sim.players[i].id)
}

#[test]
fn a_closed_door_blocks_sight_and_an_open_one_does_not() {
    // A stands in the door's field (the door opens); B waits in the south room.
    let mut m = match_on(
        "arena",
        1,
        vec![
            scripted("a", v(0., -470., 25.), 270., ControllerConfig::Idle),
            scripted("b", v(0., -800., 25.), 90., ControllerConfig::Idle),
        ],
    );
    m.step();
    assert!(!sees(&m, 0, pid(&m, 1)), "door closed");
    for _ in 0..20 {
        m.step();
    }
    assert!(sees(&m, 0, pid(&m, 1)), "door open");
    assert!(sees(&m, 1, pid(&m, 0)));
}

#[test]
fn water_is_seen_through() {
    // B is under water in the south room's pool; A looks from the floor above.
    let mut m = match_on(
        "arena",
        1,
        vec![
            scripted("a", v(-256., -560., 25.), 270., ControllerConfig::Idle),
            scripted("b", v(-256., -768., -60.), 90., ControllerConfig::Idle),
        ],
    );
    m.step();
    assert!(
        m.sim.player_state(1).unwrap().water_level == 3,
        "b is under water"
    );
    assert!(sees(&m, 0, pid(&m, 1)));
}

#[test]
fn field_of_view_and_sight_distance_limit_what_is_seen() {
    let narrow = Senses {
        fov: 90.0,
        ..Default::default()
    };
    let short = Senses {
        sight: 200.0,
        ..Default::default()
    };
    let cfg = |name: &str, o: Vec3, yaw: f32, senses: Senses| PlayerConfig {
        senses,
        navigation: Default::default(),
        ..scripted(name, o, yaw, ControllerConfig::Idle)
    };
    let mut m = match_on(
        "arena",
        1,
        vec![
            cfg("narrow", v(0., 0., 25.), 0., narrow),
            cfg("short", v(-300., 0., 25.), 0., short),
            cfg("target", v(-150., -150., 25.), 0., Senses::default()),
        ],
    );
    m.step();
    // The target is behind "narrow" (it looks along +X) and 212 from "short".
    assert!(!sees(&m, 0, pid(&m, 2)));
    assert!(!sees(&m, 1, pid(&m, 2)));
    assert!(sees(&m, 2, pid(&m, 0)) && sees(&m, 2, pid(&m, 1)));
    let p = m.player_percepts(0).unwrap();
    assert!(
        p.visible.windows(2).all(|w| w[0].distance <= w[1].distance),
        "nearest first"
    );
}

#[test]
fn nearby_items_are_visible_and_reachable() {
    // Reachability is tested for players whose senses ask for it (explorers by default).
    let checks = |cfg: PlayerConfig| PlayerConfig {
        senses: Senses {
            reach_checks: Some(true),
            ..Default::default()
        },
        ..cfg
    };
    let mut m = match_on(
        "arena",
        1,
        vec![
            checks(scripted(
                "a",
                v(300., -300., 25.),
                0.,
                ControllerConfig::Idle,
            )),
            // Beside it, a player that does not ask: sees the same, tests nothing.
            scripted("b", v(250., -300., 25.), 0., ControllerConfig::Idle),
        ],
    );
    let health = m
        .sim
        .level
        .items
        .iter()
        .position(|i| i.classname == "item_health" && (i.origin.x - 300.).abs() < 1.0)
        .unwrap();
    for _ in 0..4 {
        m.step();
    }
    let p = m.player_percepts(0).unwrap();
    assert!(p.visible.iter().any(|s| s.thing == Thing::Item(health)));
    let how = p
        .reachable
        .iter()
        .find(|r| r.thing == Thing::Item(health))
        .map(|r| r.how);
    assert_eq!(how, Some(Reachability::Walk));
    assert!(m.sim.stats.perception_traces > 0);
    let b = m.player_percepts(1).unwrap();
    assert!(b.visible.iter().any(|s| s.thing == Thing::Item(health)));
    assert!(b.reachable.is_empty(), "{:?}", b.reachable);
    // The super shotgun is on the north balcony, 128 up: seen from below, not reachable in
    // a straight line.
    let mut m = match_on(
        "arena",
        1,
        vec![checks(scripted(
            "a",
            v(-300., 0., 25.),
            0.,
            ControllerConfig::Idle,
        ))],
    );
    let ssg = m
        .sim
        .level
        .items
        .iter()
        .position(|i| i.classname == "weapon_supershotgun")
        .unwrap();
    for _ in 0..4 {
        m.step();
    }
    let p = m.player_percepts(0).unwrap();
    let seen = p.visible.iter().position(|s| s.thing == Thing::Item(ssg));
    assert!(
        seen.is_some_and(|i| i < 4),
        "seen among the nearest: {:?}",
        p.visible
    );
    assert!(
        !p.reachable.iter().any(|r| r.thing == Thing::Item(ssg)),
        "{:?}",
        p.reachable
    );
}

#[test]
fn a_jump_is_heard_and_located_nearby_and_not_far_away() {
    let jump = vec![ScriptStep {
        ticks: 1,
        forward: 0.,
        side: 0.,
        up: 0.,
        yaw: 0.,
        pitch: 0.,
        jump: true,
        fire: false,
        weapon: None,
    }];
    let mut m = match_on(
        "arena",
        1,
        vec![
            scripted("near", v(-300., 0., 25.), 0., ControllerConfig::Idle),
            scripted("far", v(400., -950., 25.), 0., ControllerConfig::Idle),
            scripted(
                "jumper",
                v(-100., 0., 25.),
                0.,
                ControllerConfig::Script(jump),
            ),
        ],
    );
    m.step(); // the jump happens and makes its sound
    m.step(); // heard
    let near = m.player_percepts(0).unwrap();
    let h = near
        .heard
        .iter()
        .find(|h| h.kind == SoundKind::Jump)
        .expect("heard the jump");
    assert_eq!(h.source, Some(m.sim.players[2].id));
    assert!((h.distance - 200.0).abs() < 30.0);
    // Only the jumper is within 256 units of the sound: located for sure.
    assert!(h.position.is_some());
    let far = m.player_percepts(1).unwrap();
    assert!(
        !far.heard.iter().any(|h| h.kind == SoundKind::Jump),
        "beyond 1000 units (Quake's ATTN_NORM)"
    );
    // A jump sound lasts 0.4 s.
    for _ in 0..8 {
        m.step();
    }
    assert!(
        !m.player_percepts(0)
            .unwrap()
            .heard
            .iter()
            .any(|h| h.kind == SoundKind::Jump)
    );
}

#[test]
fn teleports_movers_and_pickups_make_sounds() {
    let steps = vec![ScriptStep {
        ticks: 40,
        forward: 320.,
        side: 0.,
        up: 0.,
        yaw: 180.,
        pitch: 0.,
        jump: false,
        fire: false,
        weapon: None,
    }];
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
            scripted("rider", v(304., 0., 33.), 0., ControllerConfig::Idle),
        ],
    );
    let mut kinds = Vec::new();
    for _ in 0..40 {
        m.step();
        kinds.extend(
            m.sim
                .sounds
                .sounds()
                .iter()
                .filter(|s| s.tick + 1 == m.sim.tick)
                .map(|s| s.kind),
        );
    }
    assert_eq!(
        kinds.iter().filter(|k| **k == SoundKind::Teleport).count(),
        2,
        "both ends"
    );
    assert!(kinds.contains(&SoundKind::Mover), "the plat started");
    assert!(
        !kinds.contains(&SoundKind::Footstep),
        "Quake has no footsteps (they are a scenario option)"
    );
}

#[test]
fn perception_is_part_of_the_deterministic_state() {
    let run = || {
        let players = (0..6)
            .map(|i| PlayerConfig {
                name: format!("p{i}"),
                controller: ControllerConfig::Wander,
                spawn: None,
                start: None,
                senses: Senses {
                    fov: 120.0,
                    ..Default::default()
                },
                navigation: Default::default(),
            })
            .collect();
        let mut m = match_on("arena", 11, players);
        (0..600)
            .map(|_| {
                m.step();
                m.state_hash()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

/// `reach_checks` in a scenario: a brain bot asked for the tests gets them, an explorer told
/// not to make them has none (one by default has them, a brain bot by default not), and a value that is not a boolean is refused with its line.
#[test]
fn the_reach_checks_key_turns_the_tests_on_and_off() {
    use botarena::scenario::Scenario;
    let dir = common::TempDir::with_arena("perception-reach-checks");
    let load = |text: &str| {
        let p = dir.join("s/test.toml");
        std::fs::write(&p, text).unwrap();
        Scenario::load(&p).map_err(|e| e.to_string())
    };
    let head = "map = \"../maps/arena.map\"\nseed = 3\nthreads = 1\n";
    let s = load(&format!(
        "{head}[[players]]\nname = \"brain\"\nreach_checks = true\n\
         [[players]]\nname = \"explorer\"\ncontroller = \"explore\"\nreach_checks = false\n\
         [[players]]\nname = \"plain\"\n\
         [[players]]\nname = \"scout\"\ncontroller = \"explore\"\n"
    ))
    .unwrap();
    let mut m = s.build().unwrap();
    let mut tested = [0usize; 4];
    for _ in 0..200 {
        m.step();
        for (i, t) in tested.iter_mut().enumerate() {
            *t += m.player_percepts(i).unwrap().reachable.len();
        }
    }
    // The brain bot that asked and the explorer by default test; the others do not.
    assert!(tested[0] > 0 && tested[3] > 0, "{tested:?}");
    assert_eq!(tested[1..3], [0, 0], "{tested:?}");
    let e = load(&format!(
        "{head}[[players]]\nname = \"a\"\nreach_checks = \"yes\"\n"
    ))
    .unwrap_err();
    assert!(
        e.contains("test.toml:6:") && e.contains("reach_checks"),
        "{e}"
    );
}
