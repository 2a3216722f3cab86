//! Teleporters: stepped into where seen, uncovered under a plat, in a well under a plat,
//! beside another (from the side touched first), and e1m5's quad teleporter.

use super::*;

/// An explorer standing in the first of [`sealed_rooms_with`]'s rooms, stepped 20 s: the
/// match and the first tick it was in the second room.
fn into_the_second_room(level: Level, cmap: CollisionMap) -> (botarena::Match, Option<u32>) {
    let mut m = explorer_in(level, cmap, v(-400., 160., 25.));
    let beyond = first_tick(&mut m, 20, |m| {
        m.sim.player_state(0).unwrap().origin.x > 16.0
    });
    println!("in the second room at tick {beyond:?}");
    (m, beyond)
}

#[test]
fn an_explorer_steps_into_the_teleporter_it_sees_and_finds_the_weapon_beyond() {
    let (level, cmap) = sealed_rooms();
    // Twenty seconds: it goes there on sight (a second or two), not by chance.
    let (m, beyond) = into_the_second_room(level, cmap);
    assert!(
        beyond.is_some(),
        "the explorer never went through the teleporter"
    );
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
    assert!(
        has_waypoint(&m, |k| matches!(k, WaypointKind::Teleporter { .. })),
        "the teleporter is in the graph"
    );
}

/// [`sealed_rooms`] with the teleporter in the middle of the first room under a plat: a
/// slab (z 16..40 down, 104 higher up) resting on four posts 16 high, too low a gap for a
/// player to get under; it rises when stood on.
fn teleporter_under_plat() -> (Level, CollisionMap) {
    sealed_rooms_with((v(-112., -16., 0.), v(-80., 16., 16.)), |b| {
        for (x, y) in [(-176., -80.), (-32., -80.), (-176., 64.), (-32., 64.)] {
            b.solid(v(x, y, 0.), v(x + 16., y + 16., 16.), "post");
        }
        b.brush_entity(
            &[("classname", "func_plat"), ("height", "104")],
            &[(v(-176., -80., 120.), v(-16., 80., 144.), "plat")],
        );
    })
}

#[test]
fn an_explorer_uncovers_a_teleporter_under_a_plat_by_riding_it_and_stepping_back_off() {
    let (level, cmap) = teleporter_under_plat();
    // Twenty seconds: it goes there on sight (a few seconds), not by chance. Riding the
    // plat up alone leaves the teleporter under it.
    let (m, beyond) = into_the_second_room(level, cmap);
    assert!(
        beyond.is_some(),
        "the explorer never got into the teleporter under the plat"
    );
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// [`teleporter_under_plat`] as e4m3's: the teleporter in a well under the plat, closed by
/// a rim 24 units high and 32 wide that the plat rests on (z 24..32 down), which the
/// movement stage does not step up and only a jump gets over.
fn teleporter_in_a_well_under_plat() -> (Level, CollisionMap) {
    sealed_rooms_with((v(-112., -16., 0.), v(-80., 16., 16.)), |b| {
        b.solid(v(-176., -80., 0.), v(-144., 80., 24.), "rim");
        b.solid(v(-48., -80., 0.), v(-16., 80., 24.), "rim");
        b.solid(v(-144., -80., 0.), v(-48., -48., 24.), "rim");
        b.solid(v(-144., 48., 0.), v(-48., 80., 24.), "rim");
        b.brush_entity(
            &[("classname", "func_plat"), ("height", "96")],
            &[(v(-176., -80., 120.), v(-16., 80., 128.), "plat")],
        );
    })
}

#[test]
fn an_explorer_jumps_the_rim_of_a_teleporters_well_under_a_plat() {
    let (level, cmap) = teleporter_in_a_well_under_plat();
    // Where it sees the plat over the well (farther off, the rim hides it). Off the rising
    // plat, in under it over the rim with a standing jump, steered over the rim in the
    // air (steered back toward the plat's side, it came down where it left, for good).
    let mut m = explorer_in(level, cmap, v(-280., 0., 25.));
    let beyond = first_tick(&mut m, 20, |m| {
        m.sim.player_state(0).unwrap().origin.x > 16.0
    });
    println!("in the second room at tick {beyond:?}");
    assert!(
        beyond.is_some(),
        "the explorer never got into the teleporter in the well"
    );
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// Two thin teleporters 12 units apart across the south of the east room (as e1m5's pair,
/// one for each way): the western one (x 416..420) sends a player back beside where the
/// explorer starts, the eastern one (x 432..436) to the sealed west room. Walked into
/// from the west, the western one is touched first.
fn teleporter_pair() -> (Level, CollisionMap) {
    let mut b = shell(256.);
    b.solid(v(0., -256., 0.), v(16., 256., 256.), "wall");
    for (x, target) in [(416., "back"), (432., "west")] {
        b.brush_entity(
            &[("classname", "trigger_teleport"), ("target", target)],
            &[(v(x, -256., 0.), v(x + 4., -160., 72.), "trigger")],
        );
    }
    b.point(
        "info_teleport_destination",
        v(150., -150., 0.),
        &[("targetname", "back"), ("angle", "0")],
    );
    b.point(
        "info_teleport_destination",
        v(-300., 0., 0.),
        &[("targetname", "west"), ("angle", "0")],
    );
    b.point("info_player_deathmatch", v(200., -208., 24.), &[]);
    b.build()
}

/// An explorer goes to a teleporter from the side where it touches that one first: from
/// the west of the pair, walking, it leaves the eastern one alone (walking at it, it would
/// touch the western one and be sent back where it has been), from the east it walks in
/// across the eastern one's east face; from above it, where no walk gets into it, it leaves
/// it alone. With a planner it runs into the eastern one from the west too, round the
/// pair's end, the western one never touched on the way.
#[test]
fn an_explorer_steps_into_a_teleporter_beside_another_from_the_side_it_is_touched_first() {
    use botarena::bot::explore::{Explorer, RunPlanner, VisitMap, teleporters, touched_first};
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = teleporter_pair();
    let m = common::match_of(level, cmap, 4, vec![]);
    let views = teleporters(&m.sim);
    assert_eq!(views.len(), 2);
    let (back, west) = (views[0], views[1]);
    // Each has a side where a player's box touches it alone: the western one's west face,
    // the eastern one's east face (16 units out, 2 in).
    assert_eq!(back.entry, Some((Vec3::NEG_X, v(402., -208., 36.))));
    assert_eq!(west.entry, Some((Vec3::X, v(450., -208., 36.))));
    let (wside, eside) = (v(200., -208., 24.), v(500., -208., 24.));
    assert_eq!(
        touched_first(&views, wside, west.walk_point(wside)),
        Some(back.index)
    );
    assert_eq!(
        touched_first(&views, eside, west.walk_point(eside)),
        Some(west.index)
    );
    assert_eq!(touched_first(&views, wside, v(300., 100., 24.)), None);
    // Where a teleporter leads is known once the team stood at its destination or where
    // arrivals come down, a little way on the way it faces (here the next visit cell).
    let north = botarena::bot::explore::TeleporterView {
        dest: v(100., 100., 24.),
        yaw: 90.,
        ..back
    };
    let mut known = VisitMap::default();
    assert!(!north.leads_where_known(&known));
    known.visit(v(100., 200., 24.));
    assert_ne!(
        VisitMap::cell(north.dest),
        VisitMap::cell(v(100., 200., 24.))
    );
    assert!(north.leads_where_known(&known));
    let mut visits = VisitMap::default();
    let walked_off = |v: &VisitMap| botarena::bot::explore::teleporter_boxes(&m.sim.level, v);
    assert_eq!(walked_off(&visits), vec![]);
    visits.visit(back.dest);
    assert!(back.leads_where_known(&visits));
    // Walks chosen keep off the one that leads where the team has stood, not the other.
    assert_eq!(walked_off(&visits), vec![(back.mins, back.maxs)]);
    let dt = 0.05;
    // West of the pair: the one that leads somewhere new is not walked at.
    let here = PlayerState::at(wside, 0.0);
    let mut ex = Explorer::new(here.origin);
    assert_eq!(
        ex.teleporter(&m.sim.cmap, &visits, &views, &here, None, dt),
        None
    );
    // East of it: walked into from the east.
    let there = PlayerState::at(eside, 0.0);
    let mut ex = Explorer::new(there.origin);
    let go = ex.teleporter(&m.sim.cmap, &visits, &views, &there, None, dt);
    assert_eq!(target(go), Some(v(450., -208., 24.)));
    // Seen from a balcony above it: no walk at the bot's own height gets into it.
    let above = PlayerState::at(v(500., -208., 150.), 0.0);
    let mut ex = Explorer::new(above.origin);
    assert_eq!(
        ex.teleporter(&m.sim.cmap, &visits, &views, &above, None, dt),
        None
    );
    // With a planner, from the west: a run whose first teleporter is the eastern one.
    let physics = botarena::physics::pmove::PhysicsParams::default();
    let mut rng = botarena::sim::rng::SimRng::new(7, 0);
    let stood = botarena::nav::sample::stand_still(&m.sim.cmap, &physics, wside + Vec3::Z);
    let mut ex = Explorer::new(stood.origin);
    let planner = RunPlanner {
        level: &m.sim.level,
        me: botarena::map::EntId(1),
        physics: &physics,
        rng: &mut rng,
    };
    let go = ex.teleporter(&m.sim.cmap, &visits, &views, &stood, Some(planner), dt);
    assert_eq!(go, None, "a run, not a walk");
    let run = ex.run.as_ref().expect("a run planned into the eastern one");
    let first = run
        .path
        .windows(2)
        .find_map(|w| touched_first(&views, w[0], w[1]));
    assert_eq!(first, Some(west.index), "touches the eastern one first");
    // And a real explorer started east of the pair gets to the west room through it.
    let (level, cmap) = teleporter_pair();
    let mut m = explorer_in(level, cmap, v(500., -208., 25.));
    let beyond = first_tick(&mut m, 20, |m| {
        m.sim.player_state(0).unwrap().origin.x < 0.0
    });
    assert!(beyond.is_some(), "the explorer never went through");
}

/// e1m5's teleporter to the quad (trigger 9, x 432..436) sits on the east face of a
/// 16-unit sill under an arch, the one back (trigger 8, x 416..420) on its west face; east
/// of the arch a player's centre has 7 units of room past the posts. An explorer that
/// starts west of the arch, where trigger 8 leads somewhere the team has been, runs round
/// the post into trigger 9: walking at it, the posts turned the bot away and it walked
/// round into trigger 8 (e1m5's quad was marked on 4 of 16 explorations).
#[test]
fn an_explorer_runs_into_e1m5s_quad_teleporter_past_the_arch_post() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    for seed in [4, 5, 6] {
        let mut m = common::explorer_on(&dir, "e1m5", seed, v(320., 2650., 425.), 0.);
        let back = m.sim.level.teleport_dests[1].origin;
        assert_eq!(back, v(704., 1520., 31.), "trigger 8's destination");
        m.learned.visits.visit(back);
        let mut first = None;
        for _ in 0..15 * 20 {
            m.step();
            for e in &m.sim.events {
                if let botarena::sim::SimEvent::Teleport { trigger, .. } = e {
                    first = first.or(Some(*trigger));
                }
            }
        }
        assert_eq!(first, Some(9), "seed {seed}: the first teleporter touched");
    }
}

#[test]
fn an_explorer_heads_through_a_door_it_sees_to_where_nobody_has_been_twice_at_most() {
    use botarena::bot::explore::{DoorwayView, Explorer, VisitMap, doorways};
    use botarena::bot::movement::MoveStatus;
    use botarena::physics::pmove::PlayerState;
    // A door that waits to be fired is not one to walk through.
    let (level, cmap) = two_rooms(Door::Wired);
    let m = common::match_of(level, cmap, 4, vec![]);
    assert!(doorways(&m.sim).is_empty());
    let (level, cmap) = two_rooms(Door::Touch);
    let m = common::match_of(level, cmap, 4, vec![]);
    let views: Vec<DoorwayView> = doorways(&m.sim);
    assert_eq!(views.len(), 1);
    // Across its thin side (x 0..16), 48 units past each face, at a standing origin.
    assert_eq!(views[0].sides, [v(-48., 0., 24.), v(64., 0., 24.)]);
    let here = PlayerState::at(v(-256., 0., 24.), 0.0);
    let beyond = PlayerState::at(v(64., 0., 24.), 0.0);
    let mut visits = VisitMap::default();
    let mut ex = Explorer::new(here.origin);
    let dt = 0.05;
    let moving = (&MoveStatus::Moving, (None, false));
    // The far side, until the bot stands there; then a second try, and no third.
    for _ in 0..2 {
        for _ in 0..3 {
            let go = ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, dt);
            assert_eq!(target(go), Some(v(64., 0., 24.)));
        }
        assert_eq!(
            ex.doorway(&m.sim.cmap, &visits, &views, &beyond, moving, dt),
            None
        );
    }
    assert_eq!(
        ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, dt),
        None
    );
    // A fresh explorer leaves it alone once somebody has been beyond it.
    let mut fresh = Explorer::new(here.origin);
    assert!(
        fresh
            .doorway(&m.sim.cmap, &visits, &views, &here, moving, dt)
            .is_some()
    );
    // A glance beyond it (a bot that touched it open and turned back) leaves it as unknown;
    // more than that, not.
    for _ in 0..botarena::bot::explore::FRESH_VISITS {
        visits.visit(v(64., 0., 24.));
    }
    let mut glanced = Explorer::new(here.origin);
    assert!(
        glanced
            .doorway(&m.sim.cmap, &visits, &views, &here, moving, dt)
            .is_some()
    );
    visits.visit(v(64., 0., 24.));
    let mut other = Explorer::new(here.origin);
    assert_eq!(
        other.doorway(&m.sim.cmap, &visits, &views, &here, moving, dt),
        None
    );
}
