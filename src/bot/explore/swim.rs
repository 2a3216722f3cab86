//! Water: diving out of a floating pool or into a flooded passage
//! ([`super::Explorer::dive`]) and jumping into water nobody has swum in
//! ([`super::Explorer::pool`]).

use glam::Vec3;

use super::feel::{DIVE_REACH, DROP_BELOW, surface_above};
use super::planned::plan_try;
use super::visits::{VisitMap, cells_around};
use super::{Activity, ButtonGo, Explorer, FEEL, TARGET_SECONDS, THERE, tried_out_cell};
use crate::map::level::Level;
use crate::map::{CollisionMap, Contents};
use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState};

/// How deep below a swimming explorer the floor lies for it to dive ([`Explorer::dive`]).
pub(super) const DIVE_DEPTH: f32 = 96.0;

/// How far to the side of a swimming explorer a floor below may be to dive to.
pub(super) const DIVE_RANGE: f32 = 384.0;

/// Seconds a dive lasts at most (a player has 12 s of air).
pub(super) const DIVE_SECONDS: f32 = 6.0;

/// How much further than at its own depth a swimmer must see along the bottom of the water
/// for the way there to count as a passage ([`underwater_passage`]).
pub(super) const PASSAGE_GAIN: f32 = 128.0;

/// Directions a swimmer feels along the bottom for a flooded passage
/// ([`underwater_passage`]): eight (45 degrees apart) missed a wide tunnel from most places
/// in its pool, where its far end lies far off under a roof.
pub(super) const PASSAGE_DIRECTIONS: usize = 16;

/// Spacing of the points along a passage looked at for water with air above
/// ([`underwater_passage`]).
pub(super) const PASSAGE_STEP: f32 = 32.0;

/// The least depth (units) a swimmer must have below it for an underwater passage to be
/// looked for.
const PASSAGE_DEPTH: f32 = 32.0;

/// The deepest (units) under the surface a swimmer looks for an underwater passage from:
/// deeper, it goes up for air first.
const PASSAGE_UNDER: f32 = 80.0;

/// How far short of the far end of a felt passage (units) its first point is: a box's
/// half width off the wall.
const PASSAGE_SHORT: f32 = 16.0;

/// How near across (units) over a dive's point a diver stops going over it and goes down.
const DIVE_OVER: f32 = 16.0;

/// How far (units) above or below a dive's point the diver aims, so the last steps are
/// down onto it (or along under the surface).
const DIVE_SLACK: f32 = 4.0;

/// How far under a surface point (units, below a resting box's feet) a swimmer is taken
/// to be for the visit map and the sight line to it.
const UNDER_SURFACE: f32 = 8.0;

/// How far above the point under the surface the sight line to a pool ends (units).
const POOL_SIGHT_RISE: f32 = 16.0;

/// A way on under the surface, as a player new to a map looks for one from a pool: of
/// [`PASSAGE_DIRECTIONS`] directions, those along which a player's box just over the bottom
/// (`floor`, the solid straight below) goes at least [`PASSAGE_GAIN`] further than at the
/// swimmer's own depth, within [`FEEL`]; along each, the farthest point (every
/// [`PASSAGE_STEP`], beyond where the swimmer's own depth is blocked by that gain) in water
/// with air above it where nobody has been (`open`, in the visit cells round it, there and
/// at the swimmer's depth: 128-unit cells are coarse, and the way back to the pool a
/// swimmer came from is no passage); the farthest of those. The far end of a flooded tunnel
/// whose mouth lies below the surface (a part of a map may be entered only by one); the
/// tunnel may go on past its opening, or the line along it end at a side wall beyond. About
/// forty traces, and a few point tests a step along each passage.
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
    if down.fraction < 1.0
        || s.origin.z - low.z < PASSAGE_DEPTH
        || up.z - s.origin.z > PASSAGE_UNDER
    {
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
                .map(|j| far - PASSAGE_SHORT - PASSAGE_STEP * j as f32)
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

/// How far across a water surface seen is gone into ([`Explorer::pool`]).
pub(super) const POOL_RANGE: f32 = 512.0;

/// Highest a water surface lies above the bot's feet for it to go in: a jump onto the rim
/// (the movement stage's highest barrier) and over.
pub(super) const POOL_UP: f32 = 40.0;

/// How far under a water surface the point an explorer walks in to lies
/// ([`Explorer::pool`]), where the water is that deep.
pub(super) const POOL_DEEP: f32 = 56.0;

/// Seconds a walk into water lasts at most ([`Explorer::pool`]).
pub(super) const POOL_SECONDS: f32 = 5.0;

/// Surface points, nearest first, an explorer looks at a tick ([`Explorer::pool`]): one
/// trace each.
pub(super) const POOL_CANDIDATES: usize = 4;

/// Seconds a swim through slime toward one point lasts at most ([`Explorer::suit_swim`]).
pub(super) const SWIM_SECONDS: f32 = 3.0;

impl Explorer {
    /// Whether nobody has been at a place and this bot has not dived to its cell
    /// [`BUTTON_TRIES`] times: where [`Explorer::dive`] and [`Explorer::pool`] look for
    /// something new under water.
    pub(super) fn undived<'a>(&'a self, visits: &'a VisitMap) -> impl Fn(Vec3) -> bool + 'a {
        |q: Vec3| visits.visits(q) == 0 && !tried_out_cell(&self.dive_tries, VisitMap::cell(q))
    }

    /// Water, as a player new to a map tries it: swimming with a floor nobody has been on
    /// more than [`DIVE_DEPTH`] below — the nearest frontier point within [`DIVE_RANGE`] to
    /// the side seen in a straight line, else the floor straight down where it lies out of
    /// the water (a pool's own bottom is explored by swimming) — the bot swims over it and
    /// dives to it; else, from the surface and unless it is heading out of the water for
    /// land nobody has been on, into a flooded passage along the bottom
    /// ([`underwater_passage`]), down first and then along it; until it is there or
    /// [`DIVE_SECONDS`] have passed, at most [`BUTTON_TRIES`] times per cell, and then
    /// (still under water) it comes up for air first. Some halls are reached only by
    /// swimming out of the bottom of a pool that floats above them, some parts only through
    /// a flooded tunnel. Returns what to do while at it. When swimming and not diving: a
    /// trace per frontier point in range, and about forty for a passage.
    pub fn dive(
        &mut self,
        map: &CollisionMap,
        level: &Level,
        visits: &VisitMap,
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Activity::Dive(to, left) = self.activity {
            self.activity = Activity::Nothing;
            let left = left - dt;
            let d = to - s.origin;
            let there = d.truncate().length() < THERE && d.z.abs() < THERE;
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
            self.activity = Activity::Dive(to, left);
            // Over it first, then down: out of the bottom of a floating pool a player falls
            // nearly straight (air control is weak), onto a ledge only from right above it.
            // Under water (a flooded passage's far end) the other way round: down first, then
            // along the bottom into the passage, whose mouth lies below the wall ahead.
            let over = s.water_level >= 1 && d.truncate().length() > DIVE_OVER;
            let wet = map.point_contents(to).intersects(Contents::WATER);
            return Some(ButtonGo::walk_to(
                if over && wet && s.origin.z > to.z + DIVE_SLACK {
                    Vec3::new(s.origin.x, s.origin.y, to.z)
                } else if over && !wet {
                    Vec3::new(to.x, to.y, s.origin.z - DIVE_SLACK)
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
        // Under the water the bot swims in, with a clear fall from it: out of the bottom of
        // a floating pool a player sinks nearly straight down, so a floor seen aslant
        // through its open bottom but not under it (ledges beyond the pool's rim) is not
        // where a dive lands.
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
        self.activity = Activity::Dive(to, DIVE_SECONDS);
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
    /// for a way on under the surface on the same tick. Where a flooded tunnel out of a
    /// pool behind a rim is the only way on, walks from the hall's floor end at the rim,
    /// and without this nobody goes in. Returns what to do while at it. Out of it: a few
    /// hundred distances and up to [`POOL_CANDIDATES`] traces a tick.
    pub fn pool(
        &mut self,
        map: &CollisionMap,
        visits: &VisitMap,
        s: &PlayerState,
        dt: f32,
    ) -> Option<ButtonGo> {
        if let Activity::Pool(to, left) = self.activity {
            self.activity = Activity::Nothing;
            let left = left - dt;
            if left > 0.0 && s.water_level < 2 {
                self.activity = Activity::Pool(to, left);
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
        let under = |p: Vec3| p - Vec3::new(0.0, 0.0, -PLAYER_MINS.z + UNDER_SURFACE);
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
            let over = under(*p) + Vec3::new(0.0, 0.0, POOL_SIGHT_RISE);
            map.trace_ray(eye, over, Contents::SOLID, None).fraction >= 1.0
        })?;
        plan_try(&mut self.pool_tries, VisitMap::cell(p));
        // Only water with a way on under its surface ([`underwater_passage`], felt as a
        // swimmer just under the surface there would) to water nobody has been in: the
        // pools a player sees all round from their banks hold nothing new, and explorers
        // that went into every pool in sight lost their time in them (least coverage over
        // runs fell by more than a tenth).
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
        self.activity = Activity::Pool(to, POOL_SECONDS);
        Some(ButtonGo::walk_to(to))
    }
}
