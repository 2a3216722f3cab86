//! Matches: deathmatches on shipped maps end with frags, pickups and no stuck bot; runs are
//! deterministic; replays record, verify and refuse corrupted files; golden replays of
//! shipped scenarios still verify (re-record them after an intended behaviour change with
//! `BOTARENA_RERECORD=1 cargo test --release --test matches golden`).

mod common;

use std::path::Path;
use std::sync::Arc;

use botarena::bot::brain::Skill;
use botarena::bot::control::ControllerConfig;
use botarena::replay::{Recorder, Replay, ReplayError};
use botarena::scenario::{Scenario, run_match};
use botarena::tick::{Match, MatchConfig};
use common::root;

fn scenario(rel: &str) -> Scenario {
    Scenario::load(&root().join(rel)).expect("shipped scenario loads")
}

/// Checks a finished match: someone scored, at least `pickers` bots picked something up,
/// none stood still for more than 10 s.
fn check_match(m: &Match, what: &str, pickers: usize) {
    let mut frags = 0;
    let mut picked = 0;
    for i in 0..m.sim.players.len() {
        let st = m.sim.player_stats(i).unwrap();
        let name = m.sim.player_name(i).unwrap();
        println!(
            "{what}: {name:<8} frags {:>3} kills {:>3} deaths {:>3} items {:>3} still {:>4.1} s",
            st.frags, st.kills, st.deaths, st.pickups, st.longest_still
        );
        frags = frags.max(st.frags);
        picked += usize::from(st.pickups > 0);
        assert!(
            st.longest_still <= 10.0,
            "{what}: {name} stood within 64 units of one spot for {} s",
            st.longest_still
        );
    }
    assert!(picked >= pickers, "{what}: {picked} bots picked up items");
    assert!(frags > 0, "{what}: somebody scored");
}

#[test]
fn a_duel_and_an_eight_bot_match_on_the_arena() {
    // Eight bots on the small arena brawl: a life lasts about 5 s and pickups are few (19
    // in two minutes, before and after the Quake-rules change, spread differently: every
    // bot one to six before, two bots none after). Most, not all, must pick something up.
    for (file, bots, pickers) in [
        ("scenarios/duel.toml", 2, 2),
        ("scenarios/arena8.toml", 8, 6),
    ] {
        let s = scenario(file);
        assert_eq!(s.players.len(), bots);
        let mut m = s.build().unwrap();
        run_match(&mut m, s.ticks, |_| {});
        check_match(&m, file, pickers);
    }
}

#[test]
fn the_same_scenario_gives_the_same_hash_at_every_tick() {
    let s = scenario("scenarios/default.toml");
    let hashes = |ticks| {
        let mut m = s.build().unwrap();
        let mut out = vec![m.state_hash()];
        run_match(&mut m, ticks, |m| out.push(m.state_hash()));
        out
    };
    let a = hashes(600);
    assert_eq!(a.len(), 601);
    assert_eq!(a, hashes(600));
    let mut other = s.clone();
    other.seed += 1;
    let mut m = other.build().unwrap();
    run_match(&mut m, 600, |_| {});
    assert_ne!(m.state_hash(), a[600], "another seed plays another match");
}

fn record(rel: &str, ticks: u64) -> Replay {
    let s = Scenario::load(Path::new(rel)).unwrap();
    let text = std::fs::read_to_string(rel).unwrap();
    let mut m = s.build().unwrap();
    let mut rec = Recorder::new(&s, &text, &m);
    run_match(&mut m, ticks, |m| rec.record(m));
    rec.finish()
}

/// Tests run in the crate's folder, so replays name scenarios as `scenarios/...`.
fn in_root() {
    std::env::set_current_dir(root()).unwrap();
}

#[test]
fn a_replay_round_trips_and_verifies() {
    in_root();
    let r = record("scenarios/duel.toml", 300);
    assert_eq!(r.header.ticks, 300);
    assert_eq!(r.hashes.len(), 301);
    assert!(
        r.events.iter().any(|e| e["event"].get("Pickup").is_some()),
        "pickups recorded"
    );
    assert!(
        r.events
            .iter()
            .any(|e| e["event"].get("WaypointDrop").is_some()),
        "waypoint drops recorded"
    );
    let bytes = r.to_bytes();
    let back = Replay::from_bytes(&bytes, "mem").unwrap();
    assert_eq!(back, r);
    let v = back.verify(|_| {}).unwrap();
    assert_eq!(v.divergence, None);
    assert_eq!(v.ticks, 300);
}

#[test]
fn a_replay_that_differs_names_the_tick_and_the_player() {
    in_root();
    let mut r = record("scenarios/duel.toml", 120);
    // Pretend the recording saw player 1 ("visor") elsewhere from tick 77 on.
    let parts = r.header.parts.len();
    for t in 77..=120 {
        r.hashes[t] ^= 1;
        r.part_hashes[t * parts + 1] ^= 1;
    }
    let v = r.verify(|_| {}).unwrap();
    let d = v.divergence.expect("diverges");
    assert_eq!(d.tick, 77);
    assert_eq!(d.parts.len(), 1);
    assert!(d.parts[0].contains("visor"), "{d}");
    assert_eq!(format!("{d}"), format!("tick 77: {} diverged", d.parts[0]));
}

#[test]
fn corrupted_replays_are_clear_errors() {
    in_root();
    let bytes = record("scenarios/duel.toml", 40).to_bytes();
    let is = |b: &[u8], want: fn(&ReplayError) -> bool| {
        let e = Replay::from_bytes(b, "x.replay").expect_err("must fail");
        assert!(want(&e), "{e}");
        assert!(e.to_string().starts_with("x.replay"), "{e}");
    };
    is(&bytes[..bytes.len() / 2], |e| {
        matches!(e, ReplayError::Truncated { .. } | ReplayError::Checksum(_))
    });
    is(&bytes[..6], |e| matches!(e, ReplayError::Truncated { .. }));
    is(b"", |e| matches!(e, ReplayError::NotAReplay(_)));
    is(b"PK\x03\x04 a zip file", |e| {
        matches!(e, ReplayError::NotAReplay(_))
    });
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    is(&flipped, |e| matches!(e, ReplayError::Checksum(_)));
    let mut format = bytes.clone();
    format[4] = 9;
    is(&format, |e| {
        matches!(e, ReplayError::Format { found: 9, .. })
    });
    let mut longer = bytes.clone();
    longer.extend_from_slice(b"tail");
    is(&longer, |e| matches!(e, ReplayError::Checksum(_)));
    // A missing file names itself.
    let e = Replay::load(Path::new("no/such.replay")).unwrap_err();
    assert!(e.to_string().contains("no/such.replay"), "{e}");
}

/// The golden replays: (scenario, ticks, file).
const GOLDEN: [(&str, u64, &str); 3] = [
    ("scenarios/default.toml", 600, "tests/golden/default.replay"),
    ("scenarios/duel.toml", 600, "tests/golden/duel.replay"),
    ("scenarios/proving.toml", 200, "tests/golden/proving.replay"),
];

#[test]
fn golden_replays_of_shipped_scenarios_verify() {
    in_root();
    if std::env::var_os("BOTARENA_RERECORD").is_some() {
        std::fs::create_dir_all("tests/golden").unwrap();
        for (scn, ticks, file) in GOLDEN {
            record(scn, ticks).save(Path::new(file)).unwrap();
            println!("re-recorded {file}");
        }
    }
    for (_, ticks, file) in GOLDEN {
        let r = Replay::load(Path::new(file)).unwrap();
        assert_eq!(r.header.ticks, ticks);
        let v = r.verify(|_| {}).unwrap();
        assert!(
            v.divergence.is_none(),
            "{file}: {} (re-record with BOTARENA_RERECORD=1 after an intended change)",
            v.divergence.unwrap()
        );
    }
}

#[test]
fn eight_bots_play_five_minutes_on_dm4_and_dm6() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    for name in ["dm4", "dm6"] {
        let (level, cmap) = common::quake_map(&dir, name);
        let cfg = MatchConfig {
            seed: 11,
            tick_rate: 20,
            params: Default::default(),
            rules: botarena::game::MatchRules {
                time_limit: Some(300.0),
                ..Default::default()
            },
            players: common::players(8, ControllerConfig::Brain(Skill::default())),
            nav: None,
        };
        let mut m = Match::new(Arc::new(level), cmap, &cfg).unwrap();
        let ran = run_match(&mut m, 100_000, |_| {});
        assert_eq!(ran, 6000, "{name}: ends on the time limit");
        assert_eq!(m.game.over, Some("time limit"));
        let mut frags = 0;
        let mut pickups = 0;
        for i in 0..8 {
            let st = m.sim.player_stats(i).unwrap();
            println!(
                "{name}: p{i} frags {:>3} deaths {:>3} items {:>3} still {:>4.1} wps {}",
                st.frags, st.deaths, st.pickups, st.longest_still, st.waypoints_dropped
            );
            frags += st.kills;
            pickups += st.pickups;
        }
        assert!(frags > 0, "{name}: frags");
        assert!(pickups > 0, "{name}: item pickups");
    }
}

#[test]
fn one_two_and_four_threads_give_the_same_hash_at_every_tick() {
    // Sixteen bots: enough for the per-bot stages to use the worker pool.
    let hashes = |threads: usize| {
        let mut m =
            botarena::bench::bench_match(&root().join("maps/arena.map"), 16, threads, 4).unwrap();
        let mut out = vec![m.state_hash()];
        run_match(&mut m, 300, |m| out.push(m.state_hash()));
        (out, m.timings)
    };
    let (one, timings) = hashes(1);
    // Traces made plus those the reachability memo answered for (which thread asks what
    // differs with the thread count, so the memo's share does too).
    let work = |t: &botarena::tick::StageTimings| -> Vec<u64> {
        t.traces.iter().zip(&t.memo).map(|(a, b)| a + b).collect()
    };
    let traces = work(&timings);
    assert!(traces.iter().sum::<u64>() > 0, "the run traced");
    // One thread has no pool: every stage is serial.
    assert_eq!(timings.serial_breakdown(), timings.breakdown());
    for t in [2, 4] {
        let (other, other_timings) = hashes(t);
        let first = one.iter().zip(&other).position(|(a, b)| a != b);
        assert_eq!(first, None, "{t} threads diverge at tick {first:?}");
        // The statistics count the workers' traces too: the same work, the same count.
        assert_eq!(
            traces,
            work(&other_timings),
            "{t} threads: traces per stage"
        );
        // The scheduling thread's time in the pool is part of its stage's time; perception
        // and hearing (sixteen jobs a tick) spend some of it there, the one-thread stages
        // none.
        let all = other_timings.breakdown();
        let serial = other_timings.serial_breakdown();
        for ((name, total), (_, alone)) in all.iter().zip(&serial) {
            assert!(alone <= total, "{t} threads, {name}: {alone} > {total}");
            let pooled = total - alone;
            match *name {
                "sense" | "hear" => assert!(pooled > 0.0, "{t} threads: {name} used the pool"),
                "physics" | "brain" => assert_eq!(pooled, 0.0, "{t} threads, {name}"),
                _ => {}
            }
        }
    }
}

#[test]
fn explorers_and_route_bots_give_the_same_hash_at_every_tick_for_any_thread_count() {
    // The stages this covers beyond the brain match above: explorers dropping waypoints (the
    // drop stage's searches on the pool, planned runs), route bots picking on the pool and
    // roaming where they have no route, shared lines of sight and enemy paths.
    let hashes = |threads: usize| {
        let (level, cmap) = common::shipped("arena");
        let goals: Vec<glam::Vec3> = level.spawns.iter().map(|s| s.origin).collect();
        let mut players = common::players(12, ControllerConfig::Explore);
        for (k, g) in goals.iter().take(4).enumerate() {
            players.push(common::scripted(
                &format!("router{k}"),
                goals[(k + 2) % goals.len()],
                0.0,
                ControllerConfig::Route(*g),
            ));
        }
        let mut m = common::match_of(level, cmap, 7, players);
        m.sim.threads = threads;
        let mut out = vec![m.state_hash()];
        for _ in 0..600 {
            m.step();
            out.push(m.state_hash());
        }
        (out, m.learned.waypoints.len())
    };
    let (one, wps) = hashes(1);
    assert!(wps > 10, "the explorers dropped waypoints: {wps}");
    for t in [2, 4] {
        let (other, _) = hashes(t);
        let first = one.iter().zip(&other).position(|(a, b)| a != b);
        assert_eq!(first, None, "{t} threads diverge at tick {first:?}");
    }
}
