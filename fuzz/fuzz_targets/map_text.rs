//! `.map` text, any bytes: parsing never panics, and a map that parses builds a level and a
//! collision world, answers `map info` (text and JSON) and traces a box across itself.
#![no_main]

use botarena::map::info::MapInfo;
use botarena::map::{Contents, MapData, build_level};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(map) = MapData::parse(data, "fuzz.map", "fuzz") else {
        return;
    };
    let (level, cmap) = build_level(map);
    let info = MapInfo::new(&level, &cmap);
    let _ = info.to_text();
    serde_json::to_string(&info).expect("map info serialises");
    let (lo, hi) = cmap.bounds();
    let (mins, maxs) = (
        glam::Vec3::new(-16., -16., -24.),
        glam::Vec3::new(16., 16., 32.),
    );
    let t = cmap.trace(lo, hi, mins, maxs, Contents::MASK_PLAYER, None);
    assert!(
        t.fraction.is_nan() || (0.0..=1.0).contains(&t.fraction),
        "a trace's fraction is within 0..=1: {}",
        t.fraction
    );
});
