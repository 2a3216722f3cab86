//! Writes the small arenas shipped in `maps/` from boxes: `cargo run --example gen_maps`.
//! The `.map` files are committed; this program documents how they were made and rebuilds
//! them after a change.

use botarena::map::builder::MapBuilder;
use glam::Vec3;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// Ground filling `[x0,x1]×[y0,y1]` from `lo` up to `z` around a rectangular hole, so the
/// hole's sides are the pit's walls and nothing is hollow under the floor.
fn floor_with_hole(
    b: &mut MapBuilder,
    a: (f32, f32, f32, f32),
    hole: (f32, f32, f32, f32),
    (lo, z): (f32, f32),
    tex: &str,
) {
    let (x0, y0, x1, y1) = a;
    let (hx0, hy0, hx1, hy1) = hole;
    for (mn, mx) in [
        (v(x0, y0, lo), v(hx0, y1, z)),
        (v(hx1, y0, lo), v(x1, y1, z)),
        (v(hx0, y0, lo), v(hx1, hy0, z)),
        (v(hx0, hy1, lo), v(hx1, y1, z)),
    ] {
        // A hole as wide as the floor leaves no strip on that side.
        if (mx - mn).min_element() > 0.0 {
            b.solid(mn, mx, tex);
        }
    }
}

/// The bottom of a pit under a floor hole (ground from `ground` up to `bottom`), optionally
/// filled with a liquid up to `top`.
fn pit(
    b: &mut MapBuilder,
    hole: (f32, f32, f32, f32),
    (ground, bottom): (f32, f32),
    liquid: Option<(&str, f32)>,
) {
    let (x0, y0, x1, y1) = hole;
    b.solid(v(x0, y0, ground), v(x1, y1, bottom), "ROCK");
    if let Some((tex, top)) = liquid {
        b.solid(v(x0, y0, bottom), v(x1, y1, top), tex);
    }
}

/// The proving ground: one lane per movement feature, 2048 units long, floors at z = 0.
/// Lane i runs along +X at y = 256 i + 96; features start at x = 512.
fn proving() -> MapBuilder {
    let mut b = MapBuilder::new();
    let (len, lane, wall) = (2048.0, 192.0, 64.0);
    let lanes = 9;
    let width = lanes as f32 * (lane + wall) - wall;
    // Hull: outer walls and ceiling. Pits reach down to -400, so the hull does too.
    b.solid(v(-16., -16., -416.), v(len + 16., 0., 512.), "WALL");
    b.solid(
        v(-16., width, -416.),
        v(len + 16., width + 16., 512.),
        "WALL",
    );
    b.solid(v(-16., 0., -416.), v(0., width, 512.), "WALL");
    b.solid(v(len, 0., -416.), v(len + 16., width, 512.), "WALL");
    b.solid(v(0., 0., 496.), v(len, width, 512.), "CEIL");
    b.solid(v(0., 0., -416.), v(len, width, -400.), "ROCK");
    for i in 0..lanes - 1 {
        let y = i as f32 * (lane + wall) + lane;
        b.solid(v(0., y, -400.), v(len, y + wall, 496.), "WALL");
    }
    let y = |i: usize| i as f32 * (lane + wall);
    // Lane 0: stairs of 8 steps × 16 up to 128, a walkway, then a ledge dropping 128.
    let (y0, y1) = (y(0), y(0) + lane);
    b.solid(v(0., y0, -400.), v(len, y1, 0.), "FLOOR");
    for s in 0..8 {
        let x = 512.0 + s as f32 * 32.0;
        b.solid(v(x, y0, 0.), v(1400., y1, 16.0 * (s + 1) as f32), "STEP");
    }
    // Lane 1: an 18-unit step; lane 2: a 19-unit step.
    for (i, h) in [(1, 18.0), (2, 19.0)] {
        b.solid(v(0., y(i), -400.), v(len, y(i) + lane, 0.), "FLOOR");
        b.solid(v(512., y(i), 0.), v(len, y(i) + lane, h), "STEP");
    }
    // Lanes 3 and 4: gaps of 200 (jumpable) and 260 (not) over a 256-deep pit.
    for (i, gap) in [(3, 200.0), (4, 260.0)] {
        let hole = (512., y(i), 512. + gap, y(i) + lane);
        floor_with_hole(
            &mut b,
            (0., y(i), len, y(i) + lane),
            hole,
            (-400., 0.),
            "FLOOR",
        );
        pit(&mut b, hole, (-400., -256.), None);
    }
    // Lane 5: a water pool 512 long and 128 deep with a submerged block.
    let hole = (512., y(5), 1024., y(5) + lane);
    floor_with_hole(
        &mut b,
        (0., y(5), len, y(5) + lane),
        hole,
        (-400., 0.),
        "FLOOR",
    );
    pit(&mut b, hole, (-400., -128.), Some(("*water1", 0.)));
    b.solid(v(736., y(5), -128.), v(800., y(5) + lane, -64.), "ROCK");
    // Lane 6: a lava pit 192 wide (jumpable), 64 deep, lava up to -16.
    let hole = (512., y(6), 704., y(6) + lane);
    floor_with_hole(
        &mut b,
        (0., y(6), len, y(6) + lane),
        hole,
        (-400., 0.),
        "FLOOR",
    );
    pit(&mut b, hole, (-400., -64.), Some(("*lava1", -16.)));
    // Lane 7: a slime pool 256 long, 64 deep, slime up to -8.
    let hole = (512., y(7), 768., y(7) + lane);
    floor_with_hole(
        &mut b,
        (0., y(7), len, y(7) + lane),
        hole,
        (-400., 0.),
        "FLOOR",
    );
    pit(&mut b, hole, (-400., -64.), Some(("*slime0", -8.)));
    // Lane 8: a 64 × 64 pillar in the middle of the lane, and a wall across it at 1536.
    b.solid(v(0., y(8), -400.), v(len, y(8) + lane, 0.), "FLOOR");
    b.solid(
        v(512., y(8) + 64., 0.),
        v(576., y(8) + 128., 496.),
        "PILLAR",
    );
    b.solid(v(1536., y(8), 0.), v(1552., y(8) + lane, 496.), "WALL");
    // A spawn point at the start of every lane, facing +X, and an item at each lane's end.
    for i in 0..lanes {
        b.point(
            "info_player_deathmatch",
            v(64., y(i) + lane / 2.0, 24.),
            &[("angle", "0")],
        );
    }
    b.point("weapon_supershotgun", v(1900., y(0) + 96., 8.), &[]);
    b.point("item_shells", v(1900., y(1) + 80., 26.), &[]);
    b.point("item_health", v(1900., y(3) + 80., 8.), &[]);
    b.point("item_armor1", v(1900., y(5) + 96., 8.), &[]);
    b.point("weapon_nailgun", v(1900., y(6) + 96., 8.), &[]);
    // Lane 2's far end: a ledge 64 above the lane's floor (above jump height) with armour
    // on top: nobody gets there.
    b.solid(v(1700., y(2), 0.), v(len, y(2) + lane, 83.), "LEDGE");
    b.point("item_armor2", v(1850., y(2) + 96., 91.), &[]);
    b
}

/// A deathmatch arena: a hall with a lava pit, stairs to a north balcony, a plat to an east
/// balcony, a door to a south room with a water pool and a shuttling train, and a teleporter
/// pair between them.
fn arena() -> MapBuilder {
    let mut b = MapBuilder::new();
    // Hull of hall (-512..512 square) plus south room (y -1024..-528).
    b.solid(v(-528., -1040., -144.), v(528., -1024., 400.), "WALL"); // south
    b.solid(v(-528., 512., -144.), v(528., 528., 400.), "WALL"); // north
    b.solid(v(-528., -1024., -144.), v(-512., 512., 400.), "WALL"); // west
    b.solid(v(512., -1024., -144.), v(528., 512., 400.), "WALL"); // east
    b.solid(v(-512., -1024., 384.), v(512., 512., 400.), "CEIL");
    // Hall floor with a lava pit (x -256..-128, y 128..320).
    let lava = (-256., 128., -128., 320.);
    floor_with_hole(
        &mut b,
        (-512., -512., 512., 512.),
        lava,
        (-144., 0.),
        "FLOOR",
    );
    pit(&mut b, lava, (-144., -64.), Some(("*lava1", -16.)));
    // Wall between hall and south room with a doorway x -64..64, z 0..128.
    b.solid(v(-512., -528., 0.), v(-64., -512., 384.), "WALL");
    b.solid(v(64., -528., 0.), v(512., -512., 384.), "WALL");
    b.solid(v(-64., -528., 128.), v(64., -512., 384.), "WALL");
    b.solid(v(-64., -528., -144.), v(64., -512., 0.), "FLOOR");
    // South room floor with a water pool (x -384..-128, y -896..-640), 96 deep.
    let pool = (-384., -896., -128., -640.);
    floor_with_hole(
        &mut b,
        (-512., -1024., 512., -528.),
        pool,
        (-144., 0.),
        "FLOOR",
    );
    pit(&mut b, pool, (-144., -96.), Some(("*water1", 0.)));
    // North balcony at z 128 (y 352..512) reached by stairs of 16 from the hall floor.
    b.solid(v(-512., 352., 0.), v(0., 512., 128.), "BALC");
    for s in 0..7 {
        let yy = 352.0 - 32.0 * (s + 1) as f32;
        b.solid(
            v(-96., yy, 0.),
            v(0., yy + 32., 112.0 - 16.0 * s as f32),
            "STEP",
        );
    }
    // East balcony at z 128 (x 352..512) reached by a plat.
    b.solid(v(352., -256., 0.), v(512., 256., 128.), "BALC");
    b.brush_entity(
        &[("classname", "func_plat"), ("height", "120")],
        &[(v(256., -48., -120.), v(352., 48., 128.), "PLAT_TOP")],
    );
    // The door: slides up out of the doorway.
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("speed", "200"),
            ("wait", "2"),
        ],
        &[(v(-64., -524., 0.), v(64., -516., 128.), "DOOR")],
    );
    // A train platform shuttling along x in the south room between two corners (the
    // corners give the position of the train's minimum corner).
    b.brush_entity(
        &[
            ("classname", "func_train"),
            ("target", "c1"),
            ("speed", "100"),
        ],
        &[(v(0., 0., 0.), v(64., 64., 16.), "TRAIN")],
    );
    b.point(
        "path_corner",
        v(96., -700., 0.),
        &[("targetname", "c1"), ("target", "c2"), ("wait", "1")],
    );
    b.point(
        "path_corner",
        v(296., -700., 0.),
        &[("targetname", "c2"), ("target", "c1"), ("wait", "1")],
    );
    // Teleporter pair: hall west wall -> south room east side, south room -> north balcony.
    b.solid(v(-512., -40., 0.), v(-504., 40., 96.), "*teleport");
    b.brush_entity(
        &[("classname", "trigger_teleport"), ("target", "t_south")],
        &[(v(-504., -32., 0.), v(-480., 32., 96.), "trigger")],
    );
    b.point(
        "info_teleport_destination",
        v(400., -800., 0.),
        &[("targetname", "t_south"), ("angle", "180")],
    );
    b.solid(v(504., -1000., 0.), v(512., -920., 96.), "*teleport");
    b.brush_entity(
        &[("classname", "trigger_teleport"), ("target", "t_north")],
        &[(v(480., -992., 0.), v(504., -928., 96.), "trigger")],
    );
    b.point(
        "info_teleport_destination",
        v(-256., 448., 128.),
        &[("targetname", "t_north"), ("angle", "0")],
    );
    // Items.
    b.point("weapon_rocketlauncher", v(440., 0., 136.), &[]);
    b.point("weapon_supershotgun", v(-300., 440., 136.), &[]);
    b.point("item_armor2", v(0., 0., 8.), &[]);
    b.point("item_health", v(-400., -400., 8.), &[]);
    b.point("item_health", v(300., -400., 8.), &[]);
    b.point("item_shells", v(-200., -200., 8.), &[]);
    b.point("item_rockets", v(200., 200., 8.), &[]);
    b.point("item_artifact_super_damage", v(0., -900., 32.), &[]);
    b.point("item_health", v(-256., -768., -80.), &[("spawnflags", "2")]);
    // Spawn points.
    for (o, yaw) in [
        (v(-400., 0., 24.), "0"),
        (v(256., 256., 24.), "225"),
        (v(-200., -300., 24.), "90"),
        (v(256., -800., 24.), "90"),
    ] {
        b.point("info_player_deathmatch", o, &[("angle", yaw)]);
    }
    b
}

fn main() -> std::io::Result<()> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("proving.map"),
        proving().to_map_text("botarena proving ground"),
    )?;
    std::fs::write(dir.join("arena.map"), arena().to_map_text("botarena arena"))?;
    println!("wrote maps/proving.map and maps/arena.map");
    Ok(())
}
