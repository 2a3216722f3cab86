//! Mover state machines (Quake's plats.qc, doors.qc, buttons.qc, and triggers.qc's triggers
//! with health): where a plat, door, secret door, button or train wants to be after `dt`,
//! and what happens when it is used or blocked.
//! Whether a mover's step carries or is blocked by one player is [`carry`]; going over the
//! players is the movers stage's job (`game::movers::movers_system`), and the planner's
//! (`planner`) for its one player.
//!
//! Entry points: [`MoverState::spawn`], [`MoverState::step`], [`MoverState::use_mover`],
//! [`MoverState::blocked`], [`carry`].

use glam::Vec3;
use serde::Serialize;

use crate::map::level::{MoverDef, MoverKind, PathCorner};
use crate::map::{CollisionMap, Contents, EntId, Level};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};

/// Where a mover is in its cycle. "A" is the rest position (plat low, door closed, button
/// out), "B" the other end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Hash)]
pub enum Phase {
    /// Resting at A.
    AtA,
    /// Travelling to B.
    ToB,
    /// At B; returns after the timer.
    AtB,
    /// Travelling back to A.
    ToA,
    /// Train travelling to a corner.
    TrainMoving,
    /// Train waiting at a corner (timer) before going on.
    TrainWaiting,
    /// Train not started (it has a targetname and waits to be triggered), or stuck.
    TrainIdle,
    /// Never moves.
    Fixed,
    /// Secret door: first move out.
    SecretOut,
    /// Secret door: the 1 s pause between its two moves out.
    SecretOutPause,
    /// Secret door: first move back (from open to the first offset).
    SecretIn,
    /// Secret door: the 1 s pause before the last move home.
    SecretInPause,
}

/// One mover's changing state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoverState {
    /// Offset of the brushes from their map position.
    pub offset: Vec3,
    /// Cycle phase.
    pub phase: Phase,
    /// Seconds until the next phase change while waiting.
    pub timer: f32,
    /// Train: index of the corner being travelled to (or waited at).
    pub corner: Option<usize>,
}

/// Something a mover step asks the simulation to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoverEvent {
    /// Reached B (a button fires its targets now).
    ReachedB,
    /// Reached A.
    ReachedA,
    /// Started moving.
    Started,
}

fn positions(def: &MoverDef) -> (Vec3, Vec3) {
    match &def.kind {
        MoverKind::Plat { low } => (*low, Vec3::ZERO),
        MoverKind::Door {
            open, start_open, ..
        } => {
            if *start_open {
                (*open, Vec3::ZERO)
            } else {
                (Vec3::ZERO, *open)
            }
        }
        MoverKind::Button { pressed, .. } => (Vec3::ZERO, *pressed),
        MoverKind::SecretDoor { open, .. } => (Vec3::ZERO, *open),
        MoverKind::Train { .. } | MoverKind::Fixed | MoverKind::ShotTrigger => {
            (Vec3::ZERO, Vec3::ZERO)
        }
    }
}

fn find_corner(corners: &[PathCorner], name: &str) -> Option<usize> {
    corners.iter().position(|c| c.name == name)
}

impl MoverState {
    /// The state at map start: plats low (unless targeted, then high), doors closed, trains
    /// at their first corner and moving unless they wait for a trigger.
    pub fn spawn(def: &MoverDef, corners: &[PathCorner]) -> MoverState {
        let (a, b) = positions(def);
        match &def.kind {
            MoverKind::Plat { .. } if def.targetname.is_some() => MoverState {
                offset: b,
                phase: Phase::AtB,
                timer: f32::INFINITY,
                corner: None,
            },
            MoverKind::Plat { .. }
            | MoverKind::Door { .. }
            | MoverKind::Button { .. }
            | MoverKind::SecretDoor { .. }
            | MoverKind::ShotTrigger => MoverState {
                offset: a,
                phase: Phase::AtA,
                timer: 0.0,
                corner: None,
            },
            MoverKind::Train { first } => match find_corner(corners, first) {
                Some(c) => {
                    let offset = corners[c].origin - def.mins;
                    let next = corners[c]
                        .target
                        .as_deref()
                        .and_then(|t| find_corner(corners, t));
                    MoverState {
                        offset,
                        phase: if def.targetname.is_some() || next.is_none() {
                            Phase::TrainIdle
                        } else {
                            Phase::TrainWaiting
                        },
                        timer: 0.1,
                        corner: Some(c),
                    }
                }
                None => MoverState {
                    offset: Vec3::ZERO,
                    phase: Phase::Fixed,
                    timer: 0.0,
                    corner: None,
                },
            },
            MoverKind::Fixed => MoverState {
                offset: Vec3::ZERO,
                phase: Phase::Fixed,
                timer: 0.0,
                corner: None,
            },
        }
    }

    /// A plat or door on its way from one end to the other (`to_b`: towards the end it
    /// reaches when used from rest, the plat's top or the door's open position), starting
    /// at the end it leaves; `None` for other movers.
    pub fn travelling(def: &MoverDef, to_b: bool) -> Option<MoverState> {
        let (a, b) = positions(def);
        match def.kind {
            MoverKind::Plat { .. } | MoverKind::Door { .. } => Some(MoverState {
                offset: if to_b { a } else { b },
                phase: if to_b { Phase::ToB } else { Phase::ToA },
                timer: 0.0,
                corner: None,
            }),
            _ => None,
        }
    }

    /// A train's stops in the order it visits them from its first corner (indices into
    /// `corners`, each once; the path may loop back or end), with its offset at each.
    pub fn train_stops(def: &MoverDef, corners: &[PathCorner]) -> Vec<(usize, Vec3)> {
        let MoverKind::Train { first } = &def.kind else {
            return Vec::new();
        };
        let mut out: Vec<(usize, Vec3)> = Vec::new();
        let mut at = find_corner(corners, first);
        while let Some(c) = at {
            if out.iter().any(|s| s.0 == c) {
                break;
            }
            out.push((c, corners[c].origin - def.mins));
            at = corners[c]
                .target
                .as_deref()
                .and_then(|t| find_corner(corners, t));
        }
        out
    }

    /// A train just leaving corner `from` for corner `to` (indices into `corners`).
    pub fn train_travelling(
        def: &MoverDef,
        corners: &[PathCorner],
        from: usize,
        to: usize,
    ) -> MoverState {
        MoverState {
            offset: corners[from].origin - def.mins,
            phase: Phase::TrainMoving,
            timer: 0.0,
            corner: Some(to),
        }
    }

    /// Where a plat or door's two ends are: (rest, other end) — the plat low and high, the
    /// door closed and open (a door that starts open: open and closed).
    pub fn ends(def: &MoverDef) -> (Vec3, Vec3) {
        positions(def)
    }

    /// A player touched the mover's trigger, or a trigger fired it.
    pub fn use_mover(&mut self, def: &MoverDef) -> Option<MoverEvent> {
        match (&def.kind, self.phase) {
            (MoverKind::Plat { .. }, Phase::AtA) => {
                self.phase = Phase::ToB;
                Some(MoverEvent::Started)
            }
            // Standing on a raised plat keeps it up for another second.
            (MoverKind::Plat { .. }, Phase::AtB) => {
                if self.timer.is_infinite() {
                    // A targeted plat waiting at the top: the trigger sends it down.
                    self.phase = Phase::ToA;
                    self.timer = 0.0;
                    return Some(MoverEvent::Started);
                }
                self.timer = self.timer.max(1.0);
                None
            }
            // A toggle door open or opening closes when fired (doors.qc's door_fire).
            (MoverKind::Door { toggle: true, .. }, Phase::AtB | Phase::ToB) => {
                self.phase = Phase::ToA;
                Some(MoverEvent::Started)
            }
            (MoverKind::Door { .. }, Phase::AtA | Phase::ToA) => {
                self.phase = Phase::ToB;
                Some(MoverEvent::Started)
            }
            (MoverKind::Door { .. }, Phase::AtB) => {
                if def.wait >= 0.0 {
                    self.timer = def.wait;
                }
                None
            }
            // A trigger with health: "at B" while it takes no damage, from the shot on for
            // its wait (for good once fired, a wait of -1), then at A again at once.
            (MoverKind::ShotTrigger, Phase::AtA) => {
                self.phase = Phase::AtB;
                self.timer = def.wait;
                Some(MoverEvent::Started)
            }
            (MoverKind::Button { .. }, Phase::AtA) => {
                self.phase = Phase::ToB;
                Some(MoverEvent::Started)
            }
            // Quake ignores a secret door used while it is away from home.
            (MoverKind::SecretDoor { .. }, Phase::AtA) => {
                self.phase = Phase::SecretOut;
                Some(MoverEvent::Started)
            }
            (MoverKind::Train { .. }, Phase::TrainIdle) if self.corner.is_some() => {
                self.phase = Phase::TrainWaiting;
                self.timer = 0.0;
                Some(MoverEvent::Started)
            }
            _ => None,
        }
    }

    /// Where the mover wants to be after `dt` (the simulation applies it unless a player
    /// blocks it) and whether it reached an end.
    pub fn step(
        &self,
        def: &MoverDef,
        corners: &[PathCorner],
        dt: f32,
    ) -> (MoverState, Option<MoverEvent>) {
        let (a, b) = positions(def);
        let mut s = *self;
        let mut event = None;
        let travel = |from: Vec3, to: Vec3| -> (Vec3, bool) {
            let d = to - from;
            let len = d.length();
            let stepl = def.speed * dt;
            if len <= stepl {
                (to, true)
            } else {
                (from + d * (stepl / len), false)
            }
        };
        match s.phase {
            Phase::ToB => {
                let (o, done) = travel(s.offset, b);
                s.offset = o;
                if done {
                    s.phase = Phase::AtB;
                    s.timer = match def.kind {
                        MoverKind::Plat { .. } => 3.0,
                        // Open for good until fired again (door_hit_top does not send it back).
                        MoverKind::Door { toggle: true, .. } => -1.0,
                        _ => def.wait,
                    };
                    event = Some(MoverEvent::ReachedB);
                }
            }
            Phase::AtB => {
                if s.timer >= 0.0 && s.timer.is_finite() {
                    s.timer -= dt;
                    if s.timer <= 0.0 {
                        s.phase = match def.kind {
                            MoverKind::SecretDoor { .. } => Phase::SecretIn,
                            MoverKind::ShotTrigger => Phase::AtA,
                            _ => Phase::ToA,
                        };
                    }
                }
            }
            Phase::SecretOut | Phase::SecretIn => {
                let first = match def.kind {
                    MoverKind::SecretDoor { first, .. } => first,
                    _ => s.offset,
                };
                let (o, done) = travel(s.offset, first);
                s.offset = o;
                if done {
                    s.phase = if s.phase == Phase::SecretOut {
                        Phase::SecretOutPause
                    } else {
                        Phase::SecretInPause
                    };
                    s.timer = 1.0;
                }
            }
            Phase::SecretOutPause | Phase::SecretInPause => {
                s.timer -= dt;
                if s.timer <= 0.0 {
                    s.phase = if s.phase == Phase::SecretOutPause {
                        Phase::ToB
                    } else {
                        Phase::ToA
                    };
                }
            }
            Phase::ToA => {
                let (o, done) = travel(s.offset, a);
                s.offset = o;
                if done {
                    s.phase = Phase::AtA;
                    event = Some(MoverEvent::ReachedA);
                }
            }
            Phase::TrainWaiting => {
                s.timer -= dt;
                if s.timer <= 0.0 {
                    let next = s
                        .corner
                        .and_then(|c| corners[c].target.as_deref())
                        .and_then(|t| find_corner(corners, t));
                    match next {
                        Some(n) => {
                            s.corner = Some(n);
                            s.phase = Phase::TrainMoving;
                        }
                        None => s.phase = Phase::TrainIdle,
                    }
                }
            }
            Phase::TrainMoving => {
                if let Some(c) = s.corner {
                    let dest = corners[c].origin - def.mins;
                    let (o, done) = travel(s.offset, dest);
                    s.offset = o;
                    if done {
                        s.phase = Phase::TrainWaiting;
                        let w = corners[c].wait;
                        s.timer = if w > 0.0 { w } else { 0.1 };
                        if w < 0.0 {
                            s.phase = Phase::TrainIdle;
                        }
                        event = Some(MoverEvent::ReachedB);
                    }
                }
            }
            Phase::AtA | Phase::TrainIdle | Phase::Fixed => {}
        }
        (s, event)
    }

    /// A player is in the way: plats and doors (with a return) turn back; trains keep
    /// pushing. The state is the one before the blocked step.
    pub fn blocked(&mut self, def: &MoverDef) {
        match (&def.kind, self.phase) {
            (MoverKind::Plat { .. }, Phase::ToB) => self.phase = Phase::ToA,
            (MoverKind::Plat { .. }, Phase::ToA) => self.phase = Phase::ToB,
            (MoverKind::Door { .. }, Phase::ToA) if def.wait >= 0.0 => self.phase = Phase::ToB,
            (MoverKind::Door { .. }, Phase::ToB) if def.wait >= 0.0 => self.phase = Phase::ToA,
            _ => {}
        }
    }
}

/// Puts every mover of `level` in `cmap` where it starts ([`MoverState::spawn`]): plats
/// lowered, trains at their first corner. Items dropped to the floor and players placed
/// before the first tick see the world this way.
pub fn place_at_spawn(level: &Level, cmap: &mut CollisionMap) {
    for def in &level.movers {
        cmap.set_mover_offset(def.id, MoverState::spawn(def, &level.path_corners).offset);
    }
}

/// What a mover's step does to one player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Carry {
    /// Neither on it nor in its way.
    Untouched,
    /// Moved with it, to this origin.
    Carried(Vec3),
    /// Carried, the player would end inside something: the mover is blocked.
    Blocked,
}

/// Whether mover `mover`, just moved by `delta` in `cmap` (already at its new offset),
/// carries a player at `origin` standing on `on_ground` (Quake's SV_PushMove: riders and
/// players it moved into go with it), and whether that leaves the player stuck. `me` is the
/// player's own body in `cmap`, if it has one.
pub fn carry(
    cmap: &CollisionMap,
    mover: EntId,
    delta: Vec3,
    origin: Vec3,
    on_ground: Option<EntId>,
    me: Option<EntId>,
) -> Carry {
    let riding = on_ground == Some(mover);
    if !riding && !cmap.box_in_mover(mover, origin, PLAYER_MINS, PLAYER_MAXS) {
        return Carry::Untouched;
    }
    let to = origin + delta;
    let tr = cmap.trace(
        to,
        to,
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER_NO_BODIES,
        me,
    );
    if tr.start_solid {
        Carry::Blocked
    } else {
        Carry::Carried(to)
    }
}
