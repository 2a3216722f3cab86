//! Whether players stay inside the world: 8 brain bots per map for a number of seconds,
//! each seed in turn; prints, per map and seed, the player-ticks spent in the void
//! ([`botarena::game::life::in_the_void`]), deaths by cause, and the lowest any player got
//! below the map's brushes.
//!
//! `cargo run --release --example void_check -- SECONDS SEEDS MAP...` (SEEDS as `1..=3`).

use std::collections::BTreeMap;
use std::path::Path;

use botarena::game::life::in_the_void;
use botarena::scenario::Scenario;
use botarena::sim::SimEvent;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: u64 = args.get(1).and_then(|s| s.parse().ok()).expect("SECONDS");
    let seeds = botarena::scenario::batch::parse_seeds(args.get(2).expect("SEEDS")).unwrap();
    for map in &args[3..] {
        let map = Path::new(map).canonicalize().expect("map");
        for &seed in &seeds {
            let mut text = format!(
                "map = {:?}\nseed = {seed}\ntick_rate = 20\nticks = {}\ntime_limit = {secs}\nthreads = 1\n",
                map.display().to_string(),
                secs * 20
            );
            for i in 0..8 {
                text.push_str(&format!("[[players]]\nname = \"bot{i}\"\n"));
            }
            let s = Scenario::parse(&text, Path::new("/tmp/void_check.toml")).unwrap();
            let mut m = s.build().unwrap();
            let bounds = m.sim.cmap.bounds();
            let (mut void_ticks, mut lowest) = (0u64, f32::INFINITY);
            let mut causes: BTreeMap<&'static str, u32> = BTreeMap::new();
            for _ in 0..s.ticks {
                m.step();
                for e in &m.sim.events {
                    if let SimEvent::Death { cause, .. } = e {
                        *causes.entry(cause).or_default() += 1;
                    }
                }
                for i in 0..m.sim.players.len() {
                    let alive = m.sim.player_vitals(i).is_some_and(|v| v.alive);
                    let Some(st) = m.sim.player_state(i) else {
                        continue;
                    };
                    if alive {
                        void_ticks += in_the_void(st.origin, bounds) as u64;
                        lowest = lowest.min(st.origin.z - bounds.0.z);
                    }
                }
                if m.game.over.is_some() {
                    break;
                }
            }
            println!(
                "{} seed {seed}: {void_ticks} player-ticks in the void, lowest {lowest:.0} above the map's floor; deaths {causes:?}",
                map.file_stem().unwrap().to_string_lossy()
            );
        }
    }
}
