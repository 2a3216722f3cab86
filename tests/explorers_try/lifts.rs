//! Lifts and moving floors: a plat ridden up to a balcony (and fired by its button where
//! it waits up), a mesa walked off, a floor over a lava pit that a plate slides away.

use super::*;

#[test]
fn an_explorer_rides_the_plat_it_sees_up_to_a_weapon() {
    let (level, cmap) = balcony();
    let mut m = explorer_in(level, cmap, v(-300., 0., 25.));
    // Fifteen seconds: it goes there on sight (a few seconds), not by chance.
    let up = first_tick(&mut m, 15, |m| {
        let s = m.sim.player_state(0).unwrap();
        s.origin.z > 200.0 && s.origin.x > 200.0
    });
    println!("on the balcony at tick {up:?}");
    assert!(up.is_some(), "the explorer never got onto the balcony");
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    assert!(
        has_waypoint(&m, |k| matches!(k, WaypointKind::ElevatorTop { .. })),
        "the ride is in the graph"
    );
}

/// [`balcony`] with its plat named (`lift`): it waits up, flush with the balcony, until
/// something fires it (plats.qc), here a button on the room's west wall (chest high,
/// facing east). Once fired it comes down and works as any plat (e1m5's, up to the room
/// at z 344, is fired by a button in another room).
fn balcony_fired_plat() -> (Level, CollisionMap) {
    let mut b = balcony_with(&[("classname", "func_plat"), ("targetname", "lift")]);
    b.brush_entity(
        &[
            ("classname", "func_button"),
            ("angle", "180"),
            ("wait", "-1"),
            ("target", "lift"),
        ],
        &[(v(-512., -24., 32.), v(-504., 24., 64.), "button")],
    );
    b.build()
}

#[test]
fn an_explorer_fires_a_plat_waiting_up_with_its_button_and_rides_it() {
    let (level, cmap) = balcony_fired_plat();
    let plat = level
        .movers
        .iter()
        .position(|m| m.classname == "func_plat")
        .expect("the plat");
    let mut m = explorer_in(level, cmap, v(-300., 0., 25.));
    assert_eq!(
        m.sim.mover_state(plat).unwrap().phase,
        Phase::AtB,
        "a named plat waits up until fired"
    );
    let mut fired = None;
    // Fifteen seconds, as for the plat waiting down: it rides the plat once it is down
    // (a few seconds); one that does not try it gets up by chance much later (28 s).
    let up = first_tick(&mut m, 15, |m| {
        if fired.is_none() && m.sim.mover_state(plat).unwrap().phase != Phase::AtB {
            fired = Some(m.sim.tick);
        }
        let s = m.sim.player_state(0).unwrap();
        s.origin.z > 200.0 && s.origin.x > 200.0
    });
    println!("plat fired at tick {fired:?}, on the balcony at tick {up:?}");
    assert!(
        fired.is_some(),
        "the explorer never pressed the plat's button"
    );
    assert!(up.is_some(), "the explorer never rode the fired plat up");
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    assert!(
        has_waypoint(&m, |k| matches!(k, WaypointKind::ElevatorTop { .. })),
        "the ride is in the graph"
    );
}

/// A mesa (x −512..0, top z 576) over a hall (x 0..528, floor z 0) where a rocket
/// launcher lies: nothing leads down but the fall off its edge, 576 units (e1m5's pit
/// under the room a fired plat rises to, down to a secret door; Quake's fall costs at most
/// 5 health from any height).
fn mesa() -> (Level, CollisionMap) {
    ledge_over_hall(576., 768.).build()
}

#[test]
fn an_explorer_drops_off_a_mesa_as_deep_as_the_compiled_graph_falls() {
    let (level, cmap) = mesa();
    let mut m = explorer_in(level, cmap, v(-300., 0., 601.));
    // Walked off, as the compiled graph falls: not only down a run planned over the
    // physics to the unvisited floor below, as once the mesa's top is known (12 s) where
    // its walks stopped at drops deeper than 400 units.
    let mut planned = false;
    let down = first_tick(&mut m, 60, |m| {
        let low = m.sim.player_state(0).unwrap().origin.z < 100.0;
        if !low {
            planned |= with_explorer(m, |e| e.run.is_some());
        }
        low
    });
    println!("in the hall at tick {down:?}, down a planned run: {planned}");
    assert!(down.is_some(), "the explorer never dropped off the mesa");
    assert!(!planned, "the explorer got down only by a planned run");
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    let vitals: botarena::sim::components::Vitals = m.sim.player_component(0).unwrap();
    assert!(
        vitals.health >= 95.0,
        "the fall cost {}",
        100.0 - vitals.health
    );
}

/// Two ledges (x −512..−256 and 256..528, top z 128) across a lava pit, bridged by a floor
/// (a `func_door`, x −256..256, y −128..128, z 112..128, between walls) that slides 264
/// units south at 75 u/s when fired: by a pressure plate (a `func_button` sinking 8 units,
/// `wait` 2) on the west ledge's edge, south of the middle, and by a trigger over the
/// floor (`wait` 10); a rocket launcher lies on the east ledge. e4m3's floor to its quad
/// room: the plate slides it away before a player is on it; one already on it is carried
/// against the wall, which stops it, and crosses.
fn sliding_floor() -> (Level, CollisionMap) {
    let mut b = shell(256.);
    b.solid(v(-512., -256., 0.), v(-256., 256., 128.), "ledge");
    b.solid(v(256., -256., 0.), v(528., 256., 128.), "ledge");
    b.solid(v(-256., -256., 0.), v(256., 256., 32.), "*lava1");
    b.solid(v(-256., -256., 32.), v(256., -128., 256.), "wall");
    b.solid(v(-256., 128., 32.), v(256., 256., 256.), "wall");
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("targetname", "floor"),
            ("angle", "270"),
            ("speed", "75"),
            ("lip", "-8"),
        ],
        &[(v(-256., -128., 112.), v(256., 128., 128.), "floor")],
    );
    b.brush_entity(
        &[
            ("classname", "trigger_multiple"),
            ("target", "floor"),
            ("wait", "10"),
        ],
        &[(v(-192., -128., 136.), v(192., 128., 168.), "trigger")],
    );
    b.brush_entity(
        &[
            ("classname", "func_button"),
            ("angle", "-2"),
            ("wait", "2"),
            ("target", "floor"),
        ],
        &[(v(-320., -128., 128.), v(-256., 0., 136.), "plate")],
    );
    b.point("weapon_rocketlauncher", v(400., 0., 128.), &[]);
    b.point("info_player_deathmatch", v(-400., 0., 152.), &[]);
    b.build()
}

#[test]
fn an_explorer_waits_for_a_floor_that_slid_away_and_crosses_it() {
    let (level, cmap) = sliding_floor();
    let floor = door_of(&level);
    let mut m = explorer_in(level, cmap, v(-400., 0., 153.));
    let (mut slid, mut waited) = (None, None);
    // Twenty seconds: it waits for the floor once it has seen it slide away and goes for
    // it as it comes back (13 s); one that turned away from the pit got over by chance at
    // 31 s.
    let over = first_tick(&mut m, 20, |m| {
        if slid.is_none() && m.sim.mover_state(floor).unwrap().phase != Phase::AtA {
            slid = Some(m.sim.tick);
        }
        if waited.is_none() && with_explorer(m, |e| matches!(e.activity, Activity::Floor(..))) {
            waited = Some(m.sim.tick);
        }
        let s = m.sim.player_state(0).unwrap();
        s.origin.x > 280.0 && s.origin.z > 128.0
    });
    println!("floor slid at tick {slid:?}, waited from tick {waited:?}, over at tick {over:?}");
    assert!(slid.is_some(), "nothing fired the floor");
    assert!(waited.is_some(), "the explorer never waited for the floor");
    assert!(
        over.is_some(),
        "the explorer never crossed to the east ledge"
    );
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    // Stood on, the floor's cells are known (a mover's top drew explorers back for good).
    let known = [-64., 64.]
        .iter()
        .flat_map(|&x| [-64., 64.].map(|y| v(x, y, 153.)))
        .any(|p| m.learned.visits.visits(p) > 0);
    assert!(known, "no cell of the floor counts as visited");
}
