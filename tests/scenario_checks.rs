//! Scenario values checked at load: numbers finite and within range, player names unique,
//! item classes known (with "did you mean"), a `start` inside the map and clear of brushes,
//! at least one player, a map without spawn points named at its worldspawn. Each refusal
//! names the file, line and key; through `botarena run` it exits 2 and nothing runs.

mod common;

use common::{TempDir, bin};

const MAP: &str = "map = \"../maps/arena.map\"\n";

/// Writes `text` as `s/NAME.toml` beside a copy of the arena and runs it; returns the exit
/// status, stdout and stderr.
fn run(dir: &TempDir, name: &str, text: &str) -> (i32, String, String) {
    let f = dir.join("s").join(format!("{name}.toml"));
    std::fs::write(&f, text).unwrap();
    let o = bin()
        .arg("run")
        .arg(&f)
        .args(["--ticks", "3"])
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Asserts the scenario is refused with exit 2, at `file:line:`, with every word in `words`.
fn refused(dir: &TempDir, name: &str, text: &str, line: usize, words: &[&str]) {
    let (code, out, err) = run(dir, name, text);
    assert_eq!(code, 2, "{name}: exit {code}\n{err}");
    assert!(out.is_empty(), "{name}: nothing runs, got {out}");
    assert!(
        err.contains(&format!("{name}.toml:{line}:")),
        "{name}: the error names line {line}: {err}"
    );
    for w in words {
        assert!(err.contains(w), "{name}: {w:?} missing from {err}");
    }
}

fn script(step: &str) -> String {
    format!(
        "{MAP}[[players]]\nname = \"a\"\ncontroller = \"script\"\nscript = [\n  {{ ticks = 2 }},\n  {step},\n]\n"
    )
}

#[test]
fn script_numbers_must_be_finite_and_in_range() {
    let dir = TempDir::with_arena("chk-script");
    for (name, step, key) in [
        ("nan", "{ ticks = 5, forward = nan }", "forward"),
        ("inf", "{ ticks = 5, side = inf }", "side"),
        ("ninf", "{ ticks = 5, up = -inf }", "up"),
        ("huge", "{ ticks = 5, forward = 1e30 }", "forward"),
        ("yaw", "{ ticks = 5, yaw = 1e9 }", "yaw"),
        ("pitch", "{ ticks = 5, pitch = 120 }", "pitch"),
        ("zero", "{ ticks = 0 }", "ticks"),
    ] {
        refused(&dir, name, &script(step), 7, &[key]);
    }
    // Within range, a script runs.
    let (code, _, err) = run(
        &dir,
        "fine",
        &script("{ ticks = 5, forward = 320, yaw = -90, pitch = 30 }"),
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn player_numbers_must_be_finite_and_in_range() {
    let dir = TempDir::with_arena("chk-player");
    let p = format!("{MAP}[[players]]\nname = \"a\"\n");
    refused(
        &dir,
        "startnan",
        &format!("{p}start = [0, nan, 0]\n"),
        4,
        &["start", "finite"],
    );
    refused(
        &dir,
        "startbig",
        &format!("{p}start = [1e7, 0, 0]\n"),
        4,
        &["start"],
    );
    refused(
        &dir,
        "yawbig",
        &format!("{p}start = [-300, 0, 25]\nyaw = 1000\n"),
        5,
        &["yaw", "-360..=360"],
    );
    refused(
        &dir,
        "yawalone",
        &format!("{p}yaw = 90\n"),
        4,
        &["yaw", "start"],
    );
    refused(
        &dir,
        "sightinf",
        &format!("{p}sight = inf\n"),
        4,
        &["sight"],
    );
    refused(
        &dir,
        "reactnan",
        &format!("{p}reaction = nan\n"),
        4,
        &["reaction"],
    );
    let g = format!("{MAP}[[players]]\nname = \"a\"\ncontroller = \"goto\"\n");
    refused(
        &dir,
        "targetinf",
        &format!("{g}target = [0, 0, inf]\n"),
        5,
        &["target"],
    );
    refused(
        &dir,
        "targetout",
        &format!("{g}target = [-300, 0, 99999]\n"),
        5,
        &["target", "outside the map"],
    );
    refused(
        &dir,
        "ticksbig",
        &format!("{MAP}ticks = 1000000000000\n[[players]]\nname = \"a\"\n"),
        2,
        &["ticks"],
    );
    refused(
        &dir,
        "tlbig",
        &format!("{MAP}time_limit = 1e38\n[[players]]\nname = \"a\"\n"),
        2,
        &["time_limit"],
    );
}

#[test]
fn player_names_are_unique_and_there_is_at_least_one() {
    let dir = TempDir::with_arena("chk-names");
    refused(
        &dir,
        "dup",
        &format!(
            "{MAP}[[players]]\nname = \"a\"\n[[players]]\nname = \"b\"\n[[players]]\nname = \"a\"\n"
        ),
        7,
        &["\"a\"", "line 3"],
    );
    refused(&dir, "none", MAP, 2, &["players", "none"]);
    refused(
        &dir,
        "brian",
        &format!("{MAP}[[players]]\nname = \"a\"\ncontroller = \"brian\"\n"),
        4,
        &["did you mean \"brain\""],
    );
}

#[test]
fn item_classes_are_checked_with_did_you_mean() {
    let dir = TempDir::with_arena("chk-items");
    let p = "[[players]]\nname = \"a\"\n";
    for (name, class, meant) in [
        ("armour", "item_armour2", "item_armor2"),
        ("rl", "weapon_rocketlauncherr", "weapon_rocketlauncher"),
        (
            "quad",
            "item_artifact_superdamage",
            "item_artifact_super_damage",
        ),
        ("ogre", "monster_ogre", ""),
    ] {
        let meant = if meant.is_empty() {
            String::new()
        } else {
            format!("did you mean \"{meant}\"")
        };
        let words: Vec<&str> = [class, meant.as_str()]
            .into_iter()
            .filter(|w| !w.is_empty())
            .collect();
        refused(
            &dir,
            name,
            &format!("{MAP}[items]\nremove = [\"{class}\"]\n{p}"),
            3,
            &words,
        );
    }
    // Quake's classes are fine on any map, another game's where the map has it.
    let (code, _, err) = run(
        &dir,
        "known",
        &format!("{MAP}[items]\nremove = [\"item_sigil\", \"item_armorInv\"]\n{p}"),
    );
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_start_must_be_inside_the_map_and_clear() {
    let dir = TempDir::with_arena("chk-start");
    let p = format!("{MAP}[[players]]\nname = \"a\"\n");
    refused(
        &dir,
        "far",
        &format!("{p}start = [100000, 0, 0]\n"),
        4,
        &["start", "outside the map"],
    );
    // The arena's floor is at z = 0: an origin lower than 24 above it puts the box in it.
    refused(
        &dir,
        "infloor",
        &format!("{p}start = [-300, 0, 10]\n"),
        4,
        &["start", "brush"],
    );
    // Standing on the floor (the box touching it) is clear.
    let (code, _, err) = run(&dir, "onfloor", &format!("{p}start = [-300, 0, 24]\n"));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_start_in_a_closed_space_nothing_reaches_is_the_void() {
    // A room with a spawn point, and beside it a hollow box no entity is in: the start in
    // the box is within the map's bounds and clear of brushes, but not inside the world.
    let dir = TempDir::with_arena("chk-void");
    let v = glam::Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(512., 512., 256.));
    b.point("info_player_deathmatch", v(64., 64., 24.), &[]);
    let (lo, hi) = (v(1024., 0., 0.), v(1280., 256., 128.));
    for (a, z) in [
        (
            v(lo.x - 16., lo.y - 16., lo.z - 16.),
            v(hi.x + 16., hi.y + 16., lo.z),
        ),
        (
            v(lo.x - 16., lo.y - 16., hi.z),
            v(hi.x + 16., hi.y + 16., hi.z + 16.),
        ),
        (v(lo.x - 16., lo.y - 16., lo.z), v(lo.x, hi.y + 16., hi.z)),
        (v(hi.x, lo.y - 16., lo.z), v(hi.x + 16., hi.y + 16., hi.z)),
        (v(lo.x, lo.y - 16., lo.z), v(hi.x, lo.y, hi.z)),
        (v(lo.x, hi.y, lo.z), v(hi.x, hi.y + 16., hi.z)),
    ] {
        b.solid(a, z, "wall");
    }
    std::fs::write(dir.join("maps/two.map"), b.to_map_text("two")).unwrap();
    let p = "map = \"../maps/two.map\"\n[[players]]\nname = \"a\"\n";
    refused(
        &dir,
        "boxed",
        &format!("{p}start = [1100, 100, 24]\n"),
        4,
        &["start", "void"],
    );
    let (code, _, err) = run(&dir, "inroom", &format!("{p}start = [200, 200, 24]\n"));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_map_without_spawn_points_is_named_at_its_worldspawn() {
    let dir = TempDir::with_arena("chk-nospawn");
    // A sealed room with nothing in it but its walls; its worldspawn opens on line 2.
    let v = glam::Vec3::new;
    let map = common::sealed_room(v(-256., -256., 0.), v(256., 256., 256.)).to_map_text("empty");
    std::fs::write(dir.join("maps/empty.map"), map).unwrap();
    let text = "map = \"../maps/empty.map\"\n[[players]]\nname = \"a\"\n";
    let (code, _, err) = run(&dir, "nospawn", text);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("empty.map:2:"), "the worldspawn's line: {err}");
    assert!(
        err.contains("info_player_deathmatch") && err.contains("nospawn.toml:3"),
        "{err}"
    );
    // A player given a start needs no spawn point.
    let text = "map = \"../maps/empty.map\"\n[[players]]\nname = \"a\"\nstart = [0, 0, 24]\n";
    let (code, _, err) = run(&dir, "started", text);
    assert_eq!(code, 0, "{err}");
}
