//! Replay files, any bytes: reading never panics, and a replay that reads gives its
//! summary and event counts.
#![no_main]

use botarena::replay::Replay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(r) = Replay::from_bytes(data, "fuzz.replay") else {
        return;
    };
    let _ = r.event_counts();
    let _ = r.summary(std::path::Path::new("fuzz.replay"));
});
