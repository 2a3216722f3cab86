//! A scenario's `[[players]]`: each checked key by key into the player the simulation gets.

use serde::Deserialize;
use toml::Spanned;

use super::check::At;
use super::{ScenarioError, ScenarioPlayer};
use crate::bot::Senses;
use crate::bot::brain::Skill;
use crate::bot::compiled::Navigation;
use crate::bot::control::{ControllerConfig, ScriptStep};
use crate::nav::routing::TravelFlags;
use crate::tick::PlayerConfig;

/// A `[[players]]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlayer {
    pub name: Spanned<String>,
    #[serde(default)]
    controller: Option<Spanned<String>>,
    spawn: Option<Spanned<usize>>,
    start: Option<Spanned<[f32; 3]>>,
    yaw: Option<Spanned<f32>>,
    script: Option<Spanned<Vec<Spanned<ScriptStep>>>>,
    fov: Option<Spanned<f32>>,
    sight: Option<Spanned<f32>>,
    hearing: Option<Spanned<f32>>,
    target: Option<Spanned<[f32; 3]>>,
    reaction: Option<Spanned<f32>>,
    aim_error: Option<Spanned<f32>>,
    travel: Option<Spanned<Vec<String>>>,
    navigation: Option<Spanned<String>>,
    hearing_model: Option<Spanned<String>>,
    reach_checks: Option<bool>,
}

/// The fastest move a script may ask for, units a second each way: Quake's keys give 400
/// (800 running), and the physics clamps every wish to 320.
pub const MAX_SCRIPT_SPEED: f32 = 1000.0;

/// Checks one player's keys.
pub(super) fn player(rp: RawPlayer, at: &At) -> Result<ScenarioPlayer, ScenarioError> {
    if rp.name.get_ref().trim().is_empty() {
        return Err(at.err(rp.name.span().start, "name: must not be empty".into()));
    }
    let (ctrl, ctrl_at) = match &rp.controller {
        Some(c) => (c.get_ref().as_str(), c.span().start),
        None => ("brain", rp.name.span().start),
    };
    let mut skill = Skill::default();
    for (key, field, lo, hi, slot) in [
        ("reaction", &rp.reaction, 0.0, 10.0, &mut skill.reaction),
        ("aim_error", &rp.aim_error, 0.0, 90.0, &mut skill.aim_error),
    ] {
        if let Some(v) = field {
            let x = at.number(key, v, lo, hi)?;
            if ctrl != "brain" {
                return Err(at.err(
                    v.span().start,
                    format!("{key}: only used with controller = \"brain\""),
                ));
            }
            *slot = x;
        }
    }
    if let Some(t) = &rp.travel {
        let f = TravelFlags::parse(&t.get_ref().join(","))
            .map_err(|m| at.err(t.span().start, format!("travel: {m}")))?;
        if f.0 == 0 {
            return Err(at.err(
                t.span().start,
                "travel: name at least one travel type".into(),
            ));
        }
        skill.travel = f;
    }
    let target = rp
        .target
        .as_ref()
        .map(|t| at.point("target", t))
        .transpose()?;
    let controller = match ctrl {
        "brain" => ControllerConfig::Brain(skill),
        "idle" => ControllerConfig::Idle,
        "wander" => ControllerConfig::Wander,
        "explore" => ControllerConfig::Explore,
        "external" => ControllerConfig::External,
        "route" | "goto" => match target {
            Some(t) if ctrl == "route" => ControllerConfig::Route(t),
            Some(t) => ControllerConfig::Goto(t),
            None => {
                return Err(at.err(
                    ctrl_at,
                    format!("controller = {ctrl:?} needs a `target = [x, y, z]`"),
                ));
            }
        },
        "script" => match &rp.script {
            Some(s) if !s.get_ref().is_empty() => {
                ControllerConfig::Script(script(s.get_ref(), at)?)
            }
            Some(s) => {
                return Err(at.err(s.span().start, "script: needs at least one step".into()));
            }
            None => {
                return Err(at.err(
                    ctrl_at,
                    "controller = \"script\" needs a `script` list of steps".into(),
                ));
            }
        },
        other => {
            return Err(at.err(
                ctrl_at,
                format!(
                    "controller: unknown controller {other:?} (expected brain, idle, wander, explore, goto, route, script or external){}",
                    super::check::suggestion(
                        other,
                        ["brain", "idle", "wander", "explore", "goto", "route", "script", "external"]
                    )
                ),
            ));
        }
    };
    if let (Some(s), false) = (&rp.script, ctrl == "script") {
        return Err(at.err(
            s.span().start,
            "script: only used with controller = \"script\"".into(),
        ));
    }
    if let (Some(t), false) = (&rp.target, ctrl == "goto" || ctrl == "route") {
        return Err(at.err(
            t.span().start,
            "target: only used with controller = \"goto\" or \"route\"".into(),
        ));
    }
    let yaw = match &rp.yaw {
        Some(y) if rp.start.is_none() => {
            return Err(at.err(
                y.span().start,
                "yaw: only used with `start` (a spawn point has its own facing)".into(),
            ));
        }
        Some(y) => at.number("yaw", y, -360.0, 360.0)?,
        None => 0.0,
    };
    let start = match &rp.start {
        Some(s) => Some((at.point("start", s)?, yaw)),
        None => None,
    };
    let mut senses = Senses::default();
    for (key, field, lo, hi, slot) in [
        ("fov", &rp.fov, 1.0, 360.0, &mut senses.fov),
        ("sight", &rp.sight, 1.0, 1.0e6, &mut senses.sight),
        ("hearing", &rp.hearing, 0.0, 100.0, &mut senses.hearing),
    ] {
        if let Some(v) = field {
            *slot = at.number(key, v, lo, hi)?;
        }
    }
    let navigation = match &rp.navigation {
        Some(n) => Navigation::parse(n.get_ref())
            .map_err(|m| at.err(n.span().start, format!("navigation: {m}")))?,
        None => Navigation::Learned,
    };
    senses.reach_checks = rp.reach_checks;
    if let Some(h) = &rp.hearing_model {
        senses.hearing_model = crate::bot::hearing::HearingModel::parse(h.get_ref())
            .map_err(|m| at.err(h.span().start, format!("hearing_model: {m}")))?;
    }
    let line_of = |o: Option<usize>| o.map(|o| at.line(o)).unwrap_or(0);
    Ok(ScenarioPlayer {
        spawn_line: line_of(rp.spawn.as_ref().map(|s| s.span().start)),
        start_line: line_of(rp.start.as_ref().map(|s| s.span().start)),
        target_line: line_of(rp.target.as_ref().map(|s| s.span().start)),
        name_line: at.line(rp.name.span().start),
        config: PlayerConfig {
            name: rp.name.into_inner(),
            controller,
            spawn: rp.spawn.map(|s| s.into_inner()),
            start,
            senses,
            navigation,
        },
    })
}

/// A script's steps, each number finite and within what a player's keys and view can give.
fn script(steps: &[Spanned<ScriptStep>], at: &At) -> Result<Vec<ScriptStep>, ScenarioError> {
    let mut out = Vec::with_capacity(steps.len());
    for s in steps {
        let step = *s.get_ref();
        let o = s.span().start;
        if step.ticks == 0 {
            return Err(at.err(o, "script step: ticks must be at least 1".into()));
        }
        for (key, x, lim) in [
            ("forward", step.forward, MAX_SCRIPT_SPEED),
            ("side", step.side, MAX_SCRIPT_SPEED),
            ("up", step.up, MAX_SCRIPT_SPEED),
            ("yaw", step.yaw, 360.0),
            ("pitch", step.pitch, 90.0),
        ] {
            if !(x.is_finite() && x.abs() <= lim) {
                return Err(at.err(
                    o,
                    format!("script step: {key}: {x} is outside -{lim}..={lim}"),
                ));
            }
        }
        out.push(step);
    }
    Ok(out)
}
