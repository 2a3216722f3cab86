//! Steering: the command that takes a bot toward its move target over the ground ahead
//! ([`steer`]): jumps over gaps, slopes, holding an edge, swimming.

use glam::Vec3;

use super::probe::{
    Ahead, box_clear, falls_safely, floor_within_step, hanging, jump_lands, landing, rotate_z,
    scan_ahead, walks_on,
};
use super::{
    BlockReason, LEVEL_GAP, MASK, MoveMemory, MoveParams, MoveRequest, MoveStatus, MoveTarget,
    RUN_UP,
};
use crate::map::{CollisionMap, Contents, EntId};
use crate::physics::pmove::{
    PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, STEP_SIZE, UserCmd, pmove,
};
use crate::physics::predict::run_toward;

/// Up or down from a point within the arrival radius across that still counts as arrived.
const ARRIVE_RISE: f32 = 48.0;
/// How far ahead of a tick's travel the way is felt for walls (units).
const FEEL_AHEAD: f32 = 24.0;
/// How far past a blocked feel a side step must clear the way on (units).
const FEEL_PAST: f32 = 32.0;
/// The turn of a side step round what blocks the way (degrees); twice it is tried next.
const SIDE_STEP: f32 = 45.0;
/// How far along a side step a bot looks for the way on to be free (units).
const SIDE_STEP_LENGTH: f32 = 96.0;
/// How near a gap's edge (units, beyond this tick's travel) a bot acts on it, and how far
/// short of it a run-up's jump is tried from; also how far past a target point the way is
/// scanned: about half a player's width.
const EDGE_MARGIN: f32 = 16.0;
/// The share of the running speed below which a bot at a gap backs up for a run-up.
const RUN_UP_SLOW: f32 = 0.9;
/// How far under its feet the floor is felt for a slope (units).
const SLOPE_PROBE: f32 = 4.0;
/// The slowest motion (u/s) [`hold_the_edge`] looks after: slower, friction stops a bot
/// before an edge.
const HOLD_SPEED: f32 = 100.0;
/// The cosine between the motion and the heading above which the motion keeps to the way
/// and [`hold_the_edge`] leaves the command as it is.
const HOLD_ALONG_COS: f32 = 0.99;
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
        mem.leap = None;
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
            if flat.length() <= params.arrive_radius && d.z.abs() <= ARRIVE_RISE {
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
        // A match bot's jump over a gap or a hazard was taken because the prediction along
        // its heading lands: it is flown along that heading. A target that moved meanwhile
        // (a fight's strafe point) turned the wish in the air, and Quake's air control
        // brakes a reversed wish hard enough to fall short into the gap.
        return (
            run_toward(mem.leap.unwrap_or(want), speed, false),
            MoveStatus::InAir,
        );
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
    let stride = FEEL_AHEAD + speed * dt;
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
        // On a known way a blocked feel is a corner or a raised edge beside the line (where
        // the route turns into a corridor a step up): a side step round it comes first, the
        // jump only where none does.
        let side_first = req.known && {
            let sides = [-SIDE_STEP, SIDE_STEP];
            sides.iter().any(|&a| free(rotate_z(want, a)))
        };
        if jumpable && !side_first {
            // On a known way, fast across the way wished (turning a corner at a run): a
            // jump would carry the bot on along its motion, not up onto what is felt; the
            // physics slides it along the wall instead. A jump at a corner turned at 320
            // u/s threw the bot over the ledge beside it into the pit below.
            let v = s.velocity.truncate();
            let sliding = req.known
                && v.length() > ACROSS_SPEED
                && v.normalize().dot(want.truncate()) < ACROSS_COS;
            jump = !sliding && !s.jump_held;
        } else {
            let sides: [f32; 4] = if mem.avoid_side >= 0 {
                [-SIDE_STEP, SIDE_STEP, -2.0 * SIDE_STEP, 2.0 * SIDE_STEP]
            } else {
                [SIDE_STEP, -SIDE_STEP, 2.0 * SIDE_STEP, -2.0 * SIDE_STEP]
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
                    s.origin + side * SIDE_STEP_LENGTH,
                    PLAYER_MINS,
                    PLAYER_MAXS,
                    MASK,
                    me,
                );
                let p = t.end_pos;
                box_clear(map, p, p + want * (feel + FEEL_PAST), me)
                    || box_clear(
                        map,
                        p + Vec3::Z * STEP_SIZE,
                        p + Vec3::Z * STEP_SIZE + want * (feel + FEEL_PAST),
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
    // drop behind a lip: a teleporter may set players down on a pad a few units over the
    // ledge before a gap, so they are in the air from the pad's edge on.
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
            MoveTarget::Point(_) => to3.truncate().length() + EDGE_MARGIN,
            MoveTarget::Direction(_) => params.lookahead,
        });
        // Dropping off the edge is the way when the target is down there; otherwise a jump
        // across comes first and the drop is the fallback.
        let target_below = to3.z < -STEP_SIZE;
        // Predicted at most once a tick, and only where the scan finds something.
        let fall = std::cell::OnceCell::new();
        let falls =
            || *fall.get_or_init(|| falls_safely(map, s, heading, physics, params.max_drop, me));
        // An explorer scans afresh every tick: it holds to ledges' edges, where a sample half
        // a step beside the one taken may stand over the drop (with the kept stretch, its
        // runs marked fewer items on both map sets).
        let mut fresh = None;
        let memo = if params.hold_edges {
            &mut fresh
        } else {
            &mut mem.scan
        };
        if let Ahead::Bad { distance, hazard } = scan_ahead(
            map,
            s.origin,
            heading,
            range,
            params.max_drop,
            hazards,
            memo,
        ) && !(target_below && falls())
        {
            let step = s.velocity.truncate().length().max(speed) * dt;
            if distance <= step + EDGE_MARGIN {
                if jump_lands(map, s, heading, physics, params.max_drop, me) {
                    jump = true;
                    // Across to a target on its level, a match bot's target moves under it
                    // (a strafe point, the next waypoint); an explorer's stays and it steers
                    // onto it in the air, as any bot does toward a target below.
                    if !params.hold_edges && !target_below {
                        mem.leap = Some(heading);
                    }
                } else {
                    // Too slow to make it from here: back up for a run-up if a jump at full
                    // speed from the edge would land.
                    let mut fast = *s;
                    fast.velocity = heading * physics.max_speed;
                    let behind = s.origin - heading * RUN_UP;
                    let room = box_clear(map, s.origin, behind, me)
                        && matches!(
                            scan_ahead(
                                map,
                                s.origin,
                                -heading,
                                RUN_UP,
                                params.max_drop,
                                hazards,
                                &mut None,
                            ),
                            Ahead::Clear
                        );
                    if room
                        && s.velocity.truncate().length() < physics.max_speed * RUN_UP_SLOW
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
                at_edge.origin += heading * (distance - EDGE_MARGIN);
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
pub(super) const ACROSS_SPEED: f32 = 160.0;

/// See [`ACROSS_SPEED`]: 45 degrees or more off the wished way.
pub(super) const ACROSS_COS: f32 = 0.7;

/// The steepest floor (its normal's z) counted flat by [`steer`]'s counter-steer, about
/// 14°: on a flat floor the sideways motion is the bot's own turning, which the target
/// already steers (docs/tuning.md).
pub(super) const SLOPE_NORMAL_Z: f32 = 0.97;

/// Whether the player stands on a floor steeper than [`SLOPE_NORMAL_Z`] that slopes across
/// `heading` ([`SLOPE_ACROSS`]): a ramp's side slope carried compiled bots off its narrow
/// lower end onto the floor beside it.
pub(super) fn on_slope(
    map: &CollisionMap,
    s: &PlayerState,
    me: Option<EntId>,
    heading: Vec3,
) -> bool {
    let t = map.trace(
        s.origin,
        s.origin - Vec3::Z * SLOPE_PROBE,
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
/// (the sine of the angle, 30°): a slope run up or down pushes along the way, not off it
/// (docs/tuning.md).
pub(super) const SLOPE_ACROSS: f32 = 0.5;

/// Turning on a ledge toward a target no lower: the run keeps most of its speed for a few
/// ticks (Quake's ground friction takes a fifth a tick at 20 Hz), so a bot whose way bends
/// along a ledge's edge is carried over it — an explorer walking to a waypoint on a ledge's
/// edge fell off it, the one way on lost. Where the physics says `cmd` leaves the floor
/// next tick while the heading's own way stays on it, the bot wishes against the part of
/// its motion that carries it off (else straight back against its motion) instead. One
/// trace while the motion and the heading part; a predicted tick or three near an edge.
pub(super) fn hold_the_edge(
    ctx: &SteerCtx,
    s: &PlayerState,
    heading: Vec3,
    speed: f32,
    cmd: UserCmd,
) -> UserCmd {
    let (map, physics, dt, me) = (ctx.map, &ctx.physics, ctx.dt, ctx.me);
    let vel = s.velocity.truncate().extend(0.0);
    if vel.length() < HOLD_SPEED || vel.normalize().dot(heading) > HOLD_ALONG_COS {
        return cmd;
    }
    // A first look where the motion alone would carry the bot next tick: away from edges
    // one trace decides (a predicted tick on every turn kept no more of them on the floor).
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
    if !off(&cmd) || !floor_within_step(map, s.origin + heading * (speed * dt + EDGE_MARGIN), me) {
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

pub(super) fn swim(
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
