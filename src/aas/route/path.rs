//! Path geometry: the point of an area nearest a place ([`nearest_on`]), the walk over the
//! floor between two places, where a route crosses from one area into the next
//! ([`border`]) and the string-pulled corridor through the areas a route crosses.

use glam::Vec3;

use crate::aas::mesh::{NavMesh, Reach, ReachKind};

/// The point of segment `p`–`q` nearest `x`.
pub fn nearest_on(p: glam::Vec2, q: glam::Vec2, x: glam::Vec2) -> glam::Vec2 {
    let d = q - p;
    let len2 = d.length_squared();
    if len2 < 1e-6 {
        return p;
    }
    p + d * ((x - p).dot(d) / len2).clamp(0.0, 1.0)
}

/// Whether reachability `r` is a walk between floors, which a runner takes in its stride
/// (the movement stage steers it; its measured time is from a standing start).
pub fn floor_walk(mesh: &NavMesh, r: &Reach) -> bool {
    matches!(r.kind, ReachKind::Walk | ReachKind::StepUp)
        && !mesh.areas()[r.from as usize].is_swim()
        && !mesh.areas()[r.to as usize].is_swim()
}

/// How far a runner's line keeps from the ends of the borders it crosses (units): an end is
/// often a wall's corner, which a line through it would scrape.
pub(super) const BORDER_MARGIN: f32 = 8.0;

/// The border a floor walk crosses, as (left, right) seen along the walk: the edge the two
/// areas' rectangles share, less [`BORDER_MARGIN`] at each end, or the middle of the walk
/// where they share none (their rectangles overlap, on two levels).
pub fn border(mesh: &NavMesh, r: &Reach) -> (glam::Vec2, glam::Vec2) {
    let (a, b) = (&mesh.areas()[r.from as usize], &mesh.areas()[r.to as usize]);
    let (alo, ahi, blo, bhi) = (
        a.mins.truncate(),
        a.maxs.truncate(),
        b.mins.truncate(),
        b.maxs.truncate(),
    );
    let mid = ((r.start + r.end) * 0.5).truncate();
    let near = |p: f32, q: f32| (p - q).abs() < 0.01;
    let (lo, hi) = (alo.max(blo), ahi.min(bhi));
    let (p, q) = if (near(ahi.x, blo.x) || near(bhi.x, alo.x)) && lo.y < hi.y {
        let x = if near(ahi.x, blo.x) { ahi.x } else { alo.x };
        (glam::Vec2::new(x, lo.y), glam::Vec2::new(x, hi.y))
    } else if (near(ahi.y, blo.y) || near(bhi.y, alo.y)) && lo.x < hi.x {
        let y = if near(ahi.y, blo.y) { ahi.y } else { alo.y };
        (glam::Vec2::new(lo.x, y), glam::Vec2::new(hi.x, y))
    } else {
        (mid, mid)
    };
    let (p, q) = if (q - p).length() > 2.0 * BORDER_MARGIN {
        let m = (q - p).normalize() * BORDER_MARGIN;
        (p + m, q - m)
    } else {
        let c = (p + q) * 0.5;
        (c, c)
    };
    // Left of the walk's direction first.
    let d = (r.end - r.start).truncate();
    if d.perp_dot(p - mid) >= 0.0 {
        (p, q)
    } else {
        (q, p)
    }
}

/// The shortest line from `start` to `end` through `borders` ((left, right) pairs, in
/// order): the funnel ("simple stupid funnel") string pull. Returns the corners after
/// `start`, `end` last.
pub fn string_pull(
    start: glam::Vec2,
    borders: &[(glam::Vec2, glam::Vec2)],
    end: glam::Vec2,
) -> Vec<glam::Vec2> {
    // Positive when `c` lies right of the line a -> b.
    let right_of = |a: glam::Vec2, b: glam::Vec2, c: glam::Vec2| -(b - a).perp_dot(c - a);
    let mut gates = Vec::with_capacity(borders.len() + 1);
    gates.extend_from_slice(borders);
    gates.push((end, end));
    let mut corners = Vec::new();
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut li, mut ri) = (0usize, 0usize);
    let mut i = 0;
    while i < gates.len() {
        let (l, r) = gates[i];
        // The right side closes in.
        if right_of(apex, right, r) <= 0.0 {
            if apex == right || right_of(apex, left, r) > 0.0 {
                right = r;
                ri = i + 1;
            } else {
                // Past the left side: its end is a corner.
                corners.push(left);
                apex = left;
                right = apex;
                ri = li;
                i = li;
                continue;
            }
        }
        // The left side closes in.
        if right_of(apex, left, l) >= 0.0 {
            if apex == left || right_of(apex, right, l) < 0.0 {
                left = l;
                li = i + 1;
            } else {
                corners.push(right);
                apex = right;
                left = apex;
                li = ri;
                i = ri;
                continue;
            }
        }
        i += 1;
    }
    corners.push(end);
    corners
}

/// The shortest line from `start` through the borders `walks` (floor walks, in order)
/// cross to `end`: its corners after `start`, `end` last, each at the height of the walk
/// whose border it lies on.
pub fn corridor(mesh: &NavMesh, start: Vec3, walks: &[u32], end: Vec3) -> Vec<Vec3> {
    let borders: Vec<_> = walks
        .iter()
        .map(|&r| border(mesh, &mesh.reaches()[r as usize]))
        .collect();
    let corners = string_pull(start.truncate(), &borders, end.truncate());
    let n = corners.len();
    corners
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            if k + 1 == n {
                return end;
            }
            let z = borders
                .iter()
                .zip(walks)
                .find(|((l, r), _)| *l == c || *r == c)
                .map_or(end.z, |(_, &w)| mesh.reaches()[w as usize].end.z);
            c.extend(z)
        })
        .collect()
}
