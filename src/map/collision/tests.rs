use super::*;

use glam::Vec3;

use super::clip::{clip_planes, segment_in_brush};
use super::grid::grid_answers;
use super::sight::{NO_BLOCKER, SIGHT_CELL};
use super::trace::{FIRST_PART, Work, overlaps};
use crate::map::brush::{Brush, Contents};

/// Seeded numbers in `lo..hi` (xorshift): random tests that are the same every run.
fn uniform(mut seed: u64) -> impl FnMut(f32, f32) -> f32 {
    move |lo, hi| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        lo + (hi - lo) * ((seed >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// `n` solid boxes centred within ±`span.0` across and ±`span.1` up, half sizes from 4 to
/// `half.0` across and from `half.1` to `half.2` up.
/// `n` boxes on a 16-unit lattice (so that some share faces: ties), every `other.0`-th
/// (from the first) of contents `other.1`, the rest solid.
fn lattice_boxes(
    rnd: &mut impl FnMut(f32, f32) -> f32,
    n: usize,
    other: (usize, Contents),
) -> Vec<Brush> {
    let q = |v: f32| (v / 16.0).round() * 16.0;
    (0..n)
        .map(|k| {
            let lo = Vec3::new(
                q(rnd(-700., 700.)),
                q(rnd(-700., 700.)),
                q(rnd(-300., 300.)),
            );
            let size = Vec3::new(q(rnd(16., 160.)), q(rnd(16., 160.)), q(rnd(16., 96.)));
            let c = if k % other.0 == 0 {
                other.1
            } else {
                Contents::SOLID
            };
            Brush::from_box(lo, lo + size, c)
        })
        .collect()
}

fn random_boxes(
    rnd: &mut impl FnMut(f32, f32) -> f32,
    n: usize,
    span: (f32, f32),
    half: (f32, f32, f32),
) -> Vec<Brush> {
    (0..n)
        .map(|_| {
            let c = Vec3::new(
                rnd(-span.0, span.0),
                rnd(-span.0, span.0),
                rnd(-span.1, span.1),
            );
            let h = Vec3::new(rnd(4., half.0), rnd(4., half.0), rnd(half.1, half.2));
            Brush::from_box(c - h, c + h, Contents::SOLID)
        })
        .collect()
}

/// What a trace of the box `half` from `s` to `e` (centres) should answer: every static
/// brush of `mask` overlapping the sweep clipped in index order, with no grid or tree.
fn clip_every_brush(map: &CollisionMap, s: Vec3, e: Vec3, half: Vec3, mask: Contents) -> Work {
    let (lo, hi) = (s.min(e) - half - Vec3::ONE, s.max(e) + half + Vec3::ONE);
    let mut w = Work::new();
    for br in map.brushes.iter() {
        if overlaps(lo, hi, br.mins, br.maxs) && br.contents.intersects(mask) && !w.all_solid {
            w.take(
                clip_planes(&br.clip_planes, s, e, half),
                br.contents,
                EntId::WORLD,
            );
        }
    }
    w
}

fn room() -> CollisionMap {
    // Floor top at z=0, a wall whose face is at x=100, a box from (200,0,0) upwards.
    let floor = Brush::from_box(
        Vec3::new(-512., -512., -16.),
        Vec3::new(512., 512., 0.),
        Contents::SOLID,
    );
    let wall = Brush::from_box(
        Vec3::new(100., -512., 0.),
        Vec3::new(116., 512., 256.),
        Contents::SOLID,
    );
    CollisionMap::new(vec![floor, wall], vec![])
}

#[test]
fn ray_hits_floor_at_its_height() {
    let m = room();
    let t = m.trace_ray(
        Vec3::new(0., 0., 100.),
        Vec3::new(0., 0., -100.),
        Contents::MASK_SIGHT,
        None,
    );
    assert!(t.fraction < 1.0);
    assert!((t.end_pos.z - 0.0).abs() < 0.05, "{}", t.end_pos.z);
    assert_eq!(t.normal, Vec3::Z);
    assert_eq!(t.ent, Some(EntId::WORLD));
}

#[test]
fn player_box_stops_at_wall_minus_half_width() {
    let m = room();
    let t = m.trace(
        Vec3::new(0., 0., 25.),
        Vec3::new(300., 0., 25.),
        Vec3::new(-16., -16., -24.),
        Vec3::new(16., 16., 32.),
        Contents::MASK_PLAYER,
        None,
    );
    assert!((t.end_pos.x - 84.0).abs() < 0.05, "{}", t.end_pos.x);
    assert_eq!(t.normal, -Vec3::X);
    assert!(!t.start_solid);
}

#[test]
fn start_in_solid_is_reported() {
    let m = room();
    let t = m.trace_ray(
        Vec3::new(0., 0., -8.),
        Vec3::new(0., 0., -10.),
        Contents::MASK_SIGHT,
        None,
    );
    assert!(t.start_solid && t.all_solid);
    assert_eq!(t.fraction, 0.0);
    let t = m.trace_ray(
        Vec3::new(0., 0., -8.),
        Vec3::new(0., 0., 50.),
        Contents::MASK_SIGHT,
        None,
    );
    assert!(t.start_solid && !t.all_solid);
}

#[test]
fn the_grid_walk_finds_every_brush_a_line_crosses() {
    // Random boxes and random segments (long ones, short ones, ones starting or ending
    // outside the geometry): line_clear against testing every brush.
    let mut rnd = uniform(0x2545_f491_4f6c_dd1d);
    let brushes = random_boxes(&mut rnd, 150, (900., 300.), (200., 4., 120.));
    let map = CollisionMap::new(brushes.clone(), vec![]);
    let mut blocked = 0;
    for k in 0..3000 {
        let span = if k % 3 == 0 { 2600.0 } else { 700.0 };
        let a = Vec3::new(rnd(-span, span), rnd(-span, span), rnd(-500., 500.));
        let b = if k % 5 == 0 {
            a + Vec3::new(rnd(-40., 40.), rnd(-40., 40.), rnd(-40., 40.))
        } else if k % 7 == 0 {
            // Straight up or down, and along one axis: the walk's flat axes.
            Vec3::new(a.x, a.y, rnd(-500., 500.))
        } else if k % 11 == 0 {
            Vec3::new(rnd(-span, span), a.y, a.z)
        } else {
            Vec3::new(rnd(-span, span), rnd(-span, span), rnd(-500., 500.))
        };
        let want = !brushes.iter().any(|br| segment_in_brush(&br.planes, a, b));
        assert_eq!(map.line_clear(a, b, Contents::SOLID), want, "{a} -> {b}");
        blocked += !want as usize;
    }
    assert!(
        blocked > 300 && blocked < 2700,
        "both kinds tested: {blocked}"
    );
}

#[test]
fn a_hinted_line_test_answers_as_the_plain_one_whatever_the_hint() {
    // Any hint (none, a brush out of range, a random brush, the last answer's blocker
    // for a line moved a little, as a sight line a tick later) gives line_clear's
    // answer, and the hint left behind names a brush that blocks the line (water here
    // does not: the sight mask ignores it), or none when the line is clear.
    let mut rnd = uniform(0x5851_f42d_4c95_7f2d);
    let brushes = lattice_boxes(&mut rnd, 300, (6, Contents::WATER));
    let map = CollisionMap::new(brushes.clone(), vec![]);
    let mask = Contents::MASK_SIGHT;
    let (mut last, mut a, mut b) = (NO_BLOCKER, Vec3::ZERO, Vec3::ZERO);
    let (mut blocked, mut kept) = (0, 0);
    for k in 0..4000 {
        let mut hint = match k % 4 {
            0 => NO_BLOCKER,
            1 => brushes.len() as u32 + 3,
            2 => rnd(0., brushes.len() as f32 - 1.0) as u32,
            _ => last,
        };
        if k % 4 == 3 {
            let step = |rnd: &mut dyn FnMut(f32, f32) -> f32| {
                Vec3::new(rnd(-6., 6.), rnd(-6., 6.), rnd(-2., 2.))
            };
            a += step(&mut rnd);
            b += step(&mut rnd);
        } else {
            a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
            b = a + Vec3::new(rnd(-900., 900.), rnd(-900., 900.), rnd(-300., 300.));
        }
        let want = map.line_clear(a, b, mask);
        let before = hint;
        assert_eq!(
            map.line_clear_hinted(a, b, mask, &mut hint),
            want,
            "{a} -> {b}"
        );
        if want {
            assert_eq!(hint, NO_BLOCKER, "{a} -> {b}");
        } else {
            // No movers here: a blocked line always names its brush.
            let br = &brushes[hint as usize];
            assert!(br.contents.intersects(mask), "{a} -> {b}");
            assert!(segment_in_brush(&br.planes, a, b), "{a} -> {b}");
            kept += (k % 4 == 3 && hint == before) as usize;
        }
        blocked += !want as usize;
        last = hint;
    }
    assert!(
        blocked > 400 && blocked < 3600,
        "both kinds tested: {blocked}"
    );
    assert!(kept > 50, "the last blocker mostly still blocks: {kept}");
}

#[test]
fn short_box_sweeps_from_the_grid_clip_what_a_scan_of_every_brush_clips() {
    // Random boxes and player-box sweeps short enough for the grid: the same fraction,
    // normal and flags as clipping every overlapping brush in index order.
    let mut rnd = uniform(0x5851_f42d_4c95_7f2d);
    let brushes = random_boxes(&mut rnd, 200, (700., 300.), (160., 2., 100.));
    let map = CollisionMap::new(brushes, vec![]);
    let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
    let (centre, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
    let mut hit = 0;
    for _ in 0..3000 {
        let a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
        let b = a + Vec3::new(rnd(-60., 60.), rnd(-60., 60.), rnd(-60., 60.));
        let t = map.trace(a, b, mins, maxs, Contents::MASK_PLAYER, None);
        let w = clip_every_brush(&map, a + centre, b + centre, half, Contents::MASK_PLAYER);
        let want = (w.fraction, w.normal, w.start_solid, w.all_solid);
        assert_eq!(
            (t.fraction, t.normal, t.start_solid, t.all_solid),
            want,
            "{a} -> {b}"
        );
        hit += (t.fraction < 1.0) as usize;
    }
    assert!(hit > 300 && hit < 2700, "both kinds tested: {hit}");
}

#[test]
fn long_box_sweeps_from_the_tree_clip_what_a_scan_of_every_brush_clips() {
    // Player-box sweeps too long across for the grid walk the tree near side first,
    // leaving out the parts they enter only after their hit so far: the same fraction,
    // normal, contents and flags as clipping every overlapping brush in index order,
    // among random boxes and among boxes on a 16-unit lattice (shared faces: ties,
    // settled by index whatever order the walk meets them in). A box stuck in brushes
    // from start to end is answered by the first of them met, with the normal an
    // earlier hit left: there only the flags and the fraction are compared.
    let mut rnd = uniform(0x1405_7b7e_f767_814f);
    let sets = [
        random_boxes(&mut rnd, 300, (700., 300.), (160., 2., 100.)),
        lattice_boxes(&mut rnd, 300, (6, Contents::WATER)),
    ];
    let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
    let (centre, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
    let mask = Contents::MASK_PLAYER | Contents::WATER;
    for brushes in sets {
        let map = CollisionMap::new(brushes, vec![]);
        let (mut hit, mut stuck) = (0, 0);
        for _ in 0..3000 {
            let a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
            let b = a + Vec3::new(rnd(-900., 900.), rnd(-900., 900.), rnd(-300., 300.));
            let (lo, hi) = (a.min(b) + mins - Vec3::ONE, a.max(b) + maxs + Vec3::ONE);
            if grid_answers(lo, hi, half + Vec3::ONE) {
                continue;
            }
            let t = map.trace(a, b, mins, maxs, mask, None);
            let w = clip_every_brush(&map, a + centre, b + centre, half, mask);
            let hit_by = |n: Vec3, c: Contents, all_solid: bool| (!all_solid).then_some((n, c));
            assert_eq!(
                (
                    t.fraction,
                    hit_by(t.normal, t.contents, t.all_solid),
                    t.start_solid,
                    t.all_solid
                ),
                (
                    w.fraction,
                    hit_by(w.normal, w.contents, w.all_solid),
                    w.start_solid,
                    w.all_solid
                ),
                "{a} -> {b}"
            );
            hit += (t.fraction < 1.0) as usize;
            stuck += t.start_solid as usize;
        }
        assert!(hit > 300 && hit < 2700, "both kinds tested: {hit}");
        assert!(stuck > 10, "starts inside a brush tested: {stuck}");
    }
}

#[test]
fn rays_from_the_grid_and_the_tree_clip_what_a_scan_of_every_brush_clips() {
    // Floor probes (short rays straight down, answered from the grid) and long rays (the
    // tree): the same fraction, normal and contents as clipping every overlapping brush in
    // index order, so which path answers changes nothing, ties included (brushes here
    // share faces: boxes on a 16-unit lattice).
    let mut rnd = uniform(0x2545_f491_4f6c_dd1d);
    let brushes = lattice_boxes(&mut rnd, 300, (7, Contents::LAVA));
    let map = CollisionMap::new(brushes, vec![]);
    let mask = Contents::MASK_PLAYER | Contents::LIQUID;
    let mut hit = 0;
    for k in 0..4000 {
        let a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
        let b = if k % 2 == 0 {
            a - Vec3::new(0.0, 0.0, rnd(8., 400.))
        } else {
            a + Vec3::new(rnd(-900., 900.), rnd(-900., 900.), rnd(-300., 300.))
        };
        let t = map.trace_ray(a, b, mask, None);
        let w = clip_every_brush(&map, a, b, Vec3::ZERO, mask);
        assert_eq!(
            (t.fraction, t.normal, t.contents, t.start_solid),
            (w.fraction, w.normal, w.contents, w.start_solid),
            "{a} -> {b}"
        );
        hit += (t.fraction < 1.0) as usize;
    }
    assert!(hit > 400 && hit < 3600, "both kinds tested: {hit}");
}

#[test]
fn long_sweeps_answered_from_their_first_part_clip_what_a_scan_of_every_brush_clips() {
    // Player-box sweeps longer than twice the first part, most straight down (floor
    // probes) and some steep, through boxes on a 16-unit lattice (shared faces:
    // ties) and slanted wedges (edge bevels): a sweep that stops within its first part
    // is answered from the brushes there alone, and the answer must be the whole scan's,
    // bit for bit, flags and contents included.
    let mut rnd = uniform(0x9e37_79b9_7f4a_7c15);
    let q = |v: f32| (v / 16.0).round() * 16.0;
    let mut brushes = lattice_boxes(&mut rnd, 240, (5, Contents::WATER));
    for _ in 0..60 {
        // A ramp: a box whose top is a slanted plane.
        let lo = Vec3::new(
            q(rnd(-700., 700.)),
            q(rnd(-700., 700.)),
            q(rnd(-300., 300.)),
        );
        let size = Vec3::new(q(rnd(32., 160.)), q(rnd(32., 160.)), q(rnd(32., 96.)));
        let hi = lo + size;
        let n = glam::DVec3::new(-(size.z as f64), 0.0, size.x as f64).normalize();
        let d = n.dot(lo.as_dvec3() + glam::DVec3::new(0.0, 0.0, size.z as f64));
        let planes = [
            (glam::DVec3::X, hi.x as f64),
            (-glam::DVec3::X, -lo.x as f64),
            (glam::DVec3::Y, hi.y as f64),
            (-glam::DVec3::Y, -lo.y as f64),
            (-glam::DVec3::Z, -lo.z as f64),
            (n, d),
        ];
        if let Ok(b) = Brush::from_planes(&planes, Contents::SOLID) {
            brushes.push(b);
        }
    }
    let map = CollisionMap::new(brushes, vec![]);
    let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
    let (centre, half) = ((mins + maxs) * 0.5, (maxs - mins) * 0.5);
    let mask = Contents::MASK_PLAYER | Contents::LIQUID;
    let (mut early, mut late) = (0, 0);
    for k in 0..4000 {
        let a = Vec3::new(rnd(-750., 750.), rnd(-750., 750.), rnd(-350., 350.));
        // (Sweeps the grid answers whole: at most 160 units across with the box.)
        let b = if k % 3 != 0 {
            a - Vec3::new(0.0, 0.0, rnd(2.0 * FIRST_PART + 1.0, 400.))
        } else {
            a + Vec3::new(rnd(-60., 60.), rnd(-60., 60.), rnd(-400., 400.))
        };
        if (b - a).length() <= 2.0 * FIRST_PART {
            continue;
        }
        let t = map.trace(a, b, mins, maxs, mask, None);
        let w = clip_every_brush(&map, a + centre, b + centre, half, mask);
        assert_eq!(
            (t.fraction, t.normal, t.contents, t.start_solid, t.all_solid),
            (w.fraction, w.normal, w.contents, w.start_solid, w.all_solid),
            "{a} -> {b}"
        );
        if t.fraction * (b - a).length() <= FIRST_PART {
            early += 1;
        } else {
            late += 1;
        }
    }
    assert!(
        early > 400 && late > 400,
        "both kinds tested: {early} {late}"
    );
}

#[test]
fn bodies_found_by_x_order_are_those_a_scan_finds_in_id_order() {
    // Forty bodies that walk, jump across the map, die and come back; after each change,
    // random boxes (short sweeps and long ones) get from the x order exactly the bodies
    // that overlap them, in id order, as a scan of every body does.
    let mut rnd = uniform(0x9e37_79b9_7f4a_7c15);
    let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
    let mut m = room();
    let mut at: Vec<Option<Vec3>> = vec![None; 40];
    let mut checked = (0, 0);
    for step in 0..4000 {
        let k = (rnd(0., 40.) as usize).min(39);
        let id = EntId(100 + k as u32);
        match (step % 13, at[k]) {
            (0, Some(_)) => {
                m.remove_body(id);
                at[k] = None;
            }
            (1, _) | (_, None) => {
                let o = Vec3::new(rnd(-600., 600.), rnd(-600., 600.), rnd(0., 200.));
                m.set_body(id, o, mins, maxs);
                at[k] = Some(o);
            }
            (_, Some(o)) => {
                let o = o + Vec3::new(rnd(-20., 20.), rnd(-20., 20.), rnd(-5., 5.));
                m.set_body(id, o, mins, maxs);
                at[k] = Some(o);
            }
        }
        let c = Vec3::new(rnd(-650., 650.), rnd(-650., 650.), rnd(-50., 250.));
        let h = if step % 4 == 0 {
            Vec3::new(rnd(1., 700.), rnd(1., 700.), rnd(1., 200.))
        } else {
            Vec3::new(rnd(1., 60.), rnd(1., 60.), rnd(1., 60.))
        };
        let ignore = (step % 3 == 0).then_some(id);
        let mut found = Vec::new();
        m.bodies_along(c - h, c + h, ignore, |b| found.push(b.id));
        let want: Vec<EntId> = m
            .bodies_in_box(c - h, c + h)
            .filter(|&b| Some(b) != ignore)
            .collect();
        assert_eq!(found, want, "step {step}");
        assert_eq!(m.bodies_by_x.len(), m.bodies.len());
        checked.0 += found.is_empty() as usize;
        checked.1 += !found.is_empty() as usize;
    }
    assert!(
        checked.0 > 100 && checked.1 > 100,
        "hits and misses: {checked:?}"
    );
    // Not finite: every body is tested, none matches.
    let mut found = Vec::new();
    m.bodies_along(Vec3::NAN, Vec3::NAN, None, |b| found.push(b.id));
    assert!(found.is_empty());
}

#[test]
fn a_line_along_the_seam_of_two_slabs_is_blocked() {
    // A floor of two slabs meeting at x = 0 (as corridor floors often meet): a vertical
    // line in the shared face passes through solid, not between the brushes.
    let west = Brush::from_box(
        Vec3::new(-64., -64., 0.),
        Vec3::new(0., 64., 16.),
        Contents::SOLID,
    );
    let east = Brush::from_box(
        Vec3::new(0., -64., 0.),
        Vec3::new(64., 64., 16.),
        Contents::SOLID,
    );
    let map = CollisionMap::new(vec![west, east], vec![]);
    let (above, below) = (Vec3::new(0., 8., 100.), Vec3::new(0., 8., -100.));
    assert!(!map.line_clear(above, below, Contents::MASK_SIGHT));
    assert!(!map.line_clear(below, above, Contents::MASK_SIGHT));
    // Beside the seam, through one slab: blocked as always; above the floor: clear.
    assert!(!map.line_clear(above + Vec3::X, below + Vec3::X, Contents::MASK_SIGHT));
    assert!(map.line_clear(above, Vec3::new(0., 8., 17.), Contents::MASK_SIGHT));
    // Touching the floor's top from above, or the slab's side from outside: clear.
    assert!(map.line_clear(above, Vec3::new(30., 8., 16.), Contents::MASK_SIGHT));
    assert!(map.line_clear(
        Vec3::new(100., 8., 8.),
        Vec3::new(64., 8., 8.),
        Contents::MASK_SIGHT
    ));
}

#[test]
fn a_proven_blocked_cell_sees_nothing_of_the_target() {
    // A thick wall (x 100..164, y ±512, z 0..256) between cells and targets.
    let floor = Brush::from_box(
        Vec3::new(-512., -512., -16.),
        Vec3::new(512., 512., 0.),
        Contents::SOLID,
    );
    let wall = Brush::from_box(
        Vec3::new(100., -512., 0.),
        Vec3::new(164., 512., 256.),
        Contents::SOLID,
    );
    let map = CollisionMap::new(vec![floor, wall], vec![]);
    let (_, lo, hi) = map
        .sight_cell(Vec3::new(30., 10., 60.))
        .expect("in the map");
    assert_eq!(hi - lo, Vec3::splat(SIGHT_CELL));
    let behind = Vec3::new(300., 20., 40.);
    assert!(map.box_blocked_from(lo, hi, behind, Contents::MASK_SIGHT));
    // Same side: not blocked; a target past the wall's end: not provable.
    assert!(!map.box_blocked_from(lo, hi, Vec3::new(60., 20., 40.), Contents::MASK_SIGHT));
    assert!(!map.box_blocked_from(lo, hi, Vec3::new(300., 2000., 40.), Contents::MASK_SIGHT));
    // Liquids and clip are seen through: a wall of them proves nothing.
    let water = Brush::from_box(
        Vec3::new(100., -512., 0.),
        Vec3::new(164., 512., 256.),
        Contents::WATER,
    );
    let wet = CollisionMap::new(vec![water], vec![]);
    assert!(!wet.box_blocked_from(lo, hi, behind, Contents::MASK_SIGHT));
    // Whatever the proof says is blocked, no line from the cell gets through, among
    // random walls, cells and targets.
    let mut rnd = uniform(99);
    let map = CollisionMap::new(
        random_boxes(&mut rnd, 60, (600.0, 200.0), (96., 8., 96.)),
        vec![],
    );
    let mut proven = 0;
    for _ in 0..2000 {
        let eye = Vec3::new(rnd(-600., 600.), rnd(-600., 600.), rnd(-200., 200.));
        let target = Vec3::new(rnd(-600., 600.), rnd(-600., 600.), rnd(-200., 200.));
        let Some((_, lo, hi)) = map.sight_cell(eye) else {
            continue;
        };
        if !map.box_blocked_from(lo, hi, target, Contents::MASK_SIGHT) {
            continue;
        }
        proven += 1;
        for _ in 0..20 {
            let p = Vec3::new(rnd(lo.x, hi.x), rnd(lo.y, hi.y), rnd(lo.z, hi.z));
            assert!(
                !map.line_clear(p, target, Contents::MASK_SIGHT),
                "{p} → {target}"
            );
        }
        for k in 0..8 {
            let c = Vec3::new(
                if k & 1 == 0 { lo.x } else { hi.x },
                if k & 2 == 0 { lo.y } else { hi.y },
                if k & 4 == 0 { lo.z } else { hi.z },
            );
            assert!(
                !map.line_clear(c, target, Contents::MASK_SIGHT),
                "{c} → {target}"
            );
        }
    }
    assert!(proven > 20, "the proof holds somewhere ({proven})");
}

#[test]
fn point_contents_inside_and_out() {
    let m = room();
    assert_eq!(m.point_contents(Vec3::new(0., 0., -1.)), Contents::SOLID);
    assert_eq!(m.point_contents(Vec3::new(0., 0., 1.)), Contents::EMPTY);
    // Outside the grid (beyond every brush), on its faces and corners.
    assert_eq!(m.point_contents(Vec3::new(5000., 0., -8.)), Contents::EMPTY);
    assert_eq!(m.point_contents(Vec3::new(0., 0., -16.)), Contents::SOLID);
    assert_eq!(m.point_contents(Vec3::new(512., 512., 0.)), Contents::SOLID);
    assert_eq!(
        m.point_contents(Vec3::new(-512., -512., -16.)),
        Contents::SOLID
    );
    assert_eq!(m.point_contents(Vec3::NAN), Contents::EMPTY);
}

#[test]
fn solid_below_is_solid_all_the_way_and_chains_through_stacked_brushes() {
    let (mins, maxs) = (Vec3::new(-16., -16., -24.), Vec3::new(16., 16., 32.));
    // Two slabs sharing a face (0..128 and 128..256) and one apart (-400..-300).
    let slab = |lo: f32, hi: f32| {
        Brush::from_box(
            Vec3::new(-256., -256., lo),
            Vec3::new(256., 256., hi),
            Contents::SOLID,
        )
    };
    let m = CollisionMap::new(
        vec![slab(0., 128.), slab(128., 256.), slab(-400., -300.)],
        vec![],
    );
    // The box overlaps the stack while -32 < z < 280: a quarter unit deep, down to -31.75.
    let z = m.solid_below(Vec3::new(0., 0., 200.), mins, maxs, Contents::SOLID);
    assert_eq!(z, Some(-31.75));
    assert_eq!(
        m.solid_below(Vec3::new(0., 0., 300.), mins, maxs, Contents::SOLID),
        None
    );
    assert_eq!(
        m.solid_below(Vec3::new(0., 0., 200.), mins, maxs, Contents::WATER),
        None
    );
    // Random boxes: every height it passes over holds the box stuck.
    let mut rnd = uniform(7);
    let boxes = lattice_boxes(&mut rnd, 300, (5, Contents::WATER));
    let m = CollisionMap::new(boxes, vec![]);
    let mut found = 0;
    for _ in 0..2000 {
        let p = Vec3::new(rnd(-700., 700.), rnd(-700., 700.), rnd(-300., 300.));
        let Some(z) = m.solid_below(p, mins, maxs, Contents::SOLID) else {
            continue;
        };
        found += 1;
        assert!(z < p.z);
        let mut h = p.z;
        while h >= z {
            let at = Vec3::new(p.x, p.y, h);
            let t = m.trace(at, at, mins, maxs, Contents::SOLID, None);
            assert!(t.start_solid, "{p} lowered to {h} (bottom {z})");
            h -= 0.5;
        }
    }
    assert!(found > 50, "deep in a solid somewhere ({found})");
}
