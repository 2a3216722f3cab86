//! Straight-line reachability (the Omicron bot's, reference 002 §10.1): can a player get from
//! one place to another in a more or less straight line by walking, falling, jumping or
//! swimming? Conservative: it may call a reachable place unreachable, never the reverse.
//!
//! Entry point: [`reachable`]. The waypoint and movement systems reuse it.
//!
//! How it decides, marching along the straight line in small steps with the player box:
//! - **walk**: each step moves the box forward (stepping up at most 18 units, as the physics
//!   does) and finds floor below within `max_fall`; floors lower than a step are **falls**;
//!   floors in lava or slime, or no floor, stop the walk at a **gap**;
//! - **trench**: a target below the line is reached by the same march — the horizontal move
//!   goes above the trench and the floor search finds its bottom;
//! - a wall higher than a step starts the **chain of imaginary jumps**: jump to half the
//!   maximum jump distance, and while the floor there is higher than the maximum jump height
//!   (or the way is blocked) halve the distance, giving up after `max_halvings` halvings;
//! - a gap is crossed by **one running jump**, predicted with the real player physics
//!   ([`crate::physics::pmove()`]) from one tick before the edge, and accepted only when it lands
//!   on safe ground farther along;
//! - a target under water is reached by **swimming** once the march has entered the water and
//!   the box can move straight to it.

use glam::Vec3;
use serde::Serialize;

use crate::map::{CollisionMap, Contents};
use crate::physics::pmove::{
    PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, STEP_SIZE, UserCmd, pmove,
};

/// Tuning of the reachability test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ReachParams {
    /// Length of one march step.
    pub step: f32,
    /// Deepest drop accepted as a fall.
    pub max_fall: f32,
    /// Highest floor a standing jump gets onto (the analytic peak is 45.6; a margin stays).
    pub max_jump_height: f32,
    /// Length of the first imaginary jump of a chain: half the running jump distance (216).
    pub half_jump: f32,
    /// How often a chain jump may be halved before giving up.
    pub max_halvings: u32,
    /// Farthest target considered.
    pub max_distance: f32,
    /// Run-up needed before a running jump, units.
    pub run_up: f32,
    /// Ticks per second of the jump prediction.
    pub predict_hz: f32,
}

impl Default for ReachParams {
    fn default() -> Self {
        ReachParams {
            step: 32.0,
            max_fall: 200.0,
            max_jump_height: 42.0,
            half_jump: 108.0,
            max_halvings: 3,
            max_distance: 2048.0,
            run_up: 64.0,
            predict_hz: 20.0,
        }
    }
}

/// Why a place is not reachable in a straight line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Blocked {
    /// A wall too high to jump onto.
    Wall,
    /// A gap (or a drop deeper than `max_fall`) too wide to jump.
    Gap,
    /// Lava or slime on the way or at the target.
    Hazard,
    /// Farther than `max_distance`.
    TooFar,
    /// The start or the target is inside solid or has no floor.
    BadEndpoint,
    /// The march went on too long (a corner case the test does not follow).
    TooLong,
}

/// How a place can be reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Reachability {
    /// Walking, steps of at most 18 units.
    Walk,
    /// Walking with at least one drop.
    Fall,
    /// One jump (onto a barrier or over a gap).
    Jump,
    /// Several imaginary jumps (e.g. stairs too high to walk), with their count.
    JumpChain(u32),
    /// Swimming for part of the way.
    Swim,
    /// Not in a straight line.
    Unreachable(Blocked),
}

impl Reachability {
    /// True unless unreachable.
    pub fn is_reachable(self) -> bool {
        !matches!(self, Reachability::Unreachable(_))
    }
}

impl crate::sim::hash::StateHash for Reachability {
    fn hash_state(&self, h: &mut crate::sim::hash::StateHasher) {
        use Reachability::*;
        h.u64(match *self {
            Walk => 1,
            Fall => 2,
            Jump => 3,
            JumpChain(n) => 4 | (n as u64) << 8,
            Swim => 5,
            Unreachable(b) => {
                6 | (match b {
                    Blocked::Wall => 1,
                    Blocked::Gap => 2,
                    Blocked::Hazard => 3,
                    Blocked::TooFar => 4,
                    Blocked::BadEndpoint => 5,
                    Blocked::TooLong => 6,
                }) << 8
            }
        });
    }
}

struct Probe<'a> {
    map: &'a CollisionMap,
    p: &'a ReachParams,
}

const HAZARD: Contents = Contents(Contents::LAVA.0 | Contents::SLIME.0);
const MASK: Contents = Contents::MASK_PLAYER_NO_BODIES;

enum Floor {
    /// Standing origin on the floor found.
    At(Vec3),
    /// No floor within reach, or the box is stuck.
    None,
}

impl Probe<'_> {
    fn trace(&mut self, a: Vec3, b: Vec3) -> crate::map::Trace {
        self.map.trace(a, b, PLAYER_MINS, PLAYER_MAXS, MASK, None)
    }

    fn contents(&mut self, p: Vec3) -> Contents {
        self.map.point_contents(p)
    }

    /// Standing origin below `p` within `depth`.
    fn floor(&mut self, p: Vec3, depth: f32) -> Floor {
        let t = self.trace(p, p - Vec3::new(0.0, 0.0, depth));
        if t.all_solid || t.fraction >= 1.0 || t.normal.z < 0.7 {
            Floor::None
        } else {
            Floor::At(t.end_pos)
        }
    }

    fn feet_contents(&mut self, origin: Vec3) -> Contents {
        self.contents(origin + Vec3::new(0.0, 0.0, PLAYER_MINS.z + 1.0))
    }

    fn waist_in_water(&mut self, origin: Vec3) -> bool {
        self.map.has(Contents::WATER)
            && self
                .contents(origin + Vec3::new(0.0, 0.0, 4.0))
                .intersects(Contents::WATER)
    }
}

/// Can a player standing at `from` (a player origin) reach `to` (the origin a player would
/// have there) in a more or less straight line? Also returns the number of traces used
/// (counted by the map, so only exact while no other thread traces the same map).
pub fn reachable_counted(
    map: &CollisionMap,
    from: Vec3,
    to: Vec3,
    params: &ReachParams,
) -> (Reachability, u32) {
    // The answer is a function of the geometry (bodies aside), the two points and the
    // parameters: one asked again while the geometry holds (a bot standing still, the same
    // goal searched from the same waypoints after the graph grew, a link between two
    // waypoints tested again) is answered from the thread's memo, with no trace. Which
    // thread asks what differs with the thread count, so the memo's answers are counted
    // apart ([`crate::map::collision::memo_traces_on_this_thread`]): traces made plus
    // traces the memo stood in for are the same for any number of threads.
    let key = (*params == ReachParams::default()).then(|| {
        let b = |v: Vec3| v.to_array().map(f32::to_bits);
        let (f, t) = (b(from), b(to));
        [f[0], f[1], f[2], t[0], t[1], t[2]]
    });
    if let Some(k) = key
        && let Some((r, n)) = MEMO.with(|m| m.borrow().get(map.geometry(), &k))
    {
        crate::map::collision::count_memo_here(n as u64);
        return (r, 0);
    }
    let before = map.trace_count();
    let stood_before = crate::map::collision::memo_traces_on_this_thread();
    let mut pr = Probe { map, p: params };
    let r = reach(&mut pr, from, to);
    let n = (map.trace_count() - before) as u32;
    if let Some(k) = key {
        // The answer's whole cost, its start's traces included where the memo stood in
        // for them, so that a later answer from the memo counts what it would have cost.
        let stood = crate::map::collision::memo_traces_on_this_thread() - stood_before;
        MEMO.with(|m| m.borrow_mut().put(map.geometry(), k, (r, n + stood as u32)));
    }
    (r, n)
}

/// Answers of [`reachable_counted`] with the default parameters, by the two points' bits,
/// for one geometry ([`CollisionMap::geometry`]). Only looked up, never walked: what it
/// holds changes how many traces are made, never an answer (so it may differ between
/// threads).
#[derive(Default)]
struct Memo {
    geometry: u64,
    /// Each answer with the traces it cost.
    answers: rustc_hash::FxHashMap<[u32; 6], (Reachability, u32)>,
    /// Each start point's standing place ([`start_of`]) with the traces it cost.
    starts: rustc_hash::FxHashMap<[u32; 3], (Option<Vec3>, u32)>,
}

/// Answers kept per thread; at this many the memo starts again (a few hundred kilobytes).
const MEMO_MAX: usize = 16_384;

impl Memo {
    fn get(&self, geometry: u64, k: &[u32; 6]) -> Option<(Reachability, u32)> {
        if self.geometry != geometry {
            return None;
        }
        self.answers.get(k).copied()
    }

    fn put(&mut self, geometry: u64, k: [u32; 6], r: (Reachability, u32)) {
        self.hold(geometry);
        self.answers.insert(k, r);
    }

    fn start(&self, geometry: u64, k: &[u32; 3]) -> Option<(Option<Vec3>, u32)> {
        if self.geometry != geometry {
            return None;
        }
        self.starts.get(k).copied()
    }

    fn put_start(&mut self, geometry: u64, k: [u32; 3], s: (Option<Vec3>, u32)) {
        self.hold(geometry);
        self.starts.insert(k, s);
    }

    /// Starts again where the geometry changed or either table is full.
    fn hold(&mut self, geometry: u64) {
        if self.geometry != geometry
            || self.answers.len() >= MEMO_MAX
            || self.starts.len() >= MEMO_MAX
        {
            self.answers.clear();
            self.starts.clear();
            self.geometry = geometry;
        }
    }
}

thread_local! {
    static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::default());
}

/// Can a player standing at `from` (a player origin) reach `to` (the origin a player would
/// have there) in a more or less straight line?
pub fn reachable(map: &CollisionMap, from: Vec3, to: Vec3, params: &ReachParams) -> Reachability {
    reachable_counted(map, from, to, params).0
}

/// Where a player at `from` stands to set off (on the floor below, or swimming there), or
/// `None` where it cannot stand. The same for every target, so asked once per start point
/// while the geometry holds (waypoints are the starts of most questions: a bot's nearest
/// waypoint that reaches it asks the same few again and again): a start answered from the
/// thread's memo counts the traces it stood in for, as [`reachable_counted`] does.
fn start_of(pr: &mut Probe, from: Vec3) -> Option<Vec3> {
    let key = (*pr.p == ReachParams::default()).then(|| from.to_array().map(f32::to_bits));
    let geometry = pr.map.geometry();
    if let Some(k) = key
        && let Some((at, n)) = MEMO.with(|m| m.borrow().start(geometry, &k))
    {
        crate::map::collision::count_memo_here(n as u64);
        return at;
    }
    let before = pr.map.trace_count();
    let at = (|| {
        if pr.trace(from, from).start_solid {
            return None;
        }
        if pr.waist_in_water(from) {
            return Some(from);
        }
        match pr.floor(from + Vec3::new(0.0, 0.0, 1.0), pr.p.max_fall + 1.0) {
            Floor::At(f) => Some(f),
            Floor::None => None,
        }
    })();
    if let Some(k) = key {
        let n = (pr.map.trace_count() - before) as u32;
        MEMO.with(|m| m.borrow_mut().put_start(geometry, k, (at, n)));
    }
    at
}

fn reach(pr: &mut Probe, from: Vec3, to: Vec3) -> Reachability {
    use Reachability::*;
    let p = *pr.p;
    if (to - from).length() > p.max_distance {
        return Unreachable(Blocked::TooFar);
    }
    let at_goal = pr.contents(to);
    if at_goal.intersects(HAZARD) {
        return Unreachable(Blocked::Hazard);
    }
    if at_goal.intersects(Contents::SOLID | Contents::PLAYER_CLIP) {
        return Unreachable(Blocked::BadEndpoint);
    }
    let goal_in_water = at_goal.intersects(Contents::WATER);
    let Some(mut pos) = start_of(pr, from) else {
        return Unreachable(Blocked::BadEndpoint);
    };
    let (mut jumps, mut chain, mut fell, mut swam) = (0u32, false, false, false);
    let mut run = 0.0f32; // straight run-up behind `pos` on this leg
    let max_iter = (p.max_distance / p.step) as usize * 2 + 64;
    // Where the march stood with no run-up (at the start, after each jump or fall). What
    // the march does next depends on its position and run-up alone (the other state only
    // names the answer), so standing again exactly where it stood before with none means it
    // goes round that loop until it gives up (a running jump over the target, a walk back
    // and a jump back over it): it gives up now, with the same answer.
    // (The last few such places are kept: a walk down stairs falls at every step, and the
    // loops seen were of two jumps.)
    let mut landed = [[0u32; 3]; 16];
    let mut n_landed = 0usize;
    for _ in 0..max_iter {
        if run == 0.0 {
            let here = pos.to_array().map(f32::to_bits);
            if landed[..n_landed.min(landed.len())].contains(&here) {
                return Unreachable(Blocked::TooLong);
            }
            landed[n_landed % landed.len()] = here;
            n_landed += 1;
        }
        // Swimming: once in water, a target in water is reached by moving straight to it.
        let wet = pr.waist_in_water(pos);
        if wet {
            swam = true;
            if goal_in_water {
                let t = pr.trace(pos, to);
                if t.fraction >= 1.0 {
                    return Swim;
                }
            }
        }
        let flat = Vec3::new(to.x - pos.x, to.y - pos.y, 0.0);
        let dist = flat.length();
        if dist <= 1.0 {
            let dz = to.z - pos.z;
            if dz.abs() <= STEP_SIZE + 1.0 || (goal_in_water && swam) {
                return classify(jumps, chain, fell, swam);
            }
            if dz < 0.0 {
                // The target is below: a fall straight down is a fall.
                return match pr.floor(pos, p.max_fall) {
                    Floor::At(f) if (f.z - to.z).abs() <= STEP_SIZE + 1.0 => {
                        classify(jumps, chain, true, swam)
                    }
                    _ => Unreachable(Blocked::Gap),
                };
            }
            return Unreachable(Blocked::Wall);
        }
        let dir = flat / dist;
        let len = dist.min(p.step);
        let next = pos + dir * len;
        // Move forward at this height, or a step up as the physics does.
        let mut moved = None;
        let t = pr.trace(pos, next);
        if t.fraction >= 1.0 {
            moved = Some(next);
        } else {
            let up = pr.trace(pos, pos + Vec3::new(0.0, 0.0, STEP_SIZE));
            if !up.start_solid && up.end_pos.z >= pos.z + STEP_SIZE - 0.1 {
                let fwd = pr.trace(up.end_pos, up.end_pos + dir * len);
                if fwd.fraction >= 1.0 {
                    moved = Some(fwd.end_pos);
                }
            }
        }
        if moved.is_none() && wet {
            moved = swim_over(pr, pos, dir, len);
        }
        let Some(m) = moved else {
            // A wall higher than a step: the chain of imaginary jumps.
            match chain_jump(pr, pos, dir, dist) {
                Some(landing) => {
                    jumps += 1;
                    chain = true;
                    pos = landing;
                    run = 0.0;
                    continue;
                }
                None => {
                    if run >= p.run_up
                        && let Some(l) = running_jump(pr, pos - dir * len, dir)
                    {
                        jumps += 1;
                        pos = l;
                        run = 0.0;
                        continue;
                    }
                    return Unreachable(Blocked::Wall);
                }
            }
        };
        // Floor under the new position (swimmers need none).
        if pr.waist_in_water(m) {
            pos = m;
            run += len;
            continue;
        }
        match ground_below(pr, m, p.max_fall + STEP_SIZE) {
            Ground::Water(w) => {
                pos = w;
                fell = true;
                run = 0.0;
            }
            Ground::Floor(f) => {
                if f.z < pos.z - STEP_SIZE {
                    fell = true;
                    run = 0.0;
                } else {
                    run += len;
                }
                pos = f;
            }
            hazard_or_gap => {
                let blocked = if matches!(hazard_or_gap, Ground::Hazard) {
                    Blocked::Hazard
                } else {
                    Blocked::Gap
                };
                // Find the edge (the last place the box is still held), then jump from a
                // tick before it, as a player running at the gap would at the latest.
                let (mut lo, mut hi) = (pos, Vec3::new(m.x, m.y, pos.z));
                for _ in 0..3 {
                    let mid = (lo + hi) * 0.5;
                    match pr.floor(mid + Vec3::new(0.0, 0.0, 1.0), STEP_SIZE + 1.0) {
                        Floor::At(f) if !pr.feet_contents(f).intersects(HAZARD) => lo = f,
                        _ => hi = mid,
                    }
                }
                let tick_len = PhysicsParams::default().max_speed / p.predict_hz;
                if run >= p.run_up
                    && let Some(l) = running_jump(pr, lo - dir * tick_len, dir)
                {
                    jumps += 1;
                    pos = l;
                    run = 0.0;
                    continue;
                }
                return Unreachable(blocked);
            }
        }
    }
    Unreachable(Blocked::TooLong)
}

/// What a player stepping to `m` comes down on.
enum Ground {
    /// Standing origin on a floor.
    Floor(Vec3),
    /// Swimming origin, waist-deep under a water surface.
    Water(Vec3),
    /// Lava or slime.
    Hazard,
    /// Nothing within reach (or too steep to stand on).
    Gap,
}

/// One box trace down through solids and liquids: the first thing below `m` within `depth`.
fn ground_below(pr: &mut Probe, m: Vec3, depth: f32) -> Ground {
    let t = pr.map.trace(
        m,
        m - Vec3::new(0.0, 0.0, depth),
        PLAYER_MINS,
        PLAYER_MAXS,
        MASK | Contents::LIQUID,
        None,
    );
    if t.start_solid {
        // Wading (the box starts in a shallow liquid): look for the floor under it.
        return match pr.floor(m, depth) {
            Floor::At(f) if pr.feet_contents(f).intersects(HAZARD) => Ground::Hazard,
            Floor::At(f) => Ground::Floor(f),
            Floor::None => Ground::Gap,
        };
    }
    if t.fraction >= 1.0 {
        return Ground::Gap;
    }
    if t.contents.intersects(HAZARD) {
        return Ground::Hazard;
    }
    if t.contents.intersects(Contents::WATER) {
        // The box bottom rests on the surface; sink until the waist is under it.
        let down = pr.trace(t.end_pos, t.end_pos - Vec3::new(0.0, 0.0, 36.0));
        let p = down.end_pos;
        return if pr.waist_in_water(p) {
            Ground::Water(p)
        } else {
            // Too shallow to swim: stand on its bottom.
            match pr.floor(p, 64.0) {
                Floor::At(f) => Ground::Floor(f),
                Floor::None => Ground::Gap,
            }
        };
    }
    if t.normal.z < 0.7 {
        return Ground::Gap;
    }
    Ground::Floor(t.end_pos)
}

/// A swimmer blocked ahead rises (staying in the water) and tries to go on or climb out: a
/// player at the surface gets onto a ledge up to 24 units above it (Quake's water jump).
fn swim_over(pr: &mut Probe, pos: Vec3, dir: Vec3, len: f32) -> Option<Vec3> {
    let mut at = pos;
    for _ in 0..16 {
        let t = pr.trace(at, at + dir * len);
        if t.fraction >= 1.0 {
            return Some(t.end_pos);
        }
        // Out of the water at the surface: climb onto what is ahead, as a water jump does.
        let lift = pr.trace(at, at + Vec3::new(0.0, 0.0, 40.0));
        let fwd = pr.trace(lift.end_pos, lift.end_pos + dir * len);
        if fwd.fraction >= 1.0
            && let Floor::At(f) = pr.floor(fwd.end_pos, 64.0)
            && !pr.waist_in_water(f)
            && f.z <= at.z + 40.0
        {
            return Some(f);
        }
        let up = pr.trace(at, at + Vec3::new(0.0, 0.0, 16.0));
        if up.fraction < 1.0 || !pr.waist_in_water(up.end_pos) {
            return None;
        }
        at = up.end_pos;
    }
    None
}

fn classify(jumps: u32, chain: bool, fell: bool, swam: bool) -> Reachability {
    if swam {
        Reachability::Swim
    } else if chain && jumps >= 2 {
        Reachability::JumpChain(jumps)
    } else if jumps >= 1 {
        Reachability::Jump
    } else if fell {
        Reachability::Fall
    } else {
        Reachability::Walk
    }
}

/// The reference's imaginary jumps: land half a jump away, halving while the floor there is
/// higher than a jump or the way is blocked. Returns the standing origin after landing.
fn chain_jump(pr: &mut Probe, pos: Vec3, dir: Vec3, remaining: f32) -> Option<Vec3> {
    let p = *pr.p;
    let apex_z = pos.z + p.max_jump_height;
    let up = pr.trace(pos, Vec3::new(pos.x, pos.y, apex_z));
    if up.fraction < 1.0 {
        return None; // no head room to jump
    }
    let mut len = p.half_jump.min(remaining.max(p.step));
    for _ in 0..=p.max_halvings {
        let top = Vec3::new(pos.x, pos.y, apex_z);
        let over = pr.trace(top, top + dir * len);
        if over.fraction >= 1.0
            && let Floor::At(f) = pr.floor(over.end_pos, p.max_jump_height + STEP_SIZE)
            && f.z > pos.z + STEP_SIZE * 0.5
            && f.z <= pos.z + p.max_jump_height
            && !pr.feet_contents(f).intersects(HAZARD)
        {
            return Some(f);
        }
        len *= 0.5;
    }
    None
}

/// One running jump along `dir`, predicted with the player physics from `start` at full
/// speed. Accepted when it lands on safe ground farther along the line.
fn running_jump(pr: &mut Probe, start: Vec3, dir: Vec3) -> Option<Vec3> {
    let p = *pr.p;
    let params = PhysicsParams {
        mask: MASK,
        ..Default::default()
    };
    let yaw = dir.y.atan2(dir.x).to_degrees();
    let mut s = PlayerState::at(start, yaw);
    s.velocity = dir * params.max_speed;
    // It must stand on ground where it takes off.
    let Floor::At(f) = pr.floor(start + Vec3::new(0.0, 0.0, 1.0), 4.0) else {
        return None;
    };
    s.origin = f;
    s.on_ground = Some(crate::map::EntId::WORLD);
    let cmd = UserCmd {
        forward_move: params.max_speed,
        yaw,
        jump: true,
        ..Default::default()
    };
    let dt = 1.0 / p.predict_hz;
    let along0 = s.origin.dot(dir);
    for tick in 0..(3.0 * p.predict_hz) as usize {
        let c = UserCmd {
            jump: tick == 0,
            ..cmd
        };
        let (n, ev) = pmove(&s, &c, pr.map, &params, dt, None);
        s = n;
        if tick == 0 && !ev.jumped {
            return None;
        }
        if s.water_type.intersects(HAZARD) {
            return None;
        }
        if ev.landed.is_some() || (tick > 0 && s.on_ground.is_some()) {
            let progressed = s.origin.dot(dir) - along0;
            if progressed > p.step && s.origin.z >= start.z - p.max_fall {
                return Some(s.origin);
            }
            return None;
        }
        if s.water_level >= 2 {
            // Landed in water: the march continues swimming.
            return Some(s.origin);
        }
    }
    None
}
