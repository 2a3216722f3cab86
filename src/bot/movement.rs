//! Movement (reference 002 §10.3): turns a bot's movement request — a nearby point or a
//! direction, with a wanted speed — into this tick's user command, the way a player would:
//!
//! - **swim** when waist deep (water level ≥ 2), steering toward the target through a funnel:
//!   when the way ahead is blocked, try up, down, left and right;
//! - **on ground**, feel ahead at the feet: a barrier no higher than a step is walked over, one
//!   up to jump height is jumped onto, anything higher is walked around (45° then 90° to
//!   either side, keeping the side chosen while it works) or reported `Blocked(Wall)`; on a
//!   known way (a compiled route) a side step comes before the jump, and a bot running
//!   across the way it wishes is not jumped there (the jump would carry it on along its
//!   motion) but slid along by the physics;
//! - **look ahead** along the heading for gaps, lava and slime (not slime for a request
//!   that wades: an explorer in the biosuit); predict a running jump over
//!   them with [`crate::physics::predict`]; jump at the edge when the prediction lands on
//!   ground or in water (backing up for a run-up first when standing too slow at the edge),
//!   otherwise brake and report `Blocked(Gap)` or `Blocked(Hazard)`;
//! - **hold the edge** (explorers) when turning toward a target no lower: where the run's
//!   momentum would carry the bot off a ledge its heading stays on, wish against that motion
//!   instead;
//! - **jump on the last tick on the ground** (explorers) before a drop deeper than
//!   [`LEVEL_GAP`] on the way to a target no lower, where the jump lands on the bot's level
//!   (a gap narrower than the player's box, a lip before the edge);
//! - movers, teleporters and item touches are left to the physics.
//!
//! Entry points: [`steer`] (pure, for tests and worker threads) and [`movement_system`].

use std::sync::Arc;

use glam::Vec3;
use serde::Serialize;

use crate::map::{CollisionMap, Contents, EntId};
use crate::physics::pmove::{
    PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, STEP_SIZE, UserCmd, pmove,
};
use crate::physics::predict::{PredictParams, StopEvent, predict, run_toward};
use crate::sim::Sim;
use crate::sim::components::{Command, Motion, Vitals};
use crate::sim::hash::{StateHash, StateHasher};
use crate::sim::parallel::JobSize;

/// Where a bot wants to go.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum MoveTarget {
    /// A nearby point (a player origin there).
    Point(Vec3),
    /// A direction to keep going.
    Direction(Vec3),
}

/// A movement request, written by the brain (or a controller) before the movement stage.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoveRequest {
    /// Where to.
    pub target: MoveTarget,
    /// Wanted speed, units per second (at most 320).
    pub speed: f32,
    /// The straight way to the target is known to be walkable (a compiled route's line
    /// through the borders of its own floors): no look ahead for gaps and hazards on it,
    /// which near a wall mistakes the wall's foot for a drop.
    #[serde(skip)]
    pub known: bool,
    /// Slime is no hazard (an explorer in the biosuit): walked and dropped into like water.
    #[serde(skip)]
    pub wade: bool,
    /// Walls are felt no farther than the target: a wall beyond where the bot is going is
    /// no reason to stop short of it or step round (a compiled bot's requests: its route
    /// knows the way; e1m1's bridge button, whose front is 29 units off with the button 8
    /// beyond a full stride's feel, held a bot blocked there until it was killed as stuck).
    /// Explorers and waypoint bots feel a full stride: their targets lie against the walls
    /// and ledges they learn by running at them (with the limit, four explorers for 600 s
    /// marked e1m1's invulnerability in 12 of 16 runs instead of 16, and covered e1m3's
    /// floor 78 % instead of 90 % in the worst run).
    #[serde(skip)]
    pub to_target: bool,
}

/// The request component: `None` leaves the command to the controller.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveIntent(pub Option<MoveRequest>);

/// Why a bot cannot go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BlockReason {
    /// A wall it can neither jump onto nor walk around.
    Wall,
    /// A gap it cannot jump.
    Gap,
    /// Lava or slime it cannot jump.
    Hazard,
}

/// What the movement stage made of the request this tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum MoveStatus {
    /// No request.
    #[default]
    Idle,
    /// Going.
    Moving,
    /// At the target point.
    Arrived,
    /// Cannot go on.
    Blocked(BlockReason),
    /// In the air (jumping or falling).
    InAir,
    /// Swimming.
    Swimming,
}

/// Movement state kept between ticks (the side an obstacle is being walked around, a run-up
/// being taken).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveMemory {
    /// -1 left, +1 right, 0 none.
    pub avoid_side: i8,
    /// Ticks the side stays chosen.
    pub avoid_ticks: u32,
    /// Ticks left of backing away from an edge to take a run-up.
    pub runup_ticks: u32,
    /// Hung in the air against a steep slope: no wish until it lands (see [`steer`]).
    pub let_go: bool,
}

impl StateHash for MoveMemory {
    fn hash_state(&self, h: &mut StateHasher) {
        h.u64(self.avoid_side as u64 | (self.avoid_ticks as u64) << 8 | (self.let_go as u64) << 40);
    }
}

/// How far a bot backs away from an edge to get to full speed before jumping it.
pub const RUN_UP: f32 = 64.0;

/// A drop deeper than this toward a target on the bot's own level is one an explorer
/// ([`MoveParams::hold_edges`]) jumps across from its last tick on the ground, where a jump
/// lands on that level (see [`steer`]).
pub const LEVEL_GAP: f32 = 64.0;

/// Tuning of the movement stage; every bot carries its own (an exploring bot walks off
/// deeper drops than a match bot, see [`super::explore::MAX_DROP`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoveParams {
    /// Distance at which a target point counts as reached.
    pub arrive_radius: f32,
    /// How far ahead gaps and hazards are looked for (a running player needs about 80 units
    /// to stop).
    pub lookahead: f32,
    /// Deepest drop walked off without a second thought.
    pub max_drop: f32,
    /// Highest barrier jumped onto (analytic jump peak 45.6, with a margin).
    pub max_jump_height: f32,
    /// Hold the edge when turning on a ledge (see [`steer`]): an exploring bot's, whose
    /// walks run along ledges' edges; a match bot's movement is as it was.
    pub hold_edges: bool,
}

impl Default for MoveParams {
    fn default() -> Self {
        MoveParams {
            arrive_radius: 16.0,
            lookahead: 128.0,
            max_drop: 200.0,
            max_jump_height: 40.0,
            hold_edges: false,
        }
    }
}

const MASK: Contents = Contents::MASK_PLAYER_NO_BODIES;

fn rotate_z(v: Vec3, degrees: f32) -> Vec3 {
    let (s, c) = degrees.to_radians().sin_cos();
    Vec3::new(v.x * c - v.y * s, v.x * s + v.y * c, v.z)
}

fn box_clear(map: &CollisionMap, a: Vec3, b: Vec3, me: Option<EntId>) -> bool {
    map.trace(a, b, PLAYER_MINS, PLAYER_MAXS, MASK, me).fraction >= 1.0
}

/// Whether a player off the ground rests on a slope too steep to stand on (a unit below
/// it is a plane that is no floor): with no speed at all, it hangs there while it wishes
/// into the slope.
fn hanging(map: &CollisionMap, s: &PlayerState, me: Option<EntId>) -> bool {
    let tr = map.trace(
        s.origin,
        s.origin - Vec3::Z,
        PLAYER_MINS,
        PLAYER_MAXS,
        MASK,
        me,
    );
    tr.fraction < 1.0 && tr.normal.z < 0.7
}

/// What lies ahead on the floor.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ahead {
    Clear,
    Bad { distance: f32, hazard: bool },
}

/// Samples the floor every 16 units along `dir` up to `range`: the first spot with no floor
/// within `max_drop`, or with `hazards` (lava, slime) on top.
fn scan_ahead(
    map: &CollisionMap,
    origin: Vec3,
    dir: Vec3,
    range: f32,
    max_drop: f32,
    hazards: Contents,
) -> Ahead {
    let mut d = 16.0;
    while d <= range {
        let p = origin + dir * d;
        let t = map.trace_ray(
            p,
            p - Vec3::new(0.0, 0.0, -PLAYER_MINS.z + max_drop),
            MASK | Contents::LIQUID,
            None,
        );
        if t.start_solid {
            return Ahead::Clear; // a wall or step ahead: the feelers deal with it
        }
        let floor_under_ray =
            t.fraction < 1.0 && t.normal.z >= 0.7 && !t.contents.intersects(hazards);
        if !floor_under_ray && box_supported(map, p, max_drop, hazards) {
            // The ray fell through a hole the player's box bridges (dm4's grates over lava).
            d += 16.0;
            continue;
        }
        if t.fraction >= 1.0 || (t.contents.intersects(Contents::SOLID) && t.normal.z < 0.7) {
            return Ahead::Bad {
                distance: d,
                hazard: false,
            };
        }
        if t.contents.intersects(hazards) {
            return Ahead::Bad {
                distance: d,
                hazard: true,
            };
        }
        d += 16.0;
    }
    Ahead::Clear
}

/// Whether a player's box dropped from `p` lands on floor within `max_drop` with its feet out
/// of `hazards` (Quake hurts by the contents at the feet's centre, not under the box).
fn box_supported(map: &CollisionMap, p: Vec3, max_drop: f32, hazards: Contents) -> bool {
    let t = map.trace(
        p,
        p - Vec3::new(0.0, 0.0, max_drop),
        PLAYER_MINS,
        PLAYER_MAXS,
        MASK,
        None,
    );
    let feet = t.end_pos + Vec3::new(0.0, 0.0, PLAYER_MINS.z + 1.0);
    !t.start_solid
        && t.fraction < 1.0
        && t.normal.z >= 0.7
        && !map.point_contents(feet).intersects(hazards)
}

/// Whether a running jump from `s` along `dir` lands safely: on ground or in water, not in
/// lava or slime, no deeper than `max_drop` below, and past where it took off.
fn jump_lands(
    map: &CollisionMap,
    s: &PlayerState,
    dir: Vec3,
    physics: &PhysicsParams,
    max_drop: f32,
    me: Option<EntId>,
) -> bool {
    landing(map, s, dir, true, physics, max_drop, me)
        .is_some_and(|end| (end - s.origin).dot(dir) > 32.0)
}

/// Where running on along `dir` at full speed (jumping first when `jump`) comes down on
/// ground or into water, no deeper than `max_drop` below; `None` for lava, slime, a deeper
/// fall or no landing within the prediction's horizon.
fn landing(
    map: &CollisionMap,
    s: &PlayerState,
    dir: Vec3,
    jump: bool,
    physics: &PhysicsParams,
    max_drop: f32,
    me: Option<EntId>,
) -> Option<Vec3> {
    let cmds = [
        run_toward(dir, physics.max_speed, jump),
        run_toward(dir, physics.max_speed, false),
    ];
    let params = PredictParams {
        stop_on_wall: false,
        max_fall: max_drop,
        ..Default::default()
    };
    let pred = predict(map, s, &cmds, physics, &params, me);
    let end = pred.end()?.origin;
    matches!(pred.stop, StopEvent::Landed | StopEvent::EnteredWater).then_some(end)
}

/// Whether running on along `dir` (no jump) goes off an edge and lands safely: the floor
/// samples of [`scan_ahead`] look straight down, but a player running off a ledge lands well
/// beyond it (≈ 220 units after a 192-unit drop at full speed) — on dm4 onto a walkway past
/// the lava the samples see.
fn falls_safely(
    map: &CollisionMap,
    s: &PlayerState,
    dir: Vec3,
    physics: &PhysicsParams,
    max_drop: f32,
    me: Option<EntId>,
) -> bool {
    landing(map, s, dir, false, physics, max_drop, me)
        .is_some_and(|end| end.z < s.origin.z - STEP_SIZE && (end - s.origin).dot(dir) > 32.0)
}

/// Whether running along `dir` climbs: two ticks of the real physics at full speed from `s`
/// step up, advance at least half the distance and stay on the ground. The two feelers see a staircase
/// as a wall (the box raised by one step meets the second step within the feeling distance),
/// but the physics climbs it step by step; jumping there instead throws the bot off the
/// stairs' side.
fn walks_on(
    map: &CollisionMap,
    s: &PlayerState,
    dir: Vec3,
    physics: &PhysicsParams,
    dt: f32,
    me: Option<EntId>,
) -> bool {
    let mut p = *s;
    p.velocity = dir * physics.max_speed;
    let cmd = run_toward(dir, physics.max_speed, false);
    for _ in 0..2 {
        p = pmove(&p, &cmd, map, physics, dt, me).0;
    }
    p.on_ground.is_some()
        && p.origin.z > s.origin.z + 1.0
        && (p.origin - s.origin).dot(dir) >= physics.max_speed * dt
}

/// What steering needs besides the bot's own state.
#[derive(Clone, Copy)]
pub struct SteerCtx<'a> {
    /// The geometry.
    pub map: &'a CollisionMap,
    /// Movement constants.
    pub physics: PhysicsParams,
    /// Movement stage tuning.
    pub params: MoveParams,
    /// Seconds per tick.
    pub dt: f32,
    /// The bot's own body id (ignored by its traces).
    pub me: Option<EntId>,
}

/// Turns a movement request into a user command and a status. Pure.
pub fn steer(
    ctx: &SteerCtx,
    s: &PlayerState,
    req: &MoveRequest,
    mem: &mut MoveMemory,
) -> (UserCmd, MoveStatus) {
    let (map, physics, params, dt, me) = (ctx.map, &ctx.physics, &ctx.params, ctx.dt, ctx.me);
    if s.on_ground.is_some() || s.water_level >= 2 {
        mem.let_go = false;
    }
    let stand = UserCmd {
        yaw: s.yaw,
        pitch: s.pitch,
        ..Default::default()
    };
    let (to3, want, short) = match req.target {
        MoveTarget::Point(p) => {
            let d = p - s.origin;
            let flat = Vec3::new(d.x, d.y, 0.0);
            if flat.length() <= params.arrive_radius && d.z.abs() <= 48.0 {
                return (stand, MoveStatus::Arrived);
            }
            (d, flat.normalize_or_zero(), flat.length())
        }
        MoveTarget::Direction(d) => (
            d,
            Vec3::new(d.x, d.y, 0.0).normalize_or_zero(),
            f32::INFINITY,
        ),
    };
    let speed = req.speed.clamp(0.0, physics.max_speed);
    if want == Vec3::ZERO && s.water_level < 2 {
        return (stand, MoveStatus::Arrived);
    }
    if s.water_level >= 2 {
        return swim(map, s, to3, speed, me);
    }
    if s.on_ground.is_none() {
        if mem.let_go || (s.velocity == Vec3::ZERO && hanging(map, s, me)) {
            // Hanging in the air: pushed into a steep slope, Quake's slide move zeroes the
            // motion each tick (the part along the slope falls under its stop epsilon), so
            // wishing on holds the player there for ever. Letting go until it lands, as a
            // player would, lets gravity slide it down.
            mem.let_go = true;
            return (stand, MoveStatus::InAir);
        }
        return (run_toward(want, speed, false), MoveStatus::InAir);
    }
    if mem.runup_ticks > 0 {
        // Backing away from the edge, still facing it.
        mem.runup_ticks -= 1;
        let mut back = run_toward(want, speed, false);
        back.forward_move = -speed;
        return (back, MoveStatus::Moving);
    }
    // Feeling no farther than the target where asked (`to_target`): a target on a ledge
    // lies beyond the ledge's face by a box's half width, so the face is still felt.
    let stride = 24.0 + speed * dt;
    let feel = if req.to_target {
        stride.min(short)
    } else {
        stride
    };
    let up = |h: f32| s.origin + Vec3::new(0.0, 0.0, h);
    let free = |dir: Vec3| {
        box_clear(map, s.origin, s.origin + dir * feel, me)
            || box_clear(map, up(STEP_SIZE), up(STEP_SIZE) + dir * feel, me)
            || walks_on(map, s, dir, physics, dt, me)
    };
    let mut heading = want;
    let mut jump = false;
    if !free(want) {
        let jumpable = box_clear(map, s.origin, up(params.max_jump_height), me)
            && box_clear(
                map,
                up(params.max_jump_height),
                up(params.max_jump_height) + want * feel,
                me,
            );
        // On a known way a blocked feel is a corner or a raised edge beside the line
        // (dm6's at (304, -1096), where the route turns into a corridor a step up): a
        // side step round it comes first, the jump only where none does.
        let side_first = req.known && {
            let sides = [-45.0f32, 45.0];
            sides.iter().any(|&a| free(rotate_z(want, a)))
        };
        if jumpable && !side_first {
            // On a known way, fast across the way wished (turning a corner at a run): a
            // jump would carry the bot on along its motion, not up onto what is felt; the
            // physics slides it along the wall instead. e1m1's corner at (865, 2096),
            // turning north into the sloped hall from the east at 320 u/s: the jump threw
            // the bot west over the ledge into the pit below (10 s lost).
            let v = s.velocity.truncate();
            let sliding = req.known
                && v.length() > ACROSS_SPEED
                && v.normalize().dot(want.truncate()) < ACROSS_COS;
            jump = !sliding && !s.jump_held;
        } else {
            let sides: [f32; 4] = if mem.avoid_side >= 0 {
                [-45.0, 45.0, -90.0, 90.0]
            } else {
                [45.0, -45.0, 90.0, -90.0]
            };
            // A side step only helps when, a little way along it, the way on is free: that
            // walks around a pillar but not along a wall that closes the way.
            let around = |a: f32| {
                let side = rotate_z(want, a);
                if !free(side) {
                    return false;
                }
                let t = map.trace(
                    s.origin,
                    s.origin + side * 96.0,
                    PLAYER_MINS,
                    PLAYER_MAXS,
                    MASK,
                    me,
                );
                let p = t.end_pos;
                box_clear(map, p, p + want * (feel + 32.0), me)
                    || box_clear(
                        map,
                        p + Vec3::Z * STEP_SIZE,
                        p + Vec3::Z * STEP_SIZE + want * (feel + 32.0),
                        me,
                    )
            };
            let chosen = sides.iter().copied().find(|&a| around(a));
            match chosen {
                Some(a) => {
                    heading = rotate_z(want, a);
                    mem.avoid_side = if a < 0.0 { 1 } else { -1 };
                    mem.avoid_ticks = 10;
                }
                None => return (stand, MoveStatus::Blocked(BlockReason::Wall)),
            }
        }
    } else if mem.avoid_ticks > 0 {
        mem.avoid_ticks -= 1;
    } else {
        mem.avoid_side = 0;
    }
    // An explorer's last tick on the ground before a drop, going for a target on its own
    // level: where running on falls deeper than LEVEL_GAP and a jump lands on that level,
    // it jumps now. The floor samples below miss a gap narrower than a player's box and a
    // drop behind a lip: e1m3's teleporter to the super nailgun sets players down on a pad
    // 4 units over the ledge before the gap, so they are in the air from the pad's edge on.
    if !jump
        && !req.known
        && params.hold_edges
        && to3.z >= -STEP_SIZE
        && s.on_ground.is_some()
        && pmove(s, &run_toward(heading, speed, false), map, physics, dt, me)
            .0
            .on_ground
            .is_none()
        && landing(map, s, heading, false, physics, params.max_drop, me)
            .is_none_or(|end| end.z < s.origin.z - LEVEL_GAP)
        && jump_lands(map, s, heading, physics, params.max_drop.min(LEVEL_GAP), me)
    {
        jump = true;
    }
    // Gaps, lava and slime ahead: jump them at the edge if a jump lands, else stop.
    let hazards = if req.wade {
        Contents::LAVA
    } else {
        Contents::LAVA | Contents::SLIME
    };
    if !jump && !req.known {
        let range = params.lookahead.min(match req.target {
            MoveTarget::Point(_) => to3.truncate().length() + 16.0,
            MoveTarget::Direction(_) => params.lookahead,
        });
        // Dropping off the edge is the way when the target is down there; otherwise a jump
        // across comes first and the drop is the fallback.
        let target_below = to3.z < -STEP_SIZE;
        // Predicted at most once a tick, and only where the scan finds something.
        let fall = std::cell::OnceCell::new();
        let falls =
            || *fall.get_or_init(|| falls_safely(map, s, heading, physics, params.max_drop, me));
        if let Ahead::Bad { distance, hazard } =
            scan_ahead(map, s.origin, heading, range, params.max_drop, hazards)
            && !(target_below && falls())
        {
            let step = s.velocity.truncate().length().max(speed) * dt;
            if distance <= step + 16.0 {
                if jump_lands(map, s, heading, physics, params.max_drop, me) {
                    jump = true;
                } else {
                    // Too slow to make it from here: back up for a run-up if a jump at full
                    // speed from the edge would land.
                    let mut fast = *s;
                    fast.velocity = heading * physics.max_speed;
                    let behind = s.origin - heading * RUN_UP;
                    let room = box_clear(map, s.origin, behind, me)
                        && matches!(
                            scan_ahead(map, s.origin, -heading, RUN_UP, params.max_drop, hazards),
                            Ahead::Clear
                        );
                    if room
                        && s.velocity.truncate().length() < physics.max_speed * 0.9
                        && jump_lands(map, &fast, heading, physics, params.max_drop, me)
                    {
                        mem.runup_ticks = ((RUN_UP / physics.max_speed) / dt).ceil() as u32 + 1;
                        let mut back = run_toward(heading, speed, false);
                        back.forward_move = -speed;
                        return (back, MoveStatus::Moving);
                    }
                    if !falls() {
                        let why = if hazard {
                            BlockReason::Hazard
                        } else {
                            BlockReason::Gap
                        };
                        return (stand, MoveStatus::Blocked(why));
                    }
                }
            } else {
                // Would a running jump from the edge make it? If not, brake now.
                let mut at_edge = *s;
                at_edge.origin += heading * (distance - 16.0);
                at_edge.velocity = heading * physics.max_speed;
                let edge_ok = box_clear(map, s.origin, at_edge.origin, me)
                    && jump_lands(map, &at_edge, heading, physics, params.max_drop, me);
                if !edge_ok && !falls() {
                    let why = if hazard {
                        BlockReason::Hazard
                    } else {
                        BlockReason::Gap
                    };
                    return (stand, MoveStatus::Blocked(why));
                }
            }
        }
    }
    // On a known way over a slope, wish against the sideways part of the motion: landing
    // back on a side slope after each tick's hop turns the fall into motion down it, which
    // the target alone corrects only once the bot is off the line.
    if req.known && !jump && s.on_ground.is_some() && on_slope(map, s, me, heading) {
        let v = Vec3::new(s.velocity.x, s.velocity.y, 0.0);
        let h = (heading * speed - (v - heading * v.dot(heading))).normalize_or_zero();
        if h != Vec3::ZERO {
            heading = h;
        }
    }
    let mut cmd = run_toward(heading, speed, jump);
    if jump {
        // Keep looking where the jump goes.
        cmd.yaw = heading.y.atan2(heading.x).to_degrees();
    } else if params.hold_edges && !req.known && to3.z >= -STEP_SIZE {
        cmd = hold_the_edge(ctx, s, heading, speed, cmd);
    }
    (cmd, MoveStatus::Moving)
}

/// Speed (u/s) above which a bot on a known way moving across the way it wishes
/// ([`ACROSS_COS`]) does not jump at what blocks it.
const ACROSS_SPEED: f32 = 160.0;
/// See [`ACROSS_SPEED`]: 45 degrees or more off the wished way.
const ACROSS_COS: f32 = 0.7;

/// The steepest floor (its normal's z) counted flat by [`steer`]'s counter-steer, about
/// 14°. Measured on the compiled bots' item tours, seeds 1-20 (legs within 10 % on dm4, dm6,
/// e1m1): 0.97 gives 252/219/176, 0.93 252/219/173, 0.99 252/219/165. Against twice the
/// sideways motion: the same on seeds 1-20, dm6 217 of 220 against 219 on seeds 21-40. On
/// every floor: dm4 233 (all 20 super damage legs lost) and e1m1 169, since on a flat floor
/// the sideways motion is the bot's own turning, which the target already steers.
const SLOPE_NORMAL_Z: f32 = 0.97;

/// Whether the player stands on a floor steeper than [`SLOPE_NORMAL_Z`] that slopes across
/// `heading` ([`SLOPE_ACROSS`]): dm6's ramp by the super shotgun at (580, -1053), whose side
/// slope carried compiled bots off its 8-unit-wide lower end onto the floor south of it (a
/// second back up, on every seed).
fn on_slope(map: &CollisionMap, s: &PlayerState, me: Option<EntId>, heading: Vec3) -> bool {
    let t = map.trace(
        s.origin,
        s.origin - Vec3::Z * 4.0,
        PLAYER_MINS,
        PLAYER_MAXS,
        MASK,
        me,
    );
    // The downhill way's share across the heading (the sine of the angle between them).
    let across = t
        .normal
        .truncate()
        .normalize_or_zero()
        .perp_dot(heading.truncate())
        .abs();
    t.fraction < 1.0 && t.normal.z < SLOPE_NORMAL_Z && across >= SLOPE_ACROSS
}

/// How far across the heading a slope's downhill way must lie for [`steer`]'s counter-steer
/// (the sine of the angle, 30°): a slope run up or down pushes along the way, not off it.
/// On every slope, e1m1's tours lost 5 legs within 10 % on seeds 41-80 (349 -> 344) and gained
/// 3 on seeds 1-40, in its sloped hall down to the barrier jump at (788, 2108); at 0.5 or
/// 0.7, 343 and 349 as before the counter-steer, dm4 and dm6 as with it on every slope.
const SLOPE_ACROSS: f32 = 0.5;

/// Whether a player's box at `p` has floor within a step below it.
fn floor_within_step(map: &CollisionMap, p: Vec3, me: Option<EntId>) -> bool {
    let t = map.trace(
        p,
        p - Vec3::Z * (STEP_SIZE + 4.0),
        PLAYER_MINS,
        PLAYER_MAXS,
        MASK,
        me,
    );
    !t.start_solid && t.fraction < 1.0 && t.normal.z >= 0.7
}

/// Turning on a ledge toward a target no lower: the run keeps most of its speed for a few
/// ticks (Quake's ground friction takes a fifth a tick at 20 Hz), so a bot whose way bends
/// along a ledge's edge is carried over it — start.map's ring of ledges round its pit, where
/// an explorer landed out of the pool above walked to its own landing waypoint on the
/// edge and fell into the pit, the one way on lost. Where the physics says `cmd` leaves the
/// floor next tick while the heading's own way stays on it, the bot wishes against the
/// part of its motion that carries it off (else straight back against its motion) instead.
/// One trace while the motion and the heading part; a predicted tick or three near an edge.
fn hold_the_edge(
    ctx: &SteerCtx,
    s: &PlayerState,
    heading: Vec3,
    speed: f32,
    cmd: UserCmd,
) -> UserCmd {
    let (map, physics, dt, me) = (ctx.map, &ctx.physics, ctx.dt, ctx.me);
    let vel = s.velocity.truncate().extend(0.0);
    if vel.length() < 100.0 || vel.normalize().dot(heading) > 0.99 {
        return cmd;
    }
    // A first look where the motion alone would carry the bot next tick: away from edges
    // one trace decides (start.map's explorers, seeds 0-7, fell the same with a predicted
    // tick on every turn).
    if floor_within_step(map, s.origin + vel * dt, me) {
        return cmd;
    }
    let off = |c: &UserCmd| {
        let p = pmove(s, c, map, physics, dt, me).0;
        p.on_ground.is_none()
            && p.velocity.z <= 0.0
            && p.water_level == 0
            && !floor_within_step(map, p.origin, me)
    };
    // Only a fall the heading does not ask for: along it the floor goes on.
    if !off(&cmd) || !floor_within_step(map, s.origin + heading * (speed * dt + 16.0), me) {
        return cmd;
    }
    let against = (heading * speed - vel).normalize_or_zero();
    [against, -vel.normalize()]
        .into_iter()
        .filter(|d| *d != Vec3::ZERO)
        .map(|d| run_toward(d, physics.max_speed, false))
        .find(|c| !off(c))
        .unwrap_or(cmd)
}

fn swim(
    map: &CollisionMap,
    s: &PlayerState,
    to: Vec3,
    speed: f32,
    me: Option<EntId>,
) -> (UserCmd, MoveStatus) {
    let dir = to.normalize_or_zero();
    // Feel 64 units ahead, or only as far as the target: one on a pool's bottom is not
    // blocked by the floor under it.
    let look = to.length().clamp(1.0, 64.0);
    // The funnel: straight on, else up, down, left, right of the wanted direction, else
    // straight up. Toward a target below, down comes before up and straight down before
    // straight up: a flooded tunnel's mouth lies under the wall the swimmer meets, and
    // rising along that wall leads back to the surface.
    let flat = Vec3::new(dir.x, dir.y, 0.0).normalize_or_zero();
    let (up, down) = (
        (dir + Vec3::Z * 0.7).normalize_or_zero(),
        (dir - Vec3::Z * 0.7).normalize_or_zero(),
    );
    let below = to.z < 0.0;
    let candidates = [
        dir,
        if below { down } else { up },
        if below { up } else { down },
        rotate_z(dir, 45.0),
        rotate_z(dir, -45.0),
        if below { -Vec3::Z } else { Vec3::Z },
        Vec3::Z,
    ];
    let tried = if below { 7 } else { 6 };
    let go = candidates[..tried]
        .iter()
        .copied()
        .find(|c| *c != Vec3::ZERO && box_clear(map, s.origin, s.origin + *c * look, me))
        .unwrap_or(dir);
    let yaw = if flat != Vec3::ZERO {
        flat.y.atan2(flat.x).to_degrees()
    } else {
        s.yaw
    };
    let horiz = Vec3::new(go.x, go.y, 0.0).length();
    let pitch = -go.z.atan2(horiz).to_degrees();
    // Heading for land above the surface: hold up so that the water jump can lift out.
    let up_move = if to.z > 0.0 { speed } else { 0.0 };
    let cmd = UserCmd {
        forward_move: speed,
        yaw: if horiz > 1e-3 {
            go.y.atan2(go.x).to_degrees()
        } else {
            yaw
        },
        pitch,
        up_move,
        ..Default::default()
    };
    (cmd, MoveStatus::Swimming)
}

/// The movement stage: for every living bot with a movement request, this tick's command
/// and movement status. Reads [`MoveIntent`], [`Motion`], [`Vitals`] and the bot's
/// [`MoveParams`]; writes [`Command`], [`MoveStatus`] and [`MoveMemory`].
pub fn movement_system(sim: &mut Sim) {
    // One job per living bot with a request: its state and memory out of the world, steered
    // on the worker pool against the frozen geometry, results back in entity order.
    struct Job {
        e: hecs::Entity,
        id: EntId,
        req: MoveRequest,
        state: crate::physics::PlayerState,
        mem: MoveMemory,
        params: MoveParams,
        out: Option<(UserCmd, MoveStatus)>,
    }
    let mut jobs = Vec::new();
    let mut view = sim.world.view_mut::<(
        &MoveIntent,
        &Motion,
        &Vitals,
        &mut MoveStatus,
        &MoveMemory,
        &MoveParams,
    )>();
    for p in &sim.players {
        let (id, e) = (p.id, p.entity);
        let Some((intent, motion, vitals, status, mem, params)) = view.get_mut(e) else {
            continue;
        };
        match intent.0 {
            Some(req) if vitals.alive => jobs.push(Job {
                e,
                id,
                req,
                state: motion.0,
                mem: *mem,
                params: *params,
                out: None,
            }),
            _ => *status = MoveStatus::Idle,
        }
    }
    struct Ctx {
        map: std::sync::Arc<CollisionMap>,
        physics: PhysicsParams,
        dt: f32,
    }
    let ctx = Ctx {
        map: Arc::clone(&sim.cmap),
        physics: sim.params,
        dt: sim.dt,
    };
    let (_, jobs) = sim.run_jobs(JobSize::Bot, ctx, jobs, |c, j| {
        let ctx = SteerCtx {
            map: &c.map,
            physics: c.physics,
            params: j.params,
            dt: c.dt,
            me: Some(j.id),
        };
        j.out = Some(steer(&ctx, &j.state, &j.req, &mut j.mem));
    });
    for j in jobs {
        if let Ok((cmd, status, mem)) = sim
            .world
            .query_one_mut::<(&mut Command, &mut MoveStatus, &mut MoveMemory)>(j.e)
            && let Some((c, st)) = j.out
        {
            cmd.0 = c;
            *status = st;
            *mem = j.mem;
        }
    }
}
