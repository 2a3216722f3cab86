//! Scenario TOML, any text, read as a file in the project's scenarios/ folder (so that
//! `../maps/arena.map` resolves): checking never panics, and a scenario that passes builds
//! a match that runs a few ticks.
//!
//! The compiled navigation a scenario needs is made once per map, tick rate and `nav` file
//! in a run (as the vector env makes it once per scenario): compiling it for each input
//! took most of the time, on inputs that differ from each other in other keys.
#![no_main]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use botarena::aas::NavMesh;
use botarena::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

/// Navigation made so far, by map, tick rate and `nav` file.
type Made = BTreeMap<(PathBuf, u32, Option<PathBuf>), Arc<NavMesh>>;

static MADE: Mutex<Made> = Mutex::new(BTreeMap::new());

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
    let Ok((level, cmap)) = s.load_map() else {
        return;
    };
    if s.check_map(&level, &cmap).is_err() {
        return;
    }
    let nav = if s.needs_navigation() || s.nav.is_some() {
        let key = (
            s.map.clone(),
            s.tick_rate,
            s.nav.as_ref().map(|n| n.0.clone()),
        );
        let made = MADE.lock().expect("not poisoned").get(&key).cloned();
        match made {
            Some(nav) => Some(nav),
            None => {
                let Ok(Some(nav)) = s.navigation(&level, &cmap) else {
                    return;
                };
                MADE.lock()
                    .expect("not poisoned")
                    .insert(key, Arc::clone(&nav));
                Some(nav)
            }
        }
    } else {
        None
    };
    let Ok(mut m) = s.build_with(Arc::new(level), cmap, nav) else {
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
