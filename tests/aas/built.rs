//! Small built maps: liquids with air under them, low floors across gaps, trains ridden,
//! strips below corners, teleporters behind doors, barrier jumps with a run-up, doorways.

use super::*;

/// A low, narrow floor across a gap that every running jump overshoots (e2m2's pillar
/// top): running off the edge without jumping comes down on it.
#[test]
fn a_low_narrow_floor_across_a_gap_is_reached_by_running_off_the_edge() {
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., -256.), v(1024., 256., 512.));
    // Walkway (top 64), a 48-unit gap, a 96-unit pillar top 16 lower, a gap, and a
    // far floor at the walkway's height where running jumps come down.
    b.solid(v(0., 0., -256.), v(256., 256., 64.), "WALK")
        .solid(v(304., 0., -256.), v(400., 256., 48.), "PILLAR")
        .solid(v(480., 0., -256.), v(1024., 256., 64.), "FAR")
        .point("info_player_deathmatch", v(96., 128., 90.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let walkway = mesh.area_at(v(96., 128., 88.)).expect("walkway");
    let pillar = mesh.area_at(v(352., 128., 72.)).expect("pillar top");
    let seen = mesh.reachable_from(walkway, |_| true);
    assert!(
        seen[pillar as usize],
        "the pillar top is reached from the walkway"
    );
    // Onto the pillar's top (its middle or the strips along its edges) from the walkway.
    let on_pillar = |a: u32| {
        let a = &mesh.areas()[a as usize];
        (a.maxs.z - 72.0).abs() < 1.0 && a.mins.x >= 280.0 && a.maxs.x <= 424.0
    };
    let world = NavWorld::new(&level, &cmap);
    let r = mesh
        .reaches()
        .iter()
        .find(|r| on_pillar(r.to) && r.start.z > 80.0 && r.start.x < 280.0)
        .expect("a reachability from the walkway onto the pillar");
    assert_eq!(r.kind, ReachKind::WalkOffLedge, "{r:?}");
    assert!(r.commands.iter().all(|c| !c.cmd.jump), "no jump: {r:?}");
    let arrival = run_reach(&world, &mesh, r).expect("replays");
    assert_eq!(mesh.area_at(arrival.state.origin), Some(r.to));
}

/// The arena's shuttling train (two stops, a second's wait at each) is ridden both ways:
/// carries between the areas on it at its two stops, each needing the train where it
/// starts, and walks onto it at its second stop needing it there; they replay.
#[test]
fn trains_are_ridden_between_their_stops() {
    let (level, cmap) = shipped("arena");
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let train = level
        .movers
        .iter()
        .find(|m| m.classname == "func_train")
        .expect("the arena has a train");
    let stop2 = mesh
        .positions
        .iter()
        .position(|p| p.mover == train.id.0 && p.corner.is_some())
        .expect("the train's second stop is a mover position") as u32;
    let on = |a: u32, moved: Option<u32>| {
        let a = &mesh.areas()[a as usize];
        a.mover == Some(train.id.0) && a.moved == moved
    };
    let out = mesh
        .reaches()
        .iter()
        .find(|r| on(r.from, None) && on(r.to, Some(stop2)))
        .expect("a ride from the first stop to the second");
    let back = mesh
        .reaches()
        .iter()
        .find(|r| on(r.from, Some(stop2)) && on(r.to, None))
        .expect("a ride back");
    assert_eq!(out.kind, ReachKind::Elevator);
    assert_eq!(back.kind, ReachKind::Elevator);
    assert_eq!(out.needs, vec![MoverNeed::Down(train.id.0)]);
    assert_eq!(back.needs, vec![MoverNeed::Moved(stop2)]);
    // 200 units at 100 units/s: about two seconds.
    assert!((1.0..=2.5).contains(&out.seconds), "{out:?}");
    let board = mesh
        .reaches()
        .iter()
        .find(|r| {
            !on(r.from, Some(stop2)) && on(r.to, Some(stop2)) && r.kind != ReachKind::Elevator
        })
        .expect("a walk onto the train at its second stop");
    assert!(board.needs.contains(&MoverNeed::Moved(stop2)), "{board:?}");
    let world = NavWorld::new(&level, &cmap);
    let dt = 1.0 / mesh.params.tick_rate as f32;
    for r in [out, back, board] {
        let got = run_reach(&world, &mesh, r).unwrap_or_else(|| panic!("{r:?} replays"));
        assert_eq!(mesh.area_at(got.state.origin), Some(r.to), "{r:?}");
        assert!(
            (got.ticks as f32 * dt - r.seconds).abs() <= dt + 1e-4,
            "{r:?}"
        );
    }
}

#[test]
fn maps_without_floor_or_geometry_are_refused() {
    // One box floating in the void: its top has nothing above it, so it is outside any map.
    let (level, cmap) = from_text(
        "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) X 0 0 0 1 1\n( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) X 0 0 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) X 0 0 0 1 1\n( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) X 0 0 0 1 1\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) X 0 0 0 1 1\n( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) X 0 0 0 1 1\n}\n}\n",
    );
    let e = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap_err();
    assert!(matches!(e, CompileError::NoFloor { .. }), "{e}");
    // Only a degenerate brush (three planes through one line): nothing survives loading.
    let (level, cmap) = from_text(
        "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) X 0 0 0 1 1\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) X 0 0 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) X 0 0 0 1 1\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) X 0 0 0 1 1\n}\n}\n",
    );
    let e = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap_err();
    assert!(matches!(e, CompileError::NoGeometry { .. }), "{e}");
    assert!(e.to_string().contains("no usable brushes"), "{e}");
    // Through the command line: exit 1, the message, and no file written.
    let dir = TempDir::new("aas-bad-maps");
    let bad = dir.join("void.map");
    std::fs::write(
        &bad,
        "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) X 0 0 0 1 1\n( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) X 0 0 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) X 0 0 0 1 1\n( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) X 0 0 0 1 1\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) X 0 0 0 1 1\n( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) X 0 0 0 1 1\n}\n}\n",
    )
    .unwrap();
    let out = dir.join("void.nav");
    let o = bin()
        .args(["nav", "compile"])
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no floor a player can stand on"), "{err}");
    assert!(!out.exists());
    // Bad parameters.
    let o = bin()
        .args(["nav", "compile", "maps/arena.map", "--cell", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cell 2"));
    assert!(!out.exists());
}

/// A teleport's path is broken: into the trigger, then from the destination down. A door
/// in the wall between the two halves of a room, inside the box spanning a teleporter and
/// where it sends the player, is not on that path: the teleport needs no door (as e3m2's
/// teleporter to its balcony was taken to need the pillar door below it, and dm6's from
/// under its trapdoor the trapdoor), while the walk through the doorway does.
#[test]
fn a_teleport_needs_no_door_between_its_trigger_and_where_it_sends() {
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., 0.), v(1024., 512., 256.));
    // The dividing wall with a doorway (y 200..312) its door fills.
    b.solid(v(504., 0., 0.), v(520., 200., 256.), "WALL")
        .solid(v(504., 312., 0.), v(520., 512., 256.), "WALL")
        .solid(v(504., 200., 128.), v(520., 312., 256.), "WALL")
        .brush_entity(
            &[("classname", "func_door"), ("angle", "-1")],
            &[(v(504., 200., 0.), v(520., 312., 128.), "DOOR")],
        )
        .brush_entity(
            &[("classname", "trigger_teleport"), ("target", "east")],
            &[(v(64., 32., 0.), v(128., 96., 64.), "trigger")],
        )
        .point(
            "info_teleport_destination",
            v(760., 400., 24.),
            &[("targetname", "east")],
        )
        .point("info_player_deathmatch", v(300., 256., 24.), &[])
        .point("info_player_deathmatch", v(800., 128., 24.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let door = level.movers[0].id.0;
    let east = |a: u32| mesh.areas()[a as usize].center.x > 520.0;
    let teleport = mesh
        .reaches()
        .iter()
        .find(|r| r.kind == ReachKind::Teleport && east(r.to))
        .expect("a teleport to the east half");
    assert!(
        teleport.start.x < 160.0 && teleport.end.y > 300.0,
        "{teleport:?}"
    );
    assert!(teleport.needs.is_empty(), "{teleport:?}");
    let through = mesh
        .reaches()
        .iter()
        .filter(|r| r.kind != ReachKind::Teleport && !east(r.from) && east(r.to))
        .collect::<Vec<_>>();
    assert!(!through.is_empty());
    assert!(
        through
            .iter()
            .all(|r| r.needs.contains(&MoverNeed::Open(door))),
        "{through:?}"
    );
}

/// A step a standing jump reaches the height of but not the top of (the box rises past
/// the edge and falls back): the barrier jump up is stored with a run-up — running first,
/// then jumping — and lands on the step.
#[test]
fn a_barrier_jump_that_falls_back_from_a_stand_is_taken_with_a_run_up() {
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., 0.), v(512., 256., 256.));
    b.solid(v(256., 0., 0.), v(512., 256., 42.), "STEP").point(
        "info_player_deathmatch",
        v(64., 128., 24.),
        &[],
    );
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let up = mesh
        .reaches()
        .iter()
        .find(|r| r.start.z < 30.0 && r.end.z > 60.0)
        .expect("a way up");
    let step = up.to;
    let top = mesh.area_at(v(384., 128., 66.)).expect("step top");
    assert!(mesh.walk_joined(step, top), "onto the step's top");
    assert_eq!(up.kind, ReachKind::BarrierJump, "{up:?}");
    assert!(
        !up.commands[0].cmd.jump && up.commands.iter().any(|c| c.cmd.jump),
        "runs, then jumps: {:?}",
        up.commands
    );
    let world = NavWorld::new(&level, &cmap);
    let got = run_reach(&world, &mesh, up).expect("replays");
    assert_eq!(mesh.area_at(got.state.origin), Some(step));
}

/// A door in the middle of a corridor, where the floor runs on unbroken through its place
/// once it is open (as e1m1's secret door before the quad): the doorway is an area of its
/// own, so the way from one end to the other takes a reachability into it that records
/// the door; a route could otherwise cross the shut door inside one area, where no
/// reachability is (e1m1's tour bot stood before that door for the whole minute).
#[test]
fn a_door_across_a_corridor_is_a_doorway_area_the_way_through_needs() {
    use botarena::aas::route::{Travel, build_cache, route};
    let v = Vec3::new;
    let (level, cmap) = common::shut_door_corridor();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let door = level.movers[0].id.0;
    let (west, east) = (v(64., 48., 24.03125), v(448., 48., 24.03125));
    let (a, b) = (mesh.area_at(west).unwrap(), mesh.area_at(east).unwrap());
    assert_ne!(a, b, "the corridor's ends are apart");
    let cache = build_cache(&mesh, b, Travel::ALL);
    let r = route(&mesh, &cache, west, east).expect("a route through the doorway");
    assert!(
        r.reaches.iter().any(|&i| mesh.reaches()[i as usize]
            .needs
            .contains(&MoverNeed::Open(door))),
        "{:?}",
        r.reaches
            .iter()
            .map(|&i| &mesh.reaches()[i as usize])
            .collect::<Vec<_>>()
    );
}

/// The compile stands doors open, and a run may lean on one there: a fall off a ledge
/// stopped by the side of a door lowered into a pillar (as lqdm6's fall against a lowered
/// hatch) lands short of where it lands with the door up. Such a run needs the door open;
/// a run that arrives as well with the door up needs nothing of it.
#[test]
fn a_fall_stopped_by_a_door_where_it_stands_open_needs_it_open() {
    use botarena::aas::run::{RunWorld, fit_turned};
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., -64.), v(1024., 256., 1024.));
    // A low floor (top -32) in the west, a floor 32 higher (top 0) at x 480..640, a ledge
    // (top 320) east of it; the door hangs at z 600..960 and comes down to -32..328 at
    // x 416..480, a pillar against whose east side a fall off the ledge stops.
    b.solid(v(0., 0., -64.), v(480., 256., -32.), "LOW")
        .solid(v(480., 0., -64.), v(640., 256., 0.), "FLOOR")
        .solid(v(640., 0., -64.), v(1024., 256., 320.), "LEDGE")
        .brush_entity(
            &[
                ("classname", "func_door"),
                ("targetname", "gate"),
                ("angle", "-2"),
                ("wait", "-1"),
                ("lip", "-272"),
            ],
            &[(v(416., 64., 600.), v(480., 192., 960.), "DOOR")],
        )
        .point(
            "trigger_relay",
            v(800., 128., 400.),
            &[("targetname", "never"), ("target", "gate")],
        )
        .point("info_player_deathmatch", v(900., 128., 344.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let door = level.movers[0].id.0;
    let floor = mesh
        .area_at(v(560., 128., 24.))
        .expect("the floor below the ledge");
    // Replayed with the door where the map has it (up): does the run still land there?
    let up = RunWorld {
        map: &cmap,
        physics: PhysicsParams::default(),
        dt: 1.0 / mesh.params.tick_rate as f32,
        me: None,
    };
    let falls: Vec<_> = mesh
        .reaches()
        .iter()
        .filter(|r| {
            // Off the ledge (its areas at the top; the door's own top left out).
            let from = &mesh.areas()[r.from as usize];
            r.to == floor && from.mover.is_none() && (from.maxs.z - 344.0).abs() < 1.0
        })
        .map(|r| {
            let s = stand_still(&cmap, &PhysicsParams::default(), r.start);
            let lands_up = fit_turned(&up, &mesh, r, &s, &[0.0], 0, None).is_some();
            (lands_up, r.needs.contains(&MoverNeed::Open(door)), r)
        })
        .collect();
    assert!(
        !falls.is_empty(),
        "falls from the ledge to the floor below it"
    );
    assert!(
        falls.iter().any(|f| !f.0),
        "a fall that the door's side stops: {falls:?}"
    );
    for (lands_up, needs, r) in &falls {
        assert_eq!(!lands_up, *needs, "{r:?}");
    }
}
