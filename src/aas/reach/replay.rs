//! Replaying a reachability: its commands run through the player physics from its start
//! ([`run_reach`], [`simulate`]), with the plat or train that carries the player moved as
//! the mover code moves it and teleport triggers applied as the simulation does.

use glam::{Vec2, Vec3};

use crate::map::level::MoverKind;
use crate::physics::movers::MoverState;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, UserCmd, pmove};

use crate::aas::mesh::{CmdRun, MoverNeed, NavMesh, Reach, ReachKind};
use crate::aas::world::NavWorld;

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
pub(super) type Carrier = (usize, MoverState);

/// Runs `commands` from `start` through the physics at `dt` in `cmap` (a mover `carrier`
/// started at tick 0 from its given state and moved as the mover code moves it, carrying
/// whoever stands on it), and returns the first tick at which `arrived` (given the state
/// and the teleporter that has sent the player on so far) holds. Teleport triggers send the
/// player on after each tick's check.
pub(super) fn simulate(
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
pub(super) fn cut(commands: &[CmdRun], ticks: u32) -> Vec<CmdRun> {
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
pub(super) fn in_area(mesh: &NavMesh, s: &PlayerState, to: u32) -> bool {
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
pub(super) fn carrier_of(world: &NavWorld, mesh: &NavMesh, reach: &Reach) -> Option<Carrier> {
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
pub(super) fn off_plat_trigger(
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
pub(super) fn plat_trigger(
    level: &crate::map::Level,
    mover: usize,
) -> Option<&crate::map::level::TriggerDef> {
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
pub(super) fn on_plat_trigger(
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
/// (`to_other`), or coming back. `None` for a door's way back to where it rests when,
/// once fired, it stays open for good (a wait of -1, not a toggle: doors.qc sends such a
/// door back neither after a wait nor when blocked), so no ride is made that way.
pub(super) fn carry_state(world: &NavWorld, index: usize, to_other: bool) -> Option<MoverState> {
    let def = &world.level.movers[index];
    let here = world.cmap.mover_offset(def.id)?;
    let there = world
        .moved
        .iter()
        .find(|m| m.index == index && m.corner.is_none())?
        .offset;
    let target = if to_other { there } else { here };
    let (_, b) = MoverState::ends(def);
    let to_b = (target - b).length() < 0.01;
    let stays = matches!(def.kind, MoverKind::Door { toggle: false, .. }) && def.wait < 0.0;
    if stays && !to_b {
        return None;
    }
    MoverState::travelling(def, to_b)
}

/// A player at rest at `p` in `cmap`: settled by the physics on a floor, or floating where
/// put in liquid.
pub(super) fn settle(cmap: &crate::map::CollisionMap, p: Vec3, swim: bool) -> PlayerState {
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

pub(super) fn yaw_of(d: Vec2) -> f32 {
    d.y.atan2(d.x).to_degrees()
}

/// A command running toward `to` from `from` (pitched toward it when swimming).
pub(super) fn run_cmd(from: Vec3, to: Vec3, jump: bool, swim: bool) -> UserCmd {
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

/// How long a fall that ends coming down over its end area is followed, held still,
/// until it lands (a bot's fit of a run looks as far).
pub(super) const LANDING_SECONDS: f32 = 2.0;

/// Where a player coming down (`s`) lands when it holds still facing `yaw`: the first
/// state on the ground, swimming or at rest, `None` when it has not within
/// [`LANDING_SECONDS`] or a teleporter sent it on.
pub(super) fn landing(
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
