//! Replay files, any bytes: reading never panics, and a replay that reads gives its
//! summary and event counts. Half the inputs (first byte odd) get a correct checksum put
//! in their last 8 bytes, so that mutations reach the header, the hash table and the events
//! past the checksum test.
#![no_main]

use botarena::replay::Replay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flag, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if flag & 1 == 1 && bytes.len() >= 8 {
        let body = bytes.len() - 8;
        let sum = twox_hash::XxHash3_64::oneshot(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
    }
    let Ok(r) = Replay::from_bytes(&bytes, "fuzz.replay") else {
        return;
    };
    let _ = r.event_counts();
    let _ = r.summary(std::path::Path::new("fuzz.replay"));
});
