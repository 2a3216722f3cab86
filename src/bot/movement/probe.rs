//! Probes of the ground ahead: whether a box is clear or supported, where a jump or fall
//! lands, whether a walk stays on floor ([`scan_ahead`]).

use glam::Vec3;

use super::MASK;
use crate::map::{CollisionMap, Contents, EntId};
use crate::physics::pmove::{
    MIN_FLOOR_NORMAL_Z, PLAYER_MAXS, PLAYER_MINS, PhysicsParams, PlayerState, STEP_SIZE, pmove,
};
use crate::physics::predict::{PredictParams, StopEvent, predict, run_toward};

pub(super) fn rotate_z(v: Vec3, degrees: f32) -> Vec3 {
    let (s, c) = degrees.to_radians().sin_cos();
    Vec3::new(v.x * c - v.y * s, v.x * s + v.y * c, v.z)
}

pub(super) fn box_clear(map: &CollisionMap, a: Vec3, b: Vec3, me: Option<EntId>) -> bool {
    map.trace(a, b, PLAYER_MINS, PLAYER_MAXS, MASK, me).fraction >= 1.0
}

/// Spacing (units) of the floor samples [`scan_ahead`] takes along the way ahead.
const SCAN_STEP: f32 = 16.0;

/// The least way ahead (units) a jump or a drop must land to count as crossing.
const LANDING_AHEAD: f32 = 32.0;

/// How far below a step (units) floor still counts as within it.
const FLOOR_SLACK: f32 = 4.0;
/// Whether a player off the ground rests on a slope too steep to stand on (a unit below
/// it is a plane that is no floor): with no speed at all, it hangs there while it wishes
/// into the slope.
pub(super) fn hanging(map: &CollisionMap, s: &PlayerState, me: Option<EntId>) -> bool {
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
pub(super) enum Ahead {
    Clear,
    Bad { distance: f32, hazard: bool },
}

/// How far (units) the samples of a scan may stand from where an earlier scan took them
/// for its answer to stand in for theirs: half the samples' spacing, the scan's own
/// resolution along its line.
const REUSE_DRIFT: f32 = SCAN_STEP / 2.0;

/// The stretch of floor a [`scan_ahead`] found clear, kept between ticks so that the next
/// scan along the same line samples only beyond it: a bot running on along its heading
/// would ask again about the floor it asked about a tick ago, seven samples of eight.
/// Good while the geometry stands as it was ([`CollisionMap::geometry`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScanMemo {
    origin: Vec3,
    dir: Vec3,
    /// The farthest sample found clear, along `dir` from `origin`.
    clear_to: f32,
    max_drop: f32,
    hazards: Contents,
    geometry: u64,
}

/// Samples the floor every 16 units along `dir` up to `range`: the first spot with no floor
/// within `max_drop`, or with `hazards` (lava, slime) on top. Samples within the clear
/// stretch `memo` holds, where they stand within [`REUSE_DRIFT`] of its line, are taken as
/// clear; `memo` is left holding the clear stretch of this scan.
pub(super) fn scan_ahead(
    map: &CollisionMap,
    origin: Vec3,
    dir: Vec3,
    range: f32,
    max_drop: f32,
    hazards: Contents,
    memo: &mut Option<ScanMemo>,
) -> Ahead {
    let mut d = SCAN_STEP;
    // Along the kept line: how far this scan's origin is along it, and the memo to extend.
    let mut base = None;
    if let Some(m) = *memo
        && m.geometry == map.geometry()
        && m.max_drop == max_drop
        && m.hazards == hazards
        && origin.z == m.origin.z
    {
        let off = origin - m.origin;
        let along = off.dot(m.dir);
        let side = (off - m.dir * along).length();
        if along >= 0.0 && side + (dir - m.dir).length() * range <= REUSE_DRIFT {
            while d <= range && along + d <= m.clear_to {
                d += SCAN_STEP;
            }
            base = Some((m, along));
        }
    }
    // The memo this scan leaves: the kept one extended, or a new one from here.
    let mut keep = |clear: f32| {
        *memo = Some(match base {
            Some((m, along)) => ScanMemo {
                clear_to: m.clear_to.max(along + clear),
                ..m
            },
            None => ScanMemo {
                origin,
                dir,
                clear_to: clear,
                max_drop,
                hazards,
                geometry: map.geometry(),
            },
        });
    };
    while d <= range {
        let p = origin + dir * d;
        let t = map.trace_ray(
            p,
            p - Vec3::new(0.0, 0.0, -PLAYER_MINS.z + max_drop),
            MASK | Contents::LIQUID,
            None,
        );
        if t.start_solid {
            keep(d - SCAN_STEP);
            return Ahead::Clear; // a wall or step ahead: the feelers deal with it
        }
        let floor_under_ray =
            t.fraction < 1.0 && t.normal.z >= MIN_FLOOR_NORMAL_Z && !t.contents.intersects(hazards);
        if !floor_under_ray && box_supported(map, p, max_drop, hazards) {
            // The ray fell through a hole the player's box bridges (dm4's grates over lava).
            d += SCAN_STEP;
            continue;
        }
        if t.fraction >= 1.0
            || (t.contents.intersects(Contents::SOLID) && t.normal.z < MIN_FLOOR_NORMAL_Z)
        {
            keep(d - SCAN_STEP);
            return Ahead::Bad {
                distance: d,
                hazard: false,
            };
        }
        if t.contents.intersects(hazards) {
            keep(d - SCAN_STEP);
            return Ahead::Bad {
                distance: d,
                hazard: true,
            };
        }
        d += SCAN_STEP;
    }
    keep(d - SCAN_STEP);
    Ahead::Clear
}

/// Whether a player's box dropped from `p` lands on floor within `max_drop` with its feet out
/// of `hazards` (Quake hurts by the contents at the feet's centre, not under the box).
pub(super) fn box_supported(map: &CollisionMap, p: Vec3, max_drop: f32, hazards: Contents) -> bool {
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
        && t.normal.z >= MIN_FLOOR_NORMAL_Z
        && !map.point_contents(feet).intersects(hazards)
}

/// Whether a running jump from `s` along `dir` lands safely: on ground or in water, not in
/// lava or slime, no deeper than `max_drop` below, and past where it took off.
pub(super) fn jump_lands(
    map: &CollisionMap,
    s: &PlayerState,
    dir: Vec3,
    physics: &PhysicsParams,
    max_drop: f32,
    me: Option<EntId>,
) -> bool {
    landing(map, s, dir, true, physics, max_drop, me)
        .is_some_and(|end| (end - s.origin).dot(dir) > LANDING_AHEAD)
}

/// Where running on along `dir` at full speed (jumping first when `jump`) comes down on
/// ground or into water, no deeper than `max_drop` below; `None` for lava, slime, a deeper
/// fall or no landing within the prediction's horizon.
pub(super) fn landing(
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
pub(super) fn falls_safely(
    map: &CollisionMap,
    s: &PlayerState,
    dir: Vec3,
    physics: &PhysicsParams,
    max_drop: f32,
    me: Option<EntId>,
) -> bool {
    landing(map, s, dir, false, physics, max_drop, me).is_some_and(|end| {
        end.z < s.origin.z - STEP_SIZE && (end - s.origin).dot(dir) > LANDING_AHEAD
    })
}

/// Whether running along `dir` climbs: two ticks of the real physics at full speed from `s`
/// step up, advance at least half the distance and stay on the ground. The two feelers see a staircase
/// as a wall (the box raised by one step meets the second step within the feeling distance),
/// but the physics climbs it step by step; jumping there instead throws the bot off the
/// stairs' side.
pub(super) fn walks_on(
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

/// Whether a player's box at `p` has floor within a step below it.
pub(super) fn floor_within_step(map: &CollisionMap, p: Vec3, me: Option<EntId>) -> bool {
    let t = map.trace(
        p,
        p - Vec3::Z * (STEP_SIZE + FLOOR_SLACK),
        PLAYER_MINS,
        PLAYER_MAXS,
        MASK,
        me,
    );
    !t.start_solid && t.fraction < 1.0 && t.normal.z >= 0.7
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::builder::MapBuilder;
    use crate::map::collision::traces_on_this_thread;

    /// A floor from x −512 to 256, a gap, and floor again from 384 on (deeper than any
    /// drop a scan allows below it: the pit's bottom is 1,000 units down).
    fn gap_map() -> CollisionMap {
        let mut b = MapBuilder::new();
        b.solid(
            Vec3::new(-512., -256., -16.),
            Vec3::new(256., 256., 0.),
            "F",
        );
        b.solid(Vec3::new(384., -256., -16.), Vec3::new(900., 256., 0.), "F");
        b.solid(
            Vec3::new(-512., -256., -1016.),
            Vec3::new(900., 256., -1000.),
            "P",
        );
        b.build().1
    }

    fn scan(map: &CollisionMap, x: f32, y: f32, memo: &mut Option<ScanMemo>) -> (Ahead, u64) {
        let before = traces_on_this_thread();
        let origin = Vec3::new(x, y, -PLAYER_MINS.z);
        let a = scan_ahead(map, origin, Vec3::X, 128.0, 200.0, Contents::LAVA, memo);
        (a, traces_on_this_thread() - before)
    }

    #[test]
    fn a_scan_along_the_same_line_samples_only_beyond_the_last() {
        let map = gap_map();
        let mut memo = None;
        let (first, cost) = scan(&map, -400.0, 0.0, &mut memo);
        assert_eq!(first, Ahead::Clear);
        assert_eq!(cost, 8, "eight samples, each a ray");
        // A tick on (16 units, and a little to the side): one new sample.
        let (next, cost) = scan(&map, -384.0, 2.0, &mut memo);
        assert_eq!(next, Ahead::Clear);
        assert_eq!(cost, 1);
        // Approaching the gap, every answer is the one a fresh scan gives.
        for x in (-368..200).step_by(16) {
            let x = x as f32;
            let (kept, _) = scan(&map, x, 2.0, &mut memo);
            let (fresh, _) = scan(&map, x, 2.0, &mut None);
            assert_eq!(kept, fresh, "at x {x}");
        }
        assert!(matches!(
            scan(&map, 192.0, 2.0, &mut memo).0,
            Ahead::Bad { .. }
        ));
    }

    #[test]
    fn a_scan_off_the_line_or_on_moved_geometry_samples_afresh() {
        let map = gap_map();
        let mut memo = None;
        scan(&map, -400.0, 0.0, &mut memo);
        // Beside the line by more than the drift allowed.
        let kept = memo;
        assert_eq!(scan(&map, -384.0, REUSE_DRIFT + 1.0, &mut memo).1, 8);
        // The same line on a map whose geometry is another.
        let mut memo = kept;
        let other = gap_map();
        assert_eq!(scan(&other, -384.0, 0.0, &mut memo).1, 8);
        // Turned: the far samples would stand more than the drift away.
        let mut memo = kept;
        let before = traces_on_this_thread();
        let dir = Vec3::new(1.0, 0.1, 0.0).normalize();
        let origin = Vec3::new(-384.0, 0.0, -PLAYER_MINS.z);
        scan_ahead(&map, origin, dir, 128.0, 200.0, Contents::LAVA, &mut memo);
        assert_eq!(traces_on_this_thread() - before, 8);
    }
}
