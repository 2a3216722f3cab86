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

#[test]
fn reading_a_match_for_an_agent_changes_nothing() {
    use botarena::agent::{self, Goal, OBS_LEN, Observer};
    // Two brain bots and the agent: observations, player records and scoreboards taken
    // every tick leave every tick's hash as in a run that reads nothing.
    let dir = TempDir::with_arena("ext-read");
    let text = format!(
        "{SCENARIO}[[players]]\nname = \"b1\"\ncontroller = \"brain\"\n[[players]]\nname = \"b2\"\ncontroller = \"brain\"\n"
    );
    let mut read = build(&dir, &text).unwrap();
    let mut plain = build(&dir, &text).unwrap();
    let mut observer = Observer::new();
    let mut hinted = 0;
    for tick in 0..600 {
        let cmd = run(tick as f32 * 3.0);
        read.set_command("agent", cmd).unwrap();
        plain.set_command("agent", cmd).unwrap();
        read.step();
        plain.step();
        for i in 0..4 {
            let goal = if i % 2 == 0 {
                Goal::Enemy
            } else {
                Goal::Point(glam::Vec3::ZERO)
            };
            let o = observer.observe(&read, i, goal).unwrap();
            assert_eq!(o.len(), OBS_LEN);
            assert!(o.iter().all(|x| x.is_finite()));
            hinted += usize::from(o[OBS_LEN - 5] == 1.0);
        }
        let players = agent::players(&read);
        assert_eq!(players.len(), 4);
        let _ = agent::scoreboard(&read);
        assert_eq!(
            read.state_hash(),
            plain.state_hash(),
            "tick {}",
            read.tick()
        );
    }
    assert!(
        hinted > 0,
        "the bots learned waypoints, so some hints lead somewhere"
    );
}

#[test]
fn a_replay_keeps_the_commands_given_and_replays_them() {
    use botarena::replay::Recorder;
    let dir = TempDir::with_arena("ext-replay");
    let path = dir.join("s/ext.toml");
    std::fs::write(&path, SCENARIO).unwrap();
    let scenario = Scenario::load(&path).unwrap();
    let mut m = scenario.build().unwrap();
    let mut rec = Recorder::new(&scenario, SCENARIO, &m);
    for k in 0..12u32 {
        let cmd = ScriptStep {
            forward: 320.0,
            side: if k % 2 == 0 { 200.0 } else { -200.0 },
            yaw: (k * 33) as f32,
            jump: k % 3 == 0,
            fire: k % 4 == 0,
            ..Default::default()
        };
        m.set_command("agent", cmd).unwrap();
        rec.command(m.tick(), "agent", cmd);
        // Given again: a repeat is left out of the file.
        rec.command(m.tick(), "agent", cmd);
        for _ in 0..(5 + k % 4) {
            m.step();
            rec.record(&m);
        }
    }
    let replay = rec.finish();
    assert_eq!(replay.header.commands.len(), 12);
    let back = botarena::replay::Replay::from_bytes(&replay.to_bytes(), "mem").unwrap();
    assert_eq!(back, replay);
    let ok = back.verify(|_| {}).unwrap();
    assert_eq!((ok.ticks, ok.divergence), (m.tick(), None));
    // Without its commands the agent stands still: the replay diverges when it first moved.
    let mut bare = back.clone();
    bare.header.commands.clear();
    let off = bare.verify(|_| {}).unwrap();
    let d = off.divergence.expect("diverges");
    assert!(d.tick <= 2, "tick {}", d.tick);
    assert!(d.parts[0].contains("agent"), "{:?}", d.parts);
}
