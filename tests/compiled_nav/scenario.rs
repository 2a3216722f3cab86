//! Compiled navigation in scenarios: the same hashes for any thread count, a brain bot
//! collecting items on the arena, and the navigation keys checked with file and line.

use super::*;

#[test]
fn compiled_matches_hash_the_same_for_any_thread_count() {
    let s = Scenario::load(&root().join("scenarios/compiled_duel.toml")).unwrap();
    let mut hashes = Vec::new();
    for threads in [1, 2, 4] {
        let mut m = s.build().unwrap();
        m.sim.threads = threads;
        let mut per_tick = Vec::new();
        for _ in 0..1200 {
            m.step();
            per_tick.push(m.state_hash());
        }
        // The compiled bot did route (it has an area and has been given goals).
        let nav: AreaNav = m.sim.player_component(0).unwrap();
        assert_eq!(nav.navigation, Navigation::Compiled);
        assert!(
            nav.area.is_some(),
            "the compiled bot never stood in an area"
        );
        hashes.push(per_tick);
    }
    assert_eq!(hashes[0], hashes[1], "1 vs 2 threads");
    assert_eq!(hashes[0], hashes[2], "1 vs 4 threads");
}

#[test]
fn a_compiled_brain_bot_collects_items_on_the_arena() {
    // A brain bot against an idle one for 120 s, knowing the map from tick 0 or learning it.
    let dir = TempDir::with_arena("compiled-nav-items");
    let mut pickups = Vec::new();
    for nav in ["compiled", "learned"] {
        let s = scenario(
            &dir,
            &format!(
                "{HEAD}[[players]]\nname = \"a\"\nnavigation = \"{nav}\"\n[[players]]\nname = \"idle\"\ncontroller = \"idle\"\n"
            ),
        )
        .unwrap();
        let mut m = s.build().unwrap();
        for _ in 0..2400 {
            m.step();
        }
        pickups.push(m.sim.player_stats(0).unwrap().pickups);
    }
    println!(
        "pickups in 120 s: compiled {}, learned {}",
        pickups[0], pickups[1]
    );
    assert!(
        pickups[0] >= 10,
        "the compiled bot picked up {}",
        pickups[0]
    );
}

#[test]
fn navigation_keys_are_checked_with_file_and_line() {
    let dir = TempDir::with_arena("compiled-nav-keys");
    let e = scenario(
        &dir,
        &format!("{HEAD}[[players]]\nname = \"a\"\nnavigation = \"psychic\"\n"),
    )
    .unwrap_err();
    assert!(
        e.contains("test.toml:6:") && e.contains("unknown navigation \"psychic\""),
        "{e}"
    );
    let e = scenario(&dir, &format!("nav = \"missing.nav\"\n{HEAD}")).unwrap_err();
    assert!(
        e.contains("test.toml:1:") && e.contains("missing.nav") && e.contains("does not exist"),
        "{e}"
    );
    // A .nav made for another map, and one made at another tick rate.
    let (level, cmap) = shipped("proving");
    let other = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    botarena::aas::file::save(&other, &dir.join("s/other.nav")).unwrap();
    let s = scenario(
        &dir,
        &format!(
            "nav = \"other.nav\"\n{HEAD}[[players]]\nname = \"a\"\nnavigation = \"compiled\"\n"
        ),
    )
    .unwrap();
    let e = s.build().err().expect("wrong map refused").to_string();
    assert!(e.contains("test.toml:1:") && e.contains("nav:"), "{e}");
    let (level, cmap) = shipped("arena");
    let params = CompileParams {
        tick_rate: 40,
        ..Default::default()
    };
    let fast: NavMesh = compile(&level, &cmap, &params, &mut |_, _, _| {}).unwrap();
    botarena::aas::file::save(&fast, &dir.join("s/fast.nav")).unwrap();
    let s = scenario(
        &dir,
        &format!(
            "nav = \"fast.nav\"\n{HEAD}[[players]]\nname = \"a\"\nnavigation = \"compiled\"\n"
        ),
    )
    .unwrap();
    let e = s.build().err().expect("tick rate refused").to_string();
    assert!(
        e.contains("test.toml:1:") && e.contains("40 Hz") && e.contains("20 Hz"),
        "{e}"
    );
    // The right file is used as given.
    let (level, cmap) = shipped("arena");
    let good = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    botarena::aas::file::save(&good, &dir.join("s/arena.nav")).unwrap();
    let s = scenario(
        &dir,
        &format!(
            "nav = \"arena.nav\"\n{HEAD}[[players]]\nname = \"a\"\nnavigation = \"compiled\"\n"
        ),
    )
    .unwrap();
    let mut m = s.build().unwrap();
    m.step();
    assert_eq!(
        m.nav.as_ref().unwrap().mesh.reaches().len(),
        good.reaches().len()
    );
}
