//! Diagnostics for an exploration: every N ticks each explorer's position, speed, what it is
//! doing (the explorer's busy part and target) and the movement stage's status, with
//! teleports and deaths as they happen.
//! `cargo run --release --example explore_probe -- MAP SEED [EVERY] [SECONDS] [NEAR]`
//! (`NEAR` = `x,y,r`: print only players within `r` units across of (x, y), and every tick;
//! and every `EVERY` ticks the movers whose middle lies there: index, offset, phase).
use std::sync::Arc;

use botarena::bot::control::Controller;
use botarena::bot::explore::{Activity, Explorer};
use botarena::scenario::explore::{ExploreConfig, explore};

/// What the explorer is busy with, in a few words.
fn busy(e: &Explorer) -> String {
    let mut w = Vec::new();
    let v = |p: glam::Vec3| format!("({:.0} {:.0} {:.0})", p.x, p.y, p.z);
    match e.activity {
        Activity::Nothing => {}
        Activity::Button(b, t) => w.push(format!("button {b} {t:.1}")),
        Activity::Lift(l, t) => w.push(format!("lift {l} {t:.1}")),
        Activity::Teleporter(l, t) => w.push(format!("teleporter {l} {t:.1}")),
        Activity::UnderLift(_) => w.push("under_lift".into()),
        Activity::Doorway(d, p, t) => w.push(format!("doorway {d} {} {t:.1}", v(p))),
        Activity::Dive(p, t) => w.push(format!("dive {} {t:.1}", v(p))),
        Activity::Pool(p, t) => w.push(format!("pool {} {t:.1}", v(p))),
        Activity::Swim(p, t) => w.push(format!("swim {} {t:.1}", v(p))),
        Activity::Floor(f, p, t, back) => {
            w.push(format!("floor {f} {} {t:.1} {back}", v(p)));
        }
    }
    if let Some((p, t)) = e.gate {
        w.push(format!("gate {} {t:.1}", v(p)));
    }
    if e.run.is_some() {
        w.push("run".into());
    }
    if e.settling {
        w.push("settling".into());
    }
    if let Some(t) = e.target {
        w.push(format!("target {}", v(t)));
    }
    if let Some(i) = e.item {
        w.push(format!("item {i}"));
    }
    w.join(" ")
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let map = std::path::Path::new(&a[1]);
    let seed: u64 = a[2].parse().expect("seed");
    let every: u64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    let seconds: f64 = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(600.0);
    let near: Option<Vec<f32>> = a
        .get(5)
        .map(|s| s.split(',').map(|x| x.parse().expect("x,y,r")).collect());
    let (level, cmap) = botarena::map::load_level(map).expect("map");
    let cfg = ExploreConfig {
        bots: 4,
        seconds,
        seed,
        tick_rate: 20,
        every: 0.05,
        connect: false,
    };
    // Within the place given (across, height aside); false where none was given.
    let close = |p: glam::Vec3| {
        near.as_ref()
            .is_some_and(|n| (p.truncate() - glam::Vec2::new(n[0], n[1])).length() <= n[2])
    };
    explore(Arc::new(level), cmap, &cfg, |m| {
        let tick = m.sim.tick;
        for e in &m.sim.events {
            match e {
                botarena::sim::SimEvent::Teleport { .. }
                | botarena::sim::SimEvent::Death { .. }
                | botarena::sim::SimEvent::Pickup { .. } => println!("t{tick} {e:?}"),
                // Waypoints dropped: those of a kind other than normal, and any near the place.
                botarena::sim::SimEvent::WaypointDrop { player, waypoint } => {
                    if let Some(w) = m.learned.waypoints.get(*waypoint)
                        && (!matches!(w.kind, botarena::nav::waypoints::WaypointKind::Normal)
                            || close(w.origin))
                    {
                        println!(
                            "t{tick} drop {waypoint} by {player} {:?} at {:?}",
                            w.kind, w.origin
                        );
                    }
                }
                _ => {}
            }
        }
        // Near a place: the movers there (offset and phase) every `every` ticks, so a
        // probe shows a plat or floor door with the bots on it.
        if near.is_some() {
            let mut line = String::new();
            for (index, def) in m.sim.level.movers.iter().enumerate() {
                let c = (def.mins + def.maxs) * 0.5;
                if !close(c) {
                    continue;
                }
                if let Ok(slot) = m
                    .sim
                    .world
                    .get::<&botarena::sim::components::MoverSlot>(m.sim.movers[index])
                {
                    let st = slot.state;
                    let o = st.offset;
                    line.push_str(&format!(
                        " m{index} ({:.0} {:.0} {:.0}) {:?}",
                        o.x, o.y, o.z, st.phase
                    ));
                }
            }
            if !line.is_empty() && tick.is_multiple_of(every) {
                println!("t{tick} movers{line}");
            }
        }
        for i in 0..m.sim.players.len() {
            let s = m.sim.player_state(i).expect("player");
            if near.is_some() {
                if !close(s.origin) {
                    continue;
                }
            } else if !tick.is_multiple_of(every) {
                continue;
            }
            let c = m
                .sim
                .world
                .get::<&Controller>(m.sim.players[i].entity)
                .expect("controller");
            let what = match &*c {
                Controller::Explore(e) => busy(e),
                _ => String::new(),
            };
            // The routing stage's pick, where it has one (a gate, a detour).
            let route = m
                .sim
                .world
                .get::<&botarena::bot::routing::RouteState>(m.sim.players[i].entity)
                .ok()
                .and_then(|r| {
                    let n = r.next?;
                    let p = m.learned.waypoints.get(n)?.origin;
                    Some(format!(
                        " next {n} ({:.0} {:.0} {:.0}) prev {:?} direct {}",
                        p.x, p.y, p.z, r.previous, r.direct
                    ))
                })
                .unwrap_or_default();
            println!(
                "t{tick} {:.2}s p{i} ({:.0} {:.0} {:.0}) v{:.0} g{} w{} {what}{route} {:?}",
                tick as f64 / 20.0,
                s.origin.x,
                s.origin.y,
                s.origin.z,
                s.velocity.truncate().length(),
                u8::from(s.on_ground.is_some()),
                s.water_level,
                m.player_move_status(i)
            );
        }
    })
    .expect("explore");
}
