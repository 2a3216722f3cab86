//! Movement prediction (reference 002 §10.3): run the player physics forward from a state
//! under a command (or a short command sequence) in fixed steps — 0.1 s by default, as the
//! reference does — and stop at the first event: landed, entered water, entered lava or
//! slime, hit a wall, fell too far, or time up. Pure: it never touches the ECS, so it runs on
//! any thread; the jump decisions of the movement system, enemy prediction and the
//! travel-time planner all use it.
//!
//! Entry point: [`predict`].

use glam::Vec3;
use serde::Serialize;

use crate::map::{CollisionMap, Contents, EntId};

use super::pmove::{PhysicsParams, PlayerState, UserCmd, pmove};

/// Why a prediction stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum StopEvent {
    /// Came down on ground after being in the air.
    Landed,
    /// Got waist deep in water.
    EnteredWater,
    /// Touched lava or slime.
    EnteredHazard,
    /// Wanted to move but a wall stopped it.
    HitWall,
    /// Dropped more than the allowed fall.
    Fell,
    /// The horizon was reached.
    TimeUp,
}

/// How to predict.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PredictParams {
    /// Seconds per physics step.
    pub step: f32,
    /// Seconds to look ahead at most.
    pub horizon: f32,
    /// Drop below the start that counts as a fall.
    pub max_fall: f32,
    /// Stop when the player lands.
    pub stop_on_land: bool,
    /// Stop when the player is blocked by a wall.
    pub stop_on_wall: bool,
}

impl Default for PredictParams {
    fn default() -> Self {
        PredictParams {
            step: 0.1,
            horizon: 3.0,
            max_fall: 256.0,
            stop_on_land: true,
            stop_on_wall: true,
        }
    }
}

/// A predicted path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prediction {
    /// The state after each step (the start excluded).
    pub states: Vec<PlayerState>,
    /// Why it stopped.
    pub stop: StopEvent,
}

impl Prediction {
    /// Where the path ends.
    pub fn end(&self) -> Option<&PlayerState> {
        self.states.last()
    }

    /// Seconds covered.
    pub fn seconds(&self, step: f32) -> f32 {
        self.states.len() as f32 * step
    }
}

/// Steps the physics from `start` with `cmds` (the last command repeats; a jump is pressed
/// only where a command says so) until an event or the horizon.
pub fn predict(
    map: &CollisionMap,
    start: &PlayerState,
    cmds: &[UserCmd],
    physics: &PhysicsParams,
    params: &PredictParams,
    me: Option<EntId>,
) -> Prediction {
    let steps = (params.horizon / params.step).round().max(1.0) as usize;
    let mut s = *start;
    let mut states = Vec::with_capacity(steps);
    // A start off the ground counts as in the air only when it is moving up or down (a state
    // made with `PlayerState::at` on a floor has not been categorised yet).
    let mut airborne = start.on_ground.is_none() && start.velocity.z.abs() > 1.0;
    let idle = UserCmd {
        yaw: start.yaw,
        pitch: start.pitch,
        ..Default::default()
    };
    for i in 0..steps {
        let cmd = cmds.get(i).or(cmds.last()).copied().unwrap_or(idle);
        let before = s;
        let (n, _) = pmove(&s, &cmd, map, physics, params.step, me);
        s = n;
        states.push(s);
        if s.water_type.intersects(Contents::LAVA | Contents::SLIME) && s.water_level >= 1 {
            return Prediction {
                states,
                stop: StopEvent::EnteredHazard,
            };
        }
        if s.water_level >= 2 && before.water_level < 2 {
            return Prediction {
                states,
                stop: StopEvent::EnteredWater,
            };
        }
        if s.origin.z < start.origin.z - params.max_fall {
            return Prediction {
                states,
                stop: StopEvent::Fell,
            };
        }
        if s.on_ground.is_none() {
            airborne = true;
        } else if airborne && params.stop_on_land {
            return Prediction {
                states,
                stop: StopEvent::Landed,
            };
        }
        let wants = cmd.forward_move != 0.0 || cmd.side_move != 0.0;
        let moved = (s.origin - before.origin).truncate().length();
        let could = before
            .velocity
            .truncate()
            .length()
            .max(cmd.forward_move.abs())
            * params.step;
        if params.stop_on_wall && wants && s.on_ground.is_some() && moved < 0.1 * could {
            return Prediction {
                states,
                stop: StopEvent::HitWall,
            };
        }
    }
    Prediction {
        states,
        stop: StopEvent::TimeUp,
    }
}

/// A command that runs toward `dir` (horizontal) at `speed`.
pub fn run_toward(dir: Vec3, speed: f32, jump: bool) -> UserCmd {
    UserCmd {
        forward_move: speed,
        yaw: dir.y.atan2(dir.x).to_degrees(),
        jump,
        ..Default::default()
    }
}
