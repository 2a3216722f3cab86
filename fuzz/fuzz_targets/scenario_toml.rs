//! Scenario TOML, any text, read as a file in the project's scenarios/ folder (so that
//! `../maps/arena.map` resolves): checking never panics, and a scenario that passes builds
//! a match that runs a few ticks.
#![no_main]

use std::path::PathBuf;

use botarena::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scenarios/fuzz.toml"
    ));
    let Ok(s) = Scenario::parse(text, &path) else {
        return;
    };
    let Ok(mut m) = s.build() else {
        return;
    };
    m.sim.threads = 1;
    for _ in 0..4 {
        m.step();
    }
    for i in 0..m.sim.players.len() {
        let p = m.sim.player_state(i).expect("every player has a state");
        assert!(
            p.origin.is_finite(),
            "a player's origin stays finite: {}",
            p.origin
        );
    }
});
