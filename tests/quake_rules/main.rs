//! Quake's rules, each checked against a number taken from id Software's GPL source
//! (QuakeWorld's `sv_phys.c` and `pmove.c`, the QuakeC of `qw-qc`): the file and function
//! are named beside each expectation.
//!
//! Files: this one (the helpers several subjects share), `weapons_items`, `players`,
//! `jump_pads`, `triggers`.

#[path = "../common/mod.rs"]
mod common;

mod jump_pads;
mod players;
mod triggers;
mod weapons_items;

use std::sync::Arc;

use glam::Vec3;

use botarena::bot::control::{ControllerConfig, ScriptStep};
use botarena::game::rules::MatchRules;
use botarena::game::{Inventory, Weapon};
use botarena::map::builder::MapBuilder;
use botarena::physics::PhysicsParams;
use botarena::sim::SimEvent;
use botarena::sim::components::Vitals;
use botarena::tick::{Match, PlayerConfig};
use common::scripted;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// A closed box from (`x0`, `y0`) to (`x1`, `y1`), floor at z 0, ceiling at 512.
fn closed_box(x0: f32, x1: f32, y0: f32, y1: f32) -> MapBuilder {
    let mut b = MapBuilder::new();
    b.solid(v(x0, y0, -16.0), v(x1, y1, 0.0), "F");
    b.solid(v(x0, y0, 512.0), v(x1, y1, 528.0), "C");
    b.solid(v(x0 - 16.0, y0, 0.0), v(x0, y1, 512.0), "W");
    b.solid(v(x1, y0, 0.0), v(x1 + 16.0, y1, 512.0), "W");
    b.solid(v(x0, y0 - 16.0, 0.0), v(x1, y0, 512.0), "W");
    b.solid(v(x0, y1, 0.0), v(x1, y1 + 16.0, 512.0), "W");
    b
}

/// A closed room 2048 × 1024, floor at z 0, ceiling at 512, two spawn points.
fn room() -> MapBuilder {
    let mut b = closed_box(-1024.0, 1024.0, -512.0, 512.0);
    b.point("info_player_deathmatch", v(-900.0, -400.0, 25.0), &[]);
    b.point("info_player_deathmatch", v(-900.0, 400.0, 25.0), &[]);
    b
}

fn match_in(b: &MapBuilder, players: Vec<PlayerConfig>, rules: MatchRules) -> Match {
    let (level, cmap) = b.build();
    Match::new(
        Arc::new(level),
        cmap,
        &botarena::tick::MatchConfig {
            seed: 3,
            tick_rate: 20,
            params: PhysicsParams::default(),
            players,
            rules,
            nav: None,
        },
    )
    .expect("the match builds")
}

fn step(ticks: u32, yaw: f32, pitch: f32) -> ScriptStep {
    ScriptStep {
        ticks,
        forward: 0.0,
        side: 0.0,
        up: 0.0,
        yaw,
        pitch,
        jump: false,
        fire: false,
        weapon: None,
    }
}

/// `ticks` ticks of running forward at full speed facing `yaw`.
fn run_at(ticks: u32, yaw: f32) -> ScriptStep {
    ScriptStep {
        ticks,
        yaw,
        forward: 320.0,
        ..Default::default()
    }
}

fn give(m: &mut Match, i: usize, f: impl FnOnce(&mut Inventory)) {
    let e = m.sim.players[i].entity;
    f(&mut m.sim.world.get::<&mut Inventory>(e).unwrap());
}

fn vitals(m: &Match, i: usize) -> Vitals {
    *m.sim.world.get::<&Vitals>(m.sim.players[i].entity).unwrap()
}

fn set_vitals(m: &mut Match, i: usize, f: impl FnOnce(&mut Vitals)) {
    let e = m.sim.players[i].entity;
    f(&mut m.sim.world.get::<&mut Vitals>(e).unwrap());
}

/// QuakeWorld's SV_Physics_Toss over a flat floor at `dt` (gravity, then the move; a floor
/// hit reflects with backoff 1.5 and stops the grenade when less than 60 u/s upward is
/// left): where a grenade launched at height `z0` with (`vx`, `vz`) comes to rest.
fn quake_toss_rest(z0: f32, vx: f32, vz: f32, dt: f32) -> f32 {
    let (mut x, mut z, mut vz) = (0.0f32, z0, vz);
    loop {
        vz -= 800.0 * dt;
        let nz = z + vz * dt;
        if nz <= 0.0 {
            x += vx * dt * z / (z - nz);
            z = 0.0;
            vz *= -0.5;
            if vz < 60.0 {
                return x;
            }
        } else {
            x += vx * dt;
            z = nz;
        }
    }
}

/// A match in `b` whose one player, at (`x`, 0) facing +x, fires a grenade level on its
/// first tick.
fn grenadier(b: &MapBuilder, x: f32) -> Match {
    let mut m = match_in(
        b,
        vec![scripted(
            "thrower",
            v(x, 0.0, 25.0),
            0.0,
            ControllerConfig::Script(vec![ScriptStep {
                fire: true,
                weapon: Some(Weapon::GrenadeLauncher),
                ..step(1, 0.0, 0.0)
            }]),
        )],
        MatchRules::default(),
    );
    give(&mut m, 0, |inv| {
        inv.weapons |= Weapon::GrenadeLauncher.bit();
        inv.ammo[2] = 5;
    });
    m
}

/// A hall with a ledge 128 high (x ≥ 400) that nothing but a push reaches: a
/// `trigger_push` box on the floor at x 0..64 throws players up and along +x.
fn jump_pad_hall(flags: &str) -> MapBuilder {
    let (y0, y1) = (-256.0, 256.0);
    let mut b = closed_box(-512.0, 1024.0, y0, y1);
    b.solid(v(400.0, y0, 0.0), v(1024.0, y1, 128.0), "LEDGE");
    b.brush_entity(
        &[
            ("classname", "trigger_push"),
            ("angles", "-45 0 0"),
            ("speed", "80"),
            ("spawnflags", flags),
        ],
        &[(v(0.0, -32.0, 0.0), v(64.0, 32.0, 64.0), "TRIGGER")],
    );
    b.point("info_player_deathmatch", v(-400.0, 0.0, 25.0), &[]);
    b.point("item_armor1", v(-300.0, 0.0, 0.0), &[]);
    b.point("weapon_supershotgun", v(800.0, 0.0, 128.0), &[]);
    b
}

fn runner(name: &str, x: f32, wait: u32) -> PlayerConfig {
    scripted(
        name,
        v(x, 0.0, 25.0),
        0.0,
        ControllerConfig::Script(vec![step(wait.max(1), 0.0, 0.0), run_at(150, 0.0)]),
    )
}
