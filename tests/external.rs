//! The external controller: a player whose commands come from outside the simulation
//! (`controller = "external"`, `Match::set_command`), the base of the Python environments.

mod common;

use botarena::bot::control::ScriptStep;
use botarena::game::Weapon;
use botarena::scenario::Scenario;
use botarena::tick::{CommandError, Match};
use common::TempDir;

const SCENARIO: &str = r#"map = "../maps/arena.map"
seed = 7
[[players]]
name = "agent"
controller = "external"
start = [-300, 0, 25]
yaw = 0
[[players]]
name = "target"
controller = "idle"
start = [400, -950, 25]
"#;

fn build(dir: &TempDir, text: &str) -> Result<Match, String> {
    let p = dir.join("s/ext.toml");
    std::fs::write(&p, text).unwrap();
    Scenario::load(&p)
        .and_then(|s| s.build())
        .map_err(|e| e.to_string())
}

fn run(yaw: f32) -> ScriptStep {
    ScriptStep {
        forward: 320.0,
        yaw,
        ..Default::default()
    }
}

#[test]
fn an_external_player_stands_still_until_told_then_holds_its_command() {
    let dir = TempDir::with_arena("ext-move");
    let mut m = build(&dir, SCENARIO).unwrap();
    let start = m.sim.player_state(0).unwrap().origin;
    for _ in 0..10 {
        m.step();
    }
    let still = m.sim.player_state(0).unwrap().origin;
    assert!(
        (still - start).truncate().length() < 1.0,
        "{start} → {still}"
    );
    m.set_command("agent", run(0.0)).unwrap();
    for _ in 0..10 {
        m.step();
    }
    let s = m.sim.player_state(0).unwrap();
    assert!(
        s.origin.x - still.x > 100.0,
        "ran +x half a second: {still} → {}",
        s.origin
    );
    assert!((s.yaw - 0.0).abs() < 1e-3);
    // Told to stop, it stops.
    m.set_command("agent", ScriptStep::default()).unwrap();
    for _ in 0..20 {
        m.step();
    }
    assert!(m.sim.player_state(0).unwrap().velocity.length() < 1.0);
    // The trigger and the weapon: shots are counted.
    m.set_command(
        "agent",
        ScriptStep {
            fire: true,
            weapon: Some(Weapon::Shotgun),
            ..Default::default()
        },
    )
    .unwrap();
    for _ in 0..20 {
        m.step();
    }
    assert!(m.sim.player_stats(0).unwrap().shots >= 2);
}

#[test]
fn the_same_commands_give_the_same_hashes() {
    let dir = TempDir::with_arena("ext-det");
    let hashes = || {
        let mut m = build(&dir, SCENARIO).unwrap();
        let mut out = Vec::new();
        for t in 0..60u32 {
            m.set_command("agent", run((t * 7 % 360) as f32)).unwrap();
            m.step();
            out.push(m.state_hash());
        }
        out
    };
    assert_eq!(hashes(), hashes());
}

#[test]
fn bad_commands_are_refused_with_reasons_and_change_nothing() {
    let dir = TempDir::with_arena("ext-bad");
    let mut m = build(&dir, SCENARIO).unwrap();
    let e = m.set_command("nobody", run(0.0)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no player named \"nobody\" (players: agent, target)"
    );
    let e = m.set_command("target", run(0.0)).unwrap_err();
    assert!(
        matches!(
            e,
            CommandError::NotExternal {
                controller: "idle",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("controller = \"external\""), "{e}");
    for (field, cmd) in [
        (
            "forward",
            ScriptStep {
                forward: f32::NAN,
                ..Default::default()
            },
        ),
        ("yaw", run(f32::INFINITY)),
    ] {
        let e = m.set_command("agent", cmd).unwrap_err();
        assert!(e.to_string().starts_with(&format!("{field} = ")), "{e}");
        assert!(e.to_string().ends_with("must be a finite number"), "{e}");
    }
    // Nothing was held: the agent still stands.
    let before = m.sim.player_state(0).unwrap().origin;
    for _ in 0..10 {
        m.step();
    }
    assert!((m.sim.player_state(0).unwrap().origin - before).length() < 1.0);
}

#[test]
fn scenarios_check_the_external_controller() {
    let dir = TempDir::with_arena("ext-scn");
    // Bot skills belong to brains only.
    let e = build(
        &dir,
        &SCENARIO.replace("yaw = 0\n", "yaw = 0\nreaction = 0.3\n"),
    )
    .err()
    .expect("skills on an external player are refused");
    assert!(e.contains("ext.toml:") && e.contains("reaction"), "{e}");
    let e = build(&dir, &SCENARIO.replace("\"external\"", "\"remote\""))
        .err()
        .expect("an unknown controller is refused");
    assert!(e.contains("external)"), "{e}");
}
