//! Traces and point contents against hand-computed geometry.

mod common;

use botarena::map::builder::MapBuilder;
use botarena::map::{Contents, EntId};
use botarena::physics::pmove::{PLAYER_MAXS, PLAYER_MINS};
use glam::Vec3;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn room() -> (botarena::Level, botarena::CollisionMap) {
    let mut b = MapBuilder::new();
    b.solid(v(-1024., -1024., -64.), v(1024., 1024., 0.), "FLOOR") // floor top z = 0
        .solid(v(300., -1024., 0.), v(332., 1024., 256.), "WALL") // wall face at x = 300
        .solid(v(100., 100., 0.), v(200., 200., 128.), "BLOCK") // a block with a corner at (100,100)
        .solid(v(-600., -600., 0.), v(-400., -400., 64.), "*water1")
        .solid(v(-600., 400., 0.), v(-400., 600., 64.), "*lava1")
        .solid(v(-600., 0., 0.), v(-400., 200., 64.), "clip");
    // A diamond pillar |x - 600| + |y| <= 64 (outside the wall, in its own space).
    let text = b.to_map_text("traces");
    let diamond = "{\n\"classname\" \"func_wall\"\n{\n( 600 64 0 ) ( 664 0 0 ) ( 600 64 1 ) D 0 0 0 1 1\n( 664 0 0 ) ( 600 -64 0 ) ( 664 0 1 ) D 0 0 0 1 1\n( 600 -64 0 ) ( 536 0 0 ) ( 600 -64 1 ) D 0 0 0 1 1\n( 536 0 0 ) ( 600 64 0 ) ( 536 0 1 ) D 0 0 0 1 1\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) D 0 0 0 1 1\n( 0 0 128 ) ( 0 1 128 ) ( 1 0 128 ) D 0 0 0 1 1\n}\n}\n";
    common::from_text(&(text + diamond))
}

#[test]
fn ray_finds_floor_height() {
    let (_, m) = room();
    let t = m.trace_ray(
        v(10., 20., 500.),
        v(10., 20., -500.),
        Contents::MASK_SIGHT,
        None,
    );
    assert!(
        (t.end_pos.z - 0.0).abs() <= 0.04,
        "floor at {}",
        t.end_pos.z
    );
    assert_eq!(t.normal, Vec3::Z);
    assert_eq!(t.contents, Contents::SOLID);
    assert_eq!(t.ent, Some(EntId::WORLD));
    assert!((t.fraction - 0.5).abs() < 1e-3, "{}", t.fraction);
}

#[test]
fn player_box_stops_half_a_width_before_a_wall() {
    let (_, m) = room();
    let t = m.trace(
        v(0., -500., 40.),
        v(500., -500., 40.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert!(
        (t.end_pos.x - 284.0).abs() <= 0.04,
        "stopped at {}",
        t.end_pos.x
    );
    assert_eq!(t.normal, -Vec3::X);
    assert!(!t.start_solid && !t.all_solid);
}

#[test]
fn box_meets_a_block_corner_diagonally() {
    let (_, m) = room();
    // The box corner (16,16) meets the block corner (100,100) when the origin is at (84,84).
    let t = m.trace(
        v(0., 0., 40.),
        v(200., 200., 40.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert!(
        (t.end_pos.x - 84.0).abs() <= 0.05 && (t.end_pos.y - 84.0).abs() <= 0.05,
        "{:?}",
        t.end_pos
    );
    assert!((t.fraction - 0.42).abs() < 1e-3, "{}", t.fraction);
    // Sliding past the corner with 1 unit to spare does not touch it.
    let t = m.trace(
        v(0., 83., 40.),
        v(250., 83., 40.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert!(t.fraction == 1.0, "{t:?}");
}

#[test]
fn bevels_make_a_box_touch_a_slanted_vertex_exactly() {
    let (_, m) = room();
    // The diamond's west vertex is at x = 536; the box's front face reaches it at x = 520.
    let t = m.trace(
        v(400., 0., 40.),
        v(700., 0., 40.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert!(
        (t.end_pos.x - 520.0).abs() <= 0.05,
        "stopped at {}",
        t.end_pos.x
    );
    // A box sweeping past with its edge 1 unit beside the vertex misses.
    let t = m.trace(
        v(400., 0., 200.),
        v(700., 0., 200.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert_eq!(t.fraction, 1.0);
}

#[test]
fn start_in_solid_and_all_solid() {
    let (_, m) = room();
    let t = m.trace(
        v(0., 0., 10.),
        v(0., 0., 12.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert!(t.start_solid && t.all_solid && t.fraction == 0.0);
    assert_eq!(t.end_pos, v(0., 0., 10.));
    let t = m.trace(
        v(0., 0., 10.),
        v(0., 0., 100.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert!(t.start_solid && !t.all_solid);
}

#[test]
fn contents_of_liquids_and_clip() {
    let (_, m) = room();
    assert_eq!(m.point_contents(v(-500., -500., 32.)), Contents::WATER);
    assert_eq!(m.point_contents(v(-500., 500., 32.)), Contents::LAVA);
    assert_eq!(m.point_contents(v(-500., 100., 32.)), Contents::PLAYER_CLIP);
    assert_eq!(m.point_contents(v(0., 0., 32.)), Contents::EMPTY);
    assert_eq!(m.point_contents(v(0., 0., -32.)), Contents::SOLID);
    // Sight passes through liquids and clip; players are stopped by clip but not by water.
    let t = m.trace_ray(
        v(-700., 100., 32.),
        v(-300., 100., 32.),
        Contents::MASK_SIGHT,
        None,
    );
    assert_eq!(t.fraction, 1.0);
    let t = m.trace(
        v(-700., 100., 40.),
        v(-300., 100., 40.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert!((t.end_pos.x - -616.0).abs() <= 0.05, "{}", t.end_pos.x);
    let t = m.trace(
        v(-700., -500., 40.),
        v(-300., -500., 40.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert_eq!(t.fraction, 1.0);
}

#[test]
fn bodies_block_unless_ignored() {
    let (_, mut m) = room();
    m.set_body(EntId(7), v(0., -300., 25.), PLAYER_MINS, PLAYER_MAXS);
    let t = m.trace(
        v(-200., -300., 25.),
        v(200., -300., 25.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert!((t.end_pos.x - -32.0).abs() <= 0.05, "{}", t.end_pos.x);
    assert_eq!(t.ent, Some(EntId(7)));
    let t = m.trace(
        v(-200., -300., 25.),
        v(200., -300., 25.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        Some(EntId(7)),
    );
    assert_eq!(t.fraction, 1.0);
    // Sight ignores bodies.
    let t = m.trace_ray(
        v(-200., -300., 25.),
        v(200., -300., 25.),
        Contents::MASK_SIGHT,
        None,
    );
    assert_eq!(t.fraction, 1.0);
    m.remove_body(EntId(7));
    let t = m.trace(
        v(-200., -300., 25.),
        v(200., -300., 25.),
        PLAYER_MINS,
        PLAYER_MAXS,
        Contents::MASK_PLAYER,
        None,
    );
    assert_eq!(t.fraction, 1.0);
}

#[test]
fn movers_are_traced_where_they_are_now() {
    let (level, mut m) = common::shipped("arena");
    let plat = &level
        .movers
        .iter()
        .find(|d| d.classname == "func_plat")
        .unwrap();
    // At its map position the plat's top is at z = 128.
    let p = v(304., 0., 300.);
    let t = m.trace_ray(p, v(304., 0., -100.), Contents::MASK_SIGHT, None);
    assert!((t.end_pos.z - 128.0).abs() <= 0.04, "{}", t.end_pos.z);
    assert_eq!(t.ent, Some(plat.id));
    m.set_mover_offset(plat.id, v(0., 0., -120.));
    let t = m.trace_ray(p, v(304., 0., -100.), Contents::MASK_SIGHT, None);
    assert!((t.end_pos.z - 8.0).abs() <= 0.04, "{}", t.end_pos.z);
    assert_eq!(m.point_contents(v(304., 0., 4.)), Contents::SOLID);
    assert_eq!(m.point_contents(v(304., 0., 12.)), Contents::EMPTY);
}

#[test]
fn line_of_sight_agrees_with_a_ray_trace() {
    // Segments between seeded floor points of the shipped maps (and dm4 where present):
    // `line_clear` (first blocker, face planes only) answers as a full ray trace does.
    let mut maps = vec![common::shipped("arena"), common::shipped("proving")];
    if let Some(dir) = common::quake_maps() {
        maps.push(common::quake_map(&dir, "dm4"));
    }
    for (level, cmap) in maps {
        let pts = botarena::nav::sample::floor_points(&level, &cmap, 96.0);
        assert!(pts.len() > 10);
        let mut rng = botarena::sim::rng::SimRng::new(3, 0);
        let (mut same, mut n) = (0, 0);
        for _ in 0..3000 {
            // Jittered off the 96-unit grid: a segment lying exactly in a brush face is a
            // graze the two answer differently (the trace keeps 1/32 unit off surfaces).
            let mut j = || Vec3::new(rng.range(-7.0, 7.0), rng.range(-7.0, 7.0), 0.0);
            let (ja, jb) = (j(), j());
            let a = pts[rng.below(pts.len())] + ja + Vec3::new(0.0, 0.0, 22.0);
            let b = pts[rng.below(pts.len())] + jb + Vec3::new(0.0, 0.0, rng.range(-20.0, 30.0));
            let ray = cmap
                .trace_ray(a, b, botarena::Contents::MASK_SIGHT, None)
                .fraction
                >= 1.0;
            let los = cmap.line_clear(a, b, botarena::Contents::MASK_SIGHT);
            n += 1;
            same += (ray == los) as usize;
            if ray != los && std::env::var_os("LOSDBG").is_some() {
                let t = cmap.trace_ray(a, b, botarena::Contents::MASK_SIGHT, None);
                eprintln!(
                    "{a} {b} ray {ray} los {los} frac {} ent {:?} n {} at {}",
                    t.fraction, t.ent, t.normal, t.end_pos
                );
            }
        }
        assert!(
            same * 1000 >= n * 998,
            "{}: {same} of {n} agree",
            level.map.name
        );
    }
}
