//! The narrow phase: a box swept against one brush's planes pushed out by the box's half
//! extents (the Minkowski sum), and a segment's span inside a brush.

use glam::{Vec3, Vec3A};

use super::DIST_EPSILON;
use crate::map::brush::Plane;

/// The segment `s + t·d`, t in 0..=1, with its inverse direction computed once for the
/// slab tests of a tree walk or a grid walk (four lanes at once).
pub(super) struct Segment {
    pub(super) s: Vec3A,
    /// `1 / d`, and a huge finite number along axes where the segment does not move (an
    /// infinity would make a NaN of a box face through the start).
    pub(super) inv: Vec3A,
}

impl Segment {
    pub(super) fn new(s: Vec3, d: Vec3) -> Segment {
        let inv = |d: f32| if d.abs() < 1e-9 { 1e30 } else { 1.0 / d };
        Segment {
            s: s.into(),
            inv: Vec3A::new(inv(d.x), inv(d.y), inv(d.z)),
        }
    }

    /// Slab test: where (the fraction, from 0) the segment first touches the box `mn..mx`,
    /// if it does. Along an axis where the segment does not move, a start inside the slab
    /// puts no bound on the fraction, one outside rules the box out; one exactly on the
    /// slab's face may do either (every box tested is grown by half a unit or more beyond
    /// what it holds, so what lies on its faces touches nothing inside).
    #[inline]
    pub(super) fn entry(&self, mn: Vec3A, mx: Vec3A) -> Option<f32> {
        self.entry_by(mn, mx, 1.0)
    }

    /// [`Segment::entry`] of the part of the segment up to the fraction `limit`.
    #[inline]
    pub(super) fn entry_by(&self, mn: Vec3A, mx: Vec3A, limit: f32) -> Option<f32> {
        let a = (mn - self.s) * self.inv;
        let b = (mx - self.s) * self.inv;
        let t0 = a.min(b).max_element().max(0.0);
        let t1 = a.max(b).min_element().min(limit);
        (t0 <= t1).then_some(t0)
    }

    /// Slab test: does the segment touch the box `mn..mx`?
    #[inline]
    pub(super) fn hits_box(&self, mn: Vec3A, mx: Vec3A) -> bool {
        self.entry(mn, mx).is_some()
    }
}

/// Does the segment `a`–`b` pass through the inside of the convex brush bounded by `planes`?
pub(super) fn segment_in_brush(planes: &[Plane], a: Vec3, b: Vec3) -> bool {
    segment_span(planes, a, b).is_some()
}

/// The fractions of the segment `a`–`b` where it enters and leaves the inside of the convex
/// brush bounded by `planes`, or `None` when it does not pass through it.
pub(super) fn segment_span(planes: &[Plane], a: Vec3, b: Vec3) -> Option<(f32, f32)> {
    let (mut enter, mut leave) = (0.0f32, 1.0f32);
    for p in planes {
        let da = p.normal.dot(a) - p.dist;
        let db = p.normal.dot(b) - p.dist;
        // In front of the plane, or touching it from the front: outside. A segment lying
        // in the plane is inside for this plane, as Quake III's brush trace has it: where two
        // solid brushes share a face (a floor built of two slabs), a line along the seam is
        // inside the solid, as in the compiled map, not in a gap between them.
        if da >= 0.0 && db >= 0.0 && (da > 0.0 || db > 0.0) {
            return None;
        }
        if da <= 0.0 && db <= 0.0 {
            continue;
        }
        let t = da / (da - db);
        if da >= 0.0 {
            enter = enter.max(t);
        } else {
            leave = leave.min(t);
        }
        if enter >= leave {
            return None;
        }
    }
    Some((enter, leave))
}

pub(super) fn box_planes(mins: Vec3, maxs: Vec3) -> [Plane; 6] {
    [
        Plane {
            normal: Vec3::X,
            dist: maxs.x,
        },
        Plane {
            normal: -Vec3::X,
            dist: -mins.x,
        },
        Plane {
            normal: Vec3::Y,
            dist: maxs.y,
        },
        Plane {
            normal: -Vec3::Y,
            dist: -mins.y,
        },
        Plane {
            normal: Vec3::Z,
            dist: maxs.z,
        },
        Plane {
            normal: -Vec3::Z,
            dist: -mins.z,
        },
    ]
}

/// Clips the sweep of a box (centre `s` to `e`, half extents `half`) against one convex
/// set of planes (a brush's planes pushed out by `half`, Quake III's way).
pub(super) fn clip_planes(planes: &[Plane], s: Vec3, e: Vec3, half: Vec3) -> Clip {
    // A ray's planes are not pushed out: the same sums less three products a plane
    // (adding zero changes no distance).
    if half == Vec3::ZERO {
        clip_pushed::<false>(planes, s, e, half)
    } else {
        clip_pushed::<true>(planes, s, e, half)
    }
}

#[inline(always)]
pub(super) fn clip_pushed<const BOX: bool>(planes: &[Plane], s: Vec3, e: Vec3, half: Vec3) -> Clip {
    let mut enter = -1.0f32;
    let mut leave = 1.0f32;
    let mut hit_normal = Vec3::ZERO;
    let mut get_out = false;
    let mut start_out = false;
    for p in planes {
        let dist = if BOX {
            p.dist + p.normal.abs().dot(half)
        } else {
            p.dist
        };
        let d1 = p.normal.dot(s) - dist;
        let d2 = p.normal.dot(e) - dist;
        if d2 > 0.0 {
            get_out = true;
        }
        if d1 > 0.0 {
            start_out = true;
        }
        // Entirely in front of this plane: the sweep cannot touch the brush.
        if d1 > 0.0 && (d2 >= DIST_EPSILON || d2 >= d1) {
            return Clip::Miss;
        }
        if d1 <= 0.0 && d2 <= 0.0 {
            continue;
        }
        if d1 > d2 {
            let f = ((d1 - DIST_EPSILON) / (d1 - d2)).max(0.0);
            if f > enter {
                enter = f;
                hit_normal = p.normal;
            }
        } else {
            let f = ((d1 + DIST_EPSILON) / (d1 - d2)).min(1.0);
            if f < leave {
                leave = f;
            }
        }
    }
    if !start_out {
        return Clip::Inside {
            all_solid: !get_out,
        };
    }
    if enter < leave && enter > -1.0 {
        Clip::Enter {
            at: enter,
            normal: hit_normal,
        }
    } else {
        Clip::Miss
    }
}

/// What clipping a sweep against one convex set of planes found ([`clip_planes`]).
#[derive(Clone, Copy)]
pub(super) enum Clip {
    /// The sweep does not touch it.
    Miss,
    /// The sweep starts inside; `all_solid` when it also ends inside.
    Inside { all_solid: bool },
    /// The sweep enters it at the fraction `at` (0..1: a 1/32 unit short of the plane,
    /// or 0 where the start is nearer than that), through the plane of `normal`.
    Enter { at: f32, normal: Vec3 },
}
