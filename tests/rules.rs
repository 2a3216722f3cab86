//! Deathmatch rules: damage through armour, splash and knockback, quad, frags and suicides,
//! item respawn timers, grenades.

mod common;

use std::sync::Arc;

use glam::Vec3;

use botarena::bot::control::ControllerConfig;
use botarena::bot::control::ScriptStep;
use botarena::game::rules::MatchRules;
use botarena::game::{Inventory, Weapon};
use botarena::map::builder::MapBuilder;
use botarena::physics::PhysicsParams;
use botarena::sim::SimEvent;
use botarena::sim::components::{PlayerStats, Vitals};
use botarena::tick::{Match, MatchConfig};
use common::scripted;

/// A closed 1024² room, floor at z 0, with two spawn points and a rocket launcher.
fn room() -> MapBuilder {
    let mut b = MapBuilder::new();
    let (lo, hi) = (-512.0, 512.0);
    b.solid(Vec3::new(lo, lo, -16.0), Vec3::new(hi, hi, 0.0), "F");
    b.solid(Vec3::new(lo, lo, 256.0), Vec3::new(hi, hi, 272.0), "C");
    b.solid(Vec3::new(lo - 16.0, lo, 0.0), Vec3::new(lo, hi, 256.0), "W");
    b.solid(Vec3::new(hi, lo, 0.0), Vec3::new(hi + 16.0, hi, 256.0), "W");
    b.solid(Vec3::new(lo, lo - 16.0, 0.0), Vec3::new(hi, lo, 256.0), "W");
    b.solid(Vec3::new(lo, hi, 0.0), Vec3::new(hi, hi + 16.0, 256.0), "W");
    b.point(
        "info_player_deathmatch",
        Vec3::new(-400.0, -400.0, 25.0),
        &[],
    );
    b.point(
        "info_player_deathmatch",
        Vec3::new(400.0, -400.0, 25.0),
        &[],
    );
    b.point("weapon_rocketlauncher", Vec3::new(300.0, 300.0, 0.0), &[]);
    b
}

fn fire(ticks: u32, yaw: f32, pitch: f32, weapon: Weapon) -> ScriptStep {
    ScriptStep {
        ticks,
        forward: 0.0,
        side: 0.0,
        up: 0.0,
        yaw,
        pitch,
        jump: false,
        fire: true,
        weapon: Some(weapon),
    }
}

fn match_with(players: Vec<botarena::tick::PlayerConfig>, rules: MatchRules) -> Match {
    let (level, cmap) = room().build();
    Match::new(
        Arc::new(level),
        cmap,
        &MatchConfig {
            seed: 5,
            tick_rate: 20,
            params: PhysicsParams::default(),
            players,
            rules,
            nav: None,
        },
    )
    .expect("the match builds")
}

fn give(m: &mut Match, i: usize, f: impl FnOnce(&mut Inventory)) {
    let e = m.sim.players[i].entity;
    f(&mut m.sim.world.get::<&mut Inventory>(e).unwrap());
}

fn vitals(m: &mut Match, i: usize, f: impl FnOnce(&mut Vitals)) {
    let e = m.sim.players[i].entity;
    f(&mut m.sim.world.get::<&mut Vitals>(e).unwrap());
}

fn stats(m: &Match, i: usize) -> botarena::sim::components::Stats {
    m.sim
        .world
        .get::<&PlayerStats>(m.sim.players[i].entity)
        .unwrap()
        .0
}

fn damage_events(m: &Match) -> Vec<(u32, Option<u32>, f32, &'static str)> {
    m.sim
        .events
        .iter()
        .filter_map(|e| match e {
            SimEvent::Damage {
                player,
                attacker,
                amount,
                cause,
            } => Some((*player, *attacker, *amount, *cause)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_shotgun_blast_goes_through_armour_and_is_credited_to_the_shooter() {
    let mut m = match_with(
        vec![
            scripted(
                "shooter",
                Vec3::new(0.0, 0.0, 25.0),
                0.0,
                ControllerConfig::Script(vec![fire(1, 0.0, 0.0, Weapon::Shotgun)]),
            ),
            scripted(
                "target",
                Vec3::new(200.0, 0.0, 25.0),
                180.0,
                ControllerConfig::Idle,
            ),
        ],
        MatchRules::default(),
    );
    vitals(&mut m, 1, |v| {
        v.armor = 100.0;
        v.armor_type = 0.3;
    });
    m.step();
    let hits = damage_events(&m);
    assert_eq!(hits.len(), 1, "all pellets add up to one hurt: {hits:?}");
    let (victim, attacker, amount, cause) = hits[0];
    assert_eq!(
        (victim, attacker, cause),
        (
            m.sim.players[1].id.0,
            Some(m.sim.players[0].id.0),
            "shotgun"
        )
    );
    // Pellets of 4: green armour takes ceil(0.3 × damage), health the rest.
    let dmg = amount;
    assert!(dmg > 0.0 && dmg <= 24.0 && dmg % 4.0 == 0.0, "{dmg}");
    let save = (0.3 * dmg).ceil();
    let v = m.sim.player_vitals(1).unwrap();
    assert_eq!(v.armor, 100.0 - save);
    assert_eq!(v.health, 100.0 - (dmg - save));
    assert_eq!(stats(&m, 0).damage_dealt, dmg);
    assert_eq!(stats(&m, 0).shots, 1);
    let inv = *m
        .sim
        .world
        .get::<&Inventory>(m.sim.players[0].entity)
        .unwrap();
    assert_eq!(inv.ammo[0], 24, "one shell spent");
    // The refire time holds the next shot back half a second.
    assert_eq!(inv.attack_ready, 10);
}

#[test]
fn rocket_splash_is_quakes_halved_for_the_shooter_and_pushes() {
    // The shooter fires straight down; the blast is 8 units above the floor under it.
    let mut m = match_with(
        vec![
            scripted(
                "shooter",
                Vec3::new(0.0, 0.0, 25.0),
                0.0,
                ControllerConfig::Script(vec![fire(1, 0.0, 90.0, Weapon::RocketLauncher)]),
            ),
            scripted(
                "near",
                Vec3::new(100.0, 0.0, 25.0),
                0.0,
                ControllerConfig::Idle,
            ),
        ],
        MatchRules::default(),
    );
    give(&mut m, 0, |inv| {
        inv.weapons |= Weapon::RocketLauncher.bit();
        inv.ammo[2] = 5;
    });
    // The rocket lands within the first tick: positions after it are those at the blast.
    m.step();
    let mut hits = damage_events(&m);
    let at_blast = [
        m.sim.player_state(0).unwrap().origin,
        m.sim.player_state(1).unwrap().origin,
    ];
    for _ in 0..2 {
        m.step();
        hits.extend(damage_events(&m));
    }
    assert_eq!(hits.len(), 2, "{hits:?}");
    // The trace stops 1/32 unit off the floor; the blast is pulled 8 units back up.
    let blast = Vec3::new(0.0, 0.0, 8.0 + 1.0 / 32.0);
    let centre = |o: Vec3| o + Vec3::new(0.0, 0.0, 4.0);
    let own = (120.0 - 0.5 * (blast - centre(at_blast[0])).length()) * 0.5;
    let other = 120.0 - 0.5 * (blast - centre(at_blast[1])).length();
    let shooter = m.sim.players[0].id.0;
    let near = m.sim.players[1].id.0;
    let got = |p: u32| hits.iter().find(|h| h.0 == p).map(|h| h.2).unwrap();
    assert_eq!(got(shooter), own.ceil(), "self splash halved");
    assert_eq!(got(near), other.ceil());
    assert_eq!(m.sim.player_vitals(0).unwrap().health, 100.0 - own.ceil());
    let v = m.sim.player_state(1).unwrap().velocity;
    assert!(v.x > 100.0, "knocked away from the blast: {v}");
    let inv = *m
        .sim
        .world
        .get::<&Inventory>(m.sim.players[0].entity)
        .unwrap();
    assert_eq!(inv.ammo[2], 4);
}

#[test]
fn quad_damage_multiplies_by_four_and_a_kill_scores_a_frag() {
    let mut m = match_with(
        vec![
            scripted(
                "axeman",
                Vec3::new(447.0, 0.0, 25.0),
                0.0,
                ControllerConfig::Script(vec![fire(40, 0.0, 0.0, Weapon::Axe)]),
            ),
            scripted(
                "victim",
                // Against the wall: the knockback cannot carry it out of reach.
                Vec3::new(495.0, 0.0, 25.0),
                0.0,
                ControllerConfig::Idle,
            ),
        ],
        MatchRules::default(),
    );
    give(&mut m, 0, |inv| inv.quad_until = 1000);
    m.step();
    let hits = damage_events(&m);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].2, 80.0, "20 × 4");
    // Two more swings (0.5 s apart) kill.
    let mut died = None;
    for _ in 0..30 {
        m.step();
        if let Some(SimEvent::Death { killer, cause, .. }) = m
            .sim
            .events
            .iter()
            .find(|e| matches!(e, SimEvent::Death { .. }))
        {
            died = Some((*killer, *cause));
        }
    }
    assert_eq!(died, Some((Some(m.sim.players[0].id.0), "axe")));
    assert_eq!(stats(&m, 0).frags, 1);
    assert_eq!(stats(&m, 0).kills, 1);
    assert_eq!(stats(&m, 1).deaths, 1);
    assert_eq!(stats(&m, 1).frags, 0);
}

#[test]
fn the_pentagram_blocks_damage_and_own_rockets_count_as_suicide() {
    let mut m = match_with(
        vec![scripted(
            "rocketeer",
            Vec3::new(0.0, 0.0, 25.0),
            0.0,
            ControllerConfig::Script(vec![fire(200, 0.0, 90.0, Weapon::RocketLauncher)]),
        )],
        MatchRules::default(),
    );
    give(&mut m, 0, |inv| {
        inv.weapons |= Weapon::RocketLauncher.bit();
        inv.ammo[2] = 50;
        inv.pent_until = 10;
    });
    for _ in 0..5 {
        m.step();
    }
    assert_eq!(
        m.sim.player_vitals(0).unwrap().health,
        100.0,
        "no damage under the pentagram"
    );
    let mut death = None;
    for _ in 0..100 {
        m.step();
        if let Some(SimEvent::Death { killer, cause, .. }) = m
            .sim
            .events
            .iter()
            .find(|e| matches!(e, SimEvent::Death { .. }))
        {
            death = Some((*killer, *cause));
            break;
        }
    }
    assert_eq!(death, Some((None, "rocket")), "its own rocket: no killer");
    let st = stats(&m, 0);
    assert_eq!((st.frags, st.suicides, st.deaths), (-1, 1, 1));
}

#[test]
fn items_respawn_after_quake_times_scaled_by_the_rules() {
    for (scale, secs) in [(1.0f32, 30.0f32), (0.5, 15.0)] {
        let walk = ScriptStep {
            ticks: 400,
            forward: 320.0,
            side: 0.0,
            up: 0.0,
            yaw: 45.0,
            pitch: 0.0,
            jump: false,
            fire: false,
            weapon: None,
        };
        let mut m = match_with(
            vec![scripted(
                "runner",
                Vec3::new(200.0, 200.0, 25.0),
                45.0,
                ControllerConfig::Script(vec![walk]),
            )],
            MatchRules {
                respawn_scale: scale,
                ..Default::default()
            },
        );
        let mut taken_at = None;
        let mut back_at = None;
        for _ in 0..1200 {
            m.step();

            if taken_at.is_none()
                && m.sim
                    .events
                    .iter()
                    .any(|e| matches!(e, SimEvent::Pickup { .. }))
            {
                taken_at = Some(m.sim.tick);
                assert_eq!(m.sim.item_available(0), Some(false));
            }
            if taken_at.is_some() && back_at.is_none() && m.sim.item_available(0) == Some(true) {
                back_at = Some(m.sim.tick);
            }
        }
        let (t, b) = (taken_at.expect("taken"), back_at.expect("back"));
        assert_eq!(b - t, (secs * 20.0) as u64, "scale {scale}");
        let inv = *m
            .sim
            .world
            .get::<&Inventory>(m.sim.players[0].entity)
            .unwrap();
        assert!(inv.has(Weapon::RocketLauncher));
        assert_eq!(inv.ammo[2], 5);
    }
}

#[test]
fn removed_items_never_appear_and_limits_end_the_match() {
    let mut m = match_with(
        vec![scripted(
            "idle",
            Vec3::new(0.0, 0.0, 25.0),
            0.0,
            ControllerConfig::Idle,
        )],
        MatchRules {
            time_limit: Some(2.0),
            removed_items: vec!["weapon_rocketlauncher".into()],
            ..Default::default()
        },
    );
    assert_eq!(m.sim.item_available(0), Some(false));
    let ran = botarena::scenario::run_match(&mut m, 1000, |_| {});
    assert_eq!(ran, 40, "2 s at 20 Hz");
    assert_eq!(m.game.over, Some("time limit"));
}

#[test]
fn a_grenade_bounces_and_explodes_when_its_fuse_runs_out() {
    let mut m = match_with(
        vec![
            scripted(
                "thrower",
                Vec3::new(-300.0, 0.0, 25.0),
                0.0,
                ControllerConfig::Script(vec![fire(1, 0.0, 0.0, Weapon::GrenadeLauncher)]),
            ),
            scripted(
                "far",
                Vec3::new(-300.0, 400.0, 25.0),
                0.0,
                ControllerConfig::Idle,
            ),
        ],
        MatchRules::default(),
    );
    give(&mut m, 0, |inv| {
        inv.weapons |= Weapon::GrenadeLauncher.bit();
        inv.ammo[2] = 5;
    });
    m.step();
    assert_eq!(m.game.combat.grenades.grenades().len(), 1);
    let mut lowest = f32::MAX;
    let mut rose_again = false;
    let mut last_z = f32::MAX;
    let mut explosion = None;
    for _ in 0..60 {
        if let Some(g) = m.game.combat.grenades.grenades().first() {
            let (p, _) = m.game.combat.grenades.motion(g);
            if p.z > last_z && last_z < 20.0 {
                rose_again = true;
            }
            last_z = p.z;
            lowest = lowest.min(p.z);
        }
        m.step();
        if explosion.is_none() && m.game.combat.grenades.grenades().is_empty() {
            explosion = Some(m.sim.tick);
        }
    }
    assert!(lowest > -2.0, "stays above the floor: {lowest}");
    assert!(rose_again, "bounced off the floor");
    // Fired at tick 0, fuse 2.5 s = 50 ticks; the stage that sees it run out is tick 50's.
    assert_eq!(explosion, Some(51));
}
