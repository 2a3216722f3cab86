//! Water jumps out of a liquid onto a floor: QuakeWorld's CheckWaterJump lifts a waist-deep
//! player who faces a ledge, and carries it 50 units a second forward while it rises and
//! falls, so over a narrow lip (a pool's rim) it comes down on the floor beyond. The
//! compile tries the jump facing level (a steep swim meets the wall above the surface) and
//! keeps it to the floor it lands on.

mod common;

use botarena::aas::reach::run_reach;
use botarena::aas::{CompileParams, NavWorld, ReachKind, compile};
use botarena::map::{MapData, build_level};
use common::{quake_maps, root};
use glam::Vec3;

/// maps/rim_pool.map: a pool set in the floor behind a rim 16 units wide and 16 high.
#[test]
fn a_water_jump_out_of_a_rimmed_pool_lands_beyond_the_rim_and_replays() {
    let (level, cmap) =
        build_level(MapData::load(&root().join("maps/rim_pool.map")).expect("map loads"));
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let pool = mesh
        .area_at(Vec3::new(0.0, 0.0, -60.0))
        .expect("the pool is an area");
    assert!(mesh.areas()[pool as usize].is_swim());
    let jumps: Vec<_> = mesh
        .reaches()
        .iter()
        .filter(|r| r.from == pool && r.kind == ReachKind::WaterJump)
        .collect();
    assert!(!jumps.is_empty(), "no water jump out of the pool");
    let world = NavWorld::new(&level, &cmap);
    let dt = 1.0 / mesh.params.tick_rate as f32;
    for r in &jumps {
        assert!(!mesh.areas()[r.to as usize].is_swim());
        let got = run_reach(&world, &mesh, r).expect("the water jump replays");
        assert_eq!(mesh.area_at(got.state.origin), Some(r.to));
        assert!((got.ticks as f32 * dt - r.seconds).abs() <= dt + 1e-4);
    }
    // Out of the pool, the spawn point's floor is reached again.
    let spawn = mesh
        .area_at(level.spawns[0].origin)
        .expect("the spawn point is on an area");
    assert!(mesh.reachable_from(pool, |_| true)[spawn as usize]);
}

/// e1m1's deathmatch room under the slime (grenade launcher, yellow armour): entered by
/// swimming under its floor slab and up through the pit in its floor, out of which a water
/// jump clears the pit's rim.
#[test]
fn e1m1s_room_under_the_slime_is_entered_by_a_water_jump_out_of_its_pit() {
    let Some(dir) = quake_maps() else {
        eprintln!("skipping: ../shared/quake-maps not found");
        return;
    };
    let (level, cmap) = build_level(MapData::load(&dir.join("e1m1.map")).expect("e1m1 loads"));
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let room = mesh
        .area_at(Vec3::new(1216.0, 1040.0, -407.0))
        .expect("the grenade launcher's floor is an area");
    for spawn in &level.spawns {
        let from = mesh.area_at(spawn.origin).expect("spawn on an area");
        assert!(
            mesh.reachable_from(from, |_| true)[room as usize],
            "spawn at {} does not reach the room",
            spawn.origin
        );
    }
    let into_room = mesh.reaches().iter().any(|r| {
        r.kind == ReachKind::WaterJump
            && mesh.areas()[r.from as usize].is_swim()
            && mesh.reachable_from(r.to, |_| true)[room as usize]
            && (r.start - Vec3::new(1312.0, 904.0, r.start.z)).length() < 64.0
    });
    assert!(
        into_room,
        "no water jump out of the pit leads into the room"
    );
}
