//! Diagnostics for a match: every N ticks, each player's position, health, goal and weapon.
//! `cargo run --release --example match_probe -- SCENARIO [EVERY]`
use botarena::scenario::Scenario;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sc = Scenario::load(std::path::Path::new(&args[1])).expect("scenario");
    let every: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let mut m = sc.build().expect("build");
    for _ in 0..sc.ticks {
        m.step();
        for e in &m.sim.events {
            if matches!(e, botarena::sim::SimEvent::Death { .. }) && std::env::var("DEATHS").is_ok()
            {
                println!("t{} {:?}", m.sim.tick, e);
            }
        }
        if m.sim.tick.is_multiple_of(every) {
            for i in 0..m.sim.players.len() {
                let s = m.sim.player_state(i).unwrap();
                let v = m.sim.player_vitals(i).unwrap();
                let e = m.sim.players[i].entity;
                let goal = m
                    .sim
                    .world
                    .get::<&botarena::bot::brain::Brain>(e)
                    .map(|b| format!("{:?}", b.goal))
                    .unwrap_or_default();
                let st = m
                    .sim
                    .world
                    .get::<&botarena::sim::components::Still>(e)
                    .map(|s| s.seconds)
                    .unwrap_or(0.0);
                println!(
                    "t{} {} ({:.0} {:.0} {:.0}) h{} still {:.1} {} {:?}",
                    m.sim.tick,
                    m.sim.player_name(i).unwrap(),
                    s.origin.x,
                    s.origin.y,
                    s.origin.z,
                    v.health,
                    st,
                    goal,
                    m.player_move_status(i)
                );
            }
        }
    }
}
