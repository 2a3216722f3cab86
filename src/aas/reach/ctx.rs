//! The compile's verifier: [`Ctx`] runs a candidate's commands from a player standing at
//! its start and makes the [`Reach`] of what arrives; the candidate jobs ([`Job`]) it is
//! given.

use glam::{Vec2, Vec3};

use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState};

use super::replay::landing;
use super::replay::{Arrival, Carrier, cut, in_area, settle, simulate};
use crate::aas::mesh::{CmdRun, MoverNeed, NavMesh, Reach, ReachKind};
use crate::aas::world::NavWorld;

/// One candidate to verify.
#[derive(Clone, Debug)]
pub(super) enum Job {
    /// Touching areas: cells (from, to) beside each other, up to three places tried.
    Touch {
        from: u32,
        to: u32,
        places: Vec<(u32, u32)>,
    },
    /// A running jump from a ledge cell along `dir` to area `to`.
    Gap {
        from: u32,
        to: u32,
        cell: u32,
        dir: (i32, i32),
    },
    /// From a teleporter area.
    Teleport { from: u32 },
    /// From an area touching a push (`push`: index into the world's pushes).
    Push { from: u32, push: u32 },
    /// From a plat's area (`plat`: mover index) to a floor beside its top at `cell`.
    Ride {
        from: u32,
        to: u32,
        plat: usize,
        cell: u32,
    },
    /// Carried by a plat or door (`mover`: index) from an area on it to an area on it at its
    /// other end; or by a train along one leg of its path (`leg`: from corner, to corner).
    Carry {
        from: u32,
        to: u32,
        mover: usize,
        leg: Option<(usize, usize)>,
    },
}

pub(super) struct Ctx<'a> {
    pub(super) world: &'a NavWorld<'a>,
    pub(super) mesh: &'a NavMesh,
    pub(super) dt: f32,
    /// The mover the job's areas need at its other end (see [`crate::aas::Area::moved`]).
    pub(super) moved: Option<u32>,
    /// The (from, to) pairs of the walks and steps up found so far, when there are: a fall
    /// across a gap is kept only where it lands in its end area or one of these joins to it.
    pub(super) walks: Option<&'a std::collections::BTreeSet<(u32, u32)>>,
}

impl Ctx<'_> {
    /// Whether area `a` is there in the job's world.
    pub(super) fn here(&self, a: u32) -> bool {
        let m = self.mesh.areas()[a as usize].moved;
        m.is_none() || m == self.moved
    }

    /// The job's world.
    pub(super) fn cmap(&self) -> &crate::map::CollisionMap {
        self.world.cmap_for(self.moved)
    }

    pub(super) fn cell_xy(&self, c: u32) -> Vec2 {
        let f = &self.mesh.frame;
        f.center(c % f.nx, c / f.nx)
    }

    pub(super) fn in_rect(&self, a: u32, xy: Vec2) -> bool {
        let a = &self.mesh.areas()[a as usize];
        xy.cmpge(a.mins.truncate()).all() && xy.cmple(a.maxs.truncate()).all()
    }

    /// A point of area `a` over `xy`: on its floor, or when it swims at mid depth — or
    /// just under its surface where the bottom under `xy` is higher than mid depth (a swim
    /// area is a rectangle of columns sharing a surface; their bottoms differ, and any
    /// column's box fits all the way up to the surface).
    pub(super) fn point_in(&self, a: u32, xy: Vec2) -> Vec3 {
        let area = &self.mesh.areas()[a as usize];
        if area.is_swim() {
            let mask = crate::map::Contents::MASK_PLAYER_NO_BODIES;
            let fits = |z: f32| {
                !self
                    .cmap()
                    .trace(
                        xy.extend(z),
                        xy.extend(z),
                        PLAYER_MINS,
                        PLAYER_MAXS,
                        mask,
                        None,
                    )
                    .start_solid
            };
            let mid = (area.mins.z + area.maxs.z) * 0.5;
            let near_top = (area.maxs.z - 1.0).max(area.mins.z);
            xy.extend(if fits(mid) || !fits(near_top) {
                mid
            } else {
                near_top
            })
        } else {
            xy.extend(area.floor_z(xy) + 0.5)
        }
    }

    /// A player at rest in `a` near `xy`, or `None` when settling leaves the area.
    pub(super) fn start_in(&self, a: u32, xy: Vec2) -> Option<PlayerState> {
        let area = &self.mesh.areas()[a as usize];
        let s = settle(self.cmap(), self.point_in(a, xy), area.is_swim());
        // Settled twice, as a replay settles the stored origin again.
        let s = settle(self.cmap(), s.origin, area.is_swim());
        (self.mesh.area_at(s.origin) == Some(a)).then_some(s)
    }

    pub(super) fn max_ticks(&self, seconds: f32) -> u32 {
        (seconds / self.dt).ceil() as u32
    }

    /// Whether a fall that arrived (`arr`, over area `to`) lands there or in an area a walk
    /// joins to it, held still facing `yaw` (always, before the walks are known).
    pub(super) fn lands_in(&self, arr: &Arrival, yaw: f32, to: u32, ticks: &mut u64) -> bool {
        let Some(walks) = self.walks else {
            return true;
        };
        landing((self.world, self.cmap()), arr.state, yaw, self.dt, ticks)
            .and_then(|s| self.mesh.area_at(s.origin))
            .is_some_and(|l| l == to || walks.contains(&(to, l)) || walks.contains(&(l, to)))
    }

    /// Runs the commands until the player is in `to` or, once a teleporter has sent it
    /// on, in whatever area it comes down in.
    pub(super) fn run(
        &self,
        start: PlayerState,
        commands: Vec<CmdRun>,
        carrier: Option<Carrier>,
        to: Option<u32>,
        ticks: &mut u64,
    ) -> Option<(Arrival, Vec<CmdRun>)> {
        let a = simulate(
            (self.world, self.cmap()),
            start,
            &commands,
            carrier,
            self.dt,
            |s, sent| match sent {
                None => to.is_some_and(|to| in_area(self.mesh, s, to)),
                Some(_) => self
                    .mesh
                    .area_at(s.origin)
                    .is_some_and(|l| s.on_ground.is_some() && in_area(self.mesh, s, l)),
            },
            ticks,
        )?;
        let c = cut(&commands, a.ticks);
        Some((a, c))
    }

    /// The reachability a run made; a run a teleporter took becomes a teleport to where it
    /// came down (`None` when that is where it started).
    pub(super) fn make(
        &self,
        (from, to, kind): (u32, u32, ReachKind),
        start: &PlayerState,
        arrival: &Arrival,
        commands: Vec<CmdRun>,
    ) -> Option<Reach> {
        let mut r = Reach {
            from,
            to,
            kind,
            start: start.origin,
            end: arrival.state.origin,
            commands,
            seconds: arrival.ticks as f32 * self.dt,
            needs: Vec::new(),
        };
        if let Some(trigger) = arrival.teleported {
            r.kind = ReachKind::Teleport;
            r.to = self.mesh.area_at(arrival.state.origin)?;
            if r.to == from {
                return None;
            }
            if self.world.level.triggers[trigger as usize]
                .targetname
                .is_some()
            {
                r.needs.push(MoverNeed::Teleporter(trigger));
            }
        } else if arrival.pushed.is_some() {
            // A run a push threw is a jump pad, whatever it was tried as.
            r.kind = ReachKind::JumpPad;
        }
        Some(r)
    }
}

/// The highest a barrier jump or running jump lands above its start (a jump peaks 45.6 up).
pub(super) const MAX_JUMP_UP: f32 = 44.0;

/// The longest drop tried (explorers walk off the same: `bot::explore::MAX_DROP`).
pub const MAX_FALL: f32 = 1024.0;

/// How far above the highest swimming origin a floor may be for a water jump to be tried:
/// the jump's lift (`pmove`'s water jump) carries the box about 60 units up from the surface.
pub(super) const MAX_WATER_JUMP_UP: f32 = 96.0;

/// How far across a gap a running jump is looked for.
pub(super) const MAX_GAP: f32 = 256.0;

/// Of the reachabilities with the same (from, to, kind), the quickest stays; sorted by them.
pub(super) fn keep_quickest(reaches: &mut Vec<Reach>) {
    reaches.sort_by(|a, b| {
        (a.from, a.to, a.kind)
            .cmp(&(b.from, b.to, b.kind))
            .then(a.seconds.total_cmp(&b.seconds))
    });
    reaches.dedup_by(|b, a| (a.from, a.to, a.kind) == (b.from, b.to, b.kind));
}

/// Two areas can be joined when at most one mover has to be moved for them.
pub(super) fn same_world(mesh: &NavMesh, a: u32, b: u32) -> bool {
    let (x, y) = (
        mesh.areas()[a as usize].moved,
        mesh.areas()[b as usize].moved,
    );
    x.is_none() || y.is_none() || x == y
}

/// Below this, a drop is more than a step.
pub(super) const STEP_DROP: f32 = 18.0;
