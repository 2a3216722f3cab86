//! The deathmatch brain's goal choice on small built maps.

mod common;

use botarena::bot::brain::{Brain, Goal, INVESTIGATE_SECONDS, Skill};
use botarena::bot::control::{ControllerConfig, ScriptStep};
use botarena::map::builder::MapBuilder;
use botarena::tick::Match;
use common::scripted;
use glam::Vec3;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// Two closed rooms side by side (x -512..0 and 16..528, y -256..256, floor at z 0), a
/// wall 16 thick between them and no way through.
fn two_rooms() -> MapBuilder {
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -16.), v(544., 272., 0.), "F")
        .solid(v(-528., -272., 256.), v(544., 272., 272.), "C")
        .solid(v(-528., -272., 0.), v(-512., 272., 256.), "W")
        .solid(v(528., -272., 0.), v(544., 272., 256.), "W")
        .solid(v(-512., -272., 0.), v(528., -256., 256.), "W")
        .solid(v(-512., 256., 0.), v(528., 272., 256.), "W")
        .solid(v(0., -256., 0.), v(16., 256., 256.), "W");
    b.point("info_player_deathmatch", v(-300., 0., 25.), &[]);
    b.point("info_player_deathmatch", v(300., 0., 25.), &[]);
    b
}

/// A player that jumps on the spot every `every` ticks, `times` times.
fn jumper(every: u32, times: usize) -> ControllerConfig {
    let step = |ticks, jump| ScriptStep {
        ticks,
        forward: 0.0,
        side: 0.0,
        up: 0.0,
        yaw: 0.0,
        pitch: 0.0,
        jump,
        fire: false,
        weapon: None,
    };
    ControllerConfig::Script(
        (0..times)
            .flat_map(|_| [step(1, true), step(every - 1, false)])
            .collect(),
    )
}

/// A bot that hears another through a wall it has no way round: every investigation finds
/// no route. It gives one up and explores on for the time an investigation would have
/// taken, instead of taking up the next sound (or the same one) at once, which flipped
/// its goal between investigating and exploring every other tick, with a failed route
/// search each time.
#[test]
fn a_sound_with_no_route_is_not_investigated_again_at_once() {
    let (level, cmap) = two_rooms().build();
    let mut m: Match = common::match_of(
        level,
        cmap,
        3,
        vec![
            scripted(
                "listener",
                v(-200., 0., 25.),
                0.,
                ControllerConfig::Brain(Skill::default()),
            ),
            scripted("jumper", v(200., 0., 25.), 180., jumper(8, 60)),
        ],
    );
    let listener = m.sim.players[0].entity;
    let seconds = 9.0;
    let ticks = (seconds / m.sim.dt).round() as usize;
    let (mut taken_up, mut was) = (0, false);
    for _ in 0..ticks {
        m.step();
        let now = matches!(
            m.sim.world.get::<&Brain>(listener).unwrap().goal,
            Goal::Investigate(_)
        );
        taken_up += usize::from(now && !was);
        was = now;
    }
    // The jumps are heard (at least one investigation), and each no-route investigation
    // holds the next off for INVESTIGATE_SECONDS.
    let most = (seconds / INVESTIGATE_SECONDS).ceil() as usize;
    assert!(
        (1..=most).contains(&taken_up),
        "investigations taken up in {seconds} s: {taken_up} (at most {most})"
    );
}
