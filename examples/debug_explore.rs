use std::sync::Arc;
use botarena::map::{MapData, build_level};
use botarena::scenario::explore::{ExploreConfig, explore};
fn main() {
    let p = std::env::args().nth(1).unwrap();
    let (level, cmap) = build_level(MapData::load(std::path::Path::new(&p)).unwrap());
    let cfg = ExploreConfig { bots: 4, seconds: 120.0, seed: 1, tick_rate: 20, every: 5.0 };
    let sim = explore(Arc::new(level), cmap, &cfg, |sim| {
        let mut line = format!("t={:>4.0} wp={:>4} ", sim.time(), sim.waypoints.len());
        for i in 0..sim.players.len() {
            let s = sim.player_state(i).unwrap();
            let st = sim.player_move_status(i).unwrap();
            line += &format!("[{:.0} {:.0} {:.0} {:?} v{:.0}] ", s.origin.x, s.origin.y, s.origin.z, st, s.velocity.truncate().length());
        }
        println!("{line}");
    }).unwrap();
    probe(&sim, 0);
    probe(&sim, 3);
}

#[allow(dead_code)]
fn probe(sim: &botarena::Sim, i: usize) {
    use botarena::bot::movement::safe_run;
    let s = sim.player_state(i).unwrap();
    for k in 0..8 {
        let a = (45.0 * k as f32).to_radians();
        let dir = glam::Vec3::new(a.cos(), a.sin(), 0.0);
        println!("bot {i} dir {k}: safe {:.0}", safe_run(&sim.cmap, s.origin, dir, 512.0, 200.0));
    }
    let e = sim.players[i].1;
    println!("ctrl {:?} on_ground {:?} water {} {:?}", *sim.world.get::<&botarena::sim::components::Controller>(e).unwrap(), s.on_ground, s.water_level, s.water_type);
}
