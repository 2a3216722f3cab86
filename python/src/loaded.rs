//! The map and navigation a single env's resets share: a gym env rebuilds its match from
//! the scenario file at every reset, and loading the map (and compiling its navigation,
//! for a scenario with compiled-navigation bots) is most of that. The last scenario's are
//! kept, keyed by the scenario's text, the players made external and the map file's bytes,
//! so an edited scenario or map is loaded afresh.

use std::sync::{Arc, Mutex};

use botarena::aas::NavMesh;
use botarena::map::{CollisionMap, Level};
use botarena::scenario::Scenario;
use botarena::tick::Match;

/// What a build reused: the key and what it made.
struct Loaded {
    key: (std::path::PathBuf, String, Vec<String>, Vec<u8>),
    level: Arc<Level>,
    cmap: CollisionMap,
    nav: Option<Arc<NavMesh>>,
}

static LAST: Mutex<Option<Loaded>> = Mutex::new(None);

/// Builds the match of `sc` (loaded from a file whose text is `text`, with the players in
/// `external` made external): on the map and navigation of the last build when the
/// scenario, those players and the map file are the same, else loading them (and keeping
/// them for the next).
pub fn build(sc: &Scenario, text: &str, external: &[String]) -> Result<Match, String> {
    // A map that cannot be read, or one too large to be loaded, is refused by the
    // ordinary build, with its message.
    let bytes = std::fs::metadata(&sc.map)
        .ok()
        .filter(|m| m.len() <= botarena::map::MAX_MAP_BYTES as u64)
        .and_then(|_| std::fs::read(&sc.map).ok());
    let Some(bytes) = bytes else {
        return sc.build().map_err(|e| e.to_string());
    };
    let key = (sc.map.clone(), text.to_string(), external.to_vec(), bytes);
    let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(l) = last.as_ref().filter(|l| l.key == key) {
        return sc
            .build_with(Arc::clone(&l.level), l.cmap.clone(), l.nav.clone())
            .map_err(|e| e.to_string());
    }
    let (level, cmap) = sc.load_map().map_err(|e| e.to_string())?;
    let level = Arc::new(level);
    let m = sc
        .build_on(Arc::clone(&level), cmap.clone())
        .map_err(|e| e.to_string())?;
    let nav = m.nav.as_ref().map(|n| Arc::clone(&n.mesh));
    *last = Some(Loaded {
        key,
        level,
        cmap,
        nav,
    });
    Ok(m)
}
