//! Feeling the way: how far a player can walk along a direction on safe floor
//! ([`walk_run`], [`walk_run_to_edge`]) and the choice of where an explorer heads next
//! ([`choose_target`]).

use super::{EIGHTH, MIN_WALK};
use glam::Vec3;

use crate::map::level::Level;
use crate::map::{CollisionMap, Contents};
use crate::nav::waypoints::WaypointGraph;
use crate::physics::pmove::{MIN_FLOOR_NORMAL_Z, PLAYER_MAXS, PLAYER_MINS, PlayerState, STEP_SIZE};
use crate::sim::rng::SimRng;

use super::views::{nears_teleporter, teleporter_boxes};
use super::visits::VisitMap;
use super::{CROWD_RADIUS, FEEL, wants_item_waypoint};
use crate::bot::{Percepts, Thing};

/// How far a player can walk along `dir` (up to `range`) — stepping up steps and ramps,
/// dropping at most `max_drop`, never onto lava or slime or into a pit — and where it ends.
pub fn walk_run(
    map: &CollisionMap,
    origin: Vec3,
    dir: Vec3,
    range: f32,
    max_drop: f32,
) -> (f32, Vec3) {
    walk_run_to_edge(map, origin, dir, range, max_drop, hazards(0.0)).0
}

/// Seconds of biosuit an explorer keeps in hand: with more left it counts slime as water
/// (walks and drops into it, swims through it: [`Explorer::suit_swim`]); with less it heads
/// back out (a swimmer in slime loses 12 health a second out of the suit).
pub(super) const SUIT_RESERVE: f32 = 5.0;

/// What an explorer with `suit` seconds of biosuit left does not walk into: lava, and slime
/// unless more than [`SUIT_RESERVE`] is left (Quake's biosuit spares slime, not lava).
pub fn hazards(suit: f32) -> Contents {
    if suit > SUIT_RESERVE {
        Contents::LAVA
    } else {
        Contents::LAVA | Contents::SLIME
    }
}

/// How far back from a ledge's edge a walk that stops there ends: a running player stops in
/// about 32 units (a fifth of its speed a tick at 20 Hz).
pub const EDGE_BACK: f32 = 32.0;

/// [`walk_run`], and where the same walk stops short of the first drop deeper than
/// [`DROP_BELOW`] ([`EDGE_BACK`] before it), when it has one: the level it stands on, as
/// far as it goes that way. On a narrow ledge nearly every walk ends off it (a ring of
/// ledges round a pit: from its middle every long walk ends in the pit), so the way along
/// the ledge shows only as the part before the drop. Liquids but `hazards` count as floor
/// (the walk goes on over their surface).
pub fn walk_run_to_edge(
    map: &CollisionMap,
    origin: Vec3,
    dir: Vec3,
    range: f32,
    max_drop: f32,
    hazards: Contents,
) -> ((f32, Vec3), Option<(f32, Vec3)>) {
    const STEP: f32 = 16.0;
    let mut edge: Option<(f32, Vec3)> = None;
    // The last few places walked, to step back from the edge.
    let mut trail: [(f32, Vec3); 3] = [(0.0, origin); 3];
    let box_trace =
        |a: Vec3, b: Vec3, mask: Contents| map.trace(a, b, PLAYER_MINS, PLAYER_MAXS, mask, None);
    let mask = Contents::MASK_PLAYER_NO_BODIES;
    let mut pos = origin;
    let mut walked = 0.0;
    while walked + STEP <= range {
        let t = box_trace(pos, pos + dir * STEP, mask);
        let next = if t.fraction >= 1.0 {
            t.end_pos
        } else {
            let up = box_trace(pos, pos + Vec3::Z * STEP_SIZE, mask);
            let fwd = box_trace(up.end_pos, up.end_pos + dir * STEP, mask);
            if fwd.fraction < 1.0 {
                break;
            }
            fwd.end_pos
        };
        let down = box_trace(
            next,
            next - Vec3::Z * (STEP_SIZE + max_drop),
            mask | Contents::LIQUID,
        );
        let safe = down.fraction < 1.0
            && !down.all_solid
            && !down.contents.intersects(hazards)
            && (down.normal.z >= MIN_FLOOR_NORMAL_Z || down.contents.intersects(Contents::LIQUID));
        if !safe {
            break;
        }
        if edge.is_none() && pos.z - down.end_pos.z > DROP_BELOW {
            // `pos` stands up to a step short of the edge: EDGE_BACK more back from it, not
            // behind where the walk started.
            edge = Some(trail[(EDGE_BACK / STEP) as usize]);
        }
        pos = down.end_pos;
        walked += STEP;
        trail = [(walked, pos), trail[0], trail[1]];
    }
    ((walked, pos), edge)
}

/// Weight of the direction toward the nearest unvisited place in an explorer's choice.
pub(super) const FRONTIER_PULL: f32 = 120.0;

/// A walk that ends more than this far below the bot went off a ledge higher than a jump
/// climbs back ([`DROP_PENALTY`]).
pub(super) const DROP_BELOW: f32 = 64.0;

/// What an explorer's choice takes off a way down off such a ledge: the level it stands on
/// comes first while it holds places as new (a ring of ledges round a pit was left for the
/// pit every time, and nothing led back up to it).
pub const DROP_PENALTY: f32 = 300.0;

/// Deepest drop an explorer walks off (its movement stage's `max_drop`; a match bot's is
/// 200): a player new to a map drops into the hall below a balcony, and Quake's fall costs
/// at most 5 health from any height (a landing faster than 650 u/s, from 264 units up). The
/// compiled graph's falls ([`crate::aas::reach::MAX_FALL`]), so the floor they lead to, in
/// the floor explorers are measured against, is within a walk: items and pits below drops
/// of several hundred units are part of what explorers are to find.
pub const MAX_DROP: f32 = crate::aas::reach::MAX_FALL;

/// The next point to explore toward, and the item it is for if any. Items in `skip` are
/// left alone; walks go off drops of at most `max_drop`, never into `hazards`, and, with
/// `edge_stops`, also count stopped short of their first drop off a ledge; the frontier
/// points `left_out` names (those the bot's planned runs gave up on) do not pull.
#[allow(
    clippy::too_many_arguments,
    reason = "each is a separate read-only view the choice needs"
)]
pub fn choose_target(
    map: &CollisionMap,
    graph: &WaypointGraph,
    visits: &VisitMap,
    level: &Level,
    s: &PlayerState,
    percepts: &Percepts,
    skip: &[(usize, f32)],
    (max_drop, edge_stops, hazards, left_out): (f32, bool, Contents, impl Fn(Vec3) -> bool),
    rng: &mut SimRng,
) -> (Vec3, Option<usize>) {
    let unmarked = |i: usize| {
        wants_item_waypoint(level, i)
            && !skip.iter().any(|k| k.0 == i)
            && graph.item_waypoint(i).is_none()
    };
    // An unmarked important item in reach comes first, then one that is only seen (the
    // movement stage climbs and jumps what it can; an item it cannot get to is skipped).
    let reached = percepts.reachable.iter().find_map(|r| match r.thing {
        Thing::Item(i) if unmarked(i) => Some(i),
        _ => None,
    });
    let seen = percepts.visible.iter().find_map(|v| match v.thing {
        Thing::Item(i) if unmarked(i) && v.distance < SEEN_ITEM_RANGE => Some(i),
        _ => None,
    });
    if let Some(i) = reached.or(seen)
        && let Some(v) = percepts.visible.iter().find(|v| v.thing == Thing::Item(i))
    {
        return (Vec3::new(v.pos.x, v.pos.y, s.origin.z), Some(i));
    }
    let start = rng.range(0.0, 360.0);
    let mut best: Option<(f32, Vec3)> = None;
    // Under water, the way on is felt from the surface above: along the bottom every walk
    // stays down there (a pool's own bottom is explored by swimming over it), and a swimmer
    // that keeps choosing places down there runs out of air. So too for a swimmer with its
    // head out: felt from where it swims, a walk toward an edge higher than a step above
    // its feet ends there (a swimmer that came up by a pool's edge a few units over the
    // surface turned back along the bottom).
    let swimming = s.water_level >= 3 || (s.water_level == 2 && s.on_ground.is_none());
    let from = if swimming {
        // Slime too in the biosuit.
        let liquid = Contents(Contents::LIQUID.0 & !hazards.0);
        surface_above(map, s.origin, liquid).unwrap_or(s.origin)
    } else {
        s.origin
    };
    // Toward the nearest place nobody has been, wherever it is: local choices alone kept
    // bots in big rooms (most side rooms never had a waypoint).
    let pull = visits
        .nearest_unvisited_but(level, map, s.origin, left_out)
        .map(|f| (f - s.origin).truncate().normalize_or_zero().extend(0.0));
    let gates = teleporter_boxes(level, visits);
    for k in 0..8 {
        let a = (start + EIGHTH * k as f32).to_radians();
        let dir = Vec3::new(a.cos(), a.sin(), 0.0);
        // As far as one can walk: over steps and up ramps, not into pits or hazards.
        // A walk off a ledge, and the same walk stopped at its edge: both are choices.
        let (full, edge) = walk_run_to_edge(map, from, dir, FEEL, max_drop, hazards);
        let toward = pull.map_or(0.0, |d| d.dot(dir).max(0.0) * FRONTIER_PULL);
        for (travel, end) in std::iter::once(full).chain(edge.filter(|_| edge_stops)) {
            if travel < MIN_WALK || nears_teleporter(&gates, from, end) {
                continue;
            }
            // Far, to places few have been and with few waypoints.
            let crowd = graph.count_within(end, CROWD_RADIUS) as f32;
            let mid = from.lerp(end, 0.5);
            let seen = visits.visits(end) as f32 + visits.visits(mid) as f32 * 0.5;
            let drop = if from.z - end.z > DROP_BELOW {
                DROP_PENALTY
            } else {
                0.0
            };
            let score = travel * 0.5 + 600.0 / (1.0 + seen) - 20.0 * crowd + toward - drop
                + rng.range(0.0, 40.0);
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, end));
            }
        }
    }
    let target = best.map(|b| b.1).unwrap_or_else(|| {
        let a = rng.range(0.0, std::f32::consts::TAU);
        s.origin + Vec3::new(a.cos(), a.sin(), 0.0) * 128.0
    });
    (target, None)
}

/// Where a swimmer at `p` comes up straight above: the origin of a player whose feet are at
/// the surface of the `liquid` (its box just out of it, as [`walk_run`] feels from), where
/// it ends within [`DIVE_REACH`] with room to rise there. `None` under a ceiling.
pub(super) fn surface_above(map: &CollisionMap, p: Vec3, liquid: Contents) -> Option<Vec3> {
    let wet = |z: f32| {
        map.point_contents(Vec3::new(p.x, p.y, z))
            .intersects(liquid)
    };
    let top = (1..=(DIVE_REACH / SURFACE_STEP) as i32)
        .map(|k| p.z + SURFACE_STEP * k as f32)
        .find(|z| !wet(*z))?;
    let out = Vec3::new(p.x, p.y, top - PLAYER_MINS.z);
    let up = map.trace(p, out, PLAYER_MINS, PLAYER_MAXS, Contents::SOLID, None);
    (up.fraction >= 1.0).then_some(out)
}

/// How far down a swimming explorer looks for the floor to dive to.
pub(super) const DIVE_REACH: f32 = 1024.0;

/// The step (units) the surface above a point is felt up by.
const SURFACE_STEP: f32 = 4.0;

/// The farthest (units) an unmarked item only seen, not in reach, draws an explorer.
const SEEN_ITEM_RANGE: f32 = 1024.0;
