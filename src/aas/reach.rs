//! Reachabilities between areas, each verified by the player physics. Entry points:
//! [`run_reach`] (replay a reachability's commands), and the compile's `build`.
//!
//! Candidates:
//! - **touching areas** (a cell of one beside a cell of the other): walk, step up (≤ 18),
//!   barrier jump (≤ 48 up), walk off a ledge (any drop), swim, water jump; up to three
//!   places along the shared border are tried, the middle one first;
//! - **near drops**: a walk off a ledge onto a lower floor a diagonal or two cells away that
//!   no touching pair joins it to (a strip along a wall), aimed along the line between them;
//! - **gaps**: from a ledge cell, the first floor across a drop within 256 units in each of
//!   eight directions, no higher than a jump reaches: a running jump, taken at each of the
//!   last three ticks the runner is still on the ledge, the latest first;
//! - **teleporters**: from each area inside a working `trigger_teleport` to where the
//!   teleported player lands;
//! - **plats**: from the area on a lowered `func_plat` to the floors beside its top, riding
//!   it as the mover code moves it.
//!
//! Each candidate is run through `pmove` (teleport triggers applied as the simulation does)
//! from a player standing still at the start, with its commands, tick by tick. The first tick
//! the player stands (or swims) in the target area ends the run: the ticks so far are the
//! travel time and the commands are cut there. A run that never arrives is dropped.

use std::collections::BTreeMap;

use glam::{Vec2, Vec3};

use crate::map::level::MoverKind;
use crate::physics::movers::MoverState;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, UserCmd, pmove};

use super::mesh::{AreaFlags, CmdRun, CompileStats, MoverNeed, NavMesh, Reach, ReachKind};
use super::world::{NavWorld, par_map};

/// The highest a barrier jump or running jump lands above its start (a jump peaks 45.6 up).
const MAX_JUMP_UP: f32 = 44.0;
/// The longest drop tried (explorers walk off the same: `bot::explore::MAX_DROP`).
pub const MAX_FALL: f32 = 1024.0;
/// How far above the highest swimming origin a floor may be for a water jump to be tried:
/// the jump's lift (`pmove`'s water jump) carries the box about 60 units up from the surface.
const MAX_WATER_JUMP_UP: f32 = 96.0;
/// How far across a gap a running jump is looked for.
const MAX_GAP: f32 = 256.0;

/// A run's outcome: the tick it arrived (1-based) and the state then.
pub struct Arrival {
    /// Ticks taken.
    pub ticks: u32,
    /// The player when it arrived.
    pub state: PlayerState,
    /// The teleporter (trigger index) that sent the player on during the run, if one did.
    pub teleported: Option<u32>,
    /// The push (trigger index) that threw the player during the run, if one did.
    pub pushed: Option<u32>,
}

/// A mover moving during a run: its index in the level's movers and its state at tick 0.
type Carrier = (usize, MoverState);

/// Runs `commands` from `start` through the physics at `dt` in `cmap` (a mover `carrier`
/// started at tick 0 from its given state and moved as the mover code moves it, carrying
/// whoever stands on it), and returns the first tick at which `arrived` (given the state
/// and the teleporter that has sent the player on so far) holds. Teleport triggers send the
/// player on after each tick's check.
fn simulate(
    (world, cmap): (&NavWorld, &crate::map::CollisionMap),
    start: PlayerState,
    commands: &[CmdRun],
    carrier: Option<Carrier>,
    dt: f32,
    mut arrived: impl FnMut(&PlayerState, Option<u32>) -> bool,
    ticks_run: &mut u64,
) -> Option<Arrival> {
    let mut teleported = None;
    let mut pushed = None;
    let physics = PhysicsParams::default();
    let mut moving = carrier.map(|(i, st)| {
        let mut c = cmap.clone();
        c.set_mover_offset(world.level.movers[i].id, st.offset);
        (i, st, c)
    });
    let mut s = start;
    let mut tick = 0u32;
    for run in commands {
        for _ in 0..run.ticks {
            tick += 1;
            *ticks_run += 1;
            if let Some((i, st, cmap)) = moving.as_mut() {
                let def = &world.level.movers[*i];
                let (next, _) = st.step(def, &world.level.path_corners, dt);
                let delta = next.offset - st.offset;
                *st = next;
                cmap.set_mover_offset(def.id, st.offset);
                // As the movers stage does: riders, and a player the mover moved into, are
                // carried with it; a carried player that would end in something blocks it.
                if delta != Vec3::ZERO
                    && (s.on_ground == Some(def.id)
                        || cmap.box_in_mover(def.id, s.origin, PLAYER_MINS, PLAYER_MAXS))
                {
                    let to = s.origin + delta;
                    let mask = crate::map::Contents::MASK_PLAYER_NO_BODIES;
                    let tr = cmap.trace(to, to, PLAYER_MINS, PLAYER_MAXS, mask, None);
                    if tr.start_solid {
                        return None;
                    }
                    s.origin = to;
                }
            }
            let map = moving.as_ref().map_or(cmap, |m| &m.2);
            s = pmove(&s, &run.cmd, map, &physics, dt, None).0;
            if arrived(&s, teleported) {
                return Some(Arrival {
                    ticks: tick,
                    state: s,
                    teleported,
                    pushed,
                });
            }
            // The triggers stage's rules: a push sets the velocity, a teleporter sends on.
            if let Some(p) = crate::physics::push::push_at(&world.pushes, s.origin) {
                s = crate::physics::push::pushed(&s, p.velocity);
                pushed = Some(p.trigger);
            }
            if let Some(t) = world.teleporter_at(s.origin) {
                s = crate::physics::teleport::teleported(&s, t.dest, t.yaw);
                teleported = Some(t.trigger);
            }
        }
    }
    None
}

/// Cuts `commands` to the first `ticks`.
fn cut(commands: &[CmdRun], ticks: u32) -> Vec<CmdRun> {
    let mut left = ticks;
    let mut out = Vec::new();
    for c in commands {
        if left == 0 {
            break;
        }
        let n = c.ticks.min(left);
        out.push(CmdRun {
            ticks: n,
            cmd: c.cmd,
        });
        left -= n;
    }
    out
}

/// Whether a player in state `s` has arrived in area `to`: swimming in it, or on its floor
/// or coming down onto it (within a step above it, not rising: walking down stairs at
/// running speed the player is in the air over most steps, and a run is there when it is
/// over the step, not when it stops on it).
fn in_area(mesh: &NavMesh, s: &PlayerState, to: u32) -> bool {
    let a = &mesh.areas()[to as usize];
    let settled = if a.is_swim() {
        s.water_level >= 2
    } else {
        s.on_ground.is_some() || s.velocity.z <= 0.0
    };
    settled && mesh.area_at(s.origin) == Some(to)
}

/// Replays a reachability's commands from its start: the first tick the player stands (or
/// swims) in its end area, or `None` when it never does.
pub fn run_reach(world: &NavWorld, mesh: &NavMesh, reach: &Reach) -> Option<Arrival> {
    let dt = 1.0 / mesh.params.tick_rate as f32;
    let from = &mesh.areas()[reach.from as usize];
    let moved = reach.needs.iter().find_map(|n| match n {
        MoverNeed::Moved(id) => Some(*id),
        _ => None,
    });
    let cmap = world.cmap_for(moved);
    let start = settle(cmap, reach.start, from.is_swim());
    simulate(
        (world, cmap),
        start,
        &reach.commands,
        carrier_of(world, mesh, reach),
        dt,
        // A teleport arrives as the compile saw it: sent on, then on the ground.
        |s, sent| {
            in_area(mesh, s, reach.to)
                && (reach.kind != ReachKind::Teleport || (sent.is_some() && s.on_ground.is_some()))
        },
        &mut 0,
    )
}

/// The mover an elevator reachability rides, as it was at its start: a carry between an
/// area on a mover where navigation has it and one on the same mover at its other end, or
/// a plat ride from the plat at rest to a floor beside its other end.
fn carrier_of(world: &NavWorld, mesh: &NavMesh, reach: &Reach) -> Option<Carrier> {
    if reach.kind != ReachKind::Elevator {
        return None;
    }
    let (fa, ta) = (
        &mesh.areas()[reach.from as usize],
        &mesh.areas()[reach.to as usize],
    );
    if let (Some(m), Some(t)) = (fa.mover, ta.mover)
        && m == t
        && fa.moved != ta.moved
    {
        let index = world.level.movers.iter().position(|d| d.id.0 == m)?;
        let def = &world.level.movers[index];
        if matches!(def.kind, MoverKind::Train { .. }) {
            // A train's leg: from the stop the from area is at to the one the to area is at.
            let corners = &world.level.path_corners;
            let stop = |moved: Option<u32>| match moved {
                None => MoverState::train_stops(def, corners).first().map(|s| s.0),
                Some(p) => world.moved.get(p as usize).and_then(|m| m.corner),
            };
            let (c0, c1) = (stop(fa.moved)?, stop(ta.moved)?);
            return Some((index, MoverState::train_travelling(def, corners, c0, c1)));
        }
        return carry_state(world, index, ta.moved.is_some()).map(|st| (index, st));
    }
    let index = reach.needs.iter().find_map(|n| match n {
        MoverNeed::Down(id) | MoverNeed::Fired(id) => {
            world.level.movers.iter().position(|m| m.id.0 == *id)
        }
        MoverNeed::Open(_) | MoverNeed::Key(_) | MoverNeed::Teleporter(_) | MoverNeed::Moved(_) => {
            None
        }
    })?;
    let def = &world.level.movers[index];
    let mut st = MoverState::spawn(def, &world.level.path_corners);
    st.use_mover(def);
    Some((index, st))
}

/// The point within `lo..hi` (origins' x, y) nearest `xy` where a player's box is clear of
/// the trigger of plat `mover` (a mover index) across x or y; `xy` itself when the plat has
/// no trigger (a targeted plat's is sent down by its trigger, not held up); `None` where
/// no such point is in the range.
fn off_plat_trigger(
    level: &crate::map::Level,
    mover: usize,
    (lo, hi): (Vec2, Vec2),
    xy: Vec2,
) -> Option<Vec2> {
    let Some(t) = plat_trigger(level, mover) else {
        return Some(xy);
    };
    clear_of_box(t.mins.truncate(), t.maxs.truncate(), xy)
        .into_iter()
        .filter(|p| p.cmpge(lo).all() && p.cmple(hi).all())
        .min_by(|a, b| (*a - xy).length().total_cmp(&(*b - xy).length()))
}

/// The trigger that raises plat `mover` (a mover index), where it has one.
fn plat_trigger(level: &crate::map::Level, mover: usize) -> Option<&crate::map::level::TriggerDef> {
    use crate::map::level::TriggerKind;
    level
        .triggers
        .iter()
        .find(|t| matches!(t.kind, TriggerKind::PlatRaise { mover: m } if m == mover))
}

/// Where on a plat (mover index `mover`) at rest a ride up from over `lo..hi` starts: `xy`
/// where a player's box there touches the plat's trigger, else the point of `lo..hi`
/// nearest `xy` whose origin is in the trigger; `None` where no such point is (or `xy`
/// where the plat has no trigger).
fn on_plat_trigger(
    level: &crate::map::Level,
    mover: usize,
    (lo, hi): (Vec2, Vec2),
    xy: Vec2,
) -> Option<Vec2> {
    let Some(t) = plat_trigger(level, mover) else {
        return Some(xy);
    };
    let (tlo, thi) = (t.mins.truncate(), t.maxs.truncate());
    // Touching: the boxes overlap by more than a unit.
    let reach = Vec2::splat(PLAYER_MAXS.x - 1.0);
    if xy.cmpgt(tlo - reach).all() && xy.cmplt(thi + reach).all() {
        return Some(xy);
    }
    let (a, b) = (tlo.max(lo), thi.min(hi));
    if a.cmpgt(b).any() {
        return None;
    }
    Some(xy.clamp(a, b))
}

/// The four origins (x, y) straight out from `p` across x and across y where a player's box
/// is just clear of the box `mins..maxs` (a unit beyond touching it).
pub fn clear_of_box(mins: Vec2, maxs: Vec2, p: Vec2) -> [Vec2; 4] {
    let grow = Vec2::splat(PLAYER_MAXS.x + 1.0);
    let (lo, hi) = (mins - grow, maxs + grow);
    [
        Vec2::new(lo.x, p.y),
        Vec2::new(hi.x, p.y),
        Vec2::new(p.x, lo.y),
        Vec2::new(p.x, hi.y),
    ]
}

/// A plat or door (by index) leaving where navigation has it for its other end
/// (`to_other`), or coming back.
fn carry_state(world: &NavWorld, index: usize, to_other: bool) -> Option<MoverState> {
    let def = &world.level.movers[index];
    let here = world.cmap.mover_offset(def.id)?;
    let there = world
        .moved
        .iter()
        .find(|m| m.index == index && m.corner.is_none())?
        .offset;
    let target = if to_other { there } else { here };
    let (_, b) = MoverState::ends(def);
    MoverState::travelling(def, (target - b).length() < 0.01)
}

/// A player at rest at `p` in `cmap`: settled by the physics on a floor, or floating where
/// put in liquid.
fn settle(cmap: &crate::map::CollisionMap, p: Vec3, swim: bool) -> PlayerState {
    if swim {
        let mut s = PlayerState::at(p, 0.0);
        let (level, kind) = crate::physics::pmove::water_level(cmap, p);
        s.water_level = level;
        s.water_type = kind;
        s
    } else {
        crate::nav::sample::stand_still(cmap, &PhysicsParams::default(), p)
    }
}

fn yaw_of(d: Vec2) -> f32 {
    d.y.atan2(d.x).to_degrees()
}

/// A command running toward `to` from `from` (pitched toward it when swimming).
fn run_cmd(from: Vec3, to: Vec3, jump: bool, swim: bool) -> UserCmd {
    let d = to - from;
    let flat = d.truncate().length();
    UserCmd {
        forward_move: 320.0,
        yaw: yaw_of(d.truncate()),
        pitch: if swim {
            -d.z.atan2(flat.max(1.0)).to_degrees()
        } else {
            0.0
        },
        up_move: if swim && jump { 320.0 } else { 0.0 },
        jump,
        ..Default::default()
    }
}

/// One candidate to verify.
#[derive(Clone, Debug)]
enum Job {
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

struct Ctx<'a> {
    world: &'a NavWorld<'a>,
    mesh: &'a NavMesh,
    dt: f32,
    /// The mover the job's areas need at its other end (see [`super::Area::moved`]).
    moved: Option<u32>,
    /// The (from, to) pairs of the walks and steps up found so far, when there are: a fall
    /// across a gap is kept only where it lands in its end area or one of these joins to it.
    walks: Option<&'a std::collections::BTreeSet<(u32, u32)>>,
}

impl Ctx<'_> {
    /// Whether area `a` is there in the job's world.
    fn here(&self, a: u32) -> bool {
        let m = self.mesh.areas()[a as usize].moved;
        m.is_none() || m == self.moved
    }

    /// The job's world.
    fn cmap(&self) -> &crate::map::CollisionMap {
        self.world.cmap_for(self.moved)
    }

    fn cell_xy(&self, c: u32) -> Vec2 {
        let f = &self.mesh.frame;
        f.center(c % f.nx, c / f.nx)
    }

    fn in_rect(&self, a: u32, xy: Vec2) -> bool {
        let a = &self.mesh.areas()[a as usize];
        xy.cmpge(a.mins.truncate()).all() && xy.cmple(a.maxs.truncate()).all()
    }

    /// A point of area `a` over `xy`: on its floor, or when it swims at mid depth — or
    /// just under its surface where the bottom under `xy` is higher than mid depth (a swim
    /// area is a rectangle of columns sharing a surface; their bottoms differ, and any
    /// column's box fits all the way up to the surface).
    fn point_in(&self, a: u32, xy: Vec2) -> Vec3 {
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
    fn start_in(&self, a: u32, xy: Vec2) -> Option<PlayerState> {
        let area = &self.mesh.areas()[a as usize];
        let s = settle(self.cmap(), self.point_in(a, xy), area.is_swim());
        // Settled twice, as a replay settles the stored origin again.
        let s = settle(self.cmap(), s.origin, area.is_swim());
        (self.mesh.area_at(s.origin) == Some(a)).then_some(s)
    }

    fn max_ticks(&self, seconds: f32) -> u32 {
        (seconds / self.dt).ceil() as u32
    }

    /// Whether a fall that arrived (`arr`, over area `to`) lands there or in an area a walk
    /// joins to it, held still facing `yaw` (always, before the walks are known).
    fn lands_in(&self, arr: &Arrival, yaw: f32, to: u32, ticks: &mut u64) -> bool {
        let Some(walks) = self.walks else {
            return true;
        };
        landing((self.world, self.cmap()), arr.state, yaw, self.dt, ticks)
            .and_then(|s| self.mesh.area_at(s.origin))
            .is_some_and(|l| l == to || walks.contains(&(to, l)) || walks.contains(&(l, to)))
    }

    /// Runs the commands until the player is in `to` or, once a teleporter has sent it
    /// on, in whatever area it comes down in.
    fn run(
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
    fn make(
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

    fn touch(&self, from: u32, to: u32, places: &[(u32, u32)], ticks: &mut u64) -> Option<Reach> {
        let areas = self.mesh.areas();
        let (fa, ta) = (&areas[from as usize], &areas[to as usize]);
        let mut first_walk: Option<(PlayerState, Vec<CmdRun>)> = None;
        for &(c, n) in places {
            let (cxy, nxy) = (self.cell_xy(c), self.cell_xy(n));
            let dir = (nxy - cxy).normalize_or_zero();
            let step = dir * self.mesh.frame.cell;
            // Start up to two cells back from the border, inside the start area.
            let Some(start) = [2.0, 1.0, 0.0]
                .iter()
                .map(|k| cxy - step * *k)
                .filter(|p| self.in_rect(from, *p))
                .find_map(|p| self.start_in(from, p))
            else {
                continue;
            };
            let aim_xy = if self.in_rect(to, nxy + step) {
                nxy + step
            } else {
                nxy
            };
            let aim = self.point_in(to, aim_xy);
            let swim = fa.is_swim() || ta.is_swim();
            let dist = (aim - start.origin).length();
            let n_ticks = self.max_ticks(dist / 320.0 + 2.0);
            for jump in [false, true] {
                let cmd = run_cmd(start.origin, aim, jump, swim);
                let commands = vec![CmdRun {
                    ticks: n_ticks,
                    cmd,
                }];
                if first_walk.is_none() {
                    first_walk = Some((start, commands.clone()));
                }
                if let Some((arr, cmds)) = self.run(start, commands, None, Some(to), ticks) {
                    let dz = arr.state.origin.z - start.origin.z;
                    let kind = match (fa.is_swim(), ta.is_swim()) {
                        (false, false) if jump => ReachKind::BarrierJump,
                        (false, false) if dz > 2.0 => ReachKind::StepUp,
                        (false, false) if dz < -STEP_DROP => ReachKind::WalkOffLedge,
                        (false, false) => ReachKind::Walk,
                        (false, true) if ta.maxs.z < start.origin.z - STEP_DROP => {
                            ReachKind::WalkOffLedge
                        }
                        (true, false) if jump => ReachKind::WaterJump,
                        // Out of the bottom of a liquid with air under it.
                        (true, false) if dz < -STEP_DROP => ReachKind::WalkOffLedge,
                        _ => ReachKind::Swim,
                    };
                    return self.make((from, to, kind), &start, &arr, cmds);
                }
            }
        }
        // A drop whose fall carries the player past the area below (a long fall at running
        // speed lands far out): the walk is kept as a walk off the ledge to the area it
        // comes down in, which it arrives in as any run does.
        let (start, commands) = first_walk?;
        if fa.is_swim() || ta.is_swim() || ta.maxs.z >= start.origin.z - STEP_DROP {
            return None;
        }
        let arr = simulate(
            (self.world, self.cmap()),
            start,
            &commands,
            None,
            self.dt,
            |s, sent| {
                sent.is_none()
                    && s.origin.z < start.origin.z - STEP_DROP
                    && self
                        .mesh
                        .area_at(s.origin)
                        .is_some_and(|l| l != from && self.here(l) && in_area(self.mesh, s, l))
            },
            ticks,
        )?;
        let landed = self.mesh.area_at(arr.state.origin)?;
        // Timed as every reachability is (and as a replay sees it): the first tick in it.
        let (arr, cmds) = self.run(start, commands, None, Some(landed), ticks)?;
        let kind = if arr.state.origin.z < start.origin.z - STEP_DROP {
            ReachKind::WalkOffLedge
        } else {
            ReachKind::Walk
        };
        self.make((from, landed, kind), &start, &arr, cmds)
    }

    fn gap(
        &self,
        from: u32,
        to: u32,
        cell: u32,
        dir: (i32, i32),
        ticks: &mut u64,
    ) -> Option<Reach> {
        let d = Vec2::new(dir.0 as f32, dir.1 as f32).normalize();
        let cxy = self.cell_xy(cell);
        let step = d * self.mesh.frame.cell;
        // A run-up of up to eight cells back over level floor (through other areas: ledge
        // strips are narrow); the reachability starts in the area the run-up starts in.
        let z = self.mesh.areas()[from as usize].floor_z(cxy);
        let start = (0..=8).rev().map(|k| cxy - step * k as f32).find_map(|p| {
            let a = self.mesh.area_at(p.extend(z + 1.0))?;
            let area = &self.mesh.areas()[a as usize];
            if area.is_swim() || (area.floor_z(p) - z).abs() > 2.0 {
                return None;
            }
            self.start_in(a, p)
        })?;
        let from = self.mesh.area_at(start.origin)?;
        if from == to || !self.here(from) {
            return None;
        }
        let target = cxy + d * MAX_GAP;
        let run = run_cmd(start.origin, target.extend(start.origin.z), false, false);
        let leap = UserCmd { jump: true, ..run };
        // The run-up, until the runner leaves the ledge's area or the ground.
        let mut states = vec![start];
        let mut s = start;
        for _ in 0..self.max_ticks(1.5) {
            *ticks += 1;
            s = pmove(
                &s,
                &run,
                self.cmap(),
                &PhysicsParams::default(),
                self.dt,
                None,
            )
            .0;
            if s.on_ground.is_none() || self.mesh.area_at(s.origin) == Some(to) {
                break;
            }
            states.push(s);
        }
        let flight = self.max_ticks(2.5);
        // Running `k` ticks, then the leap.
        let jump_after = |k: usize| {
            let mut commands = Vec::new();
            if k > 0 {
                commands.push(CmdRun {
                    ticks: k as u32,
                    cmd: run,
                });
            }
            commands.push(CmdRun {
                ticks: flight,
                cmd: leap,
            });
            commands
        };
        for k in (0..states.len()).rev().take(3) {
            if let Some((arr, cmds)) = self.run(start, jump_after(k), None, Some(to), ticks) {
                return self.make((from, to, ReachKind::Jump), &start, &arr, cmds);
            }
        }
        // Where every jump carries the runner past the floor across (a low, narrow one),
        // running off the edge without jumping may come down on it.
        let commands = vec![CmdRun {
            ticks: states.len() as u32 + flight,
            cmd: run,
        }];
        // (A fall across the gap, however little lower it lands.)
        if let Some((arr, cmds)) = self.run(start, commands, None, Some(to), ticks)
            && self.lands_in(&arr, run.yaw, to, ticks)
        {
            return self.make((from, to, ReachKind::WalkOffLedge), &start, &arr, cmds);
        }
        // A jump that carries the runner past the first floor across (a narrow ledge on the
        // far side) is kept as a jump to where it comes down, as falls are.
        let commands = jump_after(states.len() - 1);
        let bad = AreaFlags::LAVA.0 | AreaFlags::SLIME.0;
        let landed = simulate(
            (self.world, self.cmap()),
            start,
            &commands,
            None,
            self.dt,
            |s, sent| {
                sent.is_none()
                    && s.on_ground.is_some()
                    && (s.origin.truncate() - cxy).dot(d) > self.mesh.frame.cell
                    && self.mesh.area_at(s.origin).is_some_and(|l| {
                        l != from
                            && self.here(l)
                            && self.mesh.areas()[l as usize].flags.0 & bad == 0
                    })
            },
            ticks,
        )?;
        let to = self.mesh.area_at(landed.state.origin)?;
        let (arr, cmds) = self.run(start, commands, None, Some(to), ticks)?;
        self.make((from, to, ReachKind::Jump), &start, &arr, cmds)
    }

    fn teleport(&self, from: u32, ticks: &mut u64) -> Option<Reach> {
        let start = self.start_in(from, self.mesh.areas()[from as usize].center.truncate())?;
        self.world.teleporter_at(start.origin)?;
        let idle = UserCmd {
            yaw: start.yaw,
            ..Default::default()
        };
        let commands = vec![CmdRun {
            ticks: self.max_ticks(3.0),
            cmd: idle,
        }];
        // Where it comes down is the target.
        let (arr, cmds) = self.run(start, commands, None, None, ticks)?;
        self.make((from, from, ReachKind::Teleport), &start, &arr, cmds)
    }

    /// Standing still where area `from` touches push `push` until the push has thrown the
    /// player and it comes down on the ground in another area, out of every push.
    fn push(&self, from: u32, push: u32, ticks: &mut u64) -> Option<Reach> {
        let p = &self.world.pushes[push as usize];
        let area = &self.mesh.areas()[from as usize];
        let centre = ((p.mins + p.maxs) * 0.5).truncate();
        let xy = centre.clamp(area.mins.truncate(), area.maxs.truncate());
        let start = self.start_in(from, xy)?;
        crate::physics::push::push_at(std::slice::from_ref(p), start.origin)?;
        let commands = vec![CmdRun {
            ticks: self.max_ticks(4.0),
            cmd: UserCmd {
                yaw: start.yaw,
                ..Default::default()
            },
        }];
        let pushes = &self.world.pushes;
        let a = simulate(
            (self.world, self.cmap()),
            start,
            &commands,
            None,
            self.dt,
            |s, _| {
                s.on_ground.is_some()
                    && crate::physics::push::push_at(pushes, s.origin).is_none()
                    && self
                        .mesh
                        .area_at(s.origin)
                        .is_some_and(|l| l != from && in_area(self.mesh, s, l))
            },
            ticks,
        )?;
        let to = self.mesh.area_at(a.state.origin)?;
        let cmds = cut(&commands, a.ticks);
        self.make((from, to, ReachKind::JumpPad), &start, &a, cmds)
    }

    /// Standing on a plat or door while it moves to its other end (or back), until the
    /// player is in `to`, the area on it there.
    fn carry(
        &self,
        from: u32,
        to: u32,
        mover: usize,
        leg: Option<(usize, usize)>,
        ticks: &mut u64,
    ) -> Option<Reach> {
        let (fa, ta) = (
            &self.mesh.areas()[from as usize],
            &self.mesh.areas()[to as usize],
        );
        let def = &self.world.level.movers[mover];
        let (st, start_xy, distance) = match leg {
            Some((c0, c1)) => {
                // A train from one stop to the next: standing at the from area's middle.
                let corners = &self.world.level.path_corners;
                let st = MoverState::train_travelling(def, corners, c0, c1);
                let d = (corners[c1].origin - corners[c0].origin).length();
                (st, fa.center.truncate(), d)
            }
            None => {
                let st = carry_state(self.world, mover, ta.moved.is_some())?;
                // Over where the two areas overlap, nearest the middle of the overlap.
                let lo = fa.mins.truncate().max(ta.mins.truncate());
                let hi = fa.maxs.truncate().min(ta.maxs.truncate());
                if lo.cmpgt(hi).any() {
                    return None;
                }
                let (a, b) = MoverState::ends(def);
                let mut xy = (lo + hi) * 0.5;
                if fa.moved.is_some()
                    && matches!(def.kind, MoverKind::Plat { .. })
                    && def.targetname.is_none()
                {
                    // Down from a raised plat: a player in its trigger keeps it up
                    // (plats.qc's `plat_center_touch`), so the ride starts off it, on the
                    // plat's edge, waiting for it to go down.
                    xy = off_plat_trigger(self.world.level, mover, (lo, hi), xy)?;
                } else if fa.moved.is_none()
                    && matches!(def.kind, MoverKind::Plat { .. })
                    && def.targetname.is_none()
                {
                    // Up from a plat at rest: it rises only once a player touches its
                    // trigger, so the ride starts in it (e1m1's at (-544, 2656): a ride
                    // started on its east edge, 8 units off the plat, stood there until
                    // given up).
                    xy = on_plat_trigger(self.world.level, mover, (lo, hi), xy)?;
                }
                (st, xy, (b - a).length())
            }
        };
        let start = self.start_in(from, start_xy)?;
        if start.on_ground != Some(def.id) {
            return None;
        }
        let seconds = distance / def.speed.max(1.0) + 2.0;
        let commands = vec![CmdRun {
            ticks: self.max_ticks(seconds),
            cmd: UserCmd {
                yaw: start.yaw,
                ..Default::default()
            },
        }];
        self.ride_run((from, to), start, commands, (mover, st), ticks)
    }

    /// Runs a ride on a mover (`carrier`) into `to`: an elevator reachability needing the
    /// mover where it waits (or fired), or `None` when it does not arrive or a teleporter
    /// takes it.
    fn ride_run(
        &self,
        (from, to): (u32, u32),
        start: PlayerState,
        commands: Vec<CmdRun>,
        carrier: Carrier,
        ticks: &mut u64,
    ) -> Option<Reach> {
        let def = &self.world.level.movers[carrier.0];
        let (arr, cmds) = self.run(start, commands, Some(carrier), Some(to), ticks)?;
        if arr.teleported.is_some() {
            return None;
        }
        let mut r = self.make((from, to, ReachKind::Elevator), &start, &arr, cmds)?;
        // Where it waits — unless it starts from another position, which `Moved` names.
        if self.mesh.areas()[from as usize].moved.is_none() {
            r.needs.push(rest_need(def.id.0, def.targetname.is_some()));
        }
        Some(r)
    }

    fn ride(&self, from: u32, to: u32, plat: usize, cell: u32, ticks: &mut u64) -> Option<Reach> {
        let def = &self.world.level.movers[plat];
        let (rest, other) = plat_ends(def)?;
        let mut st = MoverState::spawn(def, &self.world.level.path_corners);
        st.use_mover(def);
        let used = st;
        let travel = other - rest;
        // Where on the plat to stand: the cell nearest the middle whose box rides clear of
        // the shaft all the way (a pillar may stand in a corner of the plat).
        let area = &self.mesh.areas()[from as usize];
        let f = &self.mesh.frame;
        let mut cells: Vec<(f32, Vec2)> = Vec::new();
        for y in area.cell_min[1]..=area.cell_max[1] {
            for x in area.cell_min[0]..=area.cell_max[0] {
                let xy = f.center(x, y);
                cells.push(((xy - area.center.truncate()).length_squared(), xy));
            }
        }
        cells.sort_by(|a, b| a.0.total_cmp(&b.0));
        let steps = (travel.length() / 16.0).ceil().max(1.0) as usize;
        let mask = crate::map::Contents::MASK_PLAYER_NO_BODIES;
        let clear = |p: Vec3| {
            (1..=steps).all(|k| {
                let q = p + travel * (k as f32 / steps as f32);
                !self
                    .world
                    .cmap
                    .trace(q, q, PLAYER_MINS, PLAYER_MAXS, mask, Some(def.id))
                    .start_solid
            })
        };
        let start = cells
            .iter()
            .filter(|(_, xy)| clear(self.point_in(from, *xy)))
            .find_map(|(_, xy)| self.start_in(from, *xy))?;
        if start.on_ground != Some(def.id) {
            return None;
        }
        // How long the plat takes to reach its other end, by the mover code.
        let mut moving = 0u32;
        while (st.offset - other).length() > 0.01 && moving < self.max_ticks(30.0) {
            st = st.step(def, &self.world.level.path_corners, self.dt).0;
            moving += 1;
        }
        let there = start.origin + travel;
        let aim = self.point_in(to, self.cell_xy(cell));
        let commands = vec![
            CmdRun {
                ticks: moving,
                cmd: UserCmd::default(),
            },
            CmdRun {
                ticks: self.max_ticks(3.0),
                cmd: run_cmd(there, aim, false, false),
            },
        ];
        self.ride_run((from, to), start, commands, (plat, used), ticks)
    }
}

/// What a mover (by id) must be for a reachability on it: where it waits, or fired when a
/// trigger moves it (`targeted`).
fn rest_need(id: u32, targeted: bool) -> MoverNeed {
    if targeted {
        MoverNeed::Fired(id)
    } else {
        MoverNeed::Down(id)
    }
}

/// A plat's offsets where it waits (low, or high when a trigger sends it down) and at its
/// other end.
fn plat_ends(def: &crate::map::level::MoverDef) -> Option<(Vec3, Vec3)> {
    let MoverKind::Plat { low } = def.kind else {
        return None;
    };
    let rest = MoverState::spawn(def, &[]).offset;
    let other = if (rest - low).length() < 0.01 {
        Vec3::ZERO
    } else {
        low
    };
    Some((rest, other))
}

/// Below this, a drop is more than a step.
const STEP_DROP: f32 = 18.0;

/// The (x, y) neighbours of a cell: 4 sides.
const SIDES: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The cells round a cell that are not beside it: its diagonals and the ring two cells out.
const NEAR_RING: [(i32, i32); 20] = [
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (2, -2),
    (2, -1),
    (2, 0),
    (2, 1),
    (2, 2),
    (-2, -2),
    (-2, -1),
    (-2, 0),
    (-2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 2),
    (-1, -2),
    (0, -2),
    (1, -2),
];
/// Eight directions for gaps.
const EIGHT: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn offset_cell(mesh: &NavMesh, c: u32, (dx, dy): (i32, i32), k: i32) -> Option<u32> {
    let f = &mesh.frame;
    let (x, y) = ((c % f.nx) as i32 + dx * k, (c / f.nx) as i32 + dy * k);
    (x >= 0 && y >= 0 && (x as u32) < f.nx && (y as u32) < f.ny).then(|| y as u32 * f.nx + x as u32)
}

/// Heights of area `a` at cell `c`: (lowest, highest) origin there.
fn heights(mesh: &NavMesh, a: u32, c: u32) -> (f32, f32) {
    let area = &mesh.areas()[a as usize];
    if area.is_swim() {
        (area.mins.z, area.maxs.z)
    } else {
        let f = &mesh.frame;
        let z = area.floor_z(f.center(c % f.nx, c / f.nx));
        (z, z)
    }
}

/// Each border cell of area `a` with its neighbour one cell along each of `dirs` that lies
/// outside the area (and inside the grid): (cell, direction, neighbour), in cell order.
fn border_steps(
    mesh: &NavMesh,
    a: &super::mesh::Area,
    dirs: &[(i32, i32)],
) -> Vec<(u32, (i32, i32), u32)> {
    let f = &mesh.frame;
    let (x0, y0, x1, y1) = (a.cell_min[0], a.cell_min[1], a.cell_max[0], a.cell_max[1]);
    let mut out = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            if x != x0 && x != x1 && y != y0 && y != y1 {
                continue;
            }
            let c = y * f.nx + x;
            for &dir in dirs {
                let Some(n) = offset_cell(mesh, c, dir, 1) else {
                    continue;
                };
                let (nx, ny) = (n % f.nx, n / f.nx);
                if !((x0..=x1).contains(&nx) && (y0..=y1).contains(&ny)) {
                    out.push((c, dir, n));
                }
            }
        }
    }
    out
}

/// Candidates between touching areas, by (from, to): up to three border places, the middle
/// one first.
fn touching(mesh: &NavMesh) -> Vec<Job> {
    let f = &mesh.frame;
    let mut pairs: BTreeMap<(u32, u32), Vec<(u32, u32)>> = BTreeMap::new();
    for a in mesh.areas() {
        for (c, _, n) in border_steps(mesh, a, &SIDES) {
            let (alo, ahi) = heights(mesh, a.id, c);
            for &b in mesh.areas_in_cell(n % f.nx, n / f.nx) {
                let (blo, bhi) = heights(mesh, b, n);
                // Up no more than a jump (out of a liquid: a water jump), down no more than
                // the longest fall.
                let up = if a.is_swim() && !mesh.areas()[b as usize].is_swim() {
                    MAX_WATER_JUMP_UP
                } else {
                    MAX_JUMP_UP
                };
                if blo > ahi + up || bhi < alo - MAX_FALL || !same_world(mesh, a.id, b) {
                    continue;
                }
                pairs.entry((a.id, b)).or_default().push((c, n));
            }
        }
    }
    // Out of the bottom of a liquid with air under it (see `build::floating_liquid`): to
    // the floor under its middle cell, the nearest below.
    for a in mesh.areas().iter().filter(|a| a.is_swim()) {
        let (x, y) = (
            (a.cell_min[0] + a.cell_max[0]) / 2,
            (a.cell_min[1] + a.cell_max[1]) / 2,
        );
        let c = y * f.nx + x;
        let below = mesh
            .areas_in_cell(x, y)
            .iter()
            .copied()
            .filter(|&b| {
                let area = &mesh.areas()[b as usize];
                !area.is_swim()
                    && area.maxs.z < a.mins.z
                    && area.maxs.z >= a.mins.z - MAX_FALL
                    && same_world(mesh, a.id, b)
            })
            .max_by(|&p, &q| {
                let z = |b: u32| heights(mesh, b, c).1;
                z(p).total_cmp(&z(q)).then(q.cmp(&p))
            });
        if let Some(b) = below {
            pairs.entry((a.id, b)).or_default().push((c, c));
        }
    }
    pairs
        .into_iter()
        .map(|((from, to), v)| {
            let mut places = vec![v[v.len() / 2]];
            for p in [v[0], v[v.len() - 1]] {
                if !places.contains(&p) {
                    places.push(p);
                }
            }
            Job::Touch { from, to, places }
        })
        .collect()
}

/// Walks off ledges onto floors near them but not beside them (a strip along a wall a
/// diagonal or two cells away, which no grid direction from the ledge leads onto: e3m2's
/// rocket launcher is reached so, from a raised plat's corner), for the (from, to) pairs
/// `adjacent` (those [`touching`] tries) lacks: one job per pair, aimed from the ledge's
/// border cell nearest the floor below first at that floor further on along the same line
/// (the walk clears a wall beside the ledge before it drifts over the strip; Quake's air
/// control cannot bring back sideways speed a wall took), then at its nearest cell. A stage
/// of their own, after the walks and jumps (a pair one joins must not keep a running jump
/// across a gap from being tried), landed as walks off ledges are and kept only where nothing
/// else leads there about as quickly ([`new_ways`]).
fn near_drops(mesh: &NavMesh, adjacent: &std::collections::BTreeSet<(u32, u32)>) -> Vec<Job> {
    let f = &mesh.frame;
    // (from, to) -> (squared cells away, ledge cell, cell below)
    let mut near: BTreeMap<(u32, u32), (i32, u32, u32)> = BTreeMap::new();
    for a in mesh.areas().iter().filter(|a| !a.is_swim()) {
        // Each border cell once (a corner cell borders outward two ways).
        let mut cells: Vec<u32> = border_steps(mesh, a, &SIDES)
            .into_iter()
            .map(|(c, _, _)| c)
            .collect();
        cells.dedup();
        for c in cells {
            let (alo, _) = heights(mesh, a.id, c);
            for &(dx, dy) in &NEAR_RING {
                let Some(n) = offset_cell(mesh, c, (dx, dy), 1) else {
                    continue;
                };
                for &b in mesh.areas_in_cell(n % f.nx, n / f.nx) {
                    let area = &mesh.areas()[b as usize];
                    if b == a.id || area.is_swim() || adjacent.contains(&(a.id, b)) {
                        continue;
                    }
                    let (_, bhi) = heights(mesh, b, n);
                    if bhi >= alo - STEP_DROP || bhi < alo - MAX_FALL || !same_world(mesh, a.id, b)
                    {
                        continue;
                    }
                    let d2 = dx * dx + dy * dy;
                    let e = near.entry((a.id, b)).or_insert((d2, c, n));
                    if d2 < e.0 {
                        *e = (d2, c, n);
                    }
                }
            }
        }
    }
    near.into_iter()
        .map(|((from, to), (_, c, n))| {
            let (cx, cy) = ((c % f.nx) as i32, (c / f.nx) as i32);
            let (nx, ny) = ((n % f.nx) as i32, (n / f.nx) as i32);
            let area = &mesh.areas()[to as usize];
            let within = |v: i32, lo: u32, hi: u32| v.clamp(lo as i32, hi as i32) as u32;
            let far = within(cy + 4 * (ny - cy), area.cell_min[1], area.cell_max[1]) * f.nx
                + within(cx + 4 * (nx - cx), area.cell_min[0], area.cell_max[0]);
            let mut places = vec![(c, far)];
            if far != n {
                places.push((c, n));
            }
            Job::Touch { from, to, places }
        })
        .collect()
}

/// Running-jump candidates from ledge areas' border cells, by (from, to): the nearest.
fn gaps(mesh: &NavMesh, walkable: &std::collections::BTreeSet<(u32, u32)>) -> Vec<Job> {
    let f = &mesh.frame;
    let areas = mesh.areas();
    // (from, to) -> (cells away, ledge cell, direction)
    type Nearest = (i32, u32, (i32, i32));
    let mut best: BTreeMap<(u32, u32), Nearest> = BTreeMap::new();
    let bad = AreaFlags::LAVA.0 | AreaFlags::SLIME.0 | AreaFlags::SWIM.0;
    for a in areas.iter().filter(|a| a.flags.has(AreaFlags::LEDGE)) {
        for (c, dir, n1) in border_steps(mesh, a, &EIGHT) {
            let (z, _) = heights(mesh, a.id, c);
            // A drop right beside: no floor within a step there (lava and slime are no
            // floor: walking in is not a way across).
            let level = mesh.areas_in_cell(n1 % f.nx, n1 / f.nx).iter().any(|&b| {
                let (lo, hi) = heights(mesh, b, n1);
                areas[b as usize].flags.0 & (AreaFlags::LAVA.0 | AreaFlags::SLIME.0) == 0
                    && hi >= z - STEP_DROP
                    && lo <= z + STEP_DROP
            });
            if level {
                continue;
            }
            let diag = if dir.0 != 0 && dir.1 != 0 {
                std::f32::consts::SQRT_2
            } else {
                1.0
            };
            let kmax = (MAX_GAP / (f.cell * diag)) as i32;
            'scan: for k in 2..=kmax {
                let Some(n) = offset_cell(mesh, c, dir, k) else {
                    break;
                };
                for &b in mesh.areas_in_cell(n % f.nx, n / f.nx) {
                    let area = &areas[b as usize];
                    if b == a.id || area.flags.0 & bad != 0 {
                        continue;
                    }
                    let (bz, _) = heights(mesh, b, n);
                    if bz > z + MAX_JUMP_UP || bz < z - 64.0 {
                        continue;
                    }
                    if !walkable.contains(&(a.id, b)) && same_world(mesh, a.id, b) {
                        let e = best.entry((a.id, b)).or_insert((k, c, dir));
                        if k < e.0 {
                            *e = (k, c, dir);
                        }
                    }
                    break 'scan;
                }
            }
        }
    }
    best.into_iter()
        .map(|((from, to), (_, cell, dir))| Job::Gap {
            from,
            to,
            cell,
            dir,
        })
        .collect()
}

/// Plat rides: from each area lying on a plat to each floor beside the plat's top.
fn rides(world: &NavWorld, mesh: &NavMesh) -> Vec<Job> {
    let f = &mesh.frame;
    let mut out = Vec::new();
    for (i, def) in world.level.movers.iter().enumerate() {
        let Some((_, other)) = plat_ends(def) else {
            continue;
        };
        let top_z = def.maxs.z + other.z - PLAYER_MINS.z;
        let lo = def.mins.truncate() + PLAYER_MINS.truncate() - Vec2::splat(48.0);
        let hi = def.maxs.truncate() + PLAYER_MAXS.truncate() + Vec2::splat(48.0);
        let mut near: BTreeMap<u32, (f32, u32)> = BTreeMap::new();
        let centre = (def.mins.truncate() + def.maxs.truncate()) * 0.5;
        // The ring around the plat, clipped to the grid.
        let clamp = |v: Vec2| {
            let c = ((v - f.origin) / f.cell).floor();
            (
                (c.x.max(0.0) as u32).min(f.nx - 1),
                (c.y.max(0.0) as u32).min(f.ny - 1),
            )
        };
        let (c0, c1) = (clamp(lo), clamp(hi));
        for y in c0.1..=c1.1 {
            for x in c0.0..=c1.0 {
                let xy = f.center(x, y);
                for &b in mesh.areas_in_cell(x, y) {
                    let area = &mesh.areas()[b as usize];
                    if area.is_swim() || area.mover.is_some() || area.moved.is_some() {
                        continue;
                    }
                    if (area.floor_z(xy) - top_z).abs() > STEP_DROP {
                        continue;
                    }
                    let d = (xy - centre).length();
                    let e = near.entry(b).or_insert((d, y * f.nx + x));
                    if d < e.0 {
                        *e = (d, y * f.nx + x);
                    }
                }
            }
        }
        // The nearest few floors beside the other end are enough to leave the plat by.
        let mut near: Vec<(u32, (f32, u32))> = near.into_iter().collect();
        near.sort_by(|a, b| a.1.0.total_cmp(&b.1.0).then(a.0.cmp(&b.0)));
        near.truncate(6);
        for a in mesh
            .areas()
            .iter()
            .filter(|a| a.mover == Some(def.id.0) && a.moved.is_none())
        {
            for &(b, (_, cell)) in &near {
                out.push(Job::Ride {
                    from: a.id,
                    to: b,
                    plat: i,
                    cell,
                });
            }
        }
    }
    out
}

/// Carries: between each area on a plat or door where navigation has it and each area on
/// it at its other end above or below, both ways.
fn carries(world: &NavWorld, mesh: &NavMesh) -> Vec<Job> {
    let mut out = Vec::new();
    let on = |mover: u32, moved: Option<u32>| {
        mesh.areas()
            .iter()
            .filter(move |a| a.mover == Some(mover) && a.moved == moved)
    };
    for (position, m) in world.moved.iter().enumerate() {
        if m.corner.is_some() {
            continue;
        }
        for a in on(m.id, None) {
            for b in on(m.id, Some(position as u32)) {
                let lo = a.mins.truncate().max(b.mins.truncate());
                let hi = a.maxs.truncate().min(b.maxs.truncate());
                if lo.cmpgt(hi).any() {
                    continue;
                }
                for (from, to) in [(a.id, b.id), (b.id, a.id)] {
                    out.push(Job::Carry {
                        from,
                        to,
                        mover: m.index,
                        leg: None,
                    });
                }
            }
        }
    }
    // Trains: from each stop to the next, from the area on the train there to the one the
    // same spot on the train is in at the next stop.
    let corners = &world.level.path_corners;
    for (index, def) in world.level.movers.iter().enumerate() {
        let stops = MoverState::train_stops(def, corners);
        let position = |corner: usize| -> Option<Option<u32>> {
            if stops.first().map(|s| s.0) == Some(corner) {
                return Some(None);
            }
            world
                .moved
                .iter()
                .position(|m| m.index == index && m.corner == Some(corner))
                .map(|p| Some(p as u32))
        };
        for &(corner, offset) in &stops {
            let next = corners[corner]
                .target
                .as_deref()
                .and_then(|t| stops.iter().find(|s| corners[s.0].name == t));
            let Some(&(next, next_offset)) = next else {
                continue;
            };
            if next == corner {
                continue;
            }
            let (Some(here), Some(there)) = (position(corner), position(next)) else {
                continue;
            };
            let delta = (next_offset - offset).truncate();
            for a in on(def.id.0, here) {
                let p = a.center.truncate() + delta;
                for b in on(def.id.0, there) {
                    if p.cmpge(b.mins.truncate()).all() && p.cmple(b.maxs.truncate()).all() {
                        out.push(Job::Carry {
                            from: a.id,
                            to: b.id,
                            mover: index,
                            leg: Some((corner, next)),
                        });
                    }
                }
            }
        }
    }
    out
}

/// Two areas can be joined when at most one mover has to be moved for them.
fn same_world(mesh: &NavMesh, a: u32, b: u32) -> bool {
    let (x, y) = (
        mesh.areas()[a as usize].moved,
        mesh.areas()[b as usize].moved,
    );
    x.is_none() || y.is_none() || x == y
}

/// The mover the world it runs in has moved, doors whose closed brushes a reachability's
/// path crosses, and the plat of an area it ends on.
fn needs(world: &NavWorld, mesh: &NavMesh, moved: Option<u32>, r: &mut Reach) {
    let span = |a: Vec3, b: Vec3| (a.min(b) + PLAYER_MINS, a.max(b) + PLAYER_MAXS);
    // The path's boxes: start to end; a teleport's path is broken, from the start into the
    // trigger and from the destination down to the end (one box over both took e3m2's
    // teleport to the balcony as passing a door between them).
    let boxes: Vec<(Vec3, Vec3)> = match teleporter_taken(world, r) {
        Some(t) if r.kind == ReachKind::Teleport => vec![
            span(r.start, r.start.clamp(t.mins, t.maxs)),
            span(t.dest, r.end),
        ],
        _ => vec![span(r.start, r.end)],
    };
    // The world it was verified in (and a replay runs in).
    if let Some(id) = moved {
        r.needs.push(MoverNeed::Moved(id));
    }
    let moved_mover = moved
        .and_then(|p| world.moved.get(p as usize))
        .map(|m| m.id);
    for (index, m) in world.level.movers.iter().enumerate() {
        let crossed = boxes
            .iter()
            .any(|&(lo, hi)| crate::map::collision::overlaps(lo, hi, m.mins, m.maxs));
        if !crossed || moved_mover == Some(m.id.0) {
            continue;
        }
        match m.kind {
            MoverKind::Door { locked: true, .. } => r.needs.push(MoverNeed::Key(m.id.0)),
            MoverKind::Door { .. } | MoverKind::SecretDoor { .. } => {
                if moved.is_none() && runs_shut(world, mesh, r, index) {
                    continue;
                }
                r.needs.push(MoverNeed::Open(m.id.0))
            }
            _ => {}
        }
    }
    // A carry (on one mover from one of its positions to another) needs the mover where
    // it starts; where it ends is its doing.
    let (fa, ta) = (&mesh.areas()[r.from as usize], &mesh.areas()[r.to as usize]);
    let carry = r.kind == ReachKind::Elevator && fa.mover.is_some() && fa.mover == ta.mover;
    let ends: &[u32] = if carry { &[r.from] } else { &[r.from, r.to] };
    for &a in ends {
        let area = &mesh.areas()[a as usize];
        if let Some(id) = area.mover {
            let Some(def) = world.level.movers.iter().find(|m| m.id.0 == id) else {
                continue;
            };
            // On the mover at another position (a raised plat's top, a train at a later
            // stop): the position (`Moved`) alone names what it needs.
            if area
                .moved
                .and_then(|p| world.moved.get(p as usize))
                .is_some_and(|m| m.id == id)
            {
                continue;
            }
            let targeted = def.targetname.is_some();
            let need = rest_need(id, targeted);
            if !r.needs.contains(&need) {
                r.needs.push(need);
            }
        }
    }
}

/// Whether reachability `r` (verified with every door open) arrives as well with door
/// `index` (and the doors linked to it) shut: a path whose box only overlaps a door's — a
/// fall from a ledge past the top of a door below, which a bot up there cannot open by
/// touch — does not wait for it (e1m1's teleporter exit over the doors at (128, 1800)).
/// Rides are left needing it (their carrier's motion is part of the run).
fn runs_shut(world: &NavWorld, mesh: &NavMesh, r: &Reach, index: usize) -> bool {
    if r.kind == ReachKind::Elevator {
        return false;
    }
    let Some(shut) = world
        .moved
        .iter()
        .find(|m| m.corner.is_none() && m.group.contains(&index))
    else {
        return false;
    };
    let dt = 1.0 / mesh.params.tick_rate as f32;
    let start = settle(&shut.cmap, r.start, mesh.areas()[r.from as usize].is_swim());
    simulate(
        (world, &shut.cmap),
        start,
        &r.commands,
        None,
        dt,
        |s, sent| {
            in_area(mesh, s, r.to)
                && (r.kind != ReachKind::Teleport || (sent.is_some() && s.on_ground.is_some()))
        },
        &mut 0,
    )
    .is_some()
}

/// The teleporter a teleport reachability takes: the named one it records, else the one
/// nearest its start whose destination is nearest where it ends (triggers can share a
/// destination; a teleported player slides a little before it lands).
fn teleporter_taken<'w>(world: &'w NavWorld, r: &Reach) -> Option<&'w super::Teleporter> {
    if let Some(t) = r.needs.iter().find_map(|n| match n {
        MoverNeed::Teleporter(t) => Some(*t),
        _ => None,
    }) {
        return world.teleports.iter().find(|x| x.trigger == t);
    }
    let cost = |t: &super::Teleporter| {
        (r.start.clamp(t.mins, t.maxs) - r.start).length()
            + (t.dest.truncate() - r.end.truncate()).length()
    };
    world
        .teleports
        .iter()
        .min_by(|a, b| cost(a).total_cmp(&cost(b)))
}

/// Every candidate, verified; in a fixed order (the mesh sorts them).
pub(crate) fn build(
    world: &NavWorld,
    mesh: &NavMesh,
    threads: usize,
    stats: &mut CompileStats,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> (Vec<Reach>, Vec<Reach>) {
    let areas = mesh.areas();
    let verify = |job: &Job,
                  walks: Option<&std::collections::BTreeSet<(u32, u32)>>|
     -> (Option<(Reach, Option<u32>)>, u64) {
        let mut ticks = 0u64;
        // The world the job runs in: where its start (or its end) needs a mover moved.
        let moved = match job {
            Job::Touch { from, to, .. } | Job::Gap { from, to, .. } => {
                areas[*from as usize].moved.or(areas[*to as usize].moved)
            }
            Job::Teleport { from } | Job::Push { from, .. } | Job::Carry { from, .. } => {
                areas[*from as usize].moved
            }
            Job::Ride { .. } => None,
        };
        let ctx = Ctx {
            world,
            mesh,
            dt: 1.0 / mesh.params.tick_rate as f32,
            moved,
            walks,
        };
        let r = match job {
            Job::Touch { from, to, places } => ctx.touch(*from, *to, places, &mut ticks),
            Job::Gap {
                from,
                to,
                cell,
                dir,
            } => ctx.gap(*from, *to, *cell, *dir, &mut ticks),
            Job::Teleport { from } => ctx.teleport(*from, &mut ticks),
            Job::Push { from, push } => ctx.push(*from, *push, &mut ticks),
            Job::Ride {
                from,
                to,
                plat,
                cell,
            } => ctx.ride(*from, *to, *plat, *cell, &mut ticks),
            Job::Carry {
                from,
                to,
                mover,
                leg,
            } => ctx.carry(*from, *to, *mover, *leg, &mut ticks),
        };
        (r.map(|r| (r, moved)), ticks)
    };
    let mut reaches = Vec::new();
    let mut run = |jobs: Vec<Job>,
                   stage: &str,
                   walks: Option<&std::collections::BTreeSet<(u32, u32)>>,
                   reaches: &mut Vec<Reach>| {
        let total = jobs.len() as u64;
        let done = par_map(
            &jobs,
            threads,
            |j| verify(j, walks),
            |n| progress(stage, n as u64, total),
        );
        stats.candidates += total;
        for (r, t) in done {
            stats.ticks_simulated += t;
            match r {
                Some((mut r, moved)) => {
                    needs(world, mesh, moved, &mut r);
                    reaches.push(r);
                }
                None => stats.dropped += 1,
            }
        }
    };
    let touch_jobs = touching(mesh);
    let adjacent: std::collections::BTreeSet<(u32, u32)> = touch_jobs
        .iter()
        .filter_map(|j| match j {
            Job::Touch { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect();
    run(touch_jobs, "walk/swim reachabilities", None, &mut reaches);
    let walkable: std::collections::BTreeSet<(u32, u32)> =
        reaches.iter().map(|r| (r.from, r.to)).collect();
    let walks: std::collections::BTreeSet<(u32, u32)> = reaches
        .iter()
        .filter(|r| matches!(r.kind, ReachKind::Walk | ReachKind::StepUp))
        .map(|r| (r.from, r.to))
        .collect();
    let mut special = gaps(mesh, &walkable);
    special.extend(
        mesh.areas()
            .iter()
            .filter(|a| a.flags.has(AreaFlags::TELEPORTER))
            .map(|a| Job::Teleport { from: a.id }),
    );
    special.extend(push_jobs(world, mesh));
    special.extend(rides(world, mesh));
    special.extend(carries(world, mesh));
    run(
        special,
        "jump/teleport/plat reachabilities",
        Some(&walks),
        &mut reaches,
    );
    // Two candidates can end as the same (from, to, kind) (running jumps start where their
    // run-up does): the quickest stays.
    keep_quickest(&mut reaches);
    let mut near = Vec::new();
    run(
        near_drops(mesh, &adjacent),
        "near-drop reachabilities",
        Some(&walks),
        &mut near,
    );
    keep_quickest(&mut near);
    for list in [&mut reaches, &mut near] {
        let before = list.len();
        list.retain(|r| !onto_held_plat(world, mesh, r));
        stats.dropped += (before - list.len()) as u64;
    }
    (reaches, near)
}

/// How far (units) above its end a reachability onto a plat at rest may enter the plat's
/// trigger: stepping or dropping a little onto a plat is how a ride starts.
const PLAT_DROP: f32 = 48.0;

/// Whether reachability `r` comes down onto a plat waiting low (one nothing targets) from
/// well above it, through its trigger: Quake sends such a plat up as soon as a player is in
/// its trigger, which spans the shaft over it (plats.qc's `plat_center_touch`), so the
/// player comes down onto it on its way up and is carried back to the top — no way down
/// (verified with the plat standing still, such a fall looked like one: e1m1's shaft east
/// of its quad damage, where a bot waited on the raised plat for good).
fn onto_held_plat(world: &NavWorld, mesh: &NavMesh, r: &Reach) -> bool {
    use crate::map::level::TriggerKind;
    if r.kind == ReachKind::Elevator {
        return false;
    }
    let to = &mesh.areas()[r.to as usize];
    let (Some(id), None) = (to.mover, to.moved) else {
        return false;
    };
    world.level.triggers.iter().any(|t| {
        let TriggerKind::PlatRaise { mover } = t.kind else {
            return false;
        };
        let def = &world.level.movers[mover];
        def.id.0 == id
            && def.targetname.is_none()
            && crate::nav::waypoints::segment_enters_box(r.start, r.end, t.mins, t.maxs)
                .is_some_and(|f| r.start.z + f * (r.end.z - r.start.z) > r.end.z + PLAT_DROP)
    })
}

/// How much quicker than every other way a near drop must be to be kept, seconds.
const NEAR_DROP_SAVING: f32 = 3.0;

/// Of `extra`, those that lead where `mesh`'s reachabilities do not, or only much more
/// slowly ([`NEAR_DROP_SAVING`]): the route time from a near drop's start to its end area's
/// centre without it, against its own time and the walk on to that centre. The compile
/// keeps only such near drops: where the rest of the graph leads there about as quickly,
/// the way it knows is the one bots follow well (measured on dm4's item tours with every
/// near drop kept: routes took shortcuts across rooms that bots followed less closely, 66
/// of 130 legs within 10 % of the predicted time against 82). Reachability alone is not
/// enough: on e3m2 the only other way to the rocket launcher's ledge is round by a shot
/// door, a teleporter and a 320-unit fall.
pub(crate) fn new_ways(mesh: &NavMesh, extra: Vec<Reach>) -> Vec<Reach> {
    let mut caches: BTreeMap<u32, super::route::AreaCache> = BTreeMap::new();
    extra
        .into_iter()
        .filter(|r| {
            let cache = caches.entry(r.to).or_insert_with(|| {
                super::route::build_cache(mesh, r.to, super::route::Travel::ALL)
            });
            let centre = mesh.areas()[r.to as usize].center;
            let own = r.seconds + super::route::cross(mesh, r.to, r.end, centre);
            let other =
                super::route::seconds_from(mesh, cache, r.start).map_or(f32::INFINITY, |t| t.0);
            other > own + NEAR_DROP_SAVING
        })
        .collect()
}

/// How long a fall that ends coming down over its end area is followed, held still,
/// until it lands (a bot's fit of a run looks as far).
const LANDING_SECONDS: f32 = 2.0;

/// Where a player coming down (`s`) lands when it holds still facing `yaw`: the first
/// state on the ground, swimming or at rest, `None` when it has not within
/// [`LANDING_SECONDS`] or a teleporter sent it on.
fn landing(
    (world, cmap): (&NavWorld, &crate::map::CollisionMap),
    s: PlayerState,
    yaw: f32,
    dt: f32,
    ticks: &mut u64,
) -> Option<PlayerState> {
    if s.on_ground.is_some() || s.water_level >= 2 {
        return Some(s);
    }
    let hold = [CmdRun {
        ticks: (LANDING_SECONDS / dt).ceil() as u32,
        cmd: UserCmd {
            yaw,
            ..Default::default()
        },
    }];
    // Held up in the air (the box caught on an edge the physics does not count as
    // ground) is where it comes to rest too: a bot walks on from there.
    let mut last = s.origin;
    simulate(
        (world, cmap),
        s,
        &hold,
        None,
        dt,
        |p, sent| {
            let resting = p.origin.distance(last) < 0.01;
            last = p.origin;
            sent.is_none() && (p.on_ground.is_some() || p.water_level >= 2 || resting)
        },
        ticks,
    )
    .map(|a| a.state)
}

/// Cells of run-up tried behind a jump's start (8 units each at the default cell).
const RUN_UP_CELLS: u32 = 8;

/// A jump `r` that does not land where it leads from a standing start, taken with a
/// run-up instead: from a standing start up to [`RUN_UP_CELLS`] cells behind its start
/// (along the jump's heading, on the start's level, the nearest first), running the jump's
/// heading until about where it started and then its commands, jumping a tick earlier or
/// later too. The first that arrives in its end area and lands there (or in an area a
/// walk joins to it) is the jump as it is to be played, from the area its run-up starts
/// in; `None` when none does.
fn run_up(
    ctx: &Ctx,
    r: &Reach,
    lands: &dyn Fn(&Reach, &mut u64) -> Option<u32>,
    ticks: &mut u64,
) -> Option<Reach> {
    let first = r.commands.first()?.cmd;
    let dir = Vec2::from_angle(first.yaw.to_radians());
    let run = UserCmd {
        jump: false,
        up_move: 0.0,
        ..first
    };
    let cell = ctx.mesh.frame.cell;
    for k in 1..=RUN_UP_CELLS {
        let p = r.start.truncate() - dir * cell * k as f32;
        let Some(from) = ctx.mesh.area_at(p.extend(r.start.z + 1.0)) else {
            break;
        };
        let fa = &ctx.mesh.areas()[from as usize];
        if fa.is_swim() || !ctx.here(from) || from == r.to {
            break;
        }
        let Some(start) = ctx.start_in(from, p) else {
            continue;
        };
        if (start.origin.z - r.start.z).abs() > 2.0 {
            break;
        }
        // Ticks of running until the runner is about where the jump started.
        let mut q = start;
        let mut reach_ticks = None;
        for t in 1..=ctx.max_ticks(1.0) {
            *ticks += 1;
            q = pmove(
                &q,
                &run,
                ctx.cmap(),
                &PhysicsParams::default(),
                ctx.dt,
                None,
            )
            .0;
            if q.on_ground.is_none() {
                break;
            }
            if (q.origin.truncate() - r.start.truncate()).dot(dir) >= 0.0 {
                reach_ticks = Some(t);
                break;
            }
        }
        let Some(n) = reach_ticks else {
            continue;
        };
        for j in [n, n - 1, n + 1] {
            if j == 0 {
                continue;
            }
            let mut commands = vec![CmdRun { ticks: j, cmd: run }];
            commands.extend(r.commands.iter().copied());
            // Time for the fall after: the stored commands stop where the stand's run
            // arrived, which a quicker jump passes sooner.
            if let Some(last) = commands.last_mut() {
                last.ticks += ctx.max_ticks(1.0);
            }
            let Some((arr, cmds)) = ctx.run(start, commands, None, Some(r.to), ticks) else {
                continue;
            };
            let Some(jumped) = ctx.make((from, r.to, r.kind), &start, &arr, cmds) else {
                continue;
            };
            if lands(&jumped, ticks).is_some_and(|l| ctx.mesh.walk_joined(r.to, l)) {
                return Some(jumped);
            }
        }
    }
    None
}

/// Shares of a fall's running speed tried, fastest first, when at full speed it lands
/// beyond its end area.
const SLOWER_FALLS: [f32; 8] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.25, 0.15];

/// What the landing pass did with one reachability.
enum Landed {
    /// It lands in its end area or one a walk joins to it.
    Keep,
    /// It lands elsewhere: the reachability to where it lands instead.
    Moved(Reach),
    /// It lands nowhere a route can go on from.
    Drop,
}

/// The compile's last pass, over the walks off ledges: a run's arrival is the first tick
/// it is over its end area coming down, but a long fall at running speed comes down over
/// an area and lands far beyond it (a bot that plays it lands there, and the route it
/// planned is wrong). Each is replayed from its start to its arrival and held still until
/// it lands, as a bot checks a run before playing it. One that lands in its end area, or in
/// an area a walk joins to it, is kept; one that lands elsewhere is tried walking off
/// slower ([`SLOWER_FALLS`]: the fall lands nearer), and else becomes the reachability
/// to where it lands (its commands run on, the last one held, to the first tick over that
/// area) when that one lands there in turn, and is dropped otherwise. Jumps are left as
/// they are: one that tops out over a ledge from a stand may make it from a run, which a
/// bot tries (measured: checking them too lost dm6's only way up to one ledge). `given`:
/// the reachabilities checked (those of the earlier passes, or the near drops); `mesh`
/// holds the ones whose walks join areas. Returns `given` as they are to be (duplicates by
/// (from, to, kind): the quickest).
pub(crate) fn landings(
    world: &NavWorld,
    mesh: &NavMesh,
    given: &[Reach],
    threads: usize,
    stats: &mut CompileStats,
) -> Vec<Reach> {
    let dt = 1.0 / mesh.params.tick_rate as f32;
    let ids: Vec<usize> = (0..given.len()).collect();
    let check = |&i: &usize| -> (Landed, u64) {
        let mut ticks = 0u64;
        let r = &given[i];
        let jump = matches!(r.kind, ReachKind::Jump | ReachKind::BarrierJump);
        if !(r.kind == ReachKind::WalkOffLedge || jump) || carrier_of(world, mesh, r).is_some() {
            return (Landed::Keep, 0);
        }
        let moved = r.needs.iter().find_map(|n| match n {
            MoverNeed::Moved(id) => Some(*id),
            _ => None,
        });
        let ctx = Ctx {
            world,
            mesh,
            dt,
            moved,
            walks: None,
        };
        // The area a replay of `r` lands in.
        let lands = |r: &Reach, ticks: &mut u64| {
            let from = &mesh.areas()[r.from as usize];
            let start = settle(ctx.cmap(), r.start, from.is_swim());
            let (arr, _) = ctx.run(start, r.commands.clone(), None, Some(r.to), ticks)?;
            let yaw = r.commands.last().map_or(start.yaw, |c| c.cmd.yaw);
            let s = landing((world, ctx.cmap()), arr.state, yaw, dt, ticks)?;
            mesh.area_at(s.origin)
        };
        let landed = lands(r, &mut ticks);
        if landed.is_some_and(|l| mesh.walk_joined(r.to, l)) {
            return (Landed::Keep, ticks);
        }
        if jump {
            // A jump that tops out over its end area from a stand and falls back: with a
            // run-up, as a player takes it.
            if let Some(mut run) = run_up(&ctx, r, &lands, &mut ticks) {
                needs(world, mesh, moved, &mut run);
                return (Landed::Moved(run), ticks);
            }
        }
        let Some(l) = landed else {
            return (Landed::Drop, ticks);
        };
        let from = &mesh.areas()[r.from as usize];
        let start = settle(ctx.cmap(), r.start, from.is_swim());
        // Walked off slower, the fall lands nearer: the slowest speed that still lands
        // where the route goes on keeps the reachability to its end area.
        for speed in SLOWER_FALLS.into_iter().filter(|_| !jump) {
            let commands: Vec<CmdRun> = r
                .commands
                .iter()
                .map(|c| CmdRun {
                    ticks: c.ticks + ctx.max_ticks(1.0),
                    cmd: UserCmd {
                        forward_move: c.cmd.forward_move * speed,
                        ..c.cmd
                    },
                })
                .collect();
            let Some((arr, cmds)) = ctx.run(start, commands, None, Some(r.to), &mut ticks) else {
                continue;
            };
            let Some(mut slower) = ctx.make((r.from, r.to, r.kind), &start, &arr, cmds) else {
                continue;
            };
            if lands(&slower, &mut ticks).is_some_and(|again| mesh.walk_joined(r.to, again)) {
                needs(world, mesh, moved, &mut slower);
                return (Landed::Moved(slower), ticks);
            }
        }
        // Landing back where it started, somewhere not there with the movers as they
        // are, or in lava or slime (a jump that misses its ledge and falls into the pit
        // is no way anywhere): dropped.
        let deadly = AreaFlags::LAVA.0 | AreaFlags::SLIME.0;
        if l == r.from || !ctx.here(l) || mesh.areas()[l as usize].flags.0 & deadly != 0 {
            return (Landed::Drop, ticks);
        }
        let mut commands = r.commands.clone();
        if let Some(last) = commands.last_mut() {
            last.ticks += ctx.max_ticks(LANDING_SECONDS);
        }
        let Some((arr, cmds)) = ctx.run(start, commands, None, Some(l), &mut ticks) else {
            return (Landed::Drop, ticks);
        };
        let Some(mut moved_to) = ctx.make((r.from, l, r.kind), &start, &arr, cmds) else {
            return (Landed::Drop, ticks);
        };
        needs(world, mesh, moved, &mut moved_to);
        match lands(&moved_to, &mut ticks) {
            Some(again) if mesh.walk_joined(l, again) => (Landed::Moved(moved_to), ticks),
            _ => (Landed::Drop, ticks),
        }
    };
    let done = par_map(&ids, threads, check, |_| {});
    let mut reaches = Vec::with_capacity(ids.len());
    for (r, (landed, ticks)) in given.iter().zip(done) {
        stats.ticks_simulated += ticks;
        match landed {
            Landed::Keep => reaches.push(r.clone()),
            Landed::Moved(m) => reaches.push(m),
            Landed::Drop => stats.dropped += 1,
        }
    }
    keep_quickest(&mut reaches);
    reaches
}

/// Of the reachabilities with the same (from, to, kind), the quickest stays; sorted by them.
fn keep_quickest(reaches: &mut Vec<Reach>) {
    reaches.sort_by(|a, b| {
        (a.from, a.to, a.kind)
            .cmp(&(b.from, b.to, b.kind))
            .then(a.seconds.total_cmp(&b.seconds))
    });
    reaches.dedup_by(|b, a| (a.from, a.to, a.kind) == (b.from, b.to, b.kind));
}

/// A push job for every area a standing player can touch a push from: the area's floor box
/// overlaps the push's box grown by the player's.
fn push_jobs(world: &NavWorld, mesh: &NavMesh) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (pi, p) in world.pushes.iter().enumerate() {
        let (lo, hi) = (p.mins - PLAYER_MAXS, p.maxs - PLAYER_MINS);
        for a in mesh.areas() {
            let (amn, amx) = (a.mins, a.maxs);
            if amn.x <= hi.x
                && amx.x >= lo.x
                && amn.y <= hi.y
                && amx.y >= lo.y
                && amn.z <= hi.z
                && amx.z + 24.0 >= lo.z
            {
                jobs.push(Job::Push {
                    from: a.id,
                    push: pi as u32,
                });
            }
        }
    }
    jobs
}
