//! Slime in the biosuit: going in, searching it for what lies under a roof and for the ways
//! out ([`slime_way`], [`super::Explorer::suit_swim`]).

use super::EIGHTH;
use std::collections::BTreeMap;

use glam::Vec3;

use super::feel::{MAX_DROP, SUIT_RESERVE, surface_above, walk_run_to_edge};
use super::planned::plan_try;
use super::swim::SWIM_SECONDS;
use super::visits::{VISIT_CELL, VisitCell, VisitMap};
use super::{Activity, ButtonGo, Explorer, FEEL, RUN_SPEED, TARGET_SECONDS, tried_out_cell};
use crate::map::{CollisionMap, Contents};
use crate::physics::pmove::{MIN_FLOOR_NORMAL_Z, PLAYER_MAXS, PLAYER_MINS, PlayerState, STEP_SIZE};

/// Seconds of biosuit beyond [`SUIT_RESERVE`] an explorer on land wants left to go into
/// slime.
pub(super) const SUIT_ENTER: f32 = 6.0;

/// Spacing of the grid a swimmer's way through slime is searched on ([`slime_way`]).
pub(super) const SLIME_STEP: f32 = 32.0;

/// Most grid points one search through slime takes in (a pool of 500 by 500 by 100 units
/// has about 800).
pub(super) const SLIME_NODES: usize = 8192;

/// A swimmer within this many units across of its point is there ([`swum_to`]): the
/// movement stage's arrival.
const SWUM_ACROSS: f32 = 32.0;

/// See [`SWUM_ACROSS`]: up or down.
const SWUM_RISE: f32 = 48.0;

/// How far below a bot the floor a way into slime is felt from may lie (units).
const FLOOR_BELOW: f32 = 64.0;

/// The shortest walk into slime worth going in by (units): shorter, the bot stands at it.
const ENTRY_WALK: f32 = 32.0;

/// How far from a surface point a walk out onto land is felt (units) ...
const LAND_FEEL: f32 = 64.0;

/// ... and the least of it that must be walked for the land to count.
const LAND_WALK: f32 = 48.0;

/// Up or down from a grid point a player's box is tried when it does not fit at the
/// point: a tunnel 80 units high leaves a box 24 units of height, which the grid steps over.
const PLACE_SHIFT: f32 = 12.0;

/// The wished change of velocity (u/s) above which a bot running into slime steers
/// against its motion across the way rather than straight at it.
const AGAINST_SPEED: f32 = 40.0;

/// Where a swimmer in slime goes next ([`slime_way`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlimeWay {
    /// Swim to this point in the slime; the cell of the new place it is, when it is one.
    Swim(Vec3, Option<(i32, i32, i32)>),
    /// Rise to this point at the surface, then walk out to the second.
    Rise(Vec3, Vec3),
}

/// Whether a swimmer at `p` is at `to` for [`Explorer::suit_swim`] ([`SWUM_ACROSS`],
/// [`SWUM_RISE`]).
pub(super) fn swum_to(p: Vec3, to: Vec3) -> bool {
    let d = to - p;
    d.truncate().length() <= SWUM_ACROSS && d.z.abs() <= SWUM_RISE
}

/// Where a walk of up to [`FEEL`] from the floor under `s` (within [`FLOOR_BELOW`]) along one of
/// eight directions ends over slime (the nearest such end, in a cell not gone in at
/// [`BUTTON_TRIES`] times: `tries`), for a bot in the biosuit to go in there.
pub fn slime_entry(
    map: &CollisionMap,
    s: &PlayerState,
    tries: &[(VisitCell, u32)],
) -> Option<Vec3> {
    // From the floor under the bot: a walk felt from the top of a jump goes over what a run
    // does not (a curb by a slime pool).
    let down = map.trace(
        s.origin,
        s.origin - Vec3::Z * FLOOR_BELOW,
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER_NO_BODIES,
        None,
    );
    if down.fraction >= 1.0 || down.normal.z < MIN_FLOOR_NORMAL_Z {
        return None;
    }
    let from = down.end_pos;
    (0..8)
        .filter_map(|k| {
            let a = (s.yaw + EIGHTH * k as f32).to_radians();
            let dir = Vec3::new(a.cos(), a.sin(), 0.0);
            let (walked, end) = walk_run_to_edge(map, from, dir, FEEL, MAX_DROP, Contents::LAVA).0;
            let feet = end + Vec3::Z * (PLAYER_MINS.z - 1.0);
            (walked >= ENTRY_WALK
                && map.point_contents(feet).intersects(Contents::SLIME)
                && !tried_out_cell(tries, VisitMap::cell(end)))
            .then_some((walked, end))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|x| x.1)
}

/// The way on for a swimmer in slime ([`Explorer::suit_swim`]): a breadth-first search
/// through the slime on the map's [`SLIME_STEP`] grid from the swimmer (points where a
/// player's box fits in slime, or 12 units below or above them, joined where the box sweeps
/// clear; at most [`SLIME_NODES`]) for the nearest of: a point under a ceiling (slime open
/// to the air is seen from its banks) in a cell nobody has swum in
/// ([`VisitMap::wet_visits`]) and not in `swum`, or an opening above (room to rise out of
/// the slime, its surface's cell not in `surfaced`) with land beside the surface there (a
/// walk of 64 units onto a floor out of any liquid), where nobody has stood at the surface
/// and on the land; failing those, the nearest opening with land beside. `out` (the biosuit
/// running out): the nearest opening with land beside, risen to before or not. The swimmer
/// goes to the farthest point of the way there that it reaches in a straight line (at most
/// sixteen steps on); at an opening in reach, it rises. `None` where nothing is found. A
/// search through a map's slime takes a few milliseconds.
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
    // Where a grid point's player stands: the point, else a little below or above it.
    let place = |k: Key| {
        [0.0, -PLACE_SHIFT, PLACE_SHIFT]
            .iter()
            .map(|h| grid(k) + Vec3::Z * *h)
            .find(|q| fits(*q))
    };
    // Land beside a surface point: a short walk that ends on a floor out of any liquid.
    let land = |top: Vec3| {
        (0..8).find_map(|k| {
            let a = (EIGHTH * k as f32).to_radians();
            let dir = Vec3::new(a.cos(), a.sin(), 0.0);
            let (walked, end) =
                walk_run_to_edge(map, top, dir, LAND_FEEL, STEP_SIZE, Contents::LAVA).0;
            // Under the feet, not at them: a walk over the surface rests on the liquid.
            let under = end + Vec3::Z * (PLAYER_MINS.z - 2.0);
            (walked >= LAND_WALK && !map.point_contents(under).intersects(Contents::LIQUID))
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
                && [0.0, VISIT_CELL / 2.0, -VISIT_CELL / 2.0]
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

impl Explorer {
    /// Slime, as a player in the biosuit tries it (with more than [`SUIT_RESERVE`] seconds
    /// of it left; its walks go into slime then, [`hazards`], and its movement requests
    /// wade). On land with [`SUIT_ENTER`] more seconds than that, where a walk from the
    /// floor under it ends over slime ([`slime_entry`]; at most twice per place), the bot
    /// runs (or drops) in there, against the motion it has across the way. In slime, it
    /// swims on along the way [`slime_way`] finds: toward the nearest place under a roof
    /// nobody has swum in, or the nearest opening out with land beside that nobody has
    /// stood on, else any opening it has not yet risen to; at an opening it rises and walks
    /// out onto the land (for at most twice [`SWIM_SECONDS`], whatever it sees meanwhile).
    /// Each swim lasts until there or [`SWIM_SECONDS`]. With less of the suit left, it
    /// swims to the nearest opening with land beside and out. Some rooms are reached only
    /// by a tunnel of slime from under the biosuit's ledge. Returns what to do while at it;
    /// one search a swim.
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
        if let Activity::Swim(to, left) = self.activity {
            self.activity = Activity::Nothing;
            let left = left - dt;
            // The way in (a point over the slime, run at straight: the movement stage
            // would stop at the edge of a drop) is done once in it.
            let way_in = !map.point_contents(to).intersects(Contents::SLIME);
            if left > 0.0 && !swum_to(s.origin, to) && !(in_slime && way_in) {
                self.activity = Activity::Swim(to, left);
                if way_in {
                    // Against the motion it still has across the way (a bot that chose
                    // the way in on the run was carried off a ledge beside it).
                    let dir = (to - s.origin).truncate().normalize_or_zero();
                    let want = dir * RUN_SPEED - s.velocity.truncate();
                    let wish = if want.length() > AGAINST_SPEED {
                        want.normalize()
                    } else {
                        dir
                    };
                    return Some(ButtonGo::Press(crate::physics::predict::run_toward(
                        wish.extend(0.0),
                        RUN_SPEED,
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
            // explorer at the slime for good.
            let to = slime_entry(map, s, &self.entries)?;
            plan_try(&mut self.entries, VisitMap::cell(to));
            self.activity = Activity::Swim(to, SWIM_SECONDS);
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
                self.activity = Activity::Swim(to, SWIM_SECONDS);
                Some(ButtonGo::walk_to(to))
            }
            Some(SlimeWay::Rise(top, land)) => {
                if suited {
                    self.surfaced.push(VisitMap::cell(top));
                }
                self.activity = Activity::Swim(top, SWIM_SECONDS);
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
}
