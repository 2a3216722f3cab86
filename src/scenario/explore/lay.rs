//! Laying a way the physics showed down as waypoints: the closing pass's planner and
//! route follower give a way as one player state per step, and a chain of waypoints is
//! laid along it, each link one that straight-line reachability confirms or that the
//! player was seen to make (carried through the air, riding a mover, arriving), as
//! explorers link what they observe.

use glam::Vec3;

use crate::map::level::MoverKind;
use crate::map::{CollisionMap, EntId, Level};
use crate::nav::sample::STAND;
use crate::nav::waypoints::{Travel, WaypointGraph, WaypointKind};
use crate::nav::{ReachParams, reachable};
use crate::physics::pmove::{PlayerState, STEP_SIZE};

/// Longest link (units) of a chain laid along a way.
pub const PLAN_LINK: f32 = 512.0;

/// A mover that may carry a player, as a chain lays a ride on it: its entity, its index in
/// the level's movers, and for a plat where a player stands on the centre of its top, low
/// and high (explorers drop one waypoint each there).
#[derive(Clone, Copy, Debug)]
pub(super) struct Carrier {
    id: EntId,
    mover: usize,
    plat: Option<(Vec3, Vec3)>,
}

/// The level's movers as carriers ([`Carrier`]): a map draws plats high, and `low` is
/// their offset down.
pub(super) fn carriers(level: &Level) -> Vec<Carrier> {
    level
        .movers
        .iter()
        .enumerate()
        .map(|(mover, m)| {
            let c = (m.mins + m.maxs) * 0.5;
            let high = Vec3::new(c.x, c.y, m.maxs.z + STAND);
            let plat = match m.kind {
                MoverKind::Plat { low } => Some((high + Vec3::new(0.0, 0.0, low.z), high)),
                _ => None,
            };
            Carrier {
                id: m.id,
                mover,
                plat,
            }
        })
        .collect()
}

/// Lays the way `states` (one each `step` seconds) from waypoint `a` to waypoint `b` down
/// as a chain of at most `most` new waypoints: from each point, the farthest point of the
/// way further on where the player stands (or swims) that straight-line reachability
/// confirms (or that the player was carried to through the air, [`carried`]), until `b`
/// itself is; a ride on a mover is laid as explorers lay theirs ([`ridden`]), and the
/// way's end, where no stand follows, as observed. Adds nothing where a piece of the way is
/// not confirmed (a teleporter). Returns the links added.
pub(super) fn lay_chain(
    graph: &mut WaypointGraph,
    (map, params, carriers): (&CollisionMap, &ReachParams, &[Carrier]),
    (a, b): (u32, u32),
    states: &[PlayerState],
    step: f32,
    most: usize,
) -> usize {
    let (pa, pb) = (
        graph.waypoints()[a as usize].origin,
        graph.waypoints()[b as usize].origin,
    );
    let travel = |p: Vec3, q: Vec3| Travel::from_reach(reachable(map, p, q, params));
    // Where the player stands (or swims) on the way: its step on the way, and its origin.
    let stands: Vec<(usize, Vec3)> = states
        .iter()
        .enumerate()
        .filter(|(_, s)| s.on_ground.is_some() || s.water_level >= 2)
        .map(|(j, s)| (j, s.origin))
        .collect();
    let mut chain: Vec<(Vec3, Travel, WaypointKind)> = Vec::new();
    let (mut cur, mut i) = (pa, 0);
    loop {
        if let Some(t) = travel(cur, pb) {
            chain.push((pb, t, WaypointKind::Normal));
            break;
        }
        let next = (i + 1..stands.len())
            .rev()
            .filter(|&k| stands[k].1.distance(cur) <= PLAN_LINK)
            .find_map(|k| travel(cur, stands[k].1).map(|t| (k, t)))
            .or_else(|| carried(states, &stands, i, cur, step));
        let ride = || {
            let r = ridden(states, &stands, i, carriers)?;
            let on = if cur.distance(r.low.0) < 1.0 {
                Some(Travel::Walk)
            } else {
                travel(cur, r.low.0)
            };
            // Else observed, where the player came onto it straight from here.
            let on = on.or_else(|| {
                (r.stepped && cur.distance(r.low.0) <= PLAN_LINK)
                    .then(|| observed(cur, r.low.0, true))
            })?;
            Some((r, on))
        };
        // No stand further on: the way ended touching `b`'s box from here, through the air
        // at most (a drop into the water round it): linked as observed.
        if next.is_none() && i + 1 >= stands.len() && cur.distance(pb) <= PLAN_LINK {
            let airborne = stands.get(i).is_some_and(|&(n, _)| n + 1 < states.len());
            chain.push((pb, observed(cur, pb, airborne), WaypointKind::Normal));
            break;
        }
        if next.is_none()
            && let Some((r, on)) = ride()
            && chain.len() + 3 <= most
        {
            chain.push((r.low.0, on, r.low.1));
            chain.push((r.top.0, Travel::Elevator, r.top.1));
            (cur, i) = match r.off {
                Ok((k, off)) => {
                    chain.push((stands[k].1, off, WaypointKind::Normal));
                    (stands[k].1, k)
                }
                Err(k) => (r.top.0, k),
            };
            continue;
        }
        let Some((k, t)) = next else {
            return 0;
        };
        if chain.len() >= most {
            return 0;
        }
        chain.push((stands[k].1, t, WaypointKind::Normal));
        (cur, i) = (stands[k].1, k);
    }
    let chain_len = chain.len();
    let mut prev = (a, pa);
    let mut links = 0;
    for (k, (p, t, kind)) in chain.into_iter().enumerate() {
        let n = if k + 1 == chain_len {
            b
        } else if kind == WaypointKind::Normal {
            graph.add(p, kind)
        } else {
            // A plat's waypoints are one each, as explorers drop them.
            graph
                .find_kind(|w| *w == kind)
                .unwrap_or_else(|| graph.add(p, kind))
        };
        links += graph.link(prev.0, n, prev.1.distance(p), t, 1.0) as usize;
        prev = (n, p);
    }
    links
}

/// Quake's `sv_maxvelocity` (u/s): a player moved further than this allows between two
/// of a planned way's steps went through a teleporter.
const MAX_VELOCITY: f32 = 2000.0;

/// Where the straight line shows no way on from stand `i` of a planned way (its `states`,
/// its `stands`: step and origin; `cur` that stand's origin), the next stand where the
/// physics carried the player there through the air alone (a jump pad's throw, a jump up
/// onto a ledge, a drop the straight line does not take): linked as observed travel, as
/// explorers link the ways they are carried (a fall where it lands lower, else a jump).
/// `None` where the piece touches a mover, or a teleporter moved the player, or it ends
/// further than [`PLAN_LINK`].
fn carried(
    states: &[PlayerState],
    stands: &[(usize, Vec3)],
    i: usize,
    cur: Vec3,
    step: f32,
) -> Option<(usize, Travel)> {
    let (&(from, _), &(to, p)) = (stands.get(i)?, stands.get(i + 1)?);
    let piece = &states[from..=to];
    let on_world =
        |s: &PlayerState| s.water_level >= 2 || s.on_ground == Some(crate::map::EntId::WORLD);
    let airborne = piece[1..piece.len() - 1]
        .iter()
        .all(|s| s.on_ground.is_none() && s.water_level < 2);
    let moved = piece
        .windows(2)
        .all(|w| w[0].origin.distance(w[1].origin) <= MAX_VELOCITY * step);
    (piece.len() > 2
        && airborne
        && moved
        && on_world(&piece[0])
        && on_world(&piece[piece.len() - 1])
        && p.distance(cur) <= PLAN_LINK)
        .then(|| {
            let travel = if p.z < cur.z - STEP_SIZE - 1.0 {
                Travel::Fall
            } else {
                Travel::Jump
            };
            (i + 1, travel)
        })
}

/// Where the way from stand `i` (its `states`, its `stands`) goes on by riding a mover: the
/// ride's first and last waypoint (the centre of a plat's top, low and high, as explorers
/// drop them; else where the player stood on the mover first and last) with their kinds,
/// the first stand after the ride (on the world's floor, or swimming; reached from the
/// mover through the air at most), and the travel from the ride's end there as explorers
/// observe it (a fall where lower, a jump where higher or through the air, else a walk).
/// `None` where a plat does not carry the player up, the ride goes on to another mover,
/// or its last stand is further than [`PLAN_LINK`] from the ride's end.
fn ridden(
    states: &[PlayerState],
    stands: &[(usize, Vec3)],
    i: usize,
    carriers: &[Carrier],
) -> Option<Ride> {
    let from = stands.get(i)?.0;
    let j =
        (from..states.len()).find(|&j| states[j].on_ground.is_some_and(|g| g != EntId::WORLD))?;
    let mover = *carriers
        .iter()
        .find(|c| states[j].on_ground == Some(c.id))?;
    // Onto the mover from stand `i` itself, through the air at most (out of the water).
    let stepped = states[(from + 1).min(j)..j]
        .iter()
        .all(|s| s.on_ground.is_none() && s.water_level < 2);
    let (mut last, mut airborne) = (j, false);
    let after = (j..states.len()).find(|&n| {
        let s = &states[n];
        match s.on_ground {
            Some(g) if g == mover.id => {
                last = n;
                false
            }
            None if s.water_level < 2 => {
                airborne = true;
                false
            }
            _ => true,
        }
    });
    let high = states[j..=last]
        .iter()
        .map(|s| s.origin.z)
        .fold(f32::MIN, f32::max);
    let m = mover.mover;
    let (low, top) = match mover.plat {
        Some((low, top)) if high > states[j].origin.z + STEP_SIZE => (
            (low, WaypointKind::ElevatorBottom { mover: m }),
            (top, WaypointKind::ElevatorTop { mover: m }),
        ),
        Some(_) => return None,
        None => (
            (states[j].origin, WaypointKind::Normal),
            (states[last].origin, WaypointKind::Normal),
        ),
    };
    let stand = |n: usize| stands.iter().position(|&(m, _)| m == n);
    // The way ends on the mover: on from the ride's last stand.
    let Some(after) = after else {
        return Some(Ride {
            low,
            top,
            off: Err(stand(last)?),
            stepped,
        });
    };
    let s = &states[after];
    let k = stand(after)?;
    let p = stands[k].1;
    let on_world = s.water_level >= 2 || s.on_ground == Some(EntId::WORLD);
    if !on_world || p.distance(top.0) > PLAN_LINK {
        return None;
    }
    let off = observed(top.0, p, airborne);
    Some(Ride {
        low,
        top,
        off: Ok((k, off)),
        stepped,
    })
}

/// The travel of a way from `p` to `q` that the physics showed, as explorers link what they
/// observe: a fall where `q` is lower, a jump where higher or through the air, else a
/// walk.
fn observed(p: Vec3, q: Vec3, airborne: bool) -> Travel {
    if q.z < p.z - STEP_SIZE - 1.0 {
        Travel::Fall
    } else if q.z > p.z + STEP_SIZE + 1.0 || airborne {
        Travel::Jump
    } else {
        Travel::Walk
    }
}

/// A ride on a mover ([`ridden`]).
struct Ride {
    /// Its first waypoint: where, and of what kind.
    low: (Vec3, WaypointKind),
    /// Its last waypoint.
    top: (Vec3, WaypointKind),
    /// The stand the player came to after it and the travel there; or, where the way ends
    /// on the mover, the ride's last stand.
    off: Result<(usize, Travel), usize>,
    /// Whether the player came onto the mover straight from the stand before it.
    stepped: bool,
}
