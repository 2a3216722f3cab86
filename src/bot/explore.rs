//! Exploration: what a bot with no goal does so that bots spread out and cover the map. It heads
//! for a visible, reachable weapon or powerup that has no item waypoint yet; otherwise it feels
//! along eight directions (starting at a seeded random angle; each walk also counts stopped short
//! of its first drop off a ledge) and picks the one that goes far on safe floor and ends where
//! there are few waypoints. An item it goes for comes before anything new to try, and is walked at
//! on the bot's own level. An item it could not reach is left alone for a while (until the bot is
//! teleported somewhere new, where it chooses afresh); a bot that stays put too long gives up where
//! it is, as a Quake player stuck somewhere does with the `kill` command, and respawns. Where the
//! movement stage cannot get to a seen item (a running jump over lava that its jump prediction does
//! not find), the bot plans a run with the travel-time planner ([`PlannedRun`]) and plays its
//! commands, from the tick it plans it, while it stays on the planned path (letting go of what it
//! was trying); where walking about leads only where the team has been, it plans such a run toward
//! the nearest place nobody has visited ([`Explorer::frontier_run`]). A button it sees that fires
//! something it goes and presses ([`Explorer::button`]), a plat it sees that leads where nobody has
//! been it rides ([`Explorer::lift`]), a teleporter likewise it steps into
//! ([`Explorer::teleporter`]), and one under a plat waiting down it uncovers by riding the plat and
//! stepping back off ([`Explorer::under_lift`]), a closed door that opens as one comes near, or one
//! standing open, likewise it walks through ([`Explorer::doorway`]: its feel for the way on stops
//! at a closed door as at a wall); a floor (a door) that slid away from where nobody has been it
//! waits by and crosses once it is back ([`Explorer::moved_floor`]); where walking straight to a
//! button or door is blocked, or the button is pressed from a floor on another level, it is routed
//! round over the team's graph; a swimmer dives out of the bottom of a floating pool or into a
//! flooded passage whose mouth lies under the surface ([`Explorer::dive`]), and under water feels
//! its way on from the surface; water it sees that nobody has swum in it jumps into
//! ([`Explorer::pool`]); in the biosuit it goes into slime and searches it for what lies under a
//! roof and for openings out of it ([`Explorer::suit_swim`]); an exploring bot that has gone on a
//! minute only where the team has long been starts again ([`Explorer::take_bored`]), and a dead one
//! comes back at the spawn point its team knows least ([`least_known_spawn`]).
//!
//! Entry points: [`Explorer::step`], [`Explorer::planned_cmd`], [`Explorer::button`],
//! [`Explorer::lift`], [`Explorer::teleporter`], [`Explorer::under_lift`], [`Explorer::doorway`],
//! [`Explorer::moved_floor`], [`Explorer::suit_swim`], [`Explorer::dive`], [`Explorer::pool`],
//! [`PlannedRun`], [`choose_target`].

use std::collections::BTreeMap;

use glam::Vec3;

use crate::map::level::{ItemKind, Level};
use crate::map::{CollisionMap, Contents, EntId, Trace};
use crate::nav::waypoints::WaypointGraph;
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, STEP_SIZE};
use crate::sim::rng::SimRng;

use super::movement::{MoveRequest, MoveStatus, MoveTarget};
use super::{Percepts, Thing};

/// How far a direction is felt.
pub const FEEL: f32 = 512.0;
/// Waypoints within this distance of a direction's end count against it.
pub const CROWD_RADIUS: f32 = 192.0;
/// Seconds before a target is given up.
pub const TARGET_SECONDS: f32 = 4.0;

/// Whether an item is one that gets an item waypoint (weapons and powerups but the biosuit).
pub fn wants_item_waypoint(level: &Level, item: usize) -> bool {
    let it = &level.items[item];
    it.kind == ItemKind::Weapon
        || (it.kind == ItemKind::Powerup && it.classname != "item_artifact_envirosuit")
}

/// Seconds an item that could not be reached is left alone.
pub const SKIP_SECONDS: f32 = 20.0;
/// Seconds without getting 64 units away before a bot gives up where it is (Quake's `kill`).
pub const STUCK_SECONDS: f32 = 12.0;
/// Seconds an explorer goes on only through cells the team knows well before it starts
/// again elsewhere (Quake's `kill`, then a spawn point chosen at random): a part of the map
/// its walks and planned runs do not lead out of, when spawn points elsewhere start in
/// parts it has not seen (e4m3's upper corridors are reached from its middle only by a
/// barrier jump and a jump from a ledge; spawn points stand in them).
pub const BORED_SECONDS: f32 = 60.0;
/// Visits (10 Hz samples by any bot) up to which a cell counts as barely known, for
/// [`BORED_SECONDS`]: a bot crossing a fresh cell at running speed samples it about four
/// times.
pub const FRESH_VISITS: u32 = 8;
/// Seconds an explorer spends shooting at one button or trigger with health, in all.
pub const SHOT_SECONDS: f32 = 2.0;
/// An explorer shoots a closed secret door within this distance of its gun...
pub const SECRET_RANGE: f32 = 768.0;
/// ...and for this many seconds walks into the door's opening while it is open.
pub const SECRET_SECONDS: f32 = 12.0;

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
pub const SUIT_RESERVE: f32 = 5.0;

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
/// [`DROP_BELOW`] ([`EDGE_BACK`] before it), when it has one: the level it stands on, as far
/// as it goes that way. On a narrow ledge nearly every walk ends off it (start.map's ring of
/// 56-unit ledges round its pit: from its middle every long walk ends in the pit), so the
/// way along the ledge shows only as the part before the drop. Liquids but `hazards` count
/// as floor (the walk goes on over their surface).
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
            && (down.normal.z >= 0.7 || down.contents.intersects(Contents::LIQUID));
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
pub const FRONTIER_PULL: f32 = 120.0;

/// A walk that ends more than this far below the bot went off a ledge higher than a jump
/// climbs back ([`DROP_PENALTY`]).
pub const DROP_BELOW: f32 = 64.0;

/// What an explorer's choice takes off a way down off such a ledge: the level it stands on
/// comes first while it holds places as new (start.map's ring of ledges round its pit was
/// left for the pit every time, and nothing leads back up to it).
pub const DROP_PENALTY: f32 = 300.0;

/// Deepest drop an explorer walks off (its movement stage's `max_drop`; a match bot's is
/// 200): a player new to a map drops into the hall below a balcony, and Quake's fall costs
/// at most 5 health from any height (a landing faster than 650 u/s, from 264 units up). The
/// compiled graph's falls ([`crate::aas::reach::MAX_FALL`]), so the floor they lead to, in
/// the floor explorers are measured against, is within a walk: e1m3's invisibility (a
/// 289-unit drop), start.map's super nailgun (393 out of the bottom of a pool), e1m5's pit
/// under the room its fired plat rises to (576; at 400 its walks stopped at the edge).
pub const MAX_DROP: f32 = crate::aas::reach::MAX_FALL;

/// Side of a cell of the visit map.
pub const VISIT_CELL: f32 = 128.0;

/// A cell of the visit map ([`VisitMap::cell`]).
pub type VisitCell = (i32, i32, i32);

/// How often bots have been in each 128-unit cell (sampled at 10 Hz while standing or
/// swimming, never in mid-air): exploration's memory of where the team has been, so that
/// bots head for what nobody has seen.
#[derive(Clone, Debug, Default)]
pub struct VisitMap {
    cells: BTreeMap<(i32, i32, i32), u32>,
    /// The same, counted only while in a liquid: a 128-unit cell holds both a tunnel of
    /// slime and the floor over its roof, walked by everyone (the difference is where the
    /// team stood on dry floor).
    wet: BTreeMap<(i32, i32, i32), u32>,
    /// Floor points of the map under a ceiling, 128 units apart: the places exploring bots
    /// are pulled toward while nobody has been there. Found on first use (a match without
    /// explorers never needs them); a function of the map alone, so whenever.
    frontier: std::sync::OnceLock<Vec<Vec3>>,
    /// Floor points of the map 32 units apart (on first use, as `frontier`): the free
    /// space a planned run toward an item samples around (tens of milliseconds on dm4).
    floor: std::sync::OnceLock<Vec<Vec3>>,
    /// Points on the surfaces of the map's liquids, [`POOL_SPACING`] apart (on first use,
    /// as `frontier`): the pools exploring bots jump into ([`Explorer::pool`]).
    surfaces: std::sync::OnceLock<Vec<(Vec3, Contents)>>,
}

impl VisitMap {
    /// The cell of `p`.
    pub fn cell(p: Vec3) -> (i32, i32, i32) {
        (
            (p.x / VISIT_CELL).floor() as i32,
            (p.y / VISIT_CELL).floor() as i32,
            (p.z / VISIT_CELL).floor() as i32,
        )
    }

    /// Counts a visit at `p`.
    pub fn visit(&mut self, p: Vec3) {
        *self.cells.entry(Self::cell(p)).or_insert(0) += 1;
    }

    /// Visits counted in the cell of `p`.
    pub fn visits(&self, p: Vec3) -> u32 {
        self.cells.get(&Self::cell(p)).copied().unwrap_or(0)
    }

    /// Counts a visit in a liquid at `p` (besides [`VisitMap::visit`]).
    pub fn visit_wet(&mut self, p: Vec3) {
        *self.wet.entry(Self::cell(p)).or_insert(0) += 1;
    }

    /// Visits in a liquid counted in the cell of `p`.
    pub fn wet_visits(&self, p: Vec3) -> u32 {
        self.wet.get(&Self::cell(p)).copied().unwrap_or(0)
    }

    /// Cells visited at least once.
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// The map's floor points under a ceiling (see [`frontier_points`]).
    pub fn frontier(&self, level: &Level, map: &CollisionMap) -> &[Vec3] {
        self.frontier.get_or_init(|| frontier_points(level, map))
    }

    /// The map's floor points 32 units apart (see [`crate::nav::sample::floor_points`]).
    pub fn floor(&self, level: &Level, map: &CollisionMap) -> &[Vec3] {
        self.floor
            .get_or_init(|| crate::nav::sample::floor_points(level, map, 32.0))
    }

    /// Points on the map's liquid surfaces (see [`crate::nav::sample::liquid_surfaces`]).
    pub fn surfaces(&self, map: &CollisionMap) -> &[(Vec3, Contents)] {
        self.surfaces
            .get_or_init(|| crate::nav::sample::liquid_surfaces(map, POOL_SPACING))
    }

    /// The nearest frontier point nobody has visited (height counting double).
    pub fn nearest_unvisited(&self, level: &Level, map: &CollisionMap, p: Vec3) -> Option<Vec3> {
        self.nearest_unvisited_but(level, map, p, |_| false)
    }

    /// [`VisitMap::nearest_unvisited`] leaving out the points `left_out` names.
    pub fn nearest_unvisited_but(
        &self,
        level: &Level,
        map: &CollisionMap,
        p: Vec3,
        left_out: impl Fn(Vec3) -> bool,
    ) -> Option<Vec3> {
        self.frontier(level, map)
            .iter()
            .filter(|q| self.visits(**q) == 0 && !left_out(**q))
            .map(|q| {
                let d = *q - p;
                (d.x * d.x + d.y * d.y + 4.0 * d.z * d.z, *q)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|x| x.1)
    }
}

/// `p` and the points one visit cell away from it across the floor (the eight cells round
/// its own at its height).
fn cells_around(p: Vec3) -> impl Iterator<Item = Vec3> {
    (-1..=1)
        .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
        .map(move |(dx, dy)| p + Vec3::new(dx as f32, dy as f32, 0.0) * VISIT_CELL)
}

/// The spawn point whose surroundings (its visit cell and the eight beside it) the team has
/// visited least, ties drawn with `rng`; `None` when the level has none. An explorer that
/// starts again (given up where it was, or dead) asks for it: from a random one it came
/// back where the team had long been on most tries, and whole parts of a map reached from
/// one spawn point only by a long way (e1m3's east wing) were found on some runs and not
/// on others.
pub fn least_known_spawn(visits: &VisitMap, level: &Level, rng: &mut SimRng) -> Option<usize> {
    let known = |p: Vec3| -> u32 { cells_around(p).map(|q| visits.visits(q)).sum() };
    let scores: Vec<u32> = level.spawns.iter().map(|s| known(s.origin)).collect();
    let least = *scores.iter().min()?;
    let ties: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] == least).collect();
    Some(ties[rng.below(ties.len())])
}

/// The map's floor points under a ceiling (a roof's top has open sky above it and is left
/// out), for [`VisitMap::frontier`].
pub fn frontier_points(level: &Level, map: &CollisionMap) -> Vec<Vec3> {
    let (_, top) = map.bounds();
    crate::nav::sample::floor_points(level, map, VISIT_CELL)
        .into_iter()
        .filter(|p| {
            map.trace_ray(*p, Vec3::new(p.x, p.y, top.z + 1.0), Contents::SOLID, None)
                .fraction
                < 1.0
        })
        .collect()
}

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
        Thing::Item(i) if unmarked(i) && v.distance < 1024.0 => Some(i),
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
    // stays down there (a pool's own bottom is explored by swimming over it), and a
    // swimmer that keeps choosing places down there runs out of air. So too for a swimmer
    // with its head out: felt from where it swims, a walk toward an edge higher than a
    // step above its feet ends there (e4m3's east part lies past a pool's edge 7 units
    // over the surface; a swimmer that came up by it turned back along the bottom).
    let swimming = s.water_level >= 3 || (s.water_level == 2 && s.on_ground.is_none());
    let from = if swimming {
        // Slime too in the biosuit.
        let liquid = Contents(Contents::LIQUID.0 & !hazards.0);
        surface_above(map, s.origin, liquid).unwrap_or(s.origin)
    } else {
        s.origin
    };
    // Toward the nearest place nobody has been, wherever it is: local choices alone kept
    // bots in dm4's big rooms (most side rooms never had a waypoint).
    let pull = visits
        .nearest_unvisited_but(level, map, s.origin, left_out)
        .map(|f| (f - s.origin).truncate().normalize_or_zero().extend(0.0));
    let gates = teleporter_boxes(level, visits);
    for k in 0..8 {
        let a = (start + 45.0 * k as f32).to_radians();
        let dir = Vec3::new(a.cos(), a.sin(), 0.0);
        // As far as one can walk: over steps and up ramps, not into pits or hazards.
        // A walk off a ledge, and the same walk stopped at its edge: both are choices.
        let (full, edge) = walk_run_to_edge(map, from, dir, FEEL, max_drop, hazards);
        let toward = pull.map_or(0.0, |d| d.dot(dir).max(0.0) * FRONTIER_PULL);
        for (travel, end) in std::iter::once(full).chain(edge.filter(|_| edge_stops)) {
            if travel < 48.0 || nears_teleporter(&gates, from, end) {
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

/// How near a walk chosen by [`choose_target`] comes to a teleporter's volume at most
/// (its player box, across the floor), unless it starts nearer: a walk brushing past one
/// is taken by it (a player turning away from a wall still drifts on toward it).
pub const TELEPORTER_BERTH: f32 = 16.0;

/// The volumes of the level's teleporters that lead where the team has stood (at the
/// destination or where an arrival comes down, [`stood_where_it_leads`]).
pub fn teleporter_boxes(level: &Level, visits: &VisitMap) -> Vec<(Vec3, Vec3)> {
    use crate::map::level::TriggerKind;
    level
        .triggers
        .iter()
        .filter(|t| match t.kind {
            TriggerKind::Teleport { dest: Some(d) } => {
                let d = &level.teleport_dests[d];
                stood_where_it_leads(visits, d.origin, d.yaw)
            }
            _ => false,
        })
        .map(|t| (t.mins, t.maxs))
        .collect()
}

/// Whether the team has stood where a teleporter to `dest`, facing `yaw` (degrees), sends
/// a player: at the destination, or where an arrival comes down. A teleporter sends
/// players on at 300 units/s the way the destination faces, and visits count only
/// standing: e1m5's teleporter back from the quad's arch sets players down 90 units on
/// ([`ARRIVAL_RUN`]), in the next cell, and nobody stood in its destination's own, so every
/// explorer took it twice for somewhere new.
pub fn stood_where_it_leads(visits: &VisitMap, dest: Vec3, yaw: f32) -> bool {
    let (sin, cos) = yaw.to_radians().sin_cos();
    let on = dest + Vec3::new(cos, sin, 0.0) * ARRIVAL_RUN;
    visits.visits(dest) > 0 || visits.visits(on) > 0
}

/// Whether a player walking straight from `from` to `to` comes nearer a teleporter of
/// `boxes` than [`TELEPORTER_BERTH`] (or than it starts, where it starts nearer): walks
/// are felt for where they lead, and one that leads where the team has been sends a
/// player back there (e1m5's teleporter back from the quad's corridor stands beside the
/// arrival, and explorers that walked along its face were sent back before seeing the
/// corridor; nobody went again, the arrival being known). Teleporters to places nobody has
/// stood at are left out ([`teleporter_boxes`]): brushing one is a way somewhere new
/// (e4m3's hall of teleporters: kept off them all, explorers marked every item on 4 runs
/// of 16 instead of 8).
pub fn nears_teleporter(boxes: &[(Vec3, Vec3)], from: Vec3, to: Vec3) -> bool {
    // The gap across the floor between the player's box at `p` and the volume (at
    // heights where they overlap, a step's play either way for stairs walked).
    let gap = |p: Vec3, (lo, hi): (Vec3, Vec3)| -> Option<f32> {
        let (bl, bh) = (p + PLAYER_MINS, p + PLAYER_MAXS);
        if bl.z >= hi.z + STEP_SIZE || bh.z <= lo.z - STEP_SIZE {
            return None;
        }
        let dx = (lo.x - bh.x).max(bl.x - hi.x).max(0.0);
        let dy = (lo.y - bh.y).max(bl.y - hi.y).max(0.0);
        Some(dx.hypot(dy))
    };
    let steps = ((to - from).length() / 8.0).ceil().max(1.0) as usize;
    boxes.iter().any(|&b| {
        let near = gap(from, b).map_or(TELEPORTER_BERTH, |g| g.min(TELEPORTER_BERTH));
        (1..=steps)
            .any(|k| gap(from.lerp(to, k as f32 / steps as f32), b).is_some_and(|g| g < near))
    })
}

/// The exploring behaviour's state: a target to walk to, the item it is for, and what
/// tells it that it is stuck.
#[derive(Clone, Debug)]
pub struct Explorer {
    /// Current target.
    pub target: Option<Vec3>,
    /// The item the target is for, if any.
    pub item: Option<usize>,
    /// Seconds left before a new target is chosen anyway.
    pub timer: f32,
    /// Items given up on, with seconds left.
    pub skip: Vec<(usize, f32)>,
    /// Where the bot was when it last got 64 units away from there.
    pub anchor: Vec3,
    /// Seconds spent near the anchor.
    pub still: f32,
    /// A secret door this bot shot (mover index) and the seconds left to go through it.
    pub door: Option<(usize, f32)>,
    /// A run planned over the player physics toward an item the movement stage could not get
    /// to (a running jump over lava), being played command by command.
    pub run: Option<PlannedRun>,
    /// Items a run was planned toward, with the number of tries.
    pub planned: Vec<(usize, u32)>,
    /// Frontier points a run was planned toward ([`Explorer::frontier_run`]), with the
    /// number of tries.
    pub frontier_tries: Vec<((i32, i32, i32), u32)>,
    /// Braking before a run is planned along the bot's own level ([`SETTLE_SPEED`]).
    pub settling: bool,
    /// Seconds before the next frontier run may be planned.
    pub frontier_wait: f32,
    /// Seconds since the bot was last in a barely known cell ([`BORED_SECONDS`]).
    pub bored: f32,
    /// The button (mover index) the bot is going to press, and the seconds left to get
    /// there ([`Explorer::button`]).
    pub button: Option<(usize, f32)>,
    /// Where walking straight to the button or doorway being tried was blocked: the point
    /// on its way being routed to over the team's graph ([`ButtonGo::Route`]).
    pub detour: Option<Vec3>,
    /// Buttons it went to press, with the number of tries.
    pub button_tries: Vec<(usize, u32)>,
    /// The plat (mover index) the bot is going to ride up, and the seconds left
    /// ([`Explorer::lift`]).
    pub lift: Option<(usize, f32)>,
    /// Plats it went to ride, with the number of tries.
    pub lift_tries: Vec<(usize, u32)>,
    /// The teleporter (trigger index) the bot is going to step into, and the seconds left
    /// ([`Explorer::teleporter`]).
    pub teleporter: Option<(usize, f32)>,
    /// Teleporters it went to, with the number of tries.
    pub teleporter_tries: Vec<(usize, u32)>,
    /// A teleporter under a plat waiting down, being uncovered by riding the plat and
    /// stepping back off it ([`Explorer::under_lift`]).
    pub under_lift: Option<UnderLift>,
    /// The door (mover index) the bot is walking through, the point beyond it, and the
    /// seconds left ([`Explorer::doorway`]).
    pub doorway: Option<(usize, Vec3, f32)>,
    /// Doors it went through, with the number of tries.
    pub doorway_tries: Vec<(usize, u32)>,
    /// The point below the water the bot is diving to, and the seconds left
    /// ([`Explorer::dive`]).
    pub dive: Option<(Vec3, f32)>,
    /// Cells dived to, with the number of tries.
    pub dive_tries: Vec<((i32, i32, i32), u32)>,
    /// The point just under a water surface the bot is going into, and the seconds left
    /// ([`Explorer::pool`]).
    pub pool: Option<(Vec3, f32)>,
    /// Cells of the surface points it went into, with the number of tries.
    pub pool_tries: Vec<(VisitCell, u32)>,
    /// Seconds of biosuit it has left (set by its controller every tick): with more than
    /// [`SUIT_RESERVE`] it walks into slime and swims through it ([`Explorer::suit_swim`]).
    pub suit: f32,
    /// The point in slime the bot is swimming to in the biosuit (or, on land, the point
    /// over slime it goes in at), and the seconds left ([`Explorer::suit_swim`]).
    pub swim: Option<(Vec3, f32)>,
    /// Cells in slime it swam to for being new ([`slime_way`]): not gone to again (a place
    /// just over a cell's border counts as arrived at before the swimmer is in that cell).
    pub swum: Vec<(i32, i32, i32)>,
    /// Cells of the surface of openings out of slime it rose to: not risen to again.
    pub surfaced: Vec<(i32, i32, i32)>,
    /// Cells of the points over slime it ran in at ([`slime_entry`]), with the number of
    /// tries.
    pub entries: Vec<(VisitCell, u32)>,
    /// The land beside an opening out of slime it rose to, and the seconds left to get
    /// out onto it.
    pub swim_out: Option<(Vec3, f32)>,
    /// Seconds before a swimmer in slime whose search found nothing searches again.
    pub swim_wait: f32,
    /// A place nobody has visited that a waypoint of the team's graph reaches in a straight
    /// line, being routed to over the graph, and the seconds left ([`Explorer::gate`]).
    pub gate: Option<(Vec3, f32)>,
    /// Frontier cells routed to, with the number of tries.
    pub gate_tries: Vec<((i32, i32, i32), u32)>,
    /// Buttons and triggers with health shot at (mover index), with the seconds spent.
    pub shot: Vec<(usize, f32)>,
    /// The door (mover index) a run was planned to stand in front of
    /// ([`Explorer::door_front`]): shot from a stand once there.
    pub door_front: Option<usize>,
    /// Doors a run to their front was planned for, per visit cell planned from, with the
    /// number of tries.
    pub door_front_tries: Vec<(DoorFrom, u32)>,
    /// A floor that slides away ([`FloorView`]) being waited for and crossed: its mover
    /// index, the place on it nobody has been that the bot walks to once it is back, the
    /// seconds left, and whether it has been back since ([`Explorer::moved_floor`]).
    pub floor: Option<(usize, Vec3, f32, bool)>,
    /// Floors it waited for, with the number of tries.
    pub floor_tries: Vec<(usize, u32)>,
    /// Deepest drop its walks off ledges are chosen with: the movement stage's (200 for
    /// a bot that explores between fights, [`MAX_DROP`] for an exploring bot).
    pub max_drop: f32,
    /// Whether its choices also count each walk stopped short of its first drop off a
    /// ledge ([`walk_run_to_edge`]): an exploring bot's do; a bot that explores between
    /// fights chooses as it did.
    pub edge_stops: bool,
    /// Whether it is an exploring bot, which chooses afresh when teleported and walks at the
    /// item it goes for on its own level wherever it now is ([`Explorer::step`]); a bot that
    /// explores between fights goes on as it did.
    pub exploring: bool,
}

/// Commands found by the travel-time planner ([`crate::planner`]) and the origins they lead
/// through; the physics is deterministic, so played from the same state they go the same way.
#[derive(Clone, Debug)]
pub struct PlannedRun {
    /// One command per tick.
    pub cmds: Vec<crate::physics::UserCmd>,
    /// The origin before each command (and after the last).
    pub path: Vec<Vec3>,
    /// The next command.
    pub next: usize,
}

impl PlannedRun {
    /// This tick's command while the bot is where the plan said it would be; `None` once the
    /// run is over or off course.
    pub fn next_cmd(&mut self, s: &PlayerState) -> Option<crate::physics::UserCmd> {
        let on_course = self
            .path
            .get(self.next)
            .is_some_and(|p| p.distance(s.origin) <= PLAN_TOLERANCE);
        if self.next >= self.cmds.len() || !on_course {
            return None;
        }
        self.next += 1;
        Some(self.cmds[self.next - 1])
    }

    /// Plans a run from `s` into `goal`'s region over the `floor` points around the
    /// straight line between them ([`PLAN_TUBE`]), [`PLAN_EXPANSIONS`] expansions; `me` is
    /// the bot's body. A run that touches one of the goal's teleporters is sent where it
    /// leads (and so does not get there by it). `None` where none is found, or where the
    /// tick `dt` is not the planner's step. `physics`: the match's.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate input of the plan"
    )]
    pub fn plan(
        map: &CollisionMap,
        floor: &[Vec3],
        s: &PlayerState,
        me: EntId,
        goal: &RunGoal,
        seed: u64,
        dt: f32,
        physics: &crate::physics::PhysicsParams,
    ) -> Option<PlannedRun> {
        let cfg = crate::planner::PlanConfig {
            expansions: PLAN_EXPANSIONS,
            seed,
            stop_at_first: true,
            goal_bias: 0.3,
            me: Some(me),
            teleporters: goal.teleporters.clone(),
            goal_standing: goal.standing,
            ..Default::default()
        };
        let goal = &goal.region;
        // One planner step per tick.
        if (dt - cfg.step).abs() > 1e-4 {
            return None;
        }
        let (a, ab) = (s.origin, goal.centre() - s.origin);
        let free: Vec<Vec3> = floor
            .iter()
            .copied()
            .filter(|p| {
                // Around the segment, a little behind the bot (a run-up) and past the goal.
                let t = ((*p - a).dot(ab) / ab.length_squared().max(1.0)).clamp(-0.3, 1.1);
                p.distance(a + ab * t) < PLAN_TUBE
            })
            .collect();
        let plan = crate::planner::plan(map, physics, &free, *s, Some(goal), &cfg);
        let cmds = plan.controls();
        (!cmds.is_empty()).then(|| PlannedRun {
            cmds,
            path: plan.path(),
            next: 0,
        })
    }
}

/// Running to `p`, as an explorer goes wherever it goes.
fn run_to_point(p: Vec3) -> MoveRequest {
    MoveRequest {
        target: MoveTarget::Point(p),
        speed: 320.0,
        known: false,
        wade: false,
        to_target: false,
    }
}

/// Standing at `p` (an explorer about to play a planned run, from the next tick).
fn stand_at(p: Vec3) -> MoveRequest {
    MoveRequest {
        target: MoveTarget::Point(p),
        speed: 0.0,
        known: false,
        wade: false,
        to_target: false,
    }
}

/// Running against `across`, the motion over the floor (not zero), no faster than the bot
/// moves: the quickest stop. A wish at full speed against a slower motion overshot it (pmove's
/// acceleration adds up to half the wished speed a tick at 20 Hz, friction takes 20 u/s): a
/// bot settling at under about 160 u/s was sent back the other way every tick and rocked at
/// 80-100 u/s, never under [`SETTLE_SPEED`], until given up as stuck 12 s later (e2m2 seed
/// 10 on the ledge over its flooded hall, seed 40 by the spawn point at (1268, 119, 80)).
fn brake(across: glam::Vec2) -> MoveRequest {
    MoveRequest {
        target: MoveTarget::Direction(-across.normalize().extend(0.0)),
        speed: across.length().min(320.0),
        known: false,
        wade: false,
        to_target: false,
    }
}

/// Whether a bot runs over the floor faster than [`SETTLE_SPEED`] (on the ground, not
/// swimming): one that brakes before it plans.
fn coming_at_a_run(s: &PlayerState) -> bool {
    s.velocity.truncate().length() > SETTLE_SPEED && s.on_ground.is_some() && s.water_level < 2
}

/// Whether frontier point `q` lies off the level of a bot at `o`: more than [`DROP_BELOW`]
/// under it or [`LEVEL_UP`] over it, or farther than [`LEVEL_RANGE`] across.
fn off_level(o: Vec3, q: Vec3) -> bool {
    q.z < o.z - DROP_BELOW || q.z > o.z + LEVEL_UP || (q - o).truncate().length() > LEVEL_RANGE
}

/// Where a run is planned to ([`PlannedRun::plan`]).
#[derive(Clone, Debug)]
pub struct RunGoal {
    /// The region the player's box is to touch.
    pub region: crate::planner::Goal,
    /// Teleporters in the plan: a run that touches one of them goes where it leads.
    pub teleporters: Vec<crate::planner::Teleporter>,
    /// Touched only standing on the ground ([`crate::planner::PlanConfig::goal_standing`]).
    pub standing: bool,
}

impl RunGoal {
    /// Touching `region` at all, with no teleporters in the plan.
    pub fn touch(region: crate::planner::Goal) -> RunGoal {
        RunGoal {
            region,
            teleporters: Vec::new(),
            standing: false,
        }
    }
}

/// A door (mover index) and the visit cell a run to its front was planned from.
pub type DoorFrom = (usize, (i32, i32, i32));

/// A run's goal of standing at `stand` (an origin): the feet's level a few units round it,
/// which a box standing on the floor there touches and one falling past it does not, as it
/// is not standing.
fn standing_goal(stand: Vec3) -> RunGoal {
    let feet = stand + Vec3::new(0.0, 0.0, PLAYER_MINS.z);
    RunGoal {
        standing: true,
        ..RunGoal::touch(crate::planner::Goal {
            mins: feet - Vec3::new(2.0, 2.0, 1.0),
            maxs: feet + Vec3::new(2.0, 2.0, 1.0),
        })
    }
}

/// Whether runs toward the frontier point `q`'s cell were planned [`PLAN_TRIES`] times.
pub fn planned_out(tries: &[((i32, i32, i32), u32)], q: Vec3) -> bool {
    tries
        .iter()
        .any(|t| t.0 == VisitMap::cell(q) && t.1 >= PLAN_TRIES)
}

/// Counts a try of a planned run toward `key` in `tries`; false (and nothing counted) once
/// [`PLAN_TRIES`] are spent.
pub fn plan_try<K: PartialEq + Copy>(tries: &mut Vec<(K, u32)>, key: K) -> bool {
    let k = match tries.iter().position(|t| t.0 == key) {
        Some(k) => k,
        None => {
            tries.push((key, 0));
            tries.len() - 1
        }
    };
    if tries[k].1 >= PLAN_TRIES {
        return false;
    }
    tries[k].1 += 1;
    true
}

/// How deep below a swimming explorer the floor lies for it to dive ([`Explorer::dive`]).
pub const DIVE_DEPTH: f32 = 96.0;
/// How far to the side of a swimming explorer a floor below may be to dive to.
pub const DIVE_RANGE: f32 = 384.0;
/// How far down a swimming explorer looks for the floor to dive to.
pub const DIVE_REACH: f32 = 1024.0;
/// Seconds a dive lasts at most (a player has 12 s of air).
pub const DIVE_SECONDS: f32 = 6.0;

/// Seconds an explorer routes toward a frontier point before giving up on it.
pub const GATE_SECONDS: f32 = 20.0;
/// Tries per frontier cell and explorer of a route there.
pub const GATE_TRIES: u32 = 2;
/// How many of the nearest unvisited frontier points with a waypoint within [`GATE_RADIUS`]
/// an explorer tests for a waypoint that reaches them, per choice (each costs up to eight
/// reachability tests: the routing stage's goal test, [`GATE_REACH_RADIUS`] and
/// [`GATE_REACH_CANDIDATES`]).
pub const GATE_CANDIDATES: usize = 8;
/// A frontier point is tested only with a waypoint this near (the drop stage's search
/// radius: beyond it the bot would drop one on the way).
pub const GATE_RADIUS: f32 = 320.0;
/// The routing stage's goal test (the waypoint a route to a point ends at: of this many
/// nearest within [`GATE_REACH_RADIUS`], the first that reaches it; the routing module's
/// `PICK_CANDIDATES` and `PICK_RADIUS`, which tests/explorers_try.rs checks): a frontier
/// point that passes it is one a route leads to.
pub const GATE_REACH_CANDIDATES: usize = 8;
/// See [`GATE_REACH_CANDIDATES`].
pub const GATE_REACH_RADIUS: f32 = 512.0;

/// How far off an explorer sees a button it goes to press.
pub const BUTTON_RANGE: f32 = 768.0;
/// Seconds an explorer tries to get to a button before giving up on it.
pub const BUTTON_SECONDS: f32 = 6.0;
/// Tries per button and explorer.
pub const BUTTON_TRIES: u32 = 2;

/// A button as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct ButtonView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id in traces.
    pub id: EntId,
    /// Centre of its box where it stands now.
    pub centre: Vec3,
    /// Out and ready to be pressed (it fires its targets when pressed).
    pub ready: bool,
    /// The way it moves when pressed (unit length; zero for a button that does not move):
    /// a player presses it by touching the face on the other side.
    pub push: Vec3,
    /// Half its box's depth along `push`.
    pub depth: f32,
    /// Has health: pressed by a shot, not by touch (walked up to until the gun sees it,
    /// [`Explorer::secret_door`] shoots it).
    pub shot: bool,
}

impl ButtonView {
    /// Where a player's origin stands in front of it on the floor (for routing there):
    /// [`ButtonView::front`] at the button's height, dropped to the floor below. `None`
    /// where there is no such point (a button pressed from above, one inside a wall).
    fn stand_point(&self, map: &CollisionMap, me: Option<EntId>) -> Option<Vec3> {
        let p = self.front(self.centre.z)?;
        let t = map.trace(
            p,
            p - Vec3::new(0.0, 0.0, BUTTON_FLOOR_BELOW),
            PLAYER_MINS,
            PLAYER_MAXS,
            Contents::MASK_PLAYER_NO_BODIES,
            me,
        );
        (!t.start_solid && t.fraction < 1.0).then_some(t.end_pos)
    }

    /// Where a player stands to press it by walking along `push`: in front of the face
    /// pressed, a box's half width and a little more out, at `z`. `None` for a button
    /// pressed from above or below (one stands on it) or one that does not move.
    fn front(&self, z: f32) -> Option<Vec3> {
        if self.push.z.abs() > 0.7 || self.push == Vec3::ZERO {
            return None;
        }
        let flat = self.push.truncate().normalize_or_zero().extend(0.0);
        let p = self.centre - flat * (self.depth + BUTTON_FRONT);
        Some(Vec3::new(p.x, p.y, z))
    }
}

/// How far in front of a button's face (beyond a player's half width) an explorer stands
/// before running into it: close enough that nothing comes between.
pub const BUTTON_FRONT: f32 = 24.0;

/// How far below a button's centre the floor in front of it is looked for.
pub const BUTTON_FLOOR_BELOW: f32 = 128.0;

/// Within this distance (flat and in height) of the point of a detour, a bot walks on
/// straight again ([`Explorer::detour`]).
pub const DETOUR_NEAR: f32 = 48.0;

/// Units a second a detour is given (below running speed: the way round is longer than the
/// straight line).
pub const DETOUR_SPEED: f32 = 160.0;

/// What a bot trying a button or doorway does about the way there ([`Explorer::detour`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Detour {
    /// Walk straight on.
    Walk,
    /// Route to this point over the team's graph.
    Route(Vec3),
    /// The routing stage found no way there: the try ends.
    GiveUp,
}

/// What an explorer going to a button does this tick ([`Explorer::button`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ButtonGo {
    /// Walk there (the movement stage's way round obstacles).
    Walk(MoveRequest),
    /// Close by: run straight into it (the movement stage would step around it as an
    /// obstacle, or stop short of a point inside a wall).
    Press(crate::physics::UserCmd),
    /// Walking there was blocked (a slime pool between, a wall with the way round out of
    /// sight): route to this point over the team's graph (the routing stage moves the bot).
    Route(Vec3),
}

impl ButtonGo {
    /// Stand still facing `yaw` (riding a plat).
    fn stand(yaw: f32) -> ButtonGo {
        ButtonGo::Press(crate::physics::UserCmd {
            yaw,
            ..Default::default()
        })
    }

    /// Walk to `p` at running speed.
    fn walk_to(p: Vec3) -> ButtonGo {
        ButtonGo::Walk(run_to_point(p))
    }
}

/// Whether the cell `key` has been dived to [`BUTTON_TRIES`] times.
fn tried_out_cell(tries: &[((i32, i32, i32), u32)], key: (i32, i32, i32)) -> bool {
    tries.iter().any(|t| t.0 == key && t.1 >= BUTTON_TRIES)
}

/// How much further than at its own depth a swimmer must see along the bottom of the water
/// for the way there to count as a passage ([`underwater_passage`]).
pub const PASSAGE_GAIN: f32 = 128.0;

/// Directions a swimmer feels along the bottom for a flooded passage
/// ([`underwater_passage`]): eight (45 degrees apart) missed e4m3's 200-unit-wide tunnel
/// from most places in its pool, as its far end lies 300 units off under a roof.
pub const PASSAGE_DIRECTIONS: usize = 16;

/// Spacing of the points along a passage looked at for water with air above
/// ([`underwater_passage`]).
pub const PASSAGE_STEP: f32 = 32.0;

/// A way on under the surface, as a player new to a map looks for one from a pool: of
/// [`PASSAGE_DIRECTIONS`] directions, those along which a player's box just over the bottom
/// (`floor`, the solid straight below) goes at least [`PASSAGE_GAIN`] further than at the
/// swimmer's own depth, within [`FEEL`]; along each, the farthest point (every
/// [`PASSAGE_STEP`], beyond where the swimmer's own depth is blocked by that gain) in
/// water with air above it where nobody has been (`open`, in the visit cells round it,
/// there and at the swimmer's depth: 128-unit cells are coarse, and the way back to the
/// pool a swimmer came from is no passage); the farthest of those. The far end of a flooded
/// tunnel whose mouth lies below the surface (e4m3's east part is entered only by one,
/// from a pool in the hall west of it); the tunnel may go on past its opening, or the
/// line along it end at a side wall beyond. About forty traces, and a few point tests a
/// step along each passage.
pub fn underwater_passage(
    map: &CollisionMap,
    s: &PlayerState,
    floor: f32,
    open: impl Fn(Vec3) -> bool,
) -> Option<Vec3> {
    let low = Vec3::new(s.origin.x, s.origin.y, floor - PLAYER_MINS.z + 1.0);
    let mask = Contents::MASK_PLAYER_NO_BODIES;
    let sweep = |a: Vec3, b: Vec3| map.trace(a, b, PLAYER_MINS, PLAYER_MAXS, mask, None);
    // Straight down to the bottom in the water, from the surface (a swimmer back from one
    // passage gets air before it looks for the next).
    let down = sweep(s.origin, low);
    let up = surface_above(map, s.origin, Contents::WATER)?;
    if down.fraction < 1.0 || s.origin.z - low.z < 32.0 || up.z - s.origin.z > 80.0 {
        return None;
    }
    let step = 360.0 / PASSAGE_DIRECTIONS as f32;
    // Facing first, then round: where the swimmer looks is where it came to go.
    (0..PASSAGE_DIRECTIONS)
        .filter_map(|k| {
            let a = (s.yaw + step * k as f32).to_radians();
            let dir = Vec3::new(a.cos(), a.sin(), 0.0);
            let deep = sweep(low, low + dir * FEEL);
            let here = sweep(s.origin, s.origin + dir * FEEL);
            let (far, near) = (deep.fraction * FEEL, here.fraction * FEEL + PASSAGE_GAIN);
            if far < near {
                return None;
            }
            let unknown = |q: Vec3| cells_around(q).all(&open);
            // From the far end back: the first place with air above nobody has been.
            let steps = ((far - near) / PASSAGE_STEP) as usize;
            (0..=steps)
                .map(|j| far - 16.0 - PASSAGE_STEP * j as f32)
                .map(|d| (d, low + dir * d))
                .find(|(_, end)| {
                    map.point_contents(*end).intersects(Contents::WATER)
                        && unknown(*end)
                        && unknown(Vec3::new(end.x, end.y, s.origin.z))
                        && surface_above(map, *end, Contents::WATER).is_some()
                })
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|x| x.1)
}

/// Where a swimmer at `p` comes up straight above: the origin of a player whose feet are at
/// the surface of the `liquid` (its box just out of it, as [`walk_run`] feels from), where
/// it ends within [`DIVE_REACH`] with room to rise there. `None` under a ceiling.
fn surface_above(map: &CollisionMap, p: Vec3, liquid: Contents) -> Option<Vec3> {
    let wet = |z: f32| {
        map.point_contents(Vec3::new(p.x, p.y, z))
            .intersects(liquid)
    };
    let top = (1..=(DIVE_REACH / 4.0) as i32)
        .map(|k| p.z + 4.0 * k as f32)
        .find(|z| !wet(*z))?;
    let out = Vec3::new(p.x, p.y, top - PLAYER_MINS.z);
    let up = map.trace(p, out, PLAYER_MINS, PLAYER_MAXS, Contents::SOLID, None);
    (up.fraction >= 1.0).then_some(out)
}

/// Spacing of the points on the map's liquid surfaces among which exploring bots look for
/// pools to jump into ([`VisitMap::surfaces`]).
pub const POOL_SPACING: f32 = 64.0;

/// How far across a water surface seen is gone into ([`Explorer::pool`]).
pub const POOL_RANGE: f32 = 512.0;

/// Highest a water surface lies above the bot's feet for it to go in: a jump onto the rim
/// (the movement stage's highest barrier) and over.
pub const POOL_UP: f32 = 40.0;

/// How far under a water surface the point an explorer walks in to lies
/// ([`Explorer::pool`]), where the water is that deep.
pub const POOL_DEEP: f32 = 56.0;

/// Seconds a walk into water lasts at most ([`Explorer::pool`]).
pub const POOL_SECONDS: f32 = 5.0;

/// Surface points, nearest first, an explorer looks at a tick ([`Explorer::pool`]): one
/// trace each.
pub const POOL_CANDIDATES: usize = 4;

/// Seconds a swim through slime toward one point lasts at most ([`Explorer::suit_swim`]).
pub const SWIM_SECONDS: f32 = 3.0;
/// Seconds of biosuit beyond [`SUIT_RESERVE`] an explorer on land wants left to go into
/// slime.
pub const SUIT_ENTER: f32 = 6.0;
/// Spacing of the grid a swimmer's way through slime is searched on ([`slime_way`]).
pub const SLIME_STEP: f32 = 32.0;
/// Most grid points one search through slime takes in (a pool of 500 by 500 by 100 units
/// has about 800).
pub const SLIME_NODES: usize = 8192;

/// Where a swimmer in slime goes next ([`slime_way`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlimeWay {
    /// Swim to this point in the slime; the cell of the new place it is, when it is one.
    Swim(Vec3, Option<(i32, i32, i32)>),
    /// Rise to this point at the surface, then walk out to the second.
    Rise(Vec3, Vec3),
}

/// Whether a swimmer at `p` is at `to` for [`Explorer::suit_swim`]: within 32 units across
/// and 48 up or down (the movement stage's arrival).
fn swum_to(p: Vec3, to: Vec3) -> bool {
    let d = to - p;
    d.truncate().length() <= 32.0 && d.z.abs() <= 48.0
}

/// Where a walk of up to [`FEEL`] from the floor under `s` (within 64 units) along one of
/// eight directions ends over slime (the nearest such end, in a cell not gone in at
/// [`BUTTON_TRIES`] times: `tries`), for a bot in the biosuit to go in there.
pub fn slime_entry(
    map: &CollisionMap,
    s: &PlayerState,
    tries: &[(VisitCell, u32)],
) -> Option<Vec3> {
    // From the floor under the bot: a walk felt from the top of a jump goes over what a
    // run does not (a curb 32 high by e1m1's slime).
    let down = map.trace(
        s.origin,
        s.origin - Vec3::Z * 64.0,
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER_NO_BODIES,
        None,
    );
    if down.fraction >= 1.0 || down.normal.z < 0.7 {
        return None;
    }
    let from = down.end_pos;
    (0..8)
        .filter_map(|k| {
            let a = (s.yaw + 45.0 * k as f32).to_radians();
            let dir = Vec3::new(a.cos(), a.sin(), 0.0);
            let (walked, end) = walk_run_to_edge(map, from, dir, FEEL, MAX_DROP, Contents::LAVA).0;
            let feet = end + Vec3::Z * (PLAYER_MINS.z - 1.0);
            (walked >= 32.0
                && map.point_contents(feet).intersects(Contents::SLIME)
                && !tried_out_cell(tries, VisitMap::cell(end)))
            .then_some((walked, end))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|x| x.1)
}

/// The way on for a swimmer in slime ([`Explorer::suit_swim`]): a breadth-first search
/// through the slime on the map's [`SLIME_STEP`] grid from the swimmer (points where a
/// player's box fits in slime, or 12 units below or above them, joined where the box
/// sweeps clear; at most [`SLIME_NODES`]) for the nearest of: a point under a ceiling
/// (slime open to the air is seen from its banks) in a cell nobody has swum in
/// ([`VisitMap::wet_visits`]) and not in `swum`, or an opening above (room to rise out of
/// the slime, its surface's cell not in `surfaced`) with land beside the surface there (a
/// walk of 64 units onto a floor out of any liquid), where nobody has stood at the surface
/// and on the land; failing those, the nearest opening with land beside. `out` (the
/// biosuit running out): the nearest opening with land beside, risen to before or not.
/// The swimmer goes to the farthest point of the way there that it reaches in a straight
/// line (at most sixteen steps on); at an opening in reach, it rises. `None` where nothing
/// is found. A search through all of e1m1's slime takes about 4 ms.
pub fn slime_way(
    map: &CollisionMap,
    visits: &VisitMap,
    s: &PlayerState,
    (swum, surfaced): (&[VisitCell], &[VisitCell]),
    out: bool,
) -> Option<SlimeWay> {
    type Key = [i32; 3];
    // The grid is the map's, not the swimmer's: searched again from a little further on,
    // the way to the same place is the same (a grid that moved with the swimmer passed a
    // narrow gap from one place and not from the next, and the swimmer went to and fro).
    const START: Key = [i32::MIN; 3];
    let o = s.origin;
    let grid = |k: Key| Vec3::new(k[0] as f32, k[1] as f32, k[2] as f32) * SLIME_STEP;
    let near = (o / SLIME_STEP).round();
    let near = [near.x as i32, near.y as i32, near.z as i32];
    let mask = Contents::MASK_PLAYER_NO_BODIES;
    let clear = |a: Vec3, b: Vec3| {
        map.trace(a, b, PLAYER_MINS, PLAYER_MAXS, mask, None)
            .fraction
            >= 1.0
    };
    let fits = |q: Vec3| {
        map.point_contents(q).intersects(Contents::SLIME) && crate::nav::sample::player_fits(map, q)
    };
    // Where a grid point's player stands: the point, else 12 units below or above it (a
    // tunnel 80 units high leaves a player's box 24 units of height, which a 32-unit grid
    // steps over).
    let place = |k: Key| {
        [0.0, -12.0, 12.0]
            .iter()
            .map(|h| grid(k) + Vec3::Z * *h)
            .find(|q| fits(*q))
    };
    // Land beside a surface point: a short walk that ends on a floor out of any liquid.
    let land = |top: Vec3| {
        (0..8).find_map(|k| {
            let a = (45.0 * k as f32).to_radians();
            let dir = Vec3::new(a.cos(), a.sin(), 0.0);
            let (walked, end) = walk_run_to_edge(map, top, dir, 64.0, STEP_SIZE, Contents::LAVA).0;
            // Under the feet, not at them: a walk over the surface rests on the liquid.
            let under = end + Vec3::Z * (PLAYER_MINS.z - 2.0);
            (walked >= 48.0 && !map.point_contents(under).intersects(Contents::LIQUID))
                .then_some(end)
        })
    };
    let mut parent: BTreeMap<Key, Key> = BTreeMap::new();
    let mut placed: BTreeMap<Key, Vec3> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::new();
    parent.insert(START, START);
    placed.insert(START, o);
    queue.push_back(START);
    let at = |placed: &BTreeMap<Key, Vec3>, k: Key| placed[&k];
    let mut new: Option<Key> = None;
    let mut fresh: Option<(Key, Vec3, Vec3)> = None;
    let mut opening: Option<(Key, Vec3, Vec3)> = None;
    while let Some(k) = queue.pop_front() {
        let q = at(&placed, k);
        // Slime open to the air is seen from its banks; what lies under a ceiling only a
        // swimmer finds.
        // A cell counts as swum where it or the cells half a cell above or below it were
        // swum in (a swimmer along the bottom of a pool deeper than a cell leaves the cells
        // over it unvisited; the floor over a tunnel's roof shares its cells).
        let unknown = || {
            !swum.contains(&VisitMap::cell(q))
                && [0.0, 64.0, -64.0]
                    .iter()
                    .all(|h| visits.wet_visits(q + Vec3::Z * *h) == 0)
        };
        // Asked at most once a point (both tests below may want it).
        let above = std::cell::OnceCell::new();
        let surface = || *above.get_or_init(|| surface_above(map, q, Contents::SLIME));
        if !out && k != START && unknown() && surface().is_none() {
            new = Some(k);
            break;
        }
        // Only a point with no slime right above it can have an opening over it. Where
        // nobody has stood at the surface there (a bank walked by everyone is not looked
        // at again), land beside it nobody has stood on is as new as a cell never swum.
        let stood = |p: Vec3| visits.visits(p) > visits.wet_visits(p);
        if k != START
            && place([k[0], k[1], k[2] + 1]).is_none()
            && let Some(top) = surface()
            && (out || !surfaced.contains(&VisitMap::cell(top)))
            && (opening.is_none() || (!out && !stood(top)))
            && let Some(end) = land(top)
        {
            if !out && !stood(end) {
                fresh = Some((k, top, end));
                break;
            }
            opening = opening.or(Some((k, top, end)));
            if out {
                break;
            }
        }
        // From the swimmer: the grid points round it; from a grid point: its six neighbours.
        let round = (0..27).map(|i| {
            [
                near[0] + i % 3 - 1,
                near[1] + i / 3 % 3 - 1,
                near[2] + i / 9 - 1,
            ]
        });
        let six = [
            [1, 0, 0],
            [-1, 0, 0],
            [0, 1, 0],
            [0, -1, 0],
            [0, 0, 1],
            [0, 0, -1],
        ]
        .map(|d| [k[0] + d[0], k[1] + d[1], k[2] + d[2]]);
        let next: Vec<Key> = if k == START {
            round.collect()
        } else {
            six.to_vec()
        };
        for n in next {
            if parent.len() >= SLIME_NODES || parent.contains_key(&n) {
                continue;
            }
            // From the swimmer, off the grid, also down (or across) first and then on: out
            // of a pocket at the surface, under the edge of the roof of a tunnel.
            let bent = |p: Vec3| {
                let down = Vec3::new(q.x, q.y, p.z);
                let across = Vec3::new(p.x, p.y, q.z);
                (clear(q, down) && clear(down, p)) || (clear(q, across) && clear(across, p))
            };
            if let Some(p) = place(n)
                && (clear(q, p) || (k == START && bent(p)))
            {
                parent.insert(n, k);
                placed.insert(n, p);
                queue.push_back(n);
            }
        }
    }
    // A fresh opening comes before the other ones.
    let opening = fresh.or(opening);
    let goal = new.or(opening.map(|x| x.0))?;
    // The way back from the goal, then the farthest point on it in a straight line.
    let mut way = vec![goal];
    while let Some(&k) = way.last()
        && k != START
    {
        way.push(parent[&k]);
    }
    way.reverse();
    let reach = way
        .iter()
        .take(17)
        .skip(1)
        .rev()
        .find(|k| clear(o, at(&placed, **k)) && !swum_to(o, at(&placed, **k)))
        .or_else(|| way.iter().skip(1).find(|k| !swum_to(o, at(&placed, **k))))
        .copied()
        .unwrap_or(goal);
    match opening {
        Some((k, top, out)) if new.is_none() && reach == k => Some(SlimeWay::Rise(top, out)),
        _ => Some(SlimeWay::Swim(
            at(&placed, reach),
            (new.is_some() && reach == goal).then(|| VisitMap::cell(at(&placed, goal))),
        )),
    }
}

/// Whether `key` (a button, plat, teleporter or door) has been tried [`BUTTON_TRIES`] times.
fn tried_out<K: PartialEq>(tries: &[(K, u32)], key: K) -> bool {
    tries.iter().any(|t| t.0 == key && t.1 >= BUTTON_TRIES)
}

/// Within this distance (flat, origin to the button's centre) an explorer runs straight
/// into the button.
pub const PRESS_RANGE: f32 = 96.0;

/// The buttons that fire something (for explorers, who press what they see, or walk up to
/// one with health until they can shoot it).
pub fn buttons(sim: &crate::sim::Sim) -> Vec<ButtonView> {
    use crate::map::level::MoverKind;
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m.kind, MoverKind::Button { .. }) && m.target.is_some())
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let MoverKind::Button { pressed, shot } = m.kind else {
                return None;
            };
            let push = pressed.normalize_or_zero();
            Some(ButtonView {
                index,
                id: m.id,
                centre: (m.mins + m.maxs) * 0.5 + st.offset,
                ready: st.phase == Phase::AtA,
                push,
                depth: ((m.maxs - m.mins) * 0.5).dot(push.abs()),
                shot,
            })
        })
        .collect()
}

/// How far off an explorer sees a plat it goes to ride.
pub const LIFT_RANGE: f32 = 768.0;
/// Seconds an explorer tries to get onto a plat and ride it up before giving up on it.
pub const LIFT_SECONDS: f32 = 12.0;

/// Slower than this across the floor, a bot at a plat counts as stopped (held by an edge, a
/// post, or standing where it came to rest).
pub const STOPPED_SPEED: f32 = 30.0;
/// How far out from a plat's side an explorer uncovering a teleporter under it steps back
/// off ([`Explorer::under_lift`]).
pub const UNDER_LIFT_OFF: f32 = 40.0;
/// How far above a teleporter's top the feet of an explorer walking in under a plat may
/// be (standing on a rim round it) before it counts as off on another level.
pub const UNDER_LIFT_RIM: f32 = 64.0;

/// A teleporter under a plat waiting down that an explorer uncovers ([`Explorer::under_lift`]).
#[derive(Clone, Copy, Debug)]
pub struct UnderLift {
    /// The teleporter (trigger index).
    pub teleporter: usize,
    /// The plat (mover index).
    pub lift: usize,
    /// Where the bot steps back off the plat once it rises: [`UNDER_LIFT_OFF`] out from
    /// the middle of the plat's side nearest where the bot saw it from, at that height.
    pub back: Vec3,
    /// The plat has left its bottom with the bot on it.
    pub raised: bool,
    /// Where the bot walks on the plat first, round a post between it and the middle.
    pub via: Option<Vec3>,
    /// The bot has stepped back off the rising plat onto the ground: from then on a jump
    /// is toward the teleporter, not back to [`UnderLift::back`].
    pub off: bool,
    /// Seconds left.
    pub left: f32,
}

/// How far up from its bottom a plat carries a rider before the rider is off its side,
/// at most: e4m3's carries one into the beams round its shaft's mouth 48 units up (and
/// then turns back down, blocked).
pub const STEP_OFF_RISE: f32 = 32.0;

/// How far out from the middle of plat `l`'s side `d` (a unit axis) an explorer
/// uncovering a teleporter under it steps back off: [`UNDER_LIFT_OFF`] past the edge.
fn step_off_point(l: &LiftView, d: Vec3) -> Vec3 {
    l.top + d * (d.x.abs() * l.half.x + d.y.abs() * l.half.y + UNDER_LIFT_OFF)
}

/// Where an explorer that saw a teleporter under plat `l` from `from` steps back off it
/// ([`UnderLift::back`]): out from the middle of the side `from` lies off.
pub fn step_back(l: &LiftView, from: Vec3) -> Vec3 {
    let off = from - l.top;
    let side = if off.x.abs() * l.half.y >= off.y.abs() * l.half.x {
        Vec3::X * off.x.signum()
    } else {
        Vec3::Y * off.y.signum()
    };
    step_off_point(l, side)
}

/// Where an explorer standing at `from` on plat `l`, which has started up, steps off it
/// instead ([`UnderLift::back`]): out from the middle of the side whose edge is nearest of
/// those a player leaving the plat [`STEP_OFF_RISE`] up has headroom past (the nearest
/// where none has).
pub fn step_off(map: &CollisionMap, l: &LiftView, from: Vec3) -> Vec3 {
    let off = from - l.top;
    let up = l.top.with_z(l.top.z + STEP_OFF_RISE - PLAYER_MINS.z + 1.0);
    let headroom = |d: Vec3| {
        let tr = map.trace(
            up,
            up + (step_off_point(l, d) - l.top),
            PLAYER_MINS,
            PLAYER_MAXS,
            Contents::MASK_PLAYER_NO_BODIES,
            Some(l.id),
        );
        !tr.start_solid && tr.fraction >= 1.0
    };
    // Nearest edge first (the bot's distance to it).
    let gap = |d: Vec3| d.x.abs() * l.half.x + d.y.abs() * l.half.y - off.dot(d);
    let mut sides = [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y];
    sides.sort_by(|&a, &b| gap(a).total_cmp(&gap(b)));
    let side = sides.into_iter().find(|&d| headroom(d)).unwrap_or(sides[0]);
    step_off_point(l, side)
}

/// A plat as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct LiftView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id in traces (what a rider stands on).
    pub id: EntId,
    /// The middle of its top where it stands now.
    pub top: Vec3,
    /// The middle of its top when up.
    pub high_top: Vec3,
    /// Down and waiting for a rider.
    pub waiting: bool,
    /// Up.
    pub up: bool,
    /// Half its size across (x, y; z 0).
    pub half: Vec3,
}

impl LiftView {
    /// Where a player standing on the middle of its top now has its origin.
    pub fn rider(&self) -> Vec3 {
        self.top + Vec3::new(0.0, 0.0, -PLAYER_MINS.z)
    }

    /// Whether a player at `origin` over the plat touches its field, with 2 units to
    /// spare: the plat's top inset by 25 units from its sides, or its middle line where it
    /// is 50 or less across (plats.qc), met by the player's box (16 each way).
    pub fn in_field(&self, origin: Vec3) -> bool {
        let off = (origin - self.top).abs();
        let reach = |half: f32| (half - 25.0 + 16.0 - 2.0).max(14.0);
        off.x < reach(self.half.x) && off.y < reach(self.half.y)
    }
}

/// The plats that wait down for riders (for explorers, who ride what they see). A named
/// plat waits up until something fires it and then works as any other (plats.qc), so it is
/// one of them once down: e1m5's, up to the room at z 344, is fired by a button elsewhere.
pub fn lifts(sim: &crate::sim::Sim) -> Vec<LiftView> {
    use crate::map::level::MoverKind;
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m.kind, MoverKind::Plat { .. }))
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let high_top = Vec3::new(
                (m.mins.x + m.maxs.x) * 0.5,
                (m.mins.y + m.maxs.y) * 0.5,
                m.maxs.z,
            );
            Some(LiftView {
                index,
                id: m.id,
                top: high_top + st.offset,
                high_top,
                waiting: st.phase == Phase::AtA,
                up: st.phase == Phase::AtB,
                half: ((m.maxs - m.mins) * 0.5).with_z(0.0),
            })
        })
        .collect()
}

/// A working teleporter as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct TeleporterView {
    /// Index in the level's triggers.
    pub index: usize,
    /// Centre of its volume.
    pub centre: Vec3,
    /// Where it sends a player.
    pub dest: Vec3,
    /// The way a player faces on arrival (degrees).
    pub yaw: f32,
    /// Where a player touches it and no other teleporter, where another lies so close
    /// that a player walking in from the wrong side touches that one first (e1m5's pair of
    /// thin triggers 12 units apart, one for each way): a horizontal direction out of the
    /// volume and the point to walk to from that side, a player's box there overlapping
    /// this trigger's face alone. `None`: any side does.
    pub entry: Option<(Vec3, Vec3)>,
    /// Its volume's lower corner.
    pub mins: Vec3,
    /// Its volume's upper corner.
    pub maxs: Vec3,
}

impl TeleporterView {
    /// Whether the team has been where it sends a player ([`stood_where_it_leads`]).
    pub fn leads_where_known(&self, visits: &VisitMap) -> bool {
        stood_where_it_leads(visits, self.dest, self.yaw)
    }

    /// The point an explorer at `from` walks to, to step in (at its own height): the
    /// entry point where the teleporter has one, else the centre.
    pub fn walk_point(&self, from: Vec3) -> Vec3 {
        let p = self.entry.map_or(self.centre, |e| e.1);
        Vec3::new(p.x, p.y, from.z)
    }
}

/// What an explorer plans a run with ([`Explorer::teleporter`], [`Explorer::door_front`]).
pub struct RunPlanner<'a> {
    /// The level (its floor points, [`VisitMap::floor`], are what the run is planned over).
    pub level: &'a Level,
    /// The bot's body.
    pub me: EntId,
    /// The match's physics.
    pub physics: &'a crate::physics::PhysicsParams,
    /// The bot's random stream (the plan's seed).
    pub rng: &'a mut SimRng,
}

/// How far on from a teleporter's destination an arrival comes down, about (sent on at 300
/// units/s, e1m5's arrivals stand again 90 units on).
pub const ARRIVAL_RUN: f32 = 96.0;

/// How far a player's box reaches into a teleporter's face at its entry point.
pub const ENTRY_OVERLAP: f32 = 2.0;

/// The teleporter a player walking in a straight line from `from` to `to` touches first,
/// if any (the path sampled every 4 units): from the wrong side of a teleporter beside
/// another, the other one.
pub fn touched_first(teleporters: &[TeleporterView], from: Vec3, to: Vec3) -> Option<usize> {
    let steps = ((to - from).length() / 4.0).ceil().max(1.0) as usize;
    (0..=steps).find_map(|k| {
        let p = from.lerp(to, k as f32 / steps as f32);
        teleporters
            .iter()
            .find(|t| {
                crate::map::collision::overlaps(p + PLAYER_MINS, p + PLAYER_MAXS, t.mins, t.maxs)
            })
            .map(|t| t.index)
    })
}

/// The teleporters that work now (for explorers, who step into those they see).
pub fn teleporters(sim: &crate::sim::Sim) -> Vec<TeleporterView> {
    use crate::map::level::TriggerKind;
    let level = &sim.level;
    let boxes: Vec<(usize, Vec3, Vec3)> = level
        .triggers
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            sim.triggers[*i].active && matches!(t.kind, TriggerKind::Teleport { dest: Some(_) })
        })
        .map(|(i, t)| (i, t.mins, t.maxs))
        .collect();
    level
        .triggers
        .iter()
        .enumerate()
        .filter(|(i, _)| sim.triggers[*i].active)
        .filter_map(|(index, t)| match t.kind {
            TriggerKind::Teleport { dest: Some(d) } => Some(TeleporterView {
                index,
                centre: (t.mins + t.maxs) * 0.5,
                dest: level.teleport_dests[d].origin,
                yaw: level.teleport_dests[d].yaw,
                entry: entry_side(index, t.mins, t.maxs, &boxes),
                mins: t.mins,
                maxs: t.maxs,
            }),
            _ => None,
        })
        .collect()
}

/// The side a teleporter (trigger `index`, its box) is entered from, where a player's box
/// at the middle of one of its four vertical faces, just overlapping it, would touch
/// another of the `boxes` too (see [`TeleporterView::entry`]): the first face, in the
/// order +x, −x, +y, −y, where the box touches this one alone. `None` where every face
/// touches it alone, or none does.
fn entry_side(
    index: usize,
    mins: Vec3,
    maxs: Vec3,
    boxes: &[(usize, Vec3, Vec3)],
) -> Option<(Vec3, Vec3)> {
    let centre = (mins + maxs) * 0.5;
    let half = PLAYER_MAXS.x;
    let faces = [
        (
            Vec3::X,
            Vec3::new(maxs.x + half - ENTRY_OVERLAP, centre.y, centre.z),
        ),
        (
            Vec3::NEG_X,
            Vec3::new(mins.x - half + ENTRY_OVERLAP, centre.y, centre.z),
        ),
        (
            Vec3::Y,
            Vec3::new(centre.x, maxs.y + half - ENTRY_OVERLAP, centre.z),
        ),
        (
            Vec3::NEG_Y,
            Vec3::new(centre.x, mins.y - half + ENTRY_OVERLAP, centre.z),
        ),
    ];
    let alone = |p: Vec3| {
        !boxes.iter().any(|&(i, lo, hi)| {
            i != index && crate::map::collision::overlaps(p + PLAYER_MINS, p + PLAYER_MAXS, lo, hi)
        })
    };
    let clean: Vec<bool> = faces.iter().map(|f| alone(f.1)).collect();
    if clean.iter().all(|c| *c) {
        return None;
    }
    faces.iter().zip(&clean).find(|(_, c)| **c).map(|(f, _)| *f)
}

/// A closed door that opens when a player comes near, as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct DoorwayView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id in traces.
    pub id: EntId,
    /// Centre of its box where the map has it (closed): the opening.
    pub centre: Vec3,
    /// Player origins on the floor just beyond each face across its thin side: where a
    /// player who walks through it stands after.
    pub sides: [Vec3; 2],
    /// Open (moved out of the way, for good or for a while), not closed.
    pub open: bool,
}

/// How far past a door's face (flat) a bot walking through it heads.
pub const DOORWAY_BEYOND: f32 = 48.0;

/// The thickest open door that explorers take for a doorway in a wall (e3m2's slab that
/// sinks into its slime pool as a lift is no doorway).
pub const DOORWAY_THICK: f32 = 64.0;

/// The closed doors that open when a player comes near (for explorers, who walk into those
/// they see: their feel for the way on stops at a closed door as at a wall), and the doors
/// in a wall (at most [`DOORWAY_THICK`] thick) that stand open now, whatever opened them
/// (a button somewhere fired a secret door: the opening is a way on nobody has taken).
/// Closed doors that start open, need a key or open only when triggered or shot are not
/// among them, nor slabs lower than a player.
pub fn doorways(sim: &crate::sim::Sim) -> Vec<DoorwayView> {
    use crate::map::level::MoverKind;
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter_map(|(index, m)| {
            let (touch, door) = match m.kind {
                MoverKind::Door {
                    touch_opens,
                    start_open: false,
                    locked,
                    ..
                } => (touch_opens && !locked, true),
                MoverKind::SecretDoor { .. } => (false, true),
                _ => (false, false),
            };
            if !door {
                return None;
            }
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let open = st.phase == Phase::AtB;
            let centre = (m.mins + m.maxs) * 0.5;
            let half = (m.maxs - m.mins) * 0.5;
            if !(touch && st.phase == Phase::AtA
                || open && 2.0 * half.x.min(half.y) <= DOORWAY_THICK)
            {
                return None;
            }
            // A doorway stands at least as tall as a player: a low slab (e3m2's sliding
            // floors and steps) is walked over or along, not through.
            if 2.0 * half.z < PLAYER_MAXS.z - PLAYER_MINS.z {
                return None;
            }
            // Walked through across its thinner horizontal side, from floor level (the
            // door's foot; a player's origin stands 24 units above the floor).
            let across = if half.x <= half.y { Vec3::X } else { Vec3::Y };
            let reach = half.dot(across) + DOORWAY_BEYOND;
            let foot = Vec3::new(centre.x, centre.y, m.mins.z - PLAYER_MINS.z);
            Some(DoorwayView {
                index,
                id: m.id,
                centre,
                sides: [foot - across * reach, foot + across * reach],
                open,
            })
        })
        .collect()
}

/// A door that is a floor (a slab lower than a player, wide enough to stand on: it slides
/// or sinks away from under whoever is on it) as explorers see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct FloorView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id (what a player standing on it has for ground).
    pub id: EntId,
    /// Its box where the map has it (closed: the floor is there).
    pub home: (Vec3, Vec3),
    /// Closed now (at rest where the map has it).
    pub home_now: bool,
}

impl FloorView {
    /// Whether a player standing at `p` (an origin) stands on its top where the map has it.
    pub fn under(&self, p: Vec3) -> bool {
        let (lo, hi) = self.home;
        p.x >= lo.x
            && p.x <= hi.x
            && p.y >= lo.y
            && p.y <= hi.y
            && (p.z + PLAYER_MINS.z - hi.z).abs() <= STEP_SIZE
    }
}

/// Whether a mover is a door whose closed box is a floor a player stands on ([`FloorView`]):
/// lower than a player and at least a player's width both ways, fired by something (one
/// that opens as a player comes near stays open while one waits by it) and coming back on
/// its own (`wait` not -1, not a toggle door: a trap floor that stays open until fired again
/// is not waited for). e4m3's floor over a pit to its quad room slides away when a pressure
/// plate before it or a trigger over it fires it; a player already on it is carried against
/// the wall, which stops it, and crosses.
pub fn floor_door(m: &crate::map::level::MoverDef) -> bool {
    use crate::map::level::MoverKind;
    let size = m.maxs - m.mins;
    let wide = PLAYER_MAXS.x - PLAYER_MINS.x;
    matches!(
        m.kind,
        MoverKind::Door {
            start_open: false,
            touch_opens: false,
            toggle: false,
            ..
        }
    ) && m.wait >= 0.0
        && size.z < PLAYER_MAXS.z - PLAYER_MINS.z
        && size.x >= wide
        && size.y >= wide
}

/// The level's [`floor_door`]s as explorers see them this tick.
pub fn moving_floors(sim: &crate::sim::Sim) -> Vec<FloorView> {
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| floor_door(m))
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            Some(FloorView {
                index,
                id: m.id,
                home: (m.mins, m.maxs),
                home_now: st.phase == Phase::AtA && st.offset == Vec3::ZERO,
            })
        })
        .collect()
}

/// Seconds an explorer waits for a floor that slid away to come back and walks to the
/// place on it it waited for ([`Explorer::moved_floor`]): e4m3's takes 8.3 s from
/// starting away to back (200 units each way at 75 u/s and 3 s open).
pub const FLOOR_SECONDS: f32 = 15.0;

/// Seconds between an explorer's runs planned toward the frontier.
pub const FRONTIER_SECONDS: f32 = 4.0;

/// A place nobody has been is on an explorer's level from [`DROP_BELOW`] under it to this
/// height over it (steps up count; a drop down does not) ([`Explorer::frontier_run`]
/// before a drop).
pub const LEVEL_UP: f32 = 128.0;

/// And within this distance across.
pub const LEVEL_RANGE: f32 = 768.0;

/// Places on its level an explorer about to drop off it plans runs to, nearest first, at
/// most ([`Explorer::frontier_run`]).
pub const LEVEL_TRIES: usize = 3;
/// Tries of a planned run per item and bot.
pub const PLAN_TRIES: u32 = 3;
/// Faster than this across the floor, an explorer whose chosen walk drops off its level to
/// where the team has not been brakes (on the ground, one or two ticks against its motion)
/// before it plans a run to the places left on that level ([`Explorer::frontier_run`]): a
/// walk arrives at full speed, and a run planned from a bot at 300 u/s a few units from the
/// edge falls in whatever it does (start.map's explorers at the mouth of the narrow way to
/// its quad, on the edge of the pit, dropped in with three runs along that way failed).
pub const SETTLE_SPEED: f32 = 60.0;
/// Expansions of one planned run (at most about a tenth of a second on dm4).
pub const PLAN_EXPANSIONS: usize = 10_000;
/// Free space sampled by a planned run: floor points within this distance of the straight
/// line from the bot to the item (measured on dm4's super nailgun ledge: found as often as
/// with a disc around both, in less time).
pub const PLAN_TUBE: f32 = 256.0;
/// Off the planned path by more than this (pushed by another player, a mover): the run is
/// dropped.
pub const PLAN_TOLERANCE: f32 = 16.0;

/// A shootable mover (a secret door, a door, button or trigger with health) as explorers
/// and route bots see it this tick.
#[derive(Clone, Copy, Debug)]
pub struct ShootableView {
    /// Index in the level's movers.
    pub index: usize,
    /// Its id in traces.
    pub id: crate::map::EntId,
    /// Centre of its box where it stands now.
    pub centre: Vec3,
    /// Centre of its box when closed: the opening a player goes through.
    pub home_centre: Vec3,
    /// Its box when closed (minimum, maximum corner).
    pub home: (Vec3, Vec3),
    /// Closed (at home, so a shot opens it).
    pub closed: bool,
    /// Fully open (waiting before it closes).
    pub open: bool,
    /// A door (secret, or with health) that opens a way: a button or trigger with health is
    /// only shot, and nobody walks into it or waits for it on the way.
    pub opening: bool,
}

/// How far above or below the floor of a door's opening (a standing origin there) a floor
/// counts as that floor ([`ShootableView::walked_through_from`]).
pub const DOOR_LEVEL: f32 = 32.0;

/// An explorer walking into a secret door's opening is there within this distance of the
/// opening's middle (across the floor), and goes on its own way.
pub const DOOR_STOOD: f32 = 24.0;

/// How far out from a door's face its floor in front is looked for
/// ([`ShootableView::walked_through_from`]).
pub const DOOR_FRONT: f32 = 48.0;

/// How far off a door's face a player stands in front of it ([`ShootableView::front_stand`]):
/// a box touching a wall reads as inside it.
pub const DOOR_GAP: f32 = 4.0;

impl ShootableView {
    /// Whether a player at `origin` can walk into the door's opening once it is open. A
    /// hatch (a door thinner than a player is tall: in a floor) is dropped through from
    /// above, from anywhere. A door in a wall is walked through on the floor under its
    /// opening (found with the door out of the way: its brushes may reach into the floor):
    /// from that floor ([`DOOR_LEVEL`]), or from anywhere where the floor in front of it on
    /// the player's side ([`DOOR_FRONT`] out from its face) is that floor too — a player
    /// gets there by some way. e3m2's rocket-launcher room door stands 96 units over the
    /// hall in front of it, its foot reached only along an 8-unit ledge: seen from the
    /// balcony above and from the hall below it drew every explorer there, which shot it,
    /// walked at it off the balcony into the hall and stood below it for 12 s.
    pub fn walked_through_from(&self, map: &CollisionMap, origin: Vec3) -> bool {
        let Some(floor) = self.opening_floor(map) else {
            return true;
        };
        if (origin.z - floor).abs() <= DOOR_LEVEL {
            return true;
        }
        let (out, half) = self.out_toward(origin);
        let down = self.down_beside(
            map,
            out * (half + PLAYER_MAXS.x + DOOR_FRONT),
            floor,
            1024.0,
        );
        down.start_solid || (down.fraction < 1.0 && (down.end_pos.z - floor).abs() <= DOOR_LEVEL)
    }

    /// A player's box swept `depth` down from [`DOOR_LEVEL`] over the opening's `floor`, at
    /// `off` from the door's middle across the floor, the door out of the way.
    fn down_beside(&self, map: &CollisionMap, off: Vec3, floor: f32, depth: f32) -> Trace {
        let at = self.home_centre + off;
        let top = Vec3::new(at.x, at.y, floor + DOOR_LEVEL);
        map.trace(
            top,
            top - Vec3::new(0.0, 0.0, depth),
            PLAYER_MINS,
            PLAYER_MAXS,
            Contents::MASK_PLAYER_NO_BODIES,
            Some(self.id),
        )
    }

    /// A standing origin on the floor of the door's opening (found with the door out of
    /// the way: its brushes may reach into the floor); `None` for a hatch (a door thinner
    /// than a player is tall: in a floor) or where no floor is found under its middle
    /// (inside a wall).
    fn opening_floor(&self, map: &CollisionMap) -> Option<f32> {
        let (lo, hi) = self.home;
        if hi.z - lo.z < PLAYER_MAXS.z - PLAYER_MINS.z {
            return None;
        }
        // A line, not a player's box: most doors are thinner than a player, and a box at
        // the door's middle would stand in the wall beside it.
        let c = self.home_centre;
        let t = map.trace_ray(
            c,
            Vec3::new(c.x, c.y, lo.z - PLAYER_MAXS.z),
            Contents::SOLID,
            Some(self.id),
        );
        (!t.start_solid && t.fraction < 1.0).then_some(t.end_pos.z - PLAYER_MINS.z)
    }

    /// The way out of the door's face on `origin`'s side (across its thin side, a unit
    /// vector) and the face's distance from its middle (half its thickness).
    fn out_toward(&self, origin: Vec3) -> (Vec3, f32) {
        let (lo, hi) = self.home;
        let half = (hi - lo) * 0.5;
        let across = if half.x <= half.y { Vec3::X } else { Vec3::Y };
        let side = if (origin - self.home_centre).dot(across) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        (across * side, half.dot(across))
    }

    /// Whether the team has been beyond the door from `origin`'s side (in the visit cell
    /// [`DOOR_FRONT`] past its far face, on its opening's floor): e3m2's rocket-launcher
    /// room, entered through a door over a ledge, is left by a teleporter to the balcony
    /// the door is seen from, and the door shuts again.
    pub fn leads_where_known(&self, map: &CollisionMap, visits: &VisitMap, origin: Vec3) -> bool {
        let Some(floor) = self.opening_floor(map) else {
            return false;
        };
        let (out, half) = self.out_toward(origin);
        let beyond = self.home_centre - out * (half + PLAYER_MAXS.x + DOOR_FRONT);
        visits.visits(Vec3::new(beyond.x, beyond.y, floor)) > 0
    }

    /// Where a player stands on the floor of a wall door's opening right in front of its
    /// face on `origin`'s side ([`DOOR_GAP`] off it): the place it is shot from and walked
    /// into from. `None` for a hatch, where no floor is found under the opening, or where
    /// the floor there is not the opening's ([`DOOR_LEVEL`]).
    pub fn front_stand(&self, map: &CollisionMap, origin: Vec3) -> Option<Vec3> {
        let (out, half) = self.out_toward(origin);
        self.stand_off(map, out, half)
    }

    /// As [`ShootableView::front_stand`], past its other face: where a player who walked
    /// through from `origin`'s side stands.
    pub fn beyond_stand(&self, map: &CollisionMap, origin: Vec3) -> Option<Vec3> {
        let (out, half) = self.out_toward(origin);
        self.stand_off(map, -out, half)
    }

    /// A standing origin on the opening's floor [`DOOR_GAP`] off the face `out` of the
    /// door's middle (`half` its thickness).
    fn stand_off(&self, map: &CollisionMap, out: Vec3, half: f32) -> Option<Vec3> {
        let floor = self.opening_floor(map)?;
        let off = out * (half + PLAYER_MAXS.x + DOOR_GAP);
        let down = self.down_beside(map, off, floor, 2.0 * DOOR_LEVEL);
        (!down.start_solid && down.fraction < 1.0 && (down.end_pos.z - floor).abs() <= DOOR_LEVEL)
            .then_some(down.end_pos)
    }
}

/// The shootable movers and where they stand (for explorers and route bots, who shoot
/// them: doors to open them, buttons and triggers to fire them).
pub fn shootables(sim: &crate::sim::Sim) -> Vec<ShootableView> {
    use crate::map::level::MoverKind;
    use crate::physics::movers::Phase;
    use crate::sim::components::MoverSlot;
    sim.level
        .movers
        .iter()
        .enumerate()
        .filter(|(_, m)| m.kind.is_shootable())
        .filter_map(|(index, m)| {
            let st = sim.world.get::<&MoverSlot>(sim.movers[index]).ok()?.state;
            let home_centre = (m.mins + m.maxs) * 0.5;
            Some(ShootableView {
                index,
                id: m.id,
                centre: home_centre + st.offset,
                home_centre,
                home: (m.mins, m.maxs),
                closed: st.phase == Phase::AtA,
                open: st.phase == Phase::AtB,
                opening: matches!(
                    m.kind,
                    MoverKind::SecretDoor { .. } | MoverKind::Door { .. }
                ),
            })
        })
        .collect()
}

impl Explorer {
    /// A fresh explorer at `origin`.
    pub fn new(origin: Vec3) -> Explorer {
        Explorer {
            target: None,
            item: None,
            timer: 0.0,
            skip: Vec::new(),
            anchor: origin,
            still: 0.0,
            door: None,
            run: None,
            planned: Vec::new(),
            frontier_tries: Vec::new(),
            settling: false,
            frontier_wait: 0.0,
            bored: 0.0,
            button: None,
            detour: None,
            button_tries: Vec::new(),
            lift: None,
            lift_tries: Vec::new(),
            teleporter: None,
            teleporter_tries: Vec::new(),
            under_lift: None,
            doorway: None,
            doorway_tries: Vec::new(),
            dive: None,
            dive_tries: Vec::new(),
            pool: None,
            pool_tries: Vec::new(),
            suit: 0.0,
            swim: None,
            swum: Vec::new(),
            surfaced: Vec::new(),
            entries: Vec::new(),
            swim_out: None,
            swim_wait: 0.0,
            gate: None,
            gate_tries: Vec::new(),
            shot: Vec::new(),
            door_front: None,
            door_front_tries: Vec::new(),
            floor: None,
            floor_tries: Vec::new(),
            max_drop: super::movement::MoveParams::default().max_drop,
            edge_stops: false,
            exploring: false,
        }
    }

    /// The place being routed to over the team's graph ([`Explorer::find_gate`]) while the
    /// way there lasts: `None` (and the gate dropped) once someone has been in its cell,
    /// the bot stands by it, the routing stage found no route to it (`routed`: the goal
    /// the routing stage last worked on, and whether it found no route to it), or
    /// [`GATE_SECONDS`] have passed.
    pub fn gate(
        &mut self,
        visits: &VisitMap,
        s: &PlayerState,
        routed: (Option<Vec3>, bool),
        dt: f32,
    ) -> Option<Vec3> {
        let (q, left) = self.gate.as_mut()?;
        *left -= dt;
        // What the routing stage said of this goal (not of the last one).
        let no_route = routed.0 == Some(*q) && routed.1;
        let d = *q - s.origin;
        let there = d.truncate().length() < 48.0 && d.z.abs() < 48.0;
        if *left <= 0.0 || no_route || there || visits.visits(*q) > 0 {
            self.gate = None;
            // Exploring goes on from here with a fresh choice.
            self.target = None;
            self.anchor = s.origin;
            self.still = 0.0;
            return None;
        }
        Some(*q)
    }

    /// Where the way on leads only where the team has been: of the [`GATE_CANDIDATES`]
    /// nearest frontier points nobody has visited with a waypoint within [`GATE_RADIUS`]
    /// (height counting double; each at most [`GATE_TRIES`] times), the first that a
    /// waypoint of the team's graph reaches in a
    /// straight line — the routing stage's own goal test ([`GATE_REACH_CANDIDATES`]),
    /// so that a route there exists where the graph links that waypoint. The way there may
    /// run anywhere the graph does: round a corner, up a stair the local choice turned
    /// from, back through rooms already known. True when one was found (it is then routed to).
    fn find_gate(
        &mut self,
        map: &CollisionMap,
        graph: &WaypointGraph,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
    ) -> bool {
        let tries = &self.gate_tries;
        let spent = |q: &Vec3| {
            tries
                .iter()
                .any(|t| t.0 == VisitMap::cell(*q) && t.1 >= GATE_TRIES)
        };
        let mut near: Vec<(f32, Vec3)> = visits
            .frontier(level, map)
            .iter()
            .filter(|q| visits.visits(**q) == 0 && !spent(q))
            .map(|q| {
                let d = *q - s.origin;
                (d.x * d.x + d.y * d.y + 4.0 * d.z * d.z, *q)
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Only points with a waypoint within GATE_RADIUS are tested (a lookup in the graph's
        // grid): those behind a wall from everything the team knows cost nothing.
        let found = near
            .iter()
            .map(|n| n.1)
            .filter(|q| !graph.near_k(*q, GATE_RADIUS, 1).is_empty())
            .take(GATE_CANDIDATES)
            .find(|q| {
                crate::nav::sample::nearest_reaching(
                    map,
                    graph,
                    *q,
                    GATE_REACH_RADIUS,
                    GATE_REACH_CANDIDATES,
                )
                .is_some()
            });
        let Some(q) = found else {
            return false;
        };
        let cell = VisitMap::cell(q);
        match self.gate_tries.iter_mut().find(|t| t.0 == cell) {
            Some(t) => t.1 += 1,
            None => self.gate_tries.push((cell, 1)),
        }
        self.gate = Some((q, GATE_SECONDS));
        self.frontier_wait = FRONTIER_SECONDS;
        true
    }

    /// Teleporters, as a player new to a map tries them: a working teleporter in sight
    /// within [`LIFT_RANGE`] that sends a player where nobody has been is walked into,
    /// until the bot arrives there or [`BUTTON_SECONDS`] have passed, at most
    /// [`BUTTON_TRIES`] times per teleporter (the drop stage marks the way). One beside
    /// another ([`TeleporterView::entry`]) is got into by a run planned over the physics
    /// where `planner` (the level, the bot's body, the physics, the bot's random stream) is
    /// given and one is found, the others being teleporters in the plan (a run that
    /// touches one of them first goes where it leads). Returns what to do while at it
    /// (`None` also when a run was planned: [`Explorer::planned_cmd`] plays it). One trace
    /// per teleporter in range when not going to one.
    pub fn teleporter(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        teleporters: &[TeleporterView],
        s: &PlayerState,
        planner: Option<RunPlanner<'_>>,
        dt: f32,
    ) -> Option<ButtonGo> {
        let toward = |t: &TeleporterView| ButtonGo::walk_to(t.walk_point(s.origin));
        if let Some((index, left)) = self.teleporter.take() {
            let left = left - dt;
            let t = teleporters.iter().find(|t| t.index == index)?;
            if left <= 0.0 || s.origin.distance(t.dest) < 64.0 {
                return None;
            }
            self.teleporter = Some((index, left));
            return Some(toward(t));
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        if self.busy() {
            return None;
        }
        let tries = &self.teleporter_tries;
        let spent = |t: &TeleporterView| tried_out(tries, t.index);
        let straight = |t: &TeleporterView| {
            touched_first(teleporters, s.origin, t.walk_point(s.origin)) == Some(t.index)
        };
        let t = teleporters
            .iter()
            .filter(|t| !spent(t) && !t.leads_where_known(visits))
            .map(|t| (t.centre.distance(eye), t))
            .filter(|(d, _)| *d <= LIFT_RANGE)
            .filter(|(_, t)| map.trace_ray(eye, t.centre, Contents::SOLID, None).fraction >= 1.0)
            // Only one a straight walk at the bot's own height gets into first: from the wrong
            // side of a teleporter beside another, the other is touched first, and one seen
            // from a balcony above it (or from below) is touched by no such walk — walked at,
            // it spent the try (e1m5, e4m3: 4 points of their floor, seeds 0-8). One beside
            // another is planned for from anywhere.
            .filter(|(_, t)| straight(t) || (t.entry.is_some() && planner.is_some()))
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        plan_try(&mut self.teleporter_tries, t.index);
        // Beside another, a straight walk is a poor way in even from the right side:
        // e1m5's pair (thin triggers on either face of a 16-unit sill under an arch, to the
        // quad and back) is got into from the east only through a gap 7 units wide for a
        // player's centre, past the arch's posts, and the movement stage turned away there
        // and walked round into the other one.
        if t.entry.is_some()
            && let Some(RunPlanner {
                level,
                me,
                physics,
                rng,
            }) = planner
        {
            let goal = crate::planner::Goal {
                mins: t.mins,
                maxs: t.maxs,
            };
            let others = teleporters
                .iter()
                .filter(|o| o.index != t.index)
                .map(|o| crate::planner::Teleporter {
                    mins: o.mins,
                    maxs: o.maxs,
                    origin: o.dest,
                    yaw: o.yaw,
                })
                .collect();
            let world = (map, level, visits);
            let goal = RunGoal {
                teleporters: others,
                ..RunGoal::touch(goal)
            };
            if self.run_to(world, s, (me, physics), &goal, rng, dt) {
                return None;
            }
        }
        if !straight(t) {
            return None;
        }
        self.teleporter = Some((t.index, BUTTON_SECONDS));
        Some(toward(t))
    }

    /// Whether the routing stage moves the bot (to a frontier point, or round to a button
    /// or door).
    pub fn routes(&self) -> bool {
        self.gate.is_some() || self.detour.is_some()
    }

    /// A try's way there: walked straight until the movement stage is blocked (a slime
    /// pool between, a wall with the way round out of sight), then routed over the team's
    /// graph to `point()` (where the try walks on from) until the bot stands by it.
    /// `routed`: the goal the routing stage last worked on, and whether it found no route.
    /// A detour adds the time to go its way at [`DETOUR_SPEED`] to the try's `left`.
    fn detour_step(
        &mut self,
        point: impl FnOnce() -> Option<Vec3>,
        s: &PlayerState,
        (mstatus, routed): (&MoveStatus, (Option<Vec3>, bool)),
        left: &mut f32,
    ) -> Detour {
        let near = |q: Vec3| {
            let d = q - s.origin;
            d.truncate().length() <= DETOUR_NEAR && d.z.abs() <= DETOUR_NEAR
        };
        if let Some(q) = self.detour.take() {
            if routed.0 == Some(q) && routed.1 {
                return Detour::GiveUp;
            }
            if near(q) {
                return Detour::Walk;
            }
            self.detour = Some(q);
            return Detour::Route(q);
        }
        if matches!(mstatus, MoveStatus::Blocked(_))
            && let Some(q) = point()
            && !near(q)
        {
            self.detour = Some(q);
            *left = left.max(BUTTON_SECONDS) + (q - s.origin).length() / DETOUR_SPEED;
            return Detour::Route(q);
        }
        Detour::Walk
    }

    /// Lets go of the things it was trying (a plat, a teleporter, a button, a doorway, a
    /// dive, a secret door): a planned run takes the bot elsewhere, and where it lands they
    /// are behind it. On e1m3 a run over the gap to the super nailgun, planned from the
    /// floor below it, landed on the gun's ledge; the doorway walk the bot was on before
    /// took it back and off the ledge at once.
    fn let_go(&mut self) {
        self.lift = None;
        self.teleporter = None;
        self.under_lift = None;
        self.button = None;
        self.doorway = None;
        self.dive = None;
        self.pool = None;
        self.swim = None;
        self.detour = None;
        self.door = None;
        self.floor = None;
    }

    /// Whether the bot is at one of the things it tries, or going for an item it has not
    /// marked (it sees it): nothing new is tried then. e1m3's super nailgun lies a running
    /// jump from a teleporter's exit; bots that came out of it and saw it turned for a
    /// doorway seen below and walked off the exit's ledge into the pit.
    fn busy(&self) -> bool {
        self.trying() || self.item.is_some()
    }

    /// Whether the bot is at one of the things it tries (a plat, a teleporter, a button, a
    /// door).
    fn trying(&self) -> bool {
        self.lift.is_some()
            || self.teleporter.is_some()
            || self.under_lift.is_some()
            || self.button.is_some()
            || self.doorway.is_some()
            || self.dive.is_some()
            || self.pool.is_some()
            || self.swim.is_some()
            || self.floor.is_some()
    }

    /// Whether nobody has been at a place and this bot has not dived to its cell
    /// [`BUTTON_TRIES`] times: where [`Explorer::dive`] and [`Explorer::pool`] look for
    /// something new under water.
    fn undived<'a>(&'a self, visits: &'a VisitMap) -> impl Fn(Vec3) -> bool + 'a {
        |q: Vec3| visits.visits(q) == 0 && !tried_out_cell(&self.dive_tries, VisitMap::cell(q))
    }

    /// Water, as a player new to a map tries it: swimming with a floor nobody has been on
    /// more than [`DIVE_DEPTH`] below — the nearest frontier point within [`DIVE_RANGE`]
    /// to the side seen in a straight line, else the floor straight down where it lies out
    /// of the water (a pool's own bottom is explored by swimming) — the bot swims over it
    /// and dives to it; else, from the surface and unless it is heading out of the water
    /// for land nobody has been on, into a flooded passage along the bottom
    /// ([`underwater_passage`]), down first and then along it; until it is there or
    /// [`DIVE_SECONDS`] have passed, at most [`BUTTON_TRIES`] times per cell, and then
    /// (still under water) it comes up for air first. start.map's Nightmare hall is
    /// reached only by swimming out of the bottom of a pool that floats above it, e4m3's
    /// east part only through a flooded tunnel. Returns what to do while at it. When
    /// swimming and not diving: a trace per frontier point in range, and about forty for
    /// a passage.
    pub fn dive(
        &mut self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Some((to, left)) = self.dive.take() {
            let left = left - dt;
            let d = to - s.origin;
            let there = d.truncate().length() < 48.0 && d.z.abs() < 48.0;
            if left <= 0.0 || there || visits.visits(to) > 0 {
                // Exploring goes on from where it landed with a fresh choice (the old target
                // is back up where it dived from); a swimmer under water (through a flooded
                // passage) first comes up for air, where its walks feel the way on out of
                // the water rather than along the bottom: straight up, or else over the
                // dive's end (still under the passage's roof).
                self.target = (s.water_level >= 3)
                    .then(|| {
                        surface_above(map, s.origin, Contents::WATER)
                            .or_else(|| surface_above(map, to, Contents::WATER))
                    })
                    .flatten();
                self.timer = TARGET_SECONDS;
                return None;
            }
            self.dive = Some((to, left));
            // Over it first, then down: out of the bottom of a floating pool a player falls
            // nearly straight (air control is weak), onto a ledge only from right above it.
            // Under water (a flooded passage's far end) the other way round: down first, then
            // along the bottom into the passage, whose mouth lies below the wall ahead.
            let over = s.water_level >= 1 && d.truncate().length() > 16.0;
            let wet = map.point_contents(to).intersects(Contents::WATER);
            return Some(ButtonGo::walk_to(
                if over && wet && s.origin.z > to.z + 4.0 {
                    Vec3::new(s.origin.x, s.origin.y, to.z)
                } else if over && !wet {
                    Vec3::new(to.x, to.y, s.origin.z - 4.0)
                } else {
                    to
                },
            ));
        }
        if s.water_level < 2 || self.busy() {
            return None;
        }
        let open = self.undived(visits);
        // A floor nobody has been on below, in a straight line through the water: the
        // nearest, else the floor straight down.
        let seen = |q: Vec3| map.trace_ray(s.origin, q, Contents::SOLID, None).fraction >= 1.0;
        // Under the water the bot swims in, with a clear fall from it: out of the bottom of a
        // floating pool a player sinks nearly straight down, so a floor seen aslant through
        // its open bottom but not under it (start.map's ledges round its pit, beyond the
        // pool's rim) is not where a dive lands.
        let under = |q: Vec3| {
            let top = Vec3::new(q.x, q.y, s.origin.z);
            map.point_contents(top).intersects(Contents::WATER)
                && map
                    .trace(top, q, PLAYER_MINS, PLAYER_MAXS, Contents::SOLID, None)
                    .fraction
                    >= 1.0
        };
        let below = visits
            .frontier(level, map)
            .iter()
            .filter(|q| {
                q.z < s.origin.z - DIVE_DEPTH
                    && (**q - s.origin).truncate().length() < DIVE_RANGE
                    && open(**q)
            })
            .map(|q| ((*q - s.origin).truncate().length(), *q))
            .filter(|(_, q)| seen(*q) && under(*q))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|x| x.1);
        let bottom = map.trace_ray(
            s.origin,
            s.origin - Vec3::new(0.0, 0.0, DIVE_REACH),
            Contents::SOLID,
            None,
        );
        let to = below
            .or_else(|| {
                let to = bottom.end_pos + Vec3::new(0.0, 0.0, -PLAYER_MINS.z + 1.0);
                // Out of the water: a pool's own bottom is explored by swimming.
                let dry = !map.point_contents(to).intersects(Contents::LIQUID);
                (bottom.fraction < 1.0
                    && s.origin.z - bottom.end_pos.z >= DIVE_DEPTH
                    && dry
                    && open(to))
                .then_some(to)
            })
            // A swimmer heading out of the water for land nobody has been on carries on.
            .or_else(|| {
                let to_land = self.target.is_some_and(|t| {
                    visits.visits(t) == 0 && !map.point_contents(t).intersects(Contents::WATER)
                });
                (!to_land)
                    .then(|| underwater_passage(map, s, bottom.end_pos.z, open))
                    .flatten()
            })?;
        let cell = VisitMap::cell(to);
        plan_try(&mut self.dive_tries, cell);
        self.dive = Some((to, DIVE_SECONDS));
        Some(ButtonGo::walk_to(to))
    }

    /// Water seen, as a player new to a map tries it: on the ground and out of any liquid,
    /// the nearest point of a water surface within [`POOL_RANGE`] (among the
    /// [`POOL_CANDIDATES`] nearest, in sight; on the bot's level: at most [`POOL_UP`] above
    /// its feet, at most [`DROP_BELOW`] under them, as the level it stands on comes first)
    /// where nobody has swum (no visits in a liquid just under the surface, in its visit
    /// cell or the eight round it), at most [`BUTTON_TRIES`] times per cell: the bot walks
    /// in there (the movement stage jumps a rim) until it swims or [`POOL_SECONDS`] have
    /// passed, and goes on toward that point in the water, where [`Explorer::dive`] feels
    /// for a way on under the surface on the same tick. e4m3's east part is
    /// reached only through a flooded tunnel out of a pool behind a 32-unit rim in the hall
    /// west of it: walks from the hall's floor end at the rim, and on most runs nobody went
    /// in. Returns what to do while at it. Out of it: a few hundred distances and up to
    /// [`POOL_CANDIDATES`] traces a tick.
    pub fn pool(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Some((to, left)) = self.pool.take() {
            let left = left - dt;
            if left > 0.0 && s.water_level < 2 {
                self.pool = Some((to, left));
                return Some(ButtonGo::walk_to(to));
            }
            // In (or given up): the target is the point in the water for a while. The one
            // chosen on land (out of the water, where nobody has been) would hold the dive
            // into the pool's tunnel back, and a fresh choice now plan a run to the nearest
            // place nobody has been, letting go of the dive that starts this tick.
            self.target = Some(to);
            self.timer = TARGET_SECONDS;
            return None;
        }
        if s.water_level > 0 || s.on_ground.is_none() || self.busy() {
            return None;
        }
        let o = s.origin;
        // Just under the surface (the points are where a box rests on it).
        let under = |p: Vec3| p - Vec3::new(0.0, 0.0, -PLAYER_MINS.z + 8.0);
        let tries = &self.pool_tries;
        let unswum = |p: Vec3| {
            !tried_out_cell(tries, VisitMap::cell(p))
                && cells_around(under(p)).all(|q| visits.wet_visits(q) == 0)
        };
        let mut near: Vec<(f32, Vec3)> = visits
            .surfaces(map)
            .iter()
            .filter(|(p, c)| {
                *c == Contents::WATER && p.z <= o.z + POOL_UP && p.z >= o.z - DROP_BELOW
            })
            .map(|(p, _)| ((*p - o).truncate().length(), *p))
            .filter(|(d, _)| *d < POOL_RANGE)
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        let eye = o + Vec3::new(0.0, 0.0, crate::physics::pmove::EYE_HEIGHT);
        // Nearest first, the visit map asked only until the candidates are found (nine
        // cells a point: a lake's few hundred points in range each tick were most of the
        // try's cost).
        let unswum_near = near.into_iter().filter(|(_, p)| unswum(*p));
        let (_, p) = unswum_near.take(POOL_CANDIDATES).find(|(_, p)| {
            let over = under(*p) + Vec3::new(0.0, 0.0, 16.0);
            map.trace_ray(eye, over, Contents::SOLID, None).fraction >= 1.0
        })?;
        plan_try(&mut self.pool_tries, VisitMap::cell(p));
        // Only water with a way on under its surface ([`underwater_passage`], felt as a
        // swimmer just under the surface there would) to water nobody has been in: the
        // pools a player sees all round from their banks hold nothing new, and explorers
        // that went into every pool in sight lost their time in them (e1m3's and e2m2's
        // least coverage fell from 93 and 89 % to 78 and 77 %).
        let swimmer = PlayerState {
            origin: p - Vec3::new(0.0, 0.0, 2.0 * -PLAYER_MINS.z),
            water_level: 3,
            ..*s
        };
        let floor = map
            .trace_ray(
                swimmer.origin,
                swimmer.origin - Vec3::Z * DIVE_REACH,
                Contents::SOLID,
                None,
            )
            .end_pos
            .z;
        if underwater_passage(map, &swimmer, floor, self.undived(visits)).is_none() {
            // Not again from here.
            while plan_try(&mut self.pool_tries, VisitMap::cell(p)) {}
            return None;
        }
        // Walked to a point deep enough that the movement stage's arrival (within 48
        // units of height) comes only once the bot swims: arrived at the surface, the bot
        // chose afresh from there, and a run it planned took it back out at once. No
        // deeper than the bottom.
        let deep = p - Vec3::new(0.0, 0.0, -PLAYER_MINS.z + POOL_DEEP);
        let bottom = map.trace(
            p,
            deep,
            PLAYER_MINS,
            PLAYER_MAXS,
            Contents::MASK_PLAYER_NO_BODIES,
            None,
        );
        let to = bottom.end_pos;
        self.pool = Some((to, POOL_SECONDS));
        Some(ButtonGo::walk_to(to))
    }

    /// Slime, as a player in the biosuit tries it (with more than [`SUIT_RESERVE`] seconds
    /// of it left; its walks go into slime then, [`hazards`], and its movement requests
    /// wade). On land with [`SUIT_ENTER`] more seconds than that, where a walk from the
    /// floor under it ends over slime ([`slime_entry`]; at most twice per place), the bot
    /// runs (or drops) in there, against the motion it has across the way. In slime, it swims on along
    /// the way [`slime_way`] finds: toward the nearest place under a roof nobody has swum
    /// in, or the nearest opening out with land beside that nobody has stood on, else any
    /// opening it has not yet risen to; at an opening it rises and walks out onto the land
    /// (for at most twice [`SWIM_SECONDS`], whatever it sees meanwhile). Each swim lasts
    /// until there or [`SWIM_SECONDS`]. With less of the suit left, it swims to the nearest
    /// opening with land beside and out. e1m1's invulnerability lies behind a teleporter in
    /// a room reached only by a tunnel of slime from under the biosuit's ledge. Returns what
    /// to do while at it; one search a swim.
    pub fn suit_swim(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        self.swim_wait -= dt;
        let in_slime = s.water_level >= 1 && s.water_type.intersects(Contents::SLIME);
        let suited = self.suit > SUIT_RESERVE;
        if let Some((to, left)) = self.swim.take() {
            let left = left - dt;
            // The way in (a point over the slime, run at straight: the movement stage
            // would stop at the edge of a drop) is done once in it.
            let way_in = !map.point_contents(to).intersects(Contents::SLIME);
            if left > 0.0 && !swum_to(s.origin, to) && !(in_slime && way_in) {
                self.swim = Some((to, left));
                if way_in {
                    // Against the motion it still has across the way (a bot that chose
                    // the way in on the run was carried off a ledge beside it).
                    let dir = (to - s.origin).truncate().normalize_or_zero();
                    let want = dir * 320.0 - s.velocity.truncate();
                    let wish = if want.length() > 40.0 {
                        want.normalize()
                    } else {
                        dir
                    };
                    return Some(ButtonGo::Press(crate::physics::predict::run_toward(
                        wish.extend(0.0),
                        320.0,
                        false,
                    )));
                }
                return Some(ButtonGo::walk_to(to));
            }
        }
        if !in_slime {
            self.swim_out = None;
            if self.busy() || s.water_level > 0 || self.suit < SUIT_RESERVE + SUIT_ENTER {
                return None;
            }
            // Each way in at most twice: a lip a straight run does not get over held one
            // explorer at e1m1's slime for good.
            let to = slime_entry(map, s, &self.entries)?;
            plan_try(&mut self.entries, VisitMap::cell(to));
            self.swim = Some((to, SWIM_SECONDS));
            return Some(ButtonGo::walk_to(to));
        }
        // Out onto the land beside an opening it rose to, whatever it has seen since (an
        // item seen over the edge drew it back into the slime).
        if let Some((land, left)) = self.swim_out.take()
            && left > 0.0
        {
            self.swim_out = Some((land, left - dt));
            return Some(ButtonGo::walk_to(land));
        }
        // An item seen from the slime (through an opening above) is not walked at: the way
        // to it is through the slime, out where it leads.
        if (suited && self.trying()) || self.swim_wait > 0.0 {
            return None;
        }
        match slime_way(map, visits, s, (&self.swum, &self.surfaced), !suited) {
            Some(SlimeWay::Swim(to, new)) => {
                self.swum.extend(new);
                self.swim = Some((to, SWIM_SECONDS));
                Some(ButtonGo::walk_to(to))
            }
            Some(SlimeWay::Rise(top, land)) => {
                if suited {
                    self.surfaced.push(VisitMap::cell(top));
                }
                self.swim = Some((top, SWIM_SECONDS));
                self.swim_out = Some((land, 2.0 * SWIM_SECONDS));
                self.target = Some(land);
                self.timer = TARGET_SECONDS + SWIM_SECONDS;
                Some(ButtonGo::walk_to(top))
            }
            None => {
                // Nothing new through the slime from here: a while before looking again
                // (a search that finds nothing looks at the whole pool).
                self.swim_wait = SWIM_SECONDS;
                None
            }
        }
    }

    /// Doors, as a player new to a map tries them: a closed door in sight within
    /// [`BUTTON_RANGE`] that opens when a player comes near, or an open one seen through its
    /// opening, with nobody yet where walking through it leads (but for a glance:
    /// [`FRESH_VISITS`]), is walked through (a closed
    /// one opens as the bot comes near) until the bot stands beyond it or its time is up
    /// ([`BUTTON_SECONDS`] and a second per 160 units of the way), at most [`BUTTON_TRIES`]
    /// times per door. Where walking straight to an open one is blocked, the bot is routed
    /// round to its near side ([`Explorer::detour_step`]). Returns what to do while at it.
    /// One trace per door in range when not going through one.
    pub fn doorway(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        doors: &[DoorwayView],
        s: &PlayerState,
        moved: (&MoveStatus, (Option<Vec3>, bool)),
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Some((index, beyond, left)) = self.doorway.take() {
            let mut left = left - dt;
            if left <= 0.0 || (beyond - s.origin).truncate().length() < 32.0 {
                self.detour = None;
                return None;
            }
            // Round to the near side of an open door when the straight way is blocked (a
            // closed one opens as the bot comes near: walked into).
            let near_side = doors.iter().find(|d| d.index == index && d.open).map(|d| {
                if d.sides[0] == beyond {
                    d.sides[1]
                } else {
                    d.sides[0]
                }
            });
            let go = match self.detour_step(|| near_side, s, moved, &mut left) {
                Detour::GiveUp => return None,
                Detour::Route(q) => ButtonGo::Route(q),
                Detour::Walk => ButtonGo::walk_to(beyond),
            };
            self.doorway = Some((index, beyond, left));
            return Some(go);
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        if self.busy() {
            return None;
        }
        let tries = &self.doorway_tries;
        let spent = |d: &DoorwayView| tried_out(tries, d.index);
        // The side away from the bot is where walking through leads.
        let beyond = |d: &DoorwayView| {
            let [a, b] = d.sides;
            if a.distance_squared(s.origin) >= b.distance_squared(s.origin) {
                a
            } else {
                b
            }
        };
        let (_, d, far) = doors
            .iter()
            .filter(|d| !spent(d))
            .map(|d| (d.centre.distance(eye), d, beyond(d)))
            // Nobody beyond it but for a glance ([`FRESH_VISITS`]): one bot that touched
            // e1m3's east doors open and left at once left the room behind them as unknown
            // as before, and no other tried them.
            .filter(|(dist, _, far)| *dist <= BUTTON_RANGE && visits.visits(*far) <= FRESH_VISITS)
            .filter(|(_, d, _)| {
                // A closed door is seen itself; an open one, through its opening.
                let t = map.trace_ray(eye, d.centre, Contents::SOLID, None);
                if d.open {
                    t.fraction >= 1.0
                } else {
                    t.ent == Some(d.id)
                }
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))?;
        plan_try(&mut self.doorway_tries, d.index);
        // Time to get there at half running speed (round whatever is in the way), and then
        // for the door to open.
        let time = BUTTON_SECONDS + (far - s.origin).truncate().length() / 160.0;
        self.doorway = Some((d.index, far, time));
        Some(ButtonGo::walk_to(far))
    }

    /// Teleporters under plats, as a player new to a map finds them: a working teleporter
    /// that sends a player where nobody has been, within [`LIFT_RANGE`], hidden from the bot
    /// by a plat waiting down over it (the trace to its middle ends on the plat) while the
    /// bot is at the teleporter's height, is uncovered: the bot walks onto the plat's middle
    /// (jumping on where it stops against the plat's edge) until it starts up, steps back
    /// off over the middle of the side it came from, and walks in under the rising plat
    /// (jumping on where it stops: a rim round the teleporter) until it is sent on. e4m3's
    /// balcony with a lightning gun is reached only by the teleporter in the pit under the
    /// north-west room's sinking floor, in a well under the plat that leaves the pit:
    /// explorers that came down into the pit rode the plat up and out. A post in the way on
    /// the plat is walked round ([`UnderLift::via`]); the side stepped back off is chosen
    /// again once the plat starts up ([`step_off`]); a jump at the rim of the well is
    /// steered over it in the air. At most
    /// [`BUTTON_TRIES`] times per teleporter (counted with [`Explorer::teleporter`]'s), for
    /// at most [`LIFT_SECONDS`] each, and over when the plat is down again before the bot
    /// got in. One trace per teleporter in range when not at one.
    pub fn under_lift(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        (lifts, teleporters): (&[LiftView], &[TeleporterView]),
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Some(mut u) = self.under_lift.take() {
            u.left -= dt;
            let l = lifts.iter().find(|l| l.index == u.lift)?;
            let t = teleporters.iter().find(|t| t.index == u.teleporter)?;
            let on = s.on_ground == Some(l.id);
            // Out of time, teleported, or back down before the bot got in: covered again.
            if u.left <= 0.0 || s.origin.distance(t.dest) < 64.0 || (u.raised && l.waiting) {
                return None;
            }
            if on && !l.waiting && !u.raised {
                u.raised = true;
                u.back = step_off(map, l, s.origin).with_z(u.back.z);
            }
            self.under_lift = Some(u);
            // Stopped on the ground short of where it goes: against an edge higher than the
            // movement stage jumps (e4m3's plat stands 40 over the pit's floor, and a 32-unit
            // rim closes the teleporter's well under it), so jump on toward it.
            let run_at = |to: Vec3, jump: bool| {
                let dir = (to - s.origin).truncate().normalize_or_zero().extend(0.0);
                ButtonGo::Press(crate::physics::predict::run_toward(dir, 320.0, jump))
            };
            let jump_on = |to: Vec3| run_at(to, !s.jump_held);
            let stopped = s.on_ground.is_some() && s.velocity.truncate().length() < STOPPED_SPEED;
            if !u.raised {
                let middle = l.rider();
                if on && l.in_field(s.origin) {
                    return Some(ButtonGo::stand(s.yaw));
                }
                if !on && stopped {
                    return Some(jump_on(middle));
                }
                // Stopped on the plat short of its field: a post at a corner is in the way
                // (e4m3's plat slides down round four), so in along the other axis first,
                // to the middle's line, and from there to the middle.
                if on && stopped && u.via.is_none() {
                    let off = (s.origin - l.top).abs();
                    let out_y = off.y * l.half.x > off.x * l.half.y;
                    u.via = Some(if out_y {
                        Vec3::new(middle.x, s.origin.y, middle.z)
                    } else {
                        Vec3::new(s.origin.x, middle.y, middle.z)
                    });
                }
                if u.via
                    .is_some_and(|p| (p - s.origin).truncate().length() < 8.0)
                {
                    u.via = None;
                }
                self.under_lift = Some(u);
                return Some(ButtonGo::walk_to(u.via.unwrap_or(middle)));
            }
            u.off |= !on && s.on_ground.is_some();
            self.under_lift = Some(u);
            if !u.off {
                return Some(ButtonGo::walk_to(u.back));
            }
            // Off the plat: in under it from the teleporter's height (or a rim round it);
            // stepped off onto another level (the plat already up there), it is over.
            let feet = s.origin.z + PLAYER_MINS.z;
            if feet > t.maxs.z + UNDER_LIFT_RIM || s.origin.z + PLAYER_MAXS.z <= t.mins.z {
                self.under_lift = None;
                return None;
            }
            let to = Vec3::new(t.centre.x, t.centre.y, s.origin.z);
            if stopped {
                return Some(jump_on(to));
            }
            // In the air off a jump at the rim, steered on over it: walked back toward the
            // plat's side, a standing jump (30 u/s in the air at most) came down where it
            // left (e4m3 seed 9: the rim's top reached four times, never crossed).
            if s.on_ground.is_none() {
                return Some(run_at(to, false));
            }
            return Some(ButtonGo::walk_to(to));
        }
        if self.busy() {
            return None;
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        let level = |t: &TeleporterView| {
            s.origin.z + PLAYER_MINS.z < t.maxs.z && s.origin.z + PLAYER_MAXS.z > t.mins.z
        };
        let tries = &self.teleporter_tries;
        let (t, l) = teleporters
            .iter()
            .filter(|t| !tried_out(tries, t.index) && level(t))
            .filter(|t| t.centre.distance(eye) <= LIFT_RANGE && !t.leads_where_known(visits))
            .filter_map(|t| {
                let hit = map.trace_ray(eye, t.centre, Contents::SOLID, None).ent?;
                let l = lifts.iter().find(|l| l.id == hit && l.waiting)?;
                (s.on_ground != Some(l.id) && t.maxs.z <= l.top.z).then_some((t, l))
            })
            .min_by(|a, b| {
                a.0.centre
                    .distance(eye)
                    .total_cmp(&b.0.centre.distance(eye))
            })?;
        plan_try(&mut self.teleporter_tries, t.index);
        // Stepped back off over the middle of the plat's side nearest the bot, clear of
        // its edge: a corner of e4m3's has a post the way in from there.
        let back = step_back(l, s.origin);
        self.under_lift = Some(UnderLift {
            teleporter: t.index,
            lift: l.index,
            back: back.with_z(s.origin.z),
            raised: false,
            via: None,
            off: false,
            left: LIFT_SECONDS,
        });
        Some(ButtonGo::walk_to(l.rider()))
    }

    /// Floors that slid away, as a player new to a map waits for them: where the nearest
    /// place nobody has been (a frontier point within [`LIFT_RANGE`], seen, on the bot's
    /// level) is on the top of a [`FloorView`] that is not closed now, the bot stands where
    /// it is until the floor is back and then walks to that place, until someone has been
    /// there or [`FLOOR_SECONDS`] have passed, at most [`BUTTON_TRIES`] times per floor.
    /// e4m3's explorers pressed the plate before the floor to its quad room, saw the floor
    /// slide away, turned to the nearest place they could get to and never came back (seeds
    /// 2, 5, 6, 8 of 0-15 of `explore --runs 16`). Costs nothing while every floor is
    /// closed; while one is away, a search of the frontier points and at most one trace per
    /// tick when not waiting.
    pub fn moved_floor(
        &mut self,
        map: &CollisionMap,
        (level, visits): (&Level, &VisitMap),
        floors: &[FloorView],
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Some((index, q, left, crossing)) = self.floor.take() {
            let left = left - dt;
            let f = floors.iter().find(|f| f.index == index)?;
            // On it: it is crossed as any floor (walking onto e4m3's fires it, and the
            // wall it carries the bot to stops it).
            let d = q - s.origin;
            let there = d.truncate().length() < 48.0 && d.z.abs() < 48.0;
            if left <= 0.0 || there || s.on_ground == Some(f.id) || visits.visits(q) > 0 {
                return None;
            }
            // Once the floor is back the bot goes for it, whatever fires it on the way (a
            // plate before it slides it away as the bot comes on, which carries the bot).
            let crossing = crossing || f.home_now;
            self.floor = Some((index, q, left, crossing));
            if crossing {
                return Some(ButtonGo::walk_to(q));
            }
            // Waiting: standing on a pressure plate that fires the floor (a button pressed
            // by touch) holds it away, so not on a mover but a step back from the floor.
            if s.on_ground.is_some_and(|g| g != EntId::WORLD) {
                let back = (s.origin - q).truncate().normalize_or_zero().extend(0.0);
                return Some(ButtonGo::walk_to(s.origin + back * 64.0));
            }
            return Some(ButtonGo::Walk(stand_at(s.origin)));
        }
        if self.busy() || floors.iter().all(|f| f.home_now) {
            return None;
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        let tries = &self.floor_tries;
        let q = visits.nearest_unvisited(level, map, s.origin)?;
        if q.distance(eye) > LIFT_RANGE || (q.z - s.origin.z).abs() > STEP_SIZE {
            return None;
        }
        let f = floors
            .iter()
            .find(|f| !f.home_now && f.under(q) && !tried_out(tries, f.index))?;
        if map.trace_ray(eye, q, Contents::SOLID, None).fraction < 1.0 {
            return None;
        }
        plan_try(&mut self.floor_tries, f.index);
        self.floor = Some((f.index, q, FLOOR_SECONDS, false));
        Some(ButtonGo::Walk(stand_at(s.origin)))
    }

    /// Plats, as a player new to a map tries them: a plat waiting down in sight within
    /// [`LIFT_RANGE`] whose top, when up, stands where nobody has been is walked onto and
    /// ridden (standing still on it, walked on into its field where stopped outside it)
    /// until it is up, or [`LIFT_SECONDS`] have passed, at most [`BUTTON_TRIES`] times per
    /// plat. The drop stage marks the ride (elevator waypoints). Returns what to do while
    /// at it. One trace per plat in range when not riding one.
    pub fn lift(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        lifts: &[LiftView],
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Some((index, left)) = self.lift.take() {
            let left = left - dt;
            let l = lifts.iter().find(|l| l.index == index)?;
            let on = s.on_ground == Some(l.id);
            if on && l.up {
                // Up: step off onto the level the plat serves (the longest walk on it that
                // does not go down), not back over the edge it came up by.
                let (travel, end) = (0..8)
                    .map(|k| {
                        let a = (45.0 * k as f32).to_radians();
                        walk_run(map, s.origin, Vec3::new(a.cos(), a.sin(), 0.0), FEEL, 1.0)
                    })
                    .max_by(|a, b| a.0.total_cmp(&b.0))?;
                if travel < 48.0 {
                    return None;
                }
                self.target = Some(end);
                self.timer = TARGET_SECONDS;
                return Some(ButtonGo::walk_to(end));
            }
            if left <= 0.0 || (!on && !l.waiting) {
                return None;
            }
            self.lift = Some((index, left));
            let middle = l.rider();
            // Stopped on a plat still down outside its field (on its edge): the plat starts
            // up only once a player touches the field, and one standing there waited the try
            // out (e3m2's plat at (-384, -416), seed 1: 10 s at its north edge). Walked on
            // into the middle.
            let stopped = s.velocity.truncate().length() < STOPPED_SPEED;
            if on && l.waiting && stopped && !l.in_field(s.origin) {
                return Some(ButtonGo::walk_to(middle));
            }
            if on {
                // Riding: stand still in the middle.
                return Some(ButtonGo::stand(s.yaw));
            }
            return Some(ButtonGo::walk_to(middle));
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        if self.busy() {
            return None;
        }
        let tries = &self.lift_tries;
        let spent = |l: &LiftView| tried_out(tries, l.index);
        let l = lifts
            .iter()
            .filter(|l| l.waiting && !spent(l))
            .filter(|l| visits.visits(l.high_top + Vec3::new(0.0, 0.0, 24.0)) == 0)
            .map(|l| (l.top.distance(eye), l))
            .filter(|(d, _)| *d <= LIFT_RANGE)
            .filter(|(_, l)| {
                let above = l.top + Vec3::new(0.0, 0.0, 8.0);
                map.trace_ray(eye, above, Contents::SOLID, None).fraction >= 1.0
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        plan_try(&mut self.lift_tries, l.index);
        self.lift = Some((l.index, LIFT_SECONDS));
        Some(ButtonGo::walk_to(l.rider()))
    }

    /// Buttons, as a player new to a map tries them: a ready button in sight within
    /// [`BUTTON_RANGE`] that fires something is walked into until it is pressed (by anyone)
    /// or [`BUTTON_SECONDS`] have passed, at most [`BUTTON_TRIES`] times per button; where
    /// walking straight there is blocked (e3m2's button across a slime pool), the bot is
    /// routed round to the floor in front of it ([`Explorer::detour_step`]), and so it is
    /// from the start where that floor is on another level than the bot's
    /// ([`DOOR_LEVEL`]). Doors that only a button opens (directly or through the triggers
    /// it fires) lead to much of the single-player maps. Returns the request to replace the explorer's own while going to
    /// one. One trace per ready button in range when not going to one.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the choice needs"
    )]
    pub fn button(
        &mut self,
        map: &CollisionMap,
        buttons: &[ButtonView],
        s: &PlayerState,
        (mstatus, routed): (&MoveStatus, (Option<Vec3>, bool)),
        me: Option<EntId>,
        dt: f32,
    ) -> Option<ButtonGo> {
        let toward = |b: &ButtonView| {
            let flat = (b.centre - s.origin).truncate();
            if b.shot {
                return ButtonGo::walk_to(
                    b.front(s.origin.z)
                        .unwrap_or(Vec3::new(b.centre.x, b.centre.y, s.origin.z)),
                );
            }
            // A button in a wall is pressed from in front of its face: from the side or
            // from behind (a doorway beside it, the next room), running at its centre runs
            // into the wall around it. In front is less than a half width plus
            // BUTTON_FRONT out from the face's plane, and within the face's width.
            if let Some(front) = b.front(s.origin.z) {
                let along = (s.origin - b.centre).truncate().dot(b.push.truncate());
                let off = (s.origin - front).truncate();
                let ahead = along < -(b.depth + PLAYER_MAXS.x)
                    && off.length() <= BUTTON_FRONT + PLAYER_MAXS.x;
                if !ahead {
                    return ButtonGo::walk_to(front);
                }
            }
            if flat.length() <= PRESS_RANGE {
                ButtonGo::Press(crate::physics::predict::run_toward(
                    flat.extend(0.0),
                    320.0,
                    false,
                ))
            } else {
                ButtonGo::walk_to(Vec3::new(b.centre.x, b.centre.y, s.origin.z))
            }
        };
        if let Some((index, left)) = self.button.take() {
            let mut left = left - dt;
            let Some(b) = buttons.iter().find(|b| b.index == index && b.ready) else {
                self.detour = None;
                return None;
            };
            if left <= 0.0 {
                self.detour = None;
                return None;
            }
            let point = || b.stand_point(map, me);
            let go = match self.detour_step(point, s, (mstatus, routed), &mut left) {
                Detour::GiveUp => return None,
                Detour::Route(q) => ButtonGo::Route(q),
                Detour::Walk => toward(b),
            };
            self.button = Some((index, left));
            return Some(go);
        }
        let eye = s.origin + Vec3::new(0.0, 0.0, 22.0);
        if self.busy() {
            return None;
        }
        let tries = &self.button_tries;
        let spent = |b: &ButtonView| tried_out(tries, b.index);
        let b = buttons
            .iter()
            .filter(|b| b.ready && !spent(b))
            .map(|b| (b.centre.distance(eye), b))
            .filter(|(d, _)| *d <= BUTTON_RANGE)
            .filter(|(_, b)| map.trace_ray(eye, b.centre, Contents::SOLID, None).ent == Some(b.id))
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        plan_try(&mut self.button_tries, b.index);
        // A button pressed from a floor on another level than the bot's (high on the wall
        // over a hall, pressed from a ledge: e1m3's at (724, -360), 250 units up) is routed
        // to over the team's graph from the start: walked at, the bot stood below it for
        // the whole try, and went back to it from wherever it had got to.
        if !b.shot
            && let Some(q) = b.stand_point(map, me)
            && (q.z - s.origin.z).abs() > DOOR_LEVEL
        {
            self.detour = Some(q);
            self.button = Some((
                b.index,
                BUTTON_SECONDS + (q - s.origin).length() / DETOUR_SPEED,
            ));
            return Some(ButtonGo::Route(q));
        }
        self.button = Some((b.index, BUTTON_SECONDS));
        Some(toward(b))
    }

    /// Whether the bot has gone on for [`BORED_SECONDS`] only where the team has often been
    /// (counted by [`Explorer::step`]); the count starts again once asked and true. Exploring
    /// bots give up then and respawn (the control stage); brain bots never ask.
    pub fn take_bored(&mut self) -> bool {
        let bored = self.bored > BORED_SECONDS;
        if bored {
            self.bored = 0.0;
        }
        bored
    }

    /// Where walking about leads only where the team has been, a run planned over the
    /// physics toward the nearest frontier point nobody has visited (up to [`PLAN_TRIES`]
    /// per point, then the next nearest; at most one plan per [`FRONTIER_SECONDS`]): the
    /// ledge only a jump reaches, the far end of a corridor the local choice keeps turning
    /// away from. With `on_level` (the bot's chosen walk drops off its level), toward the
    /// nearest such points on its level instead ([`DROP_BELOW`] under it to [`LEVEL_UP`]
    /// over it, within [`LEVEL_RANGE`] across), up to [`LEVEL_TRIES`] of them this tick
    /// and with no wait: start's corridor under its pool leads on to the Nightmare hall by
    /// a passage off its end, and explorers there dropped into the pit below it instead
    /// (one that comes at a run brakes first: [`SETTLE_SPEED`]).
    /// The run ends standing in the goal, not falling past it. True when one was found.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the plan needs"
    )]
    fn frontier_run(
        &mut self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
        (me, physics): (EntId, &crate::physics::PhysicsParams),
        rng: &mut SimRng,
        dt: f32,
        on_level: bool,
    ) -> bool {
        if !on_level {
            if self.frontier_wait > 0.0 {
                return false;
            }
            self.frontier_wait = FRONTIER_SECONDS;
        }
        let o = s.origin;
        let off_level = |q: Vec3| on_level && off_level(o, q);
        let mut now: Vec<(i32, i32, i32)> = Vec::new();
        for _ in 0..if on_level { LEVEL_TRIES } else { 1 } {
            let tries = &self.frontier_tries;
            let spent =
                |q: Vec3| planned_out(tries, q) || off_level(q) || now.contains(&VisitMap::cell(q));
            let Some(q) = visits.nearest_unvisited_but(level, map, o, spent) else {
                return false;
            };
            plan_try(&mut self.frontier_tries, VisitMap::cell(q));
            now.push(VisitMap::cell(q));
            let goal = RunGoal {
                standing: true,
                ..RunGoal::touch(crate::planner::Goal {
                    mins: q - Vec3::new(32.0, 32.0, 24.0),
                    maxs: q + Vec3::new(32.0, 32.0, 32.0),
                })
            };
            let world = (map, level, visits);
            if self.run_to(world, s, (me, physics), &goal, rng, dt) {
                return true;
            }
        }
        false
    }

    /// The nearest frontier point nobody has visited on the bot's level that a run may
    /// still be planned to (what [`Explorer::frontier_run`] with `on_level` tries first).
    fn level_frontier(
        &self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
    ) -> Option<Vec3> {
        let spent = |q: Vec3| planned_out(&self.frontier_tries, q) || off_level(s.origin, q);
        visits.nearest_unvisited_but(level, map, s.origin, spent)
    }

    /// Plans a run from `s` into `goal` ([`PlannedRun::plan`]) over the level's floor
    /// points ([`VisitMap::floor`]), seeded from the bot's stream, and, where one is found,
    /// lets go of what the bot was trying ([`Explorer::let_go`]). True when one was found.
    fn run_to(
        &mut self,
        (map, level, visits): (&CollisionMap, &Level, &VisitMap),
        s: &PlayerState,
        (me, physics): (EntId, &crate::physics::PhysicsParams),
        goal: &RunGoal,
        rng: &mut SimRng,
        dt: f32,
    ) -> bool {
        let seed = rng.next_u64();
        let floor = visits.floor(level, map);
        // A goal that names no teleporters has the level's working ones in its plan (but
        // the one that is the goal): a run planned as if they were not there went through
        // them and was sent elsewhere (e1m5's frontier runs east onto the sill of the
        // quad's teleporter pair were taken by its western trigger, back to the start).
        let mut goal = goal.clone();
        if goal.teleporters.is_empty() {
            let region = (goal.region.mins, goal.region.maxs);
            goal.teleporters = crate::planner::teleporters(level)
                .into_iter()
                .filter(|t| (t.mins, t.maxs) != region)
                .collect();
        }
        self.run = PlannedRun::plan(map, floor, s, me, &goal, seed, dt, physics);
        if self.run.is_some() {
            self.let_go();
        }
        self.run.is_some()
    }

    /// This tick's command of a planned run, while the bot is where the plan said it would
    /// be; `None` (and the run dropped) once it is over or off course.
    pub fn planned_cmd(&mut self, s: &PlayerState) -> Option<crate::physics::UserCmd> {
        let c = self.run.as_mut()?.next_cmd(s);
        if c.is_none() {
            self.run = None;
        }
        c
    }

    /// Plans a run from `s` to item `i`'s pickup box over the floor around the straight line
    /// between them (at most [`PLAN_TRIES`] times per item). True when one was found.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the plan needs"
    )]
    fn plan_run(
        &mut self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
        (me, physics): (EntId, &crate::physics::PhysicsParams),
        i: usize,
        rng: &mut SimRng,
        dt: f32,
    ) -> bool {
        if !plan_try(&mut self.planned, i) {
            return false;
        }
        let item = &level.items[i];
        let (mn, mx) = item.kind.bounds();
        let goal = crate::planner::Goal {
            mins: item.origin + mn,
            maxs: item.origin + mx,
        };
        let world = (map, level, visits);
        self.run_to(world, s, (me, physics), &RunGoal::touch(goal), rng, dt)
    }

    /// Secret doors, as a player who knows them plays: a closed shootable door in sight
    /// within [`SECRET_RANGE`], where the bot can walk into its opening
    /// ([`ShootableView::walked_through_from`]), is shot (the view to aim along is returned); for
    /// [`SECRET_SECONDS`] after, the bot waits while the door it shot moves out of the way and
    /// walks into its opening once it is open, until it stands there ([`DOOR_STOOD`]) or is
    /// teleported. A button or trigger with health in sight and
    /// ready is shot too, for [`SHOT_SECONDS`] at most in all (it fires something somewhere;
    /// nothing to walk into). Returns `Some(request)` to replace the explorer's own
    /// (`Some(None)`: stand still), and the view. One trace per shootable in range.
    pub fn secret_door(
        &mut self,
        map: &CollisionMap,
        doors: &[ShootableView],
        s: &PlayerState,
        dt: f32,
    ) -> (Option<Option<MoveRequest>>, Option<(f32, f32)>) {
        if let Some((index, left)) = self.door {
            let left = left - dt;
            self.door = None;
            // Aim below the opening: a point on the hatch's top reads as the near side of a
            // gap to the movement stage, which stops at the edge.
            let below = |d: &ShootableView| d.home_centre - Vec3::new(0.0, 0.0, 64.0);
            // Done once the bot stands in the opening, or was teleported (a teleporter
            // behind the door took it elsewhere): e1m3's secret door before the teleporter
            // up to the super nailgun held the bots it sent up there still at the exit for
            // as long as the door moved, and then walked them back to the opening's spot.
            let through = |d: &ShootableView| {
                s.teleport_time > 0.0 || (below(d) - s.origin).truncate().length() < DOOR_STOOD
            };
            if left > 0.0
                && let Some(d) = doors.iter().find(|d| d.index == index && !d.closed)
                && !through(d)
            {
                self.door = Some((index, left));
                if !d.open {
                    // Riding a moving secret door blocks it (doors.qc hurts the rider and
                    // the door stays put), so stand aside until it is out of the way.
                    return (Some(None), None);
                }
                return (Some(Some(run_to_point(below(d)))), None);
            }
        }
        // The gun is 16 units above the origin (Quake's `self.origin + '0 0 16'`).
        let gun = s.origin + Vec3::new(0.0, 0.0, 16.0);
        // Never the door underfoot (it would carry the bot into its way) nor one overhead (a
        // hatch opened from below leads nowhere a player can go); a button or trigger may
        // be high on a wall.
        let spent = |d: &ShootableView| {
            !d.opening
                && self
                    .shot
                    .iter()
                    .any(|k| k.0 == d.index && k.1 >= SHOT_SECONDS)
        };
        for d in doors.iter().filter(|d| {
            d.closed
                && s.on_ground != Some(d.id)
                && (!d.opening || d.centre.z < gun.z + 64.0)
                && !spent(d)
        }) {
            let to = d.centre - gun;
            if to.length() > SECRET_RANGE {
                continue;
            }
            // Solid only: the line starts inside the bot's own body.
            let t = map.trace_ray(gun, d.centre, Contents::SOLID, None);
            if t.ent != Some(d.id) || (d.opening && !d.walked_through_from(map, s.origin)) {
                continue;
            }
            // Shot from a stand where a run brought the bot to the door's front: on an
            // 8-unit ledge the tick's walk would step it off.
            let stand = d.opening && self.door_front == Some(d.index);
            if d.opening {
                self.door = Some((d.index, SECRET_SECONDS));
            } else {
                match self.shot.iter_mut().find(|k| k.0 == d.index) {
                    Some(k) => k.1 += dt,
                    None => self.shot.push((d.index, dt)),
                }
            }
            let yaw = to.y.atan2(to.x).to_degrees();
            let pitch = -(to.z.atan2(to.truncate().length())).to_degrees();
            return (stand.then_some(None), Some((yaw, pitch)));
        }
        (None, None)
    }

    /// A closed door in a wall in sight within [`SECRET_RANGE`] that the bot cannot walk
    /// into from where it is ([`ShootableView::walked_through_from`]), with a floor to
    /// stand on right in front of its face on the bot's side
    /// ([`ShootableView::front_stand`]): a run planned over the physics to stand there
    /// (standing, not passing it on the way down), from where [`Explorer::secret_door`]
    /// shoots it, from a stand, and walks in. e3m2's rocket-launcher room door stands over
    /// an 8-unit ledge 96 units above the hall in front of it, reached by a drop off the
    /// balcony or a raised plat's corner. At most [`BUTTON_TRIES`] plans per door and
    /// visit cell planned from, none while the bot is at something else
    /// ([`Explorer::busy`]). True when a run was planned ([`Explorer::planned_cmd`] plays
    /// it). One trace per closed door in range.
    pub fn door_front(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        doors: &[ShootableView],
        s: &PlayerState,
        planner: RunPlanner<'_>,
        dt: f32,
    ) -> bool {
        let RunPlanner {
            level,
            me,
            physics,
            rng,
        } = planner;
        let world = (map, level, visits);
        // Shot from its front and open now: a run through it too, past its far face (on a
        // ledge the movement stage, turning off a corner of the opening, stepped off).
        if let Some(index) = self.door_front
            && let Some((shot, _)) = self.door
        {
            if shot != index {
                self.door_front = None;
                return false;
            }
            let Some(d) = doors.iter().find(|d| d.index == index && d.open) else {
                return false;
            };
            self.door_front = None;
            let Some(stand) = d.beyond_stand(map, s.origin) else {
                return false;
            };
            if self.run_to(world, s, (me, physics), &standing_goal(stand), rng, dt) {
                self.door = None;
                return true;
            }
            return false;
        }
        if self.busy() || self.door.is_some() || s.on_ground.is_none() {
            return false;
        }
        let gun = s.origin + Vec3::new(0.0, 0.0, 16.0);
        let cell = VisitMap::cell(s.origin);
        let tries = &self.door_front_tries;
        let Some((d, stand)) = doors
            .iter()
            .filter(|d| d.closed && d.opening && s.on_ground != Some(d.id))
            .filter(|d| !tried_out(tries, (d.index, cell)))
            .filter(|d| d.centre.distance(gun) <= SECRET_RANGE)
            .filter(|d| map.trace_ray(gun, d.centre, Contents::SOLID, None).ent == Some(d.id))
            .filter(|d| !d.walked_through_from(map, s.origin))
            .filter(|d| !d.leads_where_known(map, visits, s.origin))
            .find_map(|d| d.front_stand(map, s.origin).map(|p| (d, p)))
        else {
            return false;
        };
        plan_try(&mut self.door_front_tries, (d.index, cell));
        let index = d.index;
        if self.run_to(world, s, (me, physics), &standing_goal(stand), rng, dt) {
            self.door_front = Some(index);
            return true;
        }
        false
    }

    /// One tick of exploring: the movement request, and whether the bot has stayed within
    /// 64 units of one spot for [`STUCK_SECONDS`] (the caller decides what to do then).
    /// `planner`: the bot's body id and the match's physics where the caller plays planned runs
    /// ([`Explorer::planned_cmd`]) toward items the movement stage cannot get to; `None`, no
    /// runs are planned.
    #[allow(
        clippy::too_many_arguments,
        reason = "each is a separate read-only view the choice needs"
    )]
    pub fn step(
        &mut self,
        map: &CollisionMap,
        graph: &WaypointGraph,
        visits: &VisitMap,
        level: &Level,
        s: &PlayerState,
        percepts: &Percepts,
        status: &MoveStatus,
        rng: &mut SimRng,
        dt: f32,
        planner: Option<(EntId, &crate::physics::PhysicsParams)>,
    ) -> (MoveRequest, bool) {
        self.timer -= dt;
        // Just teleported: somewhere new, where what it gave up on may be in reach (e1m3's
        // super nailgun, given up on from the floor below its ledge, is in sight at the exit
        // of the teleporter up there), and the target it walked toward is behind it.
        if self.exploring && s.teleport_time > 0.0 {
            self.skip.clear();
        }
        if self.exploring && s.teleport_time > crate::physics::teleport::TELEPORT_LOCK - 1.5 * dt {
            self.target = None;
        }
        for k in self.skip.iter_mut() {
            k.1 -= dt;
        }
        self.skip.retain(|k| k.1 > 0.0);
        if (s.origin - self.anchor).length() > 64.0 {
            self.anchor = s.origin;
            self.still = 0.0;
        } else {
            self.still += dt;
        }
        if visits.visits(s.origin) <= FRESH_VISITS {
            self.bored = 0.0;
        } else {
            self.bored += dt;
        }
        let mut stuck = false;
        if self.still > STUCK_SECONDS {
            self.still = 0.0;
            stuck = true;
        }
        // Waiting for a floor to come back ([`Explorer::moved_floor`] says what to do):
        // nothing else is chosen meanwhile, and standing there is not being stuck.
        if self.floor.is_some() {
            self.still = 0.0;
            return (stand_at(s.origin), false);
        }
        let blocked = matches!(status, MoveStatus::Blocked(_));
        // Where an item seen on a ledge above is walked at, the walk ends under it: arrived,
        // and the item not taken (it has no item waypoint yet). Chosen again at once, it held
        // the bot there (e1m3's super shotgun, over the hall by its east doors, drew back
        // every explorer that came through them, which stood below it until given up).
        let short = *status == MoveStatus::Arrived
            && self.item.is_some_and(|i| graph.item_waypoint(i).is_none());
        // While it uncovers a teleporter under a plat the movement stage's status is that
        // of that walk, not of a walk to the item: e4m3 seed 9's explorer, stopped by the
        // rim of the teleporter's well under the plat, planned a run for the quad it had
        // been going for and gave the teleporter up. (The same for every try, seeds 0-47:
        // e4m3 every item 35 of 48, but e1m3 42 / 37 -> 37 / 35 at 90 % / every item,
        // e1m5 43 / 46 -> 42 / 45: left to this one.)
        if (blocked || short)
            && self.under_lift.is_none()
            && let Some(i) = self.item.take()
        {
            // The movement stage cannot get there (lava, a gap it sees no jump over, a ledge
            // over it): a run planned over the physics may; else the item is left alone for
            // a while.
            if let Some(pl) = planner
                && self.plan_run(map, level, visits, s, pl, i, rng, dt)
            {
                self.item = Some(i);
                return (stand_at(s.origin), false);
            }
            self.skip.push((i, SKIP_SECONDS));
        }
        self.frontier_wait -= dt;
        let across = s.velocity.truncate();
        if self.settling {
            if coming_at_a_run(s) {
                return (brake(across), stuck);
            }
            // Slow enough: the run along its level it braked for, else a fresh choice.
            self.settling = false;
            self.target = None;
            if let Some(pl) = planner
                && self.frontier_run(map, level, visits, s, pl, rng, dt, true)
            {
                return (stand_at(s.origin), stuck);
            }
        }
        if self.target.is_none() || blocked || *status == MoveStatus::Arrived || self.timer <= 0.0 {
            let tries = &self.frontier_tries;
            let spent = |q: Vec3| planned_out(tries, q);
            let (t, it) = choose_target(
                map,
                graph,
                visits,
                level,
                s,
                percepts,
                &self.skip,
                (self.max_drop, self.edge_stops, hazards(self.suit), spent),
                rng,
            );
            // Only where the team has been: a route over the team's graph to a frontier
            // point a waypoint reaches, or else a run planned to the nearest frontier point,
            // where one is found (at most one search per FRONTIER_SECONDS).
            // About to walk off its level (a drop it cannot climb back), a run planned to
            // the nearest place nobody has been on that level first, where one is near.
            let known = it.is_none() && visits.visits(t) > 0;
            let leaving = it.is_none() && s.origin.z - t.z > DROP_BELOW;
            let nearby = |ex: &mut Self, pl, rng: &mut SimRng| {
                (known
                    && ex.frontier_wait <= 0.0
                    && (ex.find_gate(map, graph, level, visits, s)
                        || ex.frontier_run(map, level, visits, s, pl, rng, dt, false)))
                    || (leaving && ex.frontier_run(map, level, visits, s, pl, rng, dt, true))
            };
            if planner.is_some()
                && leaving
                && !known
                && coming_at_a_run(s)
                && self.level_frontier(map, level, visits, s).is_some()
            {
                self.settling = true;
                self.target = None;
                return (brake(across), stuck);
            }
            if let Some(pl) = planner
                && nearby(self, pl, rng)
            {
                self.target = None;
                return (stand_at(s.origin), stuck);
            }
            self.target = Some(t);
            self.item = it;
            self.timer = TARGET_SECONDS;
        }
        // An item it goes for is walked at on the bot's own level, wherever the bot now is
        // (a planned run may have carried it up to the item's ledge: below, the target read
        // as a way down, and the bot walked off the ledge again).
        if self.exploring
            && let Some(i) = self.item
            && let Some(v) = percepts.visible.iter().find(|v| v.thing == Thing::Item(i))
        {
            self.target = Some(Vec3::new(v.pos.x, v.pos.y, s.origin.z));
        }
        (run_to_point(self.target.unwrap_or(s.origin)), stuck)
    }
}

#[cfg(test)]
mod tests {
    /// Braking ([`super::brake`], as an explorer settling before it plans a run does) stops a
    /// bot on flat floor from any speed over [`super::SETTLE_SPEED`] in a few ticks, and
    /// never sends it back the other way faster than that: wishing full speed against a
    /// motion slower than about 160 u/s overshot it every tick, and the bot rocked at
    /// 80-100 u/s until given up as stuck.
    #[test]
    fn braking_stops_a_bot_from_any_speed_without_rocking() {
        use super::{SETTLE_SPEED, brake, coming_at_a_run};
        use crate::bot::movement::{MoveMemory, MoveParams, SteerCtx, steer};
        use crate::map::builder::MapBuilder;
        use crate::physics::pmove::{PhysicsParams, pmove};
        use glam::Vec3;
        let v = Vec3::new;
        let (_, map) =
            MapBuilder::sealed_room(v(-1024., -1024., 0.), v(1024., 1024., 256.)).build();
        let ctx = SteerCtx {
            map: &map,
            physics: PhysicsParams::default(),
            params: MoveParams::default(),
            dt: 0.05,
            me: None,
        };
        let still = crate::nav::sample::stand_still(&map, &ctx.physics, v(0., 0., 25.));
        for speed in (65..=320).step_by(5) {
            for dir in [v(1., 0., 0.), v(0.6, -0.8, 0.)] {
                let mut s = still;
                s.velocity = dir * speed as f32;
                let mut mem = MoveMemory::default();
                let mut ticks = 0;
                while coming_at_a_run(&s) {
                    assert!(
                        ticks < 6,
                        "{speed} u/s: still at {} after {ticks} ticks",
                        s.velocity
                    );
                    let (cmd, _) = steer(&ctx, &s, &brake(s.velocity.truncate()), &mut mem);
                    s = pmove(&s, &cmd, &map, &ctx.physics, ctx.dt, None).0;
                    assert!(
                        s.velocity.dot(dir) > -SETTLE_SPEED,
                        "{speed} u/s: sent back at {}",
                        s.velocity
                    );
                    ticks += 1;
                }
            }
        }
    }

    /// A plat try ([`super::Explorer::lift`]): a bot stopped on the plat's edge outside the
    /// field that starts it walks on to the middle (standing there, it waited the try out
    /// with the plat down: e3m2's plat by the lava shaft, seed 1), and one in the field or
    /// still moving stands.
    #[test]
    fn a_bot_stopped_on_a_plats_edge_walks_into_its_field() {
        use super::{ButtonGo, Explorer, LiftView, VisitMap};
        use crate::bot::movement::MoveTarget;
        use crate::map::EntId;
        use crate::map::builder::MapBuilder;
        use crate::physics::pmove::PhysicsParams;
        use glam::Vec3;
        let v = Vec3::new;
        let (_, map) = MapBuilder::sealed_room(v(-512., -512., 0.), v(512., 512., 256.)).build();
        let plat = EntId(7);
        let lift = LiftView {
            index: 3,
            id: plat,
            top: v(0., 0., 8.),
            high_top: v(0., 0., 192.),
            waiting: true,
            up: false,
            half: v(64., 64., 0.),
        };
        let visits = VisitMap::default();
        let still =
            crate::nav::sample::stand_still(&map, &PhysicsParams::default(), v(0., -300., 25.));
        let ask = |at: Vec3, speed: f32| {
            let mut s = still;
            s.origin = at;
            s.on_ground = Some(plat);
            s.velocity = v(0., speed, 0.);
            let mut e = Explorer::new(at);
            e.lift = Some((lift.index, 10.0));
            let go = e.lift(&map, &visits, &[lift], &s, 0.05);
            (go, e.lift.is_some())
        };
        let walks_to_middle = |go: &Option<ButtonGo>| {
            matches!(go, Some(ButtonGo::Walk(r))
                if matches!(r.target, MoveTarget::Point(p) if p.truncate().length() < 1e-3))
        };
        // On the south edge, 4 units of the box over it: outside the field (inset 25).
        let edge = v(0., -76., 32.);
        let (go, trying) = ask(edge, 0.0);
        assert!(
            walks_to_middle(&go) && trying,
            "stopped on the edge: {go:?}"
        );
        // Still moving in, or in the field: it stands and rides.
        for (at, speed) in [(edge, 100.0), (v(0., -20., 32.), 0.0)] {
            let (go, trying) = ask(at, speed);
            assert!(
                matches!(go, Some(ButtonGo::Press(_))) && trying,
                "{at} at {speed}: {go:?}"
            );
        }
    }

    /// A walk keeps [`super::TELEPORTER_BERTH`] off a teleporter's volume, or the gap it
    /// starts at where that is less; a floor over the volume is no nearer.
    #[test]
    fn walks_keep_off_teleporters() {
        use super::{TELEPORTER_BERTH, nears_teleporter};
        use glam::Vec3;
        let v = Vec3::new;
        // A thin trigger 48 wide across x, 8 deep, on the floor (feet at z 0, origin 24).
        let gate = [(v(-24., 100., 0.), v(24., 108., 72.))];
        let z = 24.0;
        // Straight at it, and past its end within the berth: near.
        assert!(nears_teleporter(&gate, v(0., 0., z), v(0., 90., z)));
        assert!(nears_teleporter(&gate, v(-100., 70., z), v(100., 70., z)));
        // A walk ending beside it (12 units off its face) is near; one along it farther
        // off, or away from it, is not.
        assert!(nears_teleporter(&gate, v(0., 0., z), v(-30., 72., z)));
        let off = 100.0 - 16.0 - TELEPORTER_BERTH - 1.0;
        assert!(!nears_teleporter(&gate, v(-100., off, z), v(100., off, z)));
        assert!(!nears_teleporter(&gate, v(0., 60., z), v(0., -200., z)));
        // Started 4 units off its face: along it is no nearer, a slant toward it is.
        assert!(!nears_teleporter(&gate, v(0., 80., z), v(100., 80., z)));
        assert!(nears_teleporter(&gate, v(0., 80., z), v(100., 84., z)));
        // Over it, on a floor 100 units up.
        assert!(!nears_teleporter(&gate, v(0., 0., 124.), v(0., 200., 124.)));
    }

    /// A run to somewhere past a teleporter with no teleporters of its own in its goal is
    /// planned with the level's: it goes round the teleporter, not through it (a strip of
    /// two triggers across the south half of a room, the run from east of it to west).
    #[test]
    fn a_run_goes_round_a_teleporter_it_is_not_for() {
        use super::{Explorer, RunGoal, VisitMap};
        use crate::map::builder::MapBuilder;
        use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams};
        use glam::Vec3;
        let v = Vec3::new;
        let mut b = MapBuilder::sealed_room(v(0., -256., 0.), v(800., 256., 256.));
        for (x, target) in [(416., "a"), (432., "b")] {
            b.brush_entity(
                &[("classname", "trigger_teleport"), ("target", target)],
                &[(v(x, -256., 0.), v(x + 4., -64., 72.), "trigger")],
            );
        }
        b.point(
            "info_teleport_destination",
            v(100., 200., 0.),
            &[("targetname", "a"), ("angle", "0")],
        )
        .point(
            "info_teleport_destination",
            v(700., 200., 0.),
            &[("targetname", "b"), ("angle", "180")],
        )
        .point("info_player_deathmatch", v(600., -208., 24.), &[]);
        let (level, map) = b.build();
        let triggers: Vec<(Vec3, Vec3)> = level.triggers.iter().map(|t| (t.mins, t.maxs)).collect();
        assert_eq!(triggers.len(), 2);
        let physics = PhysicsParams::default();
        let here = crate::nav::sample::stand_still(&map, &physics, v(600., -208., 25.));
        let goal = RunGoal::touch(crate::planner::Goal {
            mins: v(184., -224., 0.),
            maxs: v(216., -192., 56.),
        });
        let visits = VisitMap::default();
        for seed in 0..3 {
            let mut ex = Explorer::new(here.origin);
            let mut rng = crate::sim::rng::SimRng::new(seed, 0);
            let world = (&map, &level, &visits);
            let me = (crate::map::EntId(1), &physics);
            assert!(
                ex.run_to(world, &here, me, &goal, &mut rng, 0.05),
                "seed {seed}"
            );
            let run = ex.run.as_ref().expect("a run");
            let touches = |p: Vec3| {
                let (lo, hi) = (p + PLAYER_MINS, p + PLAYER_MAXS);
                triggers
                    .iter()
                    .any(|(a, b)| lo.cmple(*b).all() && hi.cmpge(*a).all())
            };
            let through = run.path.iter().find(|p| touches(**p));
            assert_eq!(
                through, None,
                "seed {seed}: the run goes through a teleporter"
            );
            let end = *run.path.last().unwrap();
            assert!(end.x < 300.0, "seed {seed}: ends at {end}");
        }
    }

    #[test]
    fn an_explorer_only_where_the_team_has_long_been_is_bored_once_a_while() {
        use super::{BORED_SECONDS, Explorer, FRESH_VISITS, VisitMap};
        use crate::physics::pmove::PlayerState;
        let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map");
        let m = crate::bench::bench_match(&map, 1, 1, 1).expect("the shipped arena");
        let (sim, graph) = (&m.sim, &m.learned.waypoints);
        let here = sim.level.spawns[0].origin;
        let s = PlayerState::at(here, 0.0);
        let mut visits = VisitMap::default();
        let mut ex = Explorer::new(here);
        let mut rng = crate::sim::rng::SimRng::new(1, 2);
        let dt = 0.05;
        let mut step = |ex: &mut Explorer, visits: &VisitMap| {
            ex.step(
                &sim.cmap,
                graph,
                visits,
                &sim.level,
                &s,
                &Default::default(),
                &Default::default(),
                &mut rng,
                dt,
                None,
            );
        };
        // A barely known cell keeps the count at nought, however long.
        for _ in 0..FRESH_VISITS {
            visits.visit(here);
        }
        for _ in 0..(2.0 * BORED_SECONDS / dt) as usize {
            step(&mut ex, &visits);
        }
        assert!(!ex.take_bored());
        // A well known one: bored after BORED_SECONDS, asked once, then counting again.
        visits.visit(here);
        let ticks = (BORED_SECONDS / dt) as usize + 2;
        for _ in 0..ticks {
            step(&mut ex, &visits);
        }
        assert!(ex.take_bored());
        assert!(!ex.take_bored());
        for _ in 0..ticks / 2 {
            step(&mut ex, &visits);
        }
        assert!(!ex.take_bored());
    }

    #[test]
    fn floor_points_are_found_on_first_use_only() {
        // Brain bots explore (so they look for the frontier) but plan no run toward an item
        // in their first second here: the match has not paid for the map's floor points.
        let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map");
        let mut m = crate::bench::bench_match(&map, 4, 1, 1).expect("the shipped arena");
        for _ in 0..20 {
            m.step();
        }
        let (visits, sim) = (&m.learned.visits, &m.sim);
        assert!(visits.floor.get().is_none());
        let floor = visits.floor(&sim.level, &sim.cmap).to_vec();
        assert_eq!(
            floor,
            crate::nav::sample::floor_points(&sim.level, &sim.cmap, 32.0)
        );
        let frontier = visits.frontier(&sim.level, &sim.cmap).to_vec();
        assert_eq!(frontier, super::frontier_points(&sim.level, &sim.cmap));
        assert!(!floor.is_empty() && !frontier.is_empty());
    }
}
