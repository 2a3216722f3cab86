//! Inputs that would take unbounded memory or time are refused with a message, exit 2,
//! before the work: a scenario of 100 MB, a map of more brushes than any map holds, a
//! replay claiming 2^40 ticks, a run of more ticks than a scenario may ask.

mod common;

use common::{TempDir, bin};

fn refused(args: &[&std::ffi::OsStr], words: &[&str]) {
    let o = bin().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{w:?} missing from {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_huge_scenario_is_refused_unread() {
    let dir = TempDir::with_arena("lim-scenario");
    let f = dir.join("s/huge.toml");
    let file = std::fs::File::create(&f).unwrap();
    file.set_len(100 << 20).unwrap();
    refused(
        &["run".as_ref(), f.as_os_str()],
        &[
            "huge.toml",
            "104857600 bytes",
            "more than a scenario may be",
        ],
    );
}

#[test]
fn a_map_of_too_many_brushes_is_refused_before_parsing() {
    let dir = TempDir::with_arena("lim-brushes");
    let n = botarena::map::MAX_BRUSHES + 1;
    let mut text = String::with_capacity(n * 4 + 64);
    text.push_str("{\n\"classname\" \"worldspawn\"\n");
    for _ in 0..n {
        text.push_str("{\n}\n");
    }
    text.push_str("}\n");
    let map = dir.join("maps/many.map");
    std::fs::write(&map, text).unwrap();
    refused(
        &["map".as_ref(), "info".as_ref(), map.as_os_str()],
        &[
            "many.map",
            &format!("{n} brushes"),
            "more than a map may have",
        ],
    );
    std::fs::write(
        dir.join("s/many.toml"),
        "map = \"../maps/many.map\"\n[[players]]\nname = \"a\"\n",
    )
    .unwrap();
    refused(
        &["run".as_ref(), dir.join("s/many.toml").as_os_str()],
        &["more than a map may have"],
    );
}

#[test]
fn a_replay_claiming_2_to_the_40_ticks_is_refused() {
    let dir = TempDir::new("lim-replay");
    let rec = dir.join("duel.replay");
    let o = bin()
        .args(["run", "scenarios/duel.toml", "--ticks", "5", "--record"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Rewrite its tick count (header and table) to 2^40, with a checksum that matches.
    let b = std::fs::read(&rec).unwrap();
    let hlen = u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&b[12..12 + hlen]).unwrap();
    let ticks = 1u64 << 40;
    header["ticks"] = ticks.into();
    let h = serde_json::to_vec(&header).unwrap();
    let mut out = b[..8].to_vec();
    out.extend_from_slice(&(h.len() as u32).to_le_bytes());
    out.extend_from_slice(&h);
    out.extend_from_slice(&ticks.to_le_bytes());
    out.extend_from_slice(&b[12 + hlen + 8..b.len() - 8]);
    let sum = twox_hash::XxHash3_64::oneshot(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    let bad = dir.join("claims.replay");
    std::fs::write(&bad, out).unwrap();
    for verify in [false, true] {
        let mut args = vec!["replay".as_ref(), bad.as_os_str()];
        if verify {
            args.push("--verify".as_ref());
        }
        refused(&args, &["claims.replay", "1099511627776 ticks claimed"]);
    }
}

#[test]
fn a_run_longer_than_a_scenario_may_ask_is_refused() {
    for cmd in [
        &["run", "scenarios/duel.toml", "--ticks", "100000000000"][..],
        &["run", "scenarios/duel.toml", "--ticks", "0"][..],
    ] {
        let args: Vec<&std::ffi::OsStr> = cmd.iter().map(|s| s.as_ref()).collect();
        refused(&args, &["--ticks"]);
    }
}
