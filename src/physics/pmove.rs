//! Quake 1 player movement as one pure function: [`pmove`] takes a player state, a user
//! command, the collision world and a time step, and returns the next state. Prediction,
//! reachability and the travel-time planner call this same function; it never touches the
//! ECS.
//!
//! It follows QuakeWorld's `pmove.c` (friction with edge friction, ground acceleration,
//! air acceleration capped at 30, step-up of 18 units, slide along up to four planes, water
//! levels 0..3, swimming, jumping out of water) with one change taken from Quake III: gravity
//! is integrated with the averaged velocity over the step, so a jump follows the analytic
//! parabola at any tick rate (a jump peaks at 45.6 units). [`Integration::Quake`] integrates
//! as QuakeWorld does instead (velocity first, then the move: the peak depends on the tick
//! rate, 43.7 units at 72 Hz and 39.0 at 20 Hz).

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::map::{CollisionMap, Contents, EntId};

/// Player box minimum relative to the origin.
pub const PLAYER_MINS: Vec3 = Vec3::new(-16.0, -16.0, -24.0);
/// Player box maximum relative to the origin.
pub const PLAYER_MAXS: Vec3 = Vec3::new(16.0, 16.0, 32.0);
/// Eye height above the origin.
pub const EYE_HEIGHT: f32 = 22.0;
/// Highest step walked up without jumping.
pub const STEP_SIZE: f32 = 18.0;
/// Upward speed a jump adds.
pub const JUMP_SPEED: f32 = 270.0;
/// Ground normals steeper than this are walls, not floors.
pub const MIN_FLOOR_NORMAL_Z: f32 = 0.7;
/// Velocity components smaller than this are zeroed after clipping (Quake's STOP_EPSILON).
const STOP_EPSILON: f32 = 0.1;
const MAX_CLIP_PLANES: usize = 5;

/// The movement constants (Quake 1 defaults) and what the player collides with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhysicsParams {
    /// Units per second squared.
    pub gravity: f32,
    /// Fastest wished speed.
    pub max_speed: f32,
    /// Ground acceleration.
    pub accelerate: f32,
    /// Air acceleration (wished speed in air is capped at 30).
    pub air_accelerate: f32,
    /// Water acceleration.
    pub water_accelerate: f32,
    /// Ground friction.
    pub friction: f32,
    /// Extra friction factor when the leading edge is over a drop.
    pub edge_friction: f32,
    /// Water friction.
    pub water_friction: f32,
    /// Below this speed friction acts as if at this speed.
    pub stop_speed: f32,
    /// What stops the player.
    pub mask: Contents,
    /// How gravity is integrated over a step.
    #[serde(default)]
    pub integration: Integration,
}

/// How gravity is integrated over a step in the air.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Integration {
    /// Move with the mean of the step's start and end vertical speed: positions lie on the
    /// exact parabola at any tick rate (Quake III's way).
    #[default]
    Exact,
    /// QuakeWorld's `PM_AirMove`: gravity is taken off the velocity first, then the player
    /// moves with it, so jumps fall short of the parabola by more the coarser the ticks.
    Quake,
}

impl Integration {
    /// The integration a user names: `exact` or `quake`.
    pub fn from_name(name: &str) -> Result<Integration, String> {
        match name {
            "exact" => Ok(Integration::Exact),
            "quake" => Ok(Integration::Quake),
            o => Err(format!("{o:?}: expected exact or quake")),
        }
    }
}

impl Default for PhysicsParams {
    fn default() -> Self {
        PhysicsParams {
            gravity: 800.0,
            max_speed: 320.0,
            accelerate: 10.0,
            air_accelerate: 10.0,
            water_accelerate: 10.0,
            friction: 4.0,
            edge_friction: 2.0,
            water_friction: 4.0,
            stop_speed: 100.0,
            mask: Contents::MASK_PLAYER,
            integration: Integration::Exact,
        }
    }
}

/// Everything the movement code knows about one player.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Box origin (feet are 24 units below).
    pub origin: Vec3,
    /// Units per second.
    pub velocity: Vec3,
    /// View yaw, degrees (0 = +X, 90 = +Y).
    pub yaw: f32,
    /// View pitch, degrees (positive looks down).
    pub pitch: f32,
    /// What the player stands on, if anything.
    pub on_ground: Option<EntId>,
    /// How deep in liquid: 0 dry, 1 feet, 2 waist, 3 eyes under.
    pub water_level: u8,
    /// The liquid at the feet (EMPTY when dry).
    pub water_type: Contents,
    /// Jump was held last command (must be released before the next jump).
    pub jump_held: bool,
    /// Seconds left of a jump out of water (no friction or control meanwhile).
    pub water_jump_time: f32,
    /// Seconds left after a teleport during which backward movement is ignored.
    pub teleport_time: f32,
}

impl PlayerState {
    /// A player standing still at `origin` facing `yaw`.
    pub fn at(origin: Vec3, yaw: f32) -> PlayerState {
        PlayerState {
            origin,
            velocity: Vec3::ZERO,
            yaw,
            pitch: 0.0,
            on_ground: None,
            water_level: 0,
            water_type: Contents::EMPTY,
            jump_held: false,
            water_jump_time: 0.0,
            teleport_time: 0.0,
        }
    }

    /// The eye position.
    pub fn eye(&self) -> Vec3 {
        self.origin + Vec3::new(0.0, 0.0, EYE_HEIGHT)
    }
}

/// One tick of a player's input, in Quake's terms (speeds in units per second).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UserCmd {
    /// Forward (+) / back (-) speed wished.
    pub forward_move: f32,
    /// Right (+) / left (-) speed wished.
    pub side_move: f32,
    /// Up (+) / down (-) speed wished when swimming.
    pub up_move: f32,
    /// View yaw, degrees.
    pub yaw: f32,
    /// View pitch, degrees.
    pub pitch: f32,
    /// Jump button.
    pub jump: bool,
}

/// What happened during one move, for sounds and game rules.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveEvents {
    /// A jump started (from ground or out of water).
    pub jumped: bool,
    /// Landed on ground this step, with the downward speed before landing.
    pub landed: Option<f32>,
}

/// Quake's AngleVectors without roll: (forward, right) for a yaw and pitch in degrees.
pub fn angle_vectors(yaw: f32, pitch: f32) -> (Vec3, Vec3) {
    let (sy, cy) = yaw.to_radians().sin_cos();
    let (sp, cp) = pitch.to_radians().sin_cos();
    let forward = Vec3::new(cp * cy, cp * sy, -sp);
    let right = Vec3::new(sy, -cy, 0.0);
    (forward, right)
}

/// Removes the part of `v` going into the plane (`overbounce` 1 slides exactly along it).
pub fn clip_velocity(v: Vec3, normal: Vec3, overbounce: f32) -> Vec3 {
    let backoff = v.dot(normal) * overbounce;
    let mut out = v - normal * backoff;
    for i in 0..3 {
        if out[i].abs() < STOP_EPSILON {
            out[i] = 0.0;
        }
    }
    out
}

struct Ctx<'a> {
    map: &'a CollisionMap,
    p: &'a PhysicsParams,
    me: Option<EntId>,
    dt: f32,
}

impl Ctx<'_> {
    fn trace(&self, a: Vec3, b: Vec3) -> crate::map::Trace {
        self.map
            .trace(a, b, PLAYER_MINS, PLAYER_MAXS, self.p.mask, self.me)
    }
}

/// Advances one player by `dt` seconds under `cmd`. `me` is the player's own body id, which
/// traces ignore. Pure: the same inputs give the same output.
pub fn pmove(
    state: &PlayerState,
    cmd: &UserCmd,
    map: &CollisionMap,
    params: &PhysicsParams,
    dt: f32,
    me: Option<EntId>,
) -> (PlayerState, MoveEvents) {
    let ctx = Ctx {
        map,
        p: params,
        me,
        dt,
    };
    let mut s = *state;
    let mut ev = MoveEvents::default();
    s.yaw = cmd.yaw;
    s.pitch = cmd.pitch.clamp(-89.0, 89.0);
    let mut cmd = *cmd;
    if s.teleport_time > 0.0 {
        // Quake: just after a teleport the player cannot back into the teleporter.
        s.teleport_time = (s.teleport_time - dt).max(0.0);
        cmd.forward_move = cmd.forward_move.max(0.0);
    }
    let was_on_ground = s.on_ground.is_some();
    let fall_speed = -s.velocity.z;

    categorize_position(&ctx, &mut s);
    if s.water_level == 2 {
        check_water_jump(&ctx, &mut s, &mut ev);
    }
    if s.velocity.z < 0.0 {
        s.water_jump_time = 0.0;
    }
    if cmd.jump {
        jump_button(&mut s, &mut ev);
    } else {
        s.jump_held = false;
    }
    friction(&ctx, &mut s);
    if s.water_level >= 2 {
        water_move(&ctx, &mut s, &cmd);
    } else {
        air_move(&ctx, &mut s, &cmd);
    }
    categorize_position(&ctx, &mut s);
    if s.water_jump_time > 0.0 {
        s.water_jump_time = (s.water_jump_time - dt).max(0.0);
    }
    if !was_on_ground && s.on_ground.is_some() {
        ev.landed = Some(fall_speed.max(0.0));
    }
    (s, ev)
}

/// Finds ground (a floor within 1 unit below, unless rising fast) and the water level.
fn categorize_position(ctx: &Ctx, s: &mut PlayerState) {
    let down = s.origin - Vec3::new(0.0, 0.0, 1.0);
    if s.velocity.z > 180.0 {
        s.on_ground = None;
    } else {
        let tr = ctx.trace(s.origin, down);
        if tr.fraction < 1.0 && tr.normal.z >= MIN_FLOOR_NORMAL_Z {
            s.on_ground = tr.ent;
            s.water_jump_time = 0.0;
            if !tr.start_solid && !tr.all_solid {
                s.origin = tr.end_pos;
            }
        } else {
            s.on_ground = None;
        }
    }
    let (level, kind) = water_level(ctx.map, s.origin);
    s.water_level = level;
    s.water_type = kind;
}

/// How deep a player at `origin` stands in liquid (0..3) and which liquid.
pub fn water_level(map: &CollisionMap, origin: Vec3) -> (u8, Contents) {
    let feet = map.point_contents(origin + Vec3::new(0.0, 0.0, PLAYER_MINS.z + 1.0));
    let liquid = feet.liquid();
    if liquid.is_empty() {
        return (0, Contents::EMPTY);
    }
    let waist = origin + Vec3::new(0.0, 0.0, (PLAYER_MINS.z + PLAYER_MAXS.z) * 0.5);
    if !map.point_contents(waist).intersects(Contents::LIQUID) {
        return (1, liquid);
    }
    if !map
        .point_contents(origin + Vec3::new(0.0, 0.0, EYE_HEIGHT))
        .intersects(Contents::LIQUID)
    {
        return (2, liquid);
    }
    (3, liquid)
}

/// QuakeWorld's CheckWaterJump (pmove.c): waist-deep and facing a ledge (solid 24 units
/// ahead at knee height, air above it), the player hops out — whatever its input, as QW
/// asks only which way it faces.
fn check_water_jump(ctx: &Ctx, s: &mut PlayerState, ev: &mut MoveEvents) {
    if s.water_jump_time > 0.0 || s.velocity.z < -180.0 {
        return;
    }
    let (fwd, _) = angle_vectors(s.yaw, 0.0);
    let flat = Vec3::new(fwd.x, fwd.y, 0.0).normalize_or_zero();
    let mut spot = s.origin + flat * 24.0;
    spot.z += 8.0;
    if !ctx.map.point_contents(spot).intersects(Contents::SOLID) {
        return;
    }
    spot.z += 24.0;
    if !ctx.map.point_contents(spot).is_empty() {
        return;
    }
    s.velocity = flat * 50.0;
    s.velocity.z = 310.0;
    s.water_jump_time = 2.0;
    s.jump_held = true;
    ev.jumped = true;
}

fn jump_button(s: &mut PlayerState, ev: &mut MoveEvents) {
    if s.water_jump_time > 0.0 {
        return;
    }
    if s.water_level >= 2 {
        s.on_ground = None;
        s.velocity.z = if s.water_type == Contents::WATER {
            100.0
        } else if s.water_type == Contents::SLIME {
            80.0
        } else {
            50.0
        };
        return;
    }
    if s.on_ground.is_none() || s.jump_held {
        return;
    }
    s.on_ground = None;
    s.velocity.z += JUMP_SPEED;
    s.jump_held = true;
    ev.jumped = true;
}

fn friction(ctx: &Ctx, s: &mut PlayerState) {
    if s.water_jump_time > 0.0 {
        return;
    }
    let speed = s.velocity.length();
    if speed < 1.0 {
        s.velocity.x = 0.0;
        s.velocity.y = 0.0;
        return;
    }
    let mut friction = ctx.p.friction;
    if s.on_ground.is_some() {
        // If the leading edge is over a drop, slow down more (Quake's edge friction).
        let mut start = s.origin + s.velocity / speed * 16.0;
        start.z = s.origin.z + PLAYER_MINS.z;
        let stop = start - Vec3::new(0.0, 0.0, 34.0);
        let tr = ctx.trace(start, stop);
        if tr.fraction == 1.0 {
            friction *= ctx.p.edge_friction;
        }
    }
    let mut drop = 0.0;
    if s.water_level >= 2 {
        drop += speed * ctx.p.water_friction * s.water_level as f32 * ctx.dt;
    } else if s.on_ground.is_some() {
        let control = speed.max(ctx.p.stop_speed);
        drop += control * friction * ctx.dt;
    }
    let new_speed = (speed - drop).max(0.0) / speed;
    s.velocity *= new_speed;
}

fn accelerate(ctx: &Ctx, s: &mut PlayerState, wishdir: Vec3, wishspeed: f32, accel: f32) {
    if s.water_jump_time > 0.0 {
        return;
    }
    let current = s.velocity.dot(wishdir);
    let add = wishspeed - current;
    if add <= 0.0 {
        return;
    }
    let acc = (accel * ctx.dt * wishspeed).min(add);
    s.velocity += wishdir * acc;
}

fn air_accelerate(ctx: &Ctx, s: &mut PlayerState, wishdir: Vec3, wishspeed: f32) {
    if s.water_jump_time > 0.0 {
        return;
    }
    let wishspd = wishspeed.min(30.0);
    let current = s.velocity.dot(wishdir);
    let add = wishspd - current;
    if add <= 0.0 {
        return;
    }
    let acc = (ctx.p.air_accelerate * wishspeed * ctx.dt).min(add);
    s.velocity += wishdir * acc;
}

fn air_move(ctx: &Ctx, s: &mut PlayerState, cmd: &UserCmd) {
    let (fwd, right) = angle_vectors(s.yaw, s.pitch);
    let fwd = Vec3::new(fwd.x, fwd.y, 0.0).normalize_or_zero();
    let right = Vec3::new(right.x, right.y, 0.0).normalize_or_zero();
    let mut wishvel = fwd * cmd.forward_move + right * cmd.side_move;
    wishvel.z = 0.0;
    let mut wishspeed = wishvel.length();
    let wishdir = wishvel.normalize_or_zero();
    if wishspeed > ctx.p.max_speed {
        wishspeed = ctx.p.max_speed;
    }
    if s.on_ground.is_some() {
        s.velocity.z = 0.0;
        accelerate(ctx, s, wishdir, wishspeed, ctx.p.accelerate);
        ground_move(ctx, s);
    } else {
        air_accelerate(ctx, s, wishdir, wishspeed);
        let end_vz = s.velocity.z - ctx.p.gravity * ctx.dt;
        match ctx.p.integration {
            // Averaged-velocity gravity: move with the mean of the start and end vertical
            // speed so that positions lie on the exact parabola; keep the end speed after.
            Integration::Exact => {
                let mut end_vel = Vec3::new(s.velocity.x, s.velocity.y, end_vz);
                s.velocity.z = 0.5 * (s.velocity.z + end_vz);
                fly_move(ctx, s, Some(&mut end_vel));
                s.velocity = end_vel;
            }
            // QuakeWorld: the end speed for the whole step.
            Integration::Quake => {
                s.velocity.z = end_vz;
                fly_move(ctx, s, None);
            }
        }
    }
}

fn ground_move(ctx: &Ctx, s: &mut PlayerState) {
    s.velocity.z = 0.0;
    if s.velocity == Vec3::ZERO {
        return;
    }
    let dest = Vec3::new(
        s.origin.x + s.velocity.x * ctx.dt,
        s.origin.y + s.velocity.y * ctx.dt,
        s.origin.z,
    );
    let tr = ctx.trace(s.origin, dest);
    if tr.fraction == 1.0 {
        s.origin = tr.end_pos;
        return;
    }
    // Try sliding on the ground and sliding from a step higher; take the one that gets
    // farther.
    let original = s.origin;
    let original_vel = s.velocity;
    fly_move(ctx, s, None);
    let down = s.origin;
    let down_vel = s.velocity;

    s.origin = original;
    s.velocity = original_vel;
    let tr = ctx.trace(s.origin, s.origin + Vec3::new(0.0, 0.0, STEP_SIZE));
    if !tr.start_solid && !tr.all_solid {
        s.origin = tr.end_pos;
    }
    fly_move(ctx, s, None);
    let tr = ctx.trace(s.origin, s.origin - Vec3::new(0.0, 0.0, STEP_SIZE));
    if tr.normal.z < MIN_FLOOR_NORMAL_Z {
        // Stepping up landed on nothing walkable: keep the plain slide.
        s.origin = down;
        s.velocity = down_vel;
        return;
    }
    if !tr.start_solid && !tr.all_solid {
        s.origin = tr.end_pos;
    }
    let up = s.origin;
    let dd = (down - original).truncate().length_squared();
    let ud = (up - original).truncate().length_squared();
    if dd > ud {
        s.origin = down;
        s.velocity = down_vel;
    } else {
        s.velocity.z = down_vel.z;
    }
}

/// Slides along up to four planes; returns nothing, updates origin and velocity. When
/// `end_vel` is given it is clipped against the same planes (the averaged-gravity end speed).
fn fly_move(ctx: &Ctx, s: &mut PlayerState, mut end_vel: Option<&mut Vec3>) {
    let primal = s.velocity;
    let mut original = s.velocity;
    let mut planes = [Vec3::ZERO; MAX_CLIP_PLANES];
    let mut num_planes = 0;
    let mut time_left = ctx.dt;
    for _ in 0..4 {
        let end = s.origin + s.velocity * time_left;
        let tr = ctx.trace(s.origin, end);
        if tr.all_solid {
            // Trapped inside something: stop.
            s.velocity = Vec3::ZERO;
            if let Some(ev) = end_vel.as_deref_mut() {
                *ev = Vec3::ZERO;
            }
            return;
        }
        if tr.fraction > 0.0 {
            s.origin = tr.end_pos;
            original = s.velocity;
            num_planes = 0;
        }
        if tr.fraction == 1.0 {
            break;
        }
        time_left -= time_left * tr.fraction;
        // The same plane again, right after sliding along it: the brush trace (Quake III's,
        // which stops DIST_EPSILON short of a plane) can report a slide parallel to a
        // sloped plane as a hit at once when rounding puts the velocity a hair into it.
        // Taken as a second plane, the crease of two equal planes is no direction and the
        // player stopped dead (a runner landing on a sloped floor lost all its speed).
        // Quake III's remedy: nudge the velocity out along the plane and go on.
        if planes[..num_planes].iter().any(|p| p.dot(tr.normal) > 0.99) {
            s.velocity += tr.normal;
            continue;
        }
        if num_planes >= MAX_CLIP_PLANES {
            s.velocity = Vec3::ZERO;
            break;
        }
        planes[num_planes] = tr.normal;
        num_planes += 1;
        // Find a velocity that runs along all planes hit since the last progress.
        let mut chosen = None;
        for i in 0..num_planes {
            let v = clip_velocity(original, planes[i], 1.0);
            if (0..num_planes).all(|j| j == i || v.dot(planes[j]) >= 0.0) {
                chosen = Some((i, v));
                break;
            }
        }
        match chosen {
            Some((i, v)) => {
                s.velocity = v;
                if let Some(ev) = end_vel.as_deref_mut() {
                    *ev = clip_velocity(*ev, planes[i], 1.0);
                }
            }
            None => {
                if num_planes != 2 {
                    s.velocity = Vec3::ZERO;
                    break;
                }
                let dir = planes[0].cross(planes[1]);
                s.velocity = dir * dir.dot(s.velocity);
                if let Some(ev) = end_vel.as_deref_mut() {
                    *ev = dir * dir.dot(*ev);
                }
            }
        }
        // Moving against the original direction: stop dead to avoid jitter in corners.
        if s.velocity.dot(primal) <= 0.0 {
            s.velocity = Vec3::ZERO;
            break;
        }
    }
    if s.velocity == Vec3::ZERO
        && let Some(ev) = end_vel.as_deref_mut()
    {
        *ev = Vec3::ZERO;
    }
    if s.water_jump_time > 0.0 {
        s.velocity = primal;
        if let Some(ev) = end_vel {
            ev.x = primal.x;
            ev.y = primal.y;
        }
    }
}

fn water_move(ctx: &Ctx, s: &mut PlayerState, cmd: &UserCmd) {
    let (fwd, right) = angle_vectors(s.yaw, s.pitch);
    let mut wishvel = fwd * cmd.forward_move + right * cmd.side_move;
    if cmd.forward_move == 0.0 && cmd.side_move == 0.0 && cmd.up_move == 0.0 {
        wishvel.z -= 60.0; // drift toward the bottom
    } else {
        wishvel.z += cmd.up_move;
    }
    let mut wishspeed = wishvel.length();
    let wishdir = wishvel.normalize_or_zero();
    if wishspeed > ctx.p.max_speed {
        wishspeed = ctx.p.max_speed;
    }
    wishspeed *= 0.7;
    accelerate(ctx, s, wishdir, wishspeed, ctx.p.water_accelerate);
    // Assume a stair or slope: press down from a step above the destination.
    let dest = s.origin + s.velocity * ctx.dt;
    let start = dest + Vec3::new(0.0, 0.0, STEP_SIZE + 1.0);
    let tr = ctx.trace(start, dest);
    if !tr.start_solid && !tr.all_solid {
        s.origin = tr.end_pos;
        return;
    }
    fly_move(ctx, s, None);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angle_vectors_follow_quake_axes() {
        let (f, r) = angle_vectors(90.0, 0.0);
        assert!((f - Vec3::Y).length() < 1e-6);
        assert!((r - Vec3::X).length() < 1e-6);
        let (f, _) = angle_vectors(0.0, 90.0);
        assert!((f - -Vec3::Z).length() < 1e-6);
    }

    #[test]
    fn clip_velocity_slides_along_plane() {
        let v = clip_velocity(Vec3::new(100., 0., -50.), Vec3::Z, 1.0);
        assert_eq!(v, Vec3::new(100., 0., 0.));
    }
}
