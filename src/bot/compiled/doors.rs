//! Door state: the doors a match's routes wait on (those that do not open by approach, and
//! those that do but that a run needs open from a start outside their trigger field),
//! what opens each, and which reachabilities through them are blocked now. Updated from
//! the movers once a tick, before the routing stage; route queries read it
//! ([`super::NavQuery`]) and a prediction changes its own copy ([`DoorState::assume_open`]).
//! Entry points: [`DoorState`], [`DoorState::update`], [`DoorState::openers_for`].

use glam::Vec3;

use super::openers::{NeededDoor, Opener, openers};
use crate::aas::route::Blocked;
use crate::aas::{MoverNeed, NavMesh};
use crate::map::CollisionMap;

/// The doors a match's routes wait on: the reachabilities through each door that does not
/// open by approach, and which of them are blocked now (updated from the movers each tick,
/// [`DoorState::update`]).
#[derive(Clone, Debug)]
pub struct DoorState {
    /// Reachabilities that cannot be taken now (through a closed door that a player cannot
    /// open by walking up to it).
    pub blocked: Blocked,
    /// How many are blocked.
    pub(super) count: usize,
    /// The doors some reachability needs, with what opens each.
    pub(super) needed: Vec<NeededDoor>,
}

/// Whether a player standing at `start` is outside every trigger field of door `mover`
/// (a mover index; [`super::openers::door_fields`]): a door with a field, not opened from
/// there.
fn outside_field(level: &crate::map::Level, mover: usize, start: Vec3) -> bool {
    use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
    let fields = super::openers::door_fields(level, mover);
    !fields.is_empty()
        && fields.iter().all(|&k| {
            let t = &level.triggers[k];
            !crate::map::collision::overlaps(
                start + PLAYER_MINS,
                start + PLAYER_MAXS,
                t.mins,
                t.maxs,
            )
        })
}

/// Whether reachability `r` ends on mover `id` (by id) from off it.
fn onto_mover(mesh: &NavMesh, r: &crate::aas::Reach, id: u32) -> bool {
    let areas = mesh.areas();
    areas[r.to as usize].mover == Some(id) && areas[r.from as usize].mover != Some(id)
}

impl DoorState {
    /// The doors `mesh`'s reachabilities need that do not open by approach, with what
    /// opens each; every reachability through one is blocked until [`DoorState::update`]
    /// sees its door open.
    pub fn new(mesh: &NavMesh, level: &crate::map::Level, cmap: &CollisionMap) -> DoorState {
        use crate::map::level::MoverKind;
        let mut doors: Vec<NeededDoor> = Vec::new();
        // Each door's openers, found once (a door's `Fired` runs ask whether it has any).
        let mut found: Vec<(usize, Vec<Opener>)> = Vec::new();
        let mut openers_of = |mover: usize| -> Vec<Opener> {
            if let Some(f) = found.iter().find(|f| f.0 == mover) {
                return f.1.clone();
            }
            let o = openers(mesh, cmap, level, mover);
            found.push((mover, o.clone()));
            o
        };
        for (i, r) in mesh.reaches().iter().enumerate() {
            for n in &r.needs {
                // Through a door (where it stands open), or over one moved somewhere by
                // being fired (a bridge that a start-open door slides into place).
                let (id, at) = match *n {
                    MoverNeed::Open(id) => (id, None),
                    // A run from off a door onto it where it stands fired (a hatch a
                    // timer lowers) that nothing a player reaches fires: it waits for the
                    // door there, as a run through a door waits for it open. (One a
                    // player fires is mostly fired on the run's own way, as a ride fires
                    // its lift: not waited for.)
                    MoverNeed::Fired(id) if onto_mover(mesh, r, id) => {
                        let Some(mover) = level.movers.iter().position(|m| m.id.0 == id) else {
                            continue;
                        };
                        if !openers_of(mover).is_empty() {
                            continue;
                        }
                        (id, None)
                    }
                    MoverNeed::Moved(p) => match mesh.positions.get(p as usize) {
                        Some(pos) if pos.corner.is_none() => (pos.mover, Some(pos.offset)),
                        _ => continue,
                    },
                    _ => continue,
                };
                let Some(mover) = level.movers.iter().position(|m| m.id.0 == id) else {
                    continue;
                };
                let open = match level.movers[mover].kind {
                    MoverKind::Door {
                        open,
                        touch_opens: false,
                        ..
                    } => at.unwrap_or(open),
                    // A door that opens as a player comes near, which a run (a jump, a
                    // fall) needs open from a start outside its trigger field: the bot at
                    // the start does not open it, so it goes into the field first.
                    MoverKind::Door {
                        open,
                        touch_opens: true,
                        ..
                    } if at.is_none()
                        && r.kind.played()
                        && outside_field(level, mover, r.start) =>
                    {
                        open
                    }
                    MoverKind::SecretDoor { open, .. } => at.unwrap_or(open),
                    _ => continue,
                };
                match doors
                    .iter_mut()
                    .find(|d| d.mover == mover && (d.open - open).length() < 0.5)
                {
                    Some(d) => d.reaches.push(i as u32),
                    None => doors.push(NeededDoor {
                        mover,
                        open,
                        reaches: vec![i as u32],
                        openers: openers_of(mover),
                    }),
                }
            }
        }
        let mut blocked = Blocked::new(mesh);
        for d in &doors {
            for &r in &d.reaches {
                blocked.set(r, true);
            }
        }
        DoorState {
            count: blocked.blocked.iter().filter(|b| **b).count(),
            blocked,
            needed: doors,
        }
    }

    /// What fires the door reachability `r` needs (none where it needs no door that stays
    /// shut, or nothing in the map fires it), and the door's mover index.
    pub fn openers_for(&self, r: u32) -> Option<(usize, &[Opener])> {
        let d = self.needed.iter().find(|d| d.reaches.contains(&r))?;
        Some((d.mover, &d.openers))
    }

    /// Seconds the door reachability `r` needs (one that does not open by approach) takes
    /// to open from shut once fired or shot, run through the mover code at `dt`; `None`
    /// when `r` needs no such door.
    pub fn opening_seconds(&self, level: &crate::map::Level, r: u32, dt: f32) -> Option<f32> {
        Some(self.door_times(level, r, dt)?.0)
    }

    /// For the door blocked reachability `r` needs, fired from where it rests: the seconds
    /// it takes to get where `r` needs it (open, or moved into place), and when it leaves
    /// there again (after its `wait`; `None` when it stays), run through the mover code at
    /// `dt` for up to 60 s.
    pub fn door_times(
        &self,
        level: &crate::map::Level,
        r: u32,
        dt: f32,
    ) -> Option<(f32, Option<f32>)> {
        use crate::physics::movers::MoverState;
        let d = self.needed.iter().find(|d| d.reaches.contains(&r))?;
        let def = &level.movers[d.mover];
        let mut s = MoverState::spawn(def, &level.path_corners);
        s.use_mover(def);
        let (mut t, mut open) = (0.0, None);
        while t < 60.0 {
            let there = (s.offset - d.open).length() < 1.0;
            match open {
                None if there => open = Some(t),
                Some(o) if !there => return Some((o, Some(t - dt))),
                _ => {}
            }
            s = s.step(def, &level.path_corners, dt).0;
            t += dt;
        }
        Some((open.unwrap_or(t), None))
    }

    /// The offset from its rest of door `door` (a mover index) open, for a door some
    /// reachability needs open; `None` for any other mover.
    pub fn door_open_offset(&self, door: usize) -> Option<Vec3> {
        self.needed.iter().find(|d| d.mover == door).map(|d| d.open)
    }

    /// Frees the reachabilities through each needed door that stands open now and blocks
    /// those through one that does not (`mover(index)`: a mover's state this tick).
    pub fn update(&mut self, mover: impl Fn(usize) -> Option<crate::physics::movers::MoverState>) {
        for d in &self.needed {
            let open = mover(d.mover).is_some_and(|m| (m.offset - d.open).length() < 1.0);
            for &r in &d.reaches {
                if self.blocked.set(r, !open) {
                    self.count = if open { self.count - 1 } else { self.count + 1 };
                }
            }
        }
    }

    /// Whether reachability `r` is blocked now.
    pub fn is_blocked(&self, r: u32) -> bool {
        self.blocked.blocked[r as usize]
    }

    /// Frees every reachability through door `mover` (a mover index), as if it stood open
    /// (for a prediction made on a copy: the door fired on the way), till the next
    /// [`DoorState::update`].
    pub fn assume_open(&mut self, mover: usize) {
        for d in self.needed.iter().filter(|d| d.mover == mover) {
            for &r in &d.reaches {
                if self.blocked.set(r, false) {
                    self.count -= 1;
                }
            }
        }
    }

    /// The openers of door `mover` (a mover index) that blocks reachabilities, or `None`
    /// where no blocked reachability needs it.
    pub fn door_openers(&self, mover: usize) -> Option<&[Opener]> {
        self.needed
            .iter()
            .find(|d| d.mover == mover)
            .map(|d| &d.openers[..])
    }
}
