//! Player physics against Quake truths, on the shipped proving ground (maps/proving.map):
//! lane i runs along +X at y = 256 i + 96 with its feature starting at x = 512.

mod common;

use botarena::map::Contents;
use botarena::physics::pmove::{JUMP_SPEED, PlayerState, UserCmd};
use common::{run_cmd, shipped, simulate};
use glam::Vec3;

fn lane(i: usize) -> f32 {
    256.0 * i as f32 + 96.0
}

fn start(i: usize) -> PlayerState {
    PlayerState::at(Vec3::new(64.0, lane(i), 25.0), 0.0)
}

/// Analytic peak of a jump: v² / 2g.
const PEAK: f32 = JUMP_SPEED * JUMP_SPEED / 1600.0;

#[test]
fn standing_jump_peaks_at_the_analytic_height_at_any_tick_rate() {
    let (_, map) = shipped("proving");
    for hz in [10.0, 20.0, 60.0, 125.0] {
        let settle = simulate(&map, start(0), hz, 3, |_, s| UserCmd {
            yaw: s.yaw,
            ..Default::default()
        });
        let s0 = settle.last().unwrap().0;
        assert!(s0.on_ground.is_some(), "settled on the floor at {hz} Hz");
        let z0 = s0.origin.z;
        let traj = simulate(&map, s0, hz, (2.0 * hz) as usize, |t, _| UserCmd {
            jump: t == 0,
            ..Default::default()
        });
        let peak = traj
            .iter()
            .map(|(s, _)| s.origin.z)
            .fold(f32::MIN, f32::max)
            - z0;
        assert!(
            (peak - PEAK).abs() <= 1.0,
            "{hz} Hz: peak {peak}, analytic {PEAK}"
        );
        // Exact parabola: every sampled height equals v t - g t² / 2 while airborne.
        for (k, (s, _)) in traj
            .iter()
            .enumerate()
            .take_while(|(_, (s, _))| s.on_ground.is_none())
        {
            let t = (k + 1) as f32 / hz;
            let z = JUMP_SPEED * t - 400.0 * t * t;
            assert!(
                (s.origin.z - z0 - z).abs() < 0.05,
                "{hz} Hz tick {k}: {} vs {z}",
                s.origin.z - z0
            );
        }
        let air_ticks = traj
            .iter()
            .take_while(|(s, _)| s.on_ground.is_none())
            .count()
            + 1;
        let flight = air_ticks as f32 / hz;
        assert!(
            (flight - 0.675).abs() <= 1.0 / hz + 1e-4,
            "{hz} Hz: flight {flight} s"
        );
        assert!(traj[0].1.jumped);
        assert!(traj.iter().any(|(_, e)| e.landed.is_some()));
    }
}

#[test]
fn holding_jump_does_not_jump_again_until_released() {
    let (_, map) = shipped("proving");
    let traj = simulate(&map, start(0), 20.0, 60, |_, _| UserCmd {
        jump: true,
        ..Default::default()
    });
    assert_eq!(traj.iter().filter(|(_, e)| e.jumped).count(), 1);
    let traj = simulate(&map, start(0), 20.0, 60, |t, _| UserCmd {
        jump: t % 20 < 10,
        ..Default::default()
    });
    assert!(traj.iter().filter(|(_, e)| e.jumped).count() >= 2);
}

#[test]
fn ground_speed_tops_out_at_320() {
    let (_, map) = shipped("proving");
    let traj = simulate(&map, start(0), 20.0, 20, |_, _| run_cmd(0.0));
    let speed = |s: &PlayerState| s.velocity.truncate().length();
    // Acceleration 10 × 320 × 0.05 = 160 per tick from rest.
    assert!((speed(&traj[1].0) - 160.0).abs() < 0.01 || (speed(&traj[0].0) - 160.0).abs() < 0.01);
    for (s, _) in &traj[4..] {
        assert!((speed(s) - 320.0).abs() < 0.01, "speed {}", speed(s));
    }
    // Strafing diagonally is capped by maxspeed too.
    let traj = simulate(&map, start(0), 20.0, 20, |_, _| UserCmd {
        forward_move: 320.0,
        side_move: 320.0,
        ..Default::default()
    });
    // (Checked before the player reaches the lane wall.)
    assert!(
        (speed(&traj[3].0) - 320.0).abs() < 0.01,
        "{}",
        speed(&traj[3].0)
    );
}

fn running_jump(gap_lane: usize, hz: f32) -> PlayerState {
    let (_, map) = shipped("proving");
    let mut jumped = false;
    let traj = simulate(&map, start(gap_lane), hz, (4.0 * hz) as usize, |_, s| {
        // Jump at the last moment the box still overlaps the floor (the edge is at x = 512).
        let jump = !jumped && s.on_ground.is_some() && s.origin.x >= 512.0 - 16.0 - 320.0 / hz;
        if jump {
            jumped = true;
            assert!(
                (s.velocity.truncate().length() - 320.0).abs() < 0.01,
                "running at 320 when jumping"
            );
        }
        UserCmd {
            jump,
            ..run_cmd(0.0)
        }
    });
    assert!(jumped);
    traj.last().unwrap().0
}

#[test]
fn running_jump_clears_200_but_not_260() {
    for hz in [20.0, 72.0] {
        let s = running_jump(3, hz);
        assert!(
            s.origin.x > 712.0 && (s.origin.z - 24.03).abs() < 0.1,
            "{hz} Hz 200 gap: {:?}",
            s.origin
        );
        let s = running_jump(4, hz);
        assert!(s.origin.z < -200.0, "{hz} Hz 260 gap: {:?}", s.origin);
    }
}

#[test]
fn walks_up_18_but_not_19() {
    let (_, map) = shipped("proving");
    let s = simulate(&map, start(1), 20.0, 60, |_, _| run_cmd(0.0))
        .last()
        .unwrap()
        .0;
    assert!(s.origin.x > 1000.0, "18 step climbed: {:?}", s.origin);
    assert!((s.origin.z - (18.0 + 24.0)).abs() < 0.1, "{}", s.origin.z);
    let s = simulate(&map, start(2), 20.0, 60, |_, _| run_cmd(0.0))
        .last()
        .unwrap()
        .0;
    assert!(
        (s.origin.x - 496.0).abs() < 0.1,
        "19 step blocks: {:?}",
        s.origin
    );
    assert!((s.origin.z - 24.0).abs() < 0.1);
    // Jumping gets onto the 19 step.
    let s = simulate(&map, start(2), 20.0, 60, |t, _| UserCmd {
        jump: t == 24,
        ..run_cmd(0.0)
    })
    .last()
    .unwrap()
    .0;
    assert!(
        s.origin.x > 600.0 && (s.origin.z - 43.0).abs() < 0.1,
        "{:?}",
        s.origin
    );
}

#[test]
fn climbs_stairs_and_drops_off_the_ledge() {
    let (_, map) = shipped("proving");
    let traj = simulate(&map, start(0), 20.0, 120, |_, _| run_cmd(0.0));
    let top = traj
        .iter()
        .map(|(s, _)| s.origin.z)
        .fold(f32::MIN, f32::max);
    assert!((top - (128.0 + 24.0)).abs() < 0.1, "top of stairs {top}");
    let at = |x: f32| traj.iter().find(|(s, _)| s.origin.x > x).unwrap().0;
    assert!((at(1200.0).origin.z - 152.0).abs() < 0.1, "on the walkway");
    let end = traj.last().unwrap().0;
    assert!(
        end.origin.x > 1500.0 && (end.origin.z - 24.0).abs() < 0.1,
        "dropped off the ledge: {:?}",
        end.origin
    );
    assert!(
        traj.iter()
            .any(|(s, e)| e.landed.is_some() && s.origin.x > 1400.0)
    );
}

#[test]
fn water_levels_swimming_and_jumping_out() {
    let (_, map) = shipped("proving");
    // Walk in, then let go: with no input a swimmer drifts down to the bottom (level 3).
    let traj = simulate(&map, start(5), 20.0, 140, |t, _| {
        if t < 40 {
            run_cmd(0.0)
        } else {
            UserCmd::default()
        }
    });
    let levels: Vec<u8> = traj.iter().map(|(s, _)| s.water_level).collect();
    for l in 1..=3 {
        assert!(levels.contains(&l), "water level {l} seen: {levels:?}");
    }
    assert!(
        traj.iter()
            .all(|(s, _)| s.water_type == Contents::WATER || s.water_level == 0)
    );
    assert!(
        traj.iter().any(|(s, _)| s.origin.z < -90.0),
        "sank to the bottom"
    );
    // Swimming forward and up crosses the pool over the submerged block and jumps out.
    let traj = simulate(&map, start(5), 20.0, 160, |_, _| UserCmd {
        up_move: 200.0,
        ..run_cmd(0.0)
    });
    let end = traj.last().unwrap().0;
    assert!(
        end.origin.x > 1040.0 && (end.origin.z - 24.0).abs() < 0.5,
        "out of the pool: {:?}",
        end.origin
    );
    assert_eq!(end.water_level, 0);
    assert!(
        traj.iter().any(|(s, _)| s.water_jump_time > 0.0),
        "a jump out of water happened"
    );
}

#[test]
fn lava_and_slime_are_liquids_the_player_falls_into() {
    let (_, map) = shipped("proving");
    let traj = simulate(&map, start(6), 20.0, 60, |_, _| run_cmd(0.0));
    assert!(
        traj.iter()
            .any(|(s, _)| s.water_type == Contents::LAVA && s.water_level >= 1)
    );
    let traj = simulate(&map, start(7), 20.0, 60, |_, _| run_cmd(0.0));
    assert!(
        traj.iter()
            .any(|(s, _)| s.water_type == Contents::SLIME && s.water_level >= 1)
    );
}

#[test]
fn walls_stop_and_slide() {
    let (_, map) = shipped("proving");
    // Run at 45° into the lane wall: the player slides along it at the wall distance.
    let traj = simulate(&map, start(1), 20.0, 40, |_, _| run_cmd(45.0));
    let end = traj.last().unwrap().0;
    // Lane 1 spans y 256..448: the box stops 16 short of y = 448.
    assert!((end.origin.y - 432.0).abs() < 0.1, "{:?}", end.origin);
    assert!(
        end.origin.x > 300.0,
        "slid along the wall: {:?}",
        end.origin
    );
}

#[test]
fn same_inputs_same_states() {
    let (_, map) = shipped("proving");
    let cmd = |t: usize, _: &PlayerState| UserCmd {
        jump: t.is_multiple_of(17),
        side_move: if t % 40 < 20 { 200.0 } else { -200.0 },
        ..run_cmd(t as f32 * 3.0)
    };
    let a = simulate(&map, start(5), 20.0, 300, cmd);
    let b = simulate(&map, start(5), 20.0, 300, cmd);
    assert_eq!(
        a.iter().map(|x| x.0).collect::<Vec<_>>(),
        b.iter().map(|x| x.0).collect::<Vec<_>>()
    );
}

/// Issue 22's integration option: `quake` integrates gravity as QuakeWorld's `PM_AirMove`
/// (pmove.c: `velocity[2] -= gravity * frametime` before `PM_FlyMove`), so a standing jump
/// peaks at Σ(270 − 800·k·dt)·dt over the rising steps: 43.7 units at 72 Hz, 39.0 at 20 Hz;
/// `exact` stays on the parabola (45.6) at both. Also from a scenario's `[physics]` table
/// and `run --integration`, with bad values refused.
#[test]
fn quake_integration_jumps_as_quakeworld_at_its_tick_rate() {
    use botarena::physics::pmove::{Integration, PhysicsParams, pmove};
    let (_, map) = shipped("proving");
    let peak = |integration: Integration, hz: f32| {
        let params = PhysicsParams {
            integration,
            ..Default::default()
        };
        let dt = 1.0 / hz;
        let mut s = start(0);
        for _ in 0..3 {
            s = pmove(&s, &UserCmd::default(), &map, &params, dt, None).0;
        }
        assert!(s.on_ground.is_some());
        let z0 = s.origin.z;
        let mut top = z0;
        for t in 0..(2.0 * hz) as usize {
            let cmd = UserCmd {
                jump: t == 0,
                ..Default::default()
            };
            s = pmove(&s, &cmd, &map, &params, dt, None).0;
            top = top.max(s.origin.z);
        }
        top - z0
    };
    for (integration, hz, want) in [
        (Integration::Exact, 72.0, 45.6),
        (Integration::Exact, 20.0, 45.6),
        (Integration::Quake, 72.0, 43.7),
        (Integration::Quake, 20.0, 39.0),
    ] {
        let got = peak(integration, hz);
        println!("{integration:?} at {hz} Hz: peak {got:.2}");
        // Within 0.1: the highest tick, not the apex between ticks (exact at 20 Hz: 45.50).
        assert!((got - want).abs() < 0.1, "{integration:?} {hz} Hz: {got}");
    }
    // From a scenario, and refused where misspelt (file and line named).
    let dir = common::TempDir::with_arena("integration");
    let good = dir.join("s/quake.toml");
    std::fs::write(
        &good,
        "map = \"../maps/arena.map\"\ntick_rate = 72\nticks = 30\n[physics]\nintegration = \"quake\"\n[[players]]\nname = \"a\"\ncontroller = \"idle\"\n",
    )
    .unwrap();
    let sc = botarena::scenario::Scenario::load(&good).unwrap();
    assert_eq!(sc.physics.integration, Integration::Quake);
    assert_eq!(sc.match_config().params.integration, Integration::Quake);
    let bad = dir.join("s/bad.toml");
    std::fs::write(
        &bad,
        "map = \"../maps/arena.map\"\n[physics]\nintegration = \"verlet\"\n",
    )
    .unwrap();
    let e = botarena::scenario::Scenario::load(&bad)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("bad.toml") && e.contains(":3") && e.contains("verlet"),
        "{e}"
    );
    let run = |args: &[&str]| common::bin().args(args).output().unwrap();
    let g = good.to_str().unwrap();
    let out = run(&["run", g, "--integration", "exact", "--ticks", "5"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["run", g, "--integration", "verlet"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--integration \"verlet\""));
    let out = run(&["run", g, "--integration", "quake", "--record", "x.replay"]);
    assert!(!out.status.success(), "a replay re-runs the file: refused");
}
