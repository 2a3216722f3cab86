//! Players: the pentagram's armour and push, a swimmer hopping out at a ledge, the ring of
//! shadows and its breathing, footsteps and Quake's attenuations.

use super::*;

#[test]
fn a_swimmer_facing_a_ledge_hops_out_without_pressing_forward() {
    // pmove.c CheckWaterJump (QuakeWorld): waist deep, solid 24 ahead at +8 and empty at
    // +32 → velocity = 50 along the facing, 310 up; no input is asked for.
    let mut b = MapBuilder::new();
    b.solid(v(-512.0, -256.0, -80.0), v(512.0, 256.0, -64.0), "F");
    b.solid(v(256.0, -256.0, -64.0), v(512.0, 256.0, 8.0), "L");
    b.solid(v(-512.0, -256.0, -64.0), v(256.0, 256.0, 0.0), "*water1");
    let (_, cmap) = b.build();
    let mut start = botarena::physics::pmove::PlayerState::at(v(236.0, 0.0, -10.0), 0.0);
    start.on_ground = None;
    let traj = common::simulate(&cmap, start, 20.0, 40, |_, _| {
        botarena::physics::pmove::UserCmd::default()
    });
    assert!(
        traj.iter().any(|(s, _)| s.water_jump_time > 0.0),
        "a water jump happened"
    );
    let end = traj.last().unwrap().0;
    assert!(
        end.origin.x > 240.0 && (end.origin.z - 32.0).abs() < 0.5 && end.water_level == 0,
        "out on the ledge: {:?}",
        end.origin
    );
}

/// Whether player `watcher` (index) sees player id `seen` now.
fn sees(m: &Match, watcher: usize, seen: u32) -> bool {
    let p = m
        .sim
        .world
        .get::<&botarena::bot::Percepts>(m.sim.players[watcher].entity)
        .unwrap();
    p.visible
        .iter()
        .any(|s| s.thing == botarena::bot::Thing::Player(botarena::map::EntId(seen)))
}

#[test]
fn a_ring_holder_is_seen_only_up_close_or_when_it_fires_and_breathes_every_1_to_4_s() {
    // Quake draws a ring holder as floating eyes (player.qc: modelindex_eyes) and its
    // muzzle flash lights it up; client.qc CheckPowerups plays items/inv3.wav at ATTN_IDLE
    // every 1 + random() × 3 seconds.
    let watcher = v(-600.0, 0.0, 24.0);
    for (holder_at, fires, expect) in [
        (v(-100.0, 0.0, 24.0), false, false), // 500 away
        (v(-400.0, 0.0, 24.0), false, true),  // 200 away
        (v(-100.0, 0.0, 24.0), true, true),   // 500 away, firing
    ] {
        let ctrl = if fires {
            ControllerConfig::Script(vec![ScriptStep {
                fire: true,
                weapon: Some(Weapon::Shotgun),
                ..step(1, 90.0, 0.0)
            }])
        } else {
            ControllerConfig::Idle
        };
        let mut m = match_in(
            &room(),
            vec![
                scripted("watcher", watcher, 0.0, ControllerConfig::Idle),
                scripted("holder", holder_at, 90.0, ctrl),
            ],
            MatchRules::default(),
        );
        give(&mut m, 1, |inv| inv.ring_until = 2000);
        for _ in 0..4 {
            m.step();
        }
        assert_eq!(
            sees(&m, 0, 2),
            expect,
            "holder at {holder_at}, firing {fires}"
        );
    }
    // Without the ring the far player is seen.
    let mut m = match_in(
        &room(),
        vec![
            scripted("watcher", watcher, 0.0, ControllerConfig::Idle),
            scripted("other", v(-100.0, 0.0, 24.0), 90.0, ControllerConfig::Idle),
        ],
        MatchRules::default(),
    );
    for _ in 0..4 {
        m.step();
    }
    assert!(sees(&m, 0, 2));
    // Breathing: every 1–4 s while the ring lasts, heard within 500 (ATTN_IDLE).
    let until = m.sim.tick + 600;
    give(&mut m, 1, |inv| inv.ring_until = until);
    let mut breaths = Vec::new();
    for _ in 0..700 {
        m.step();
        for s in m.sim.sounds.sounds() {
            if s.kind == botarena::sim::sound::SoundKind::Breath && !breaths.contains(&s.tick) {
                breaths.push(s.tick);
            }
        }
    }
    assert!(breaths.len() >= 8, "{breaths:?}");
    for w in breaths.windows(2) {
        let gap = w[1] - w[0];
        assert!((20..=80).contains(&gap), "1–4 s apart: {breaths:?}");
    }
    assert_eq!(
        botarena::sim::sound::SoundKind::Breath.audible_distance(),
        500.0
    );
}

#[test]
fn footsteps_are_an_option_off_by_default_and_quakes_attenuations_hold() {
    use botarena::sim::sound::SoundKind;
    // qw-qc: weapons, pain, jumps, pickups … at ATTN_NORM (silent at 1000 units), deaths at
    // ATTN_NONE (everywhere); Quake has no footstep sound.
    for k in [
        SoundKind::RocketLauncher,
        SoundKind::Explosion,
        SoundKind::Jump,
        SoundKind::ItemPickup,
        SoundKind::Pain,
    ] {
        assert_eq!(k.audible_distance(), 1000.0, "{k:?}");
    }
    assert!(SoundKind::Death.audible_distance().is_infinite());
    let run = |footsteps: bool| {
        let mut m = match_in(
            &room(),
            vec![scripted(
                "runner",
                v(-800.0, 0.0, 25.0),
                0.0,
                ControllerConfig::Script(vec![run_at(60, 0.0)]),
            )],
            MatchRules {
                footsteps,
                ..MatchRules::default()
            },
        );
        let mut steps = 0;
        for _ in 0..60 {
            m.step();
            steps += m
                .sim
                .sounds
                .sounds()
                .iter()
                .filter(|s| s.kind == SoundKind::Footstep && s.tick + 1 == m.sim.tick)
                .count();
        }
        steps
    };
    assert_eq!(run(false), 0, "Quake: no footsteps");
    assert!(run(true) >= 5, "the seed's footsteps when asked for");

    // From a scenario; a value that is not a boolean names the file and line.
    let dir = common::TempDir::with_arena("footsteps");
    let good = dir.join("s/steps.toml");
    std::fs::write(
        &good,
        "map = \"../maps/arena.map\"\nfootsteps = true\n[[players]]\nname = \"a\"\n",
    )
    .unwrap();
    let sc = botarena::scenario::Scenario::load(&good).unwrap();
    assert!(sc.rules.footsteps);
    assert!(sc.build().unwrap().sim.footsteps);
    let bad = dir.join("s/bad.toml");
    std::fs::write(&bad, "map = \"../maps/arena.map\"\nfootsteps = \"yes\"\n").unwrap();
    let e = botarena::scenario::Scenario::load(&bad)
        .unwrap_err()
        .to_string();
    assert!(e.contains("bad.toml:2"), "{e}");
}
