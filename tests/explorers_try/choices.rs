//! Where an explorer goes next: drops as deep as the compiled graph falls, the team's graph
//! routed over to where nobody has been, a ledge explored before the pit below it, items it
//! cannot get left for a while, respawns, teleported choices and planned runs.

use super::*;

/// Room A (x −512..0, y −256..256) and room C (x −512..0, y 512..1024) with a thick wall
/// between them; the only way from one to the other is a corridor 128 wide that leaves A
/// eastward, runs north and comes back west into C: some 2,300 units for 700 straight.
fn the_long_way_round() -> (Level, CollisionMap) {
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -16.), v(784., 1040., 0.), "floor");
    b.solid(v(-528., -272., 256.), v(784., 1040., 272.), "ceiling");
    // Outer walls.
    b.solid(v(-528., -272., 0.), v(-512., 1040., 256.), "wall");
    b.solid(v(768., -272., 0.), v(784., 1040., 256.), "wall");
    b.solid(v(-528., -272., 0.), v(784., -256., 256.), "wall");
    b.solid(v(-528., 1024., 0.), v(784., 1040., 256.), "wall");
    // Between the rooms, and the block the corridor runs round.
    b.solid(v(-512., 256., 0.), v(0., 512., 256.), "wall");
    b.solid(v(0., -128., 0.), v(640., 768., 256.), "block");
    // A's east wall north of the corridor's mouth, C's east wall but for its own, and
    // the corridor's far side north of C.
    b.solid(v(0., 896., 0.), v(768., 1024., 256.), "wall");
    b.point("info_player_deathmatch", v(-256., 0., 24.), &[]);
    b.build()
}

#[test]
fn an_explorer_routes_over_the_teams_graph_to_where_nobody_has_been() {
    use botarena::nav::waypoints::Travel;
    let (level, cmap) = the_long_way_round();
    let mut m = explorer_in(level, cmap, v(-256., 0., 25.));
    // What an earlier explorer left: waypoints along the corridor to C's doorway, walked
    // (every cell on the way and in room A visited), C itself unseen.
    const STAND: f32 = botarena::nav::sample::STAND;
    let path = [
        v(-256., 0., STAND),
        v(-64., -192., STAND),
        v(320., -192., STAND),
        v(704., -192., STAND),
        v(704., 320., STAND),
        v(704., 832., STAND),
        v(320., 832., STAND),
        v(64., 832., STAND),
    ];
    {
        let g = m.learned.waypoints_mut();
        let ids: Vec<u32> = path
            .iter()
            .map(|p| g.add(*p, WaypointKind::Normal))
            .collect();
        for w in ids.windows(2) {
            let d = path[w[0] as usize].distance(path[w[1] as usize]);
            g.link(w[0], w[1], d, Travel::Walk, 1.0);
            g.link(w[1], w[0], d, Travel::Walk, 1.0);
        }
    }
    for p in path.windows(2) {
        for k in 0..=16 {
            m.learned.visits.visit(p[0].lerp(p[1], k as f32 / 16.0));
        }
    }
    for x in [-448., -320., -192., -64.] {
        for y in [-192., -64., 64., 192.] {
            m.learned.visits.visit(v(x, y, 24.));
        }
    }
    let mut gated = false;
    let in_c = first_tick(&mut m, 30, |m| {
        gated |= with_explorer(m, |ex| ex.gate.is_some());
        let s = m.sim.player_state(0).unwrap();
        s.origin.y > 512.0 && s.origin.x < 0.0
    });
    println!("in room C at tick {in_c:?}, routed to the frontier: {gated}");
    // The frontier test is the routing stage's own goal test.
    use botarena::bot::explore::{GATE_REACH_CANDIDATES, GATE_REACH_RADIUS};
    use botarena::bot::routing::{PICK_CANDIDATES, PICK_RADIUS};
    assert_eq!(
        (GATE_REACH_CANDIDATES, GATE_REACH_RADIUS),
        (PICK_CANDIDATES, PICK_RADIUS)
    );
    assert!(gated, "the explorer never routed to a frontier point");
    assert!(in_c.is_some(), "the explorer never got to room C");
}

/// An explorer on a ledge (z 0, y 64..256, the length of the shell) above a pit 192 units
/// deep (y −256..64) that nothing climbs back out of: with nobody anywhere yet, its choice
/// of where to go stays on the ledge, whatever the seed: the pit can be dropped into later,
/// the ledge not walked again once it is left for the pit (start.map's ring of ledges round
/// its pit was left for the pit every time).
#[test]
fn an_explorer_on_a_ledge_explores_it_before_dropping_into_the_pit_below() {
    use botarena::physics::pmove::PlayerState;
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -208.), v(544., 272., -192.), "pitfloor")
        .solid(v(-528., 64., -192.), v(544., 272., 0.), "ledge")
        .solid(v(-528., -272., 256.), v(544., 272., 272.), "ceiling")
        .solid(v(-528., -272., -192.), v(-512., 272., 256.), "wall")
        .solid(v(528., -272., -192.), v(544., 272., 256.), "wall")
        .solid(v(-528., -272., -192.), v(544., -256., 256.), "wall")
        .solid(v(-528., 256., 0.), v(544., 272., 256.), "wall");
    b.point("info_player_deathmatch", v(440., 160., 25.), &[]);
    let (level, cmap) = b.build();
    let s = PlayerState::at(v(440., 160., 24.03125), 180.0);
    let pit = pit_choices(&level, &cmap, &s);
    assert_eq!(pit, 0, "of 40 seeds, the pit chosen by {pit}");
}

/// A pool floating over a hall (water x 0..384, z 352..480; the hall's floor z 0 under it)
/// with a shelf beside it (x 384..528, top z 160) seen aslant through the pool's open
/// bottom. Out of the bottom a player sinks nearly straight down, so a swimmer anywhere in
/// the pool dives for floor under the water, never for the shelf.
#[test]
fn an_explorer_dives_only_for_floor_under_the_pool_it_swims_in() {
    use botarena::bot::explore::{ButtonGo, Explorer, VisitMap};
    use botarena::physics::pmove::PlayerState;
    let mut b = shell(640.);
    b.solid(v(0., -256., 352.), v(384., 256., 480.), "*water0");
    b.solid(v(384., -256., 0.), v(528., 256., 160.), "shelf");
    b.point("info_player_deathmatch", v(-300., 0., 24.), &[]);
    let (level, cmap) = b.build();
    let visits = VisitMap::default();
    let mut dives = 0;
    for x in [250., 300., 372., 380.] {
        for y in [-200., -100., 0., 100., 200.] {
            let mut s = PlayerState::at(v(x, y, 420.), 0.0);
            s.water_level = 3;
            let mut ex = Explorer::new(s.origin);
            let to = match ex.dive(&cmap, &level, &visits, &s, 0.05) {
                Some(ButtonGo::Walk(req)) => match req.target {
                    botarena::bot::movement::MoveTarget::Point(p) => p,
                    other => panic!("{other:?}"),
                },
                None => continue,
                other => panic!("a dive is walked: {other:?}"),
            };
            dives += 1;
            assert!(
                to.x < 384.0 && to.z < 100.0,
                "from ({x}, {y}) the dive goes for {to:?}, not under the pool"
            );
        }
    }
    assert!(dives > 0, "no swimmer dived");
}

/// Three spawn points; the team has been round two of them: a dead explorer asks for the
/// third, and the respawn stage puts it there (where it is free).
#[test]
fn a_dead_explorer_comes_back_at_the_spawn_point_its_team_knows_least() {
    use botarena::bot::explore::{VisitMap, least_known_spawn};
    use botarena::sim::components::SpawnWish;
    let mut b = shell(256.);
    for x in [-400., 0., 400.] {
        b.point("info_player_deathmatch", v(x, 0., 24.), &[]);
    }
    let (level, cmap) = b.build();
    let mut visits = VisitMap::default();
    for x in [-400., 0.] {
        visits.visit(v(x, 0., 24.));
    }
    let mut rng = botarena::sim::rng::SimRng::new(1, 1);
    let want = least_known_spawn(&visits, &level, &mut rng).expect("a spawn point");
    assert_eq!(level.spawns[want].origin.x, 400.0);
    // In a match: an explorer killed (given up where it is) comes back at the spawn point
    // nobody has been near, whichever spawn it started at.
    let mut m = common::match_of(
        level,
        cmap,
        2,
        vec![scripted(
            "explorer",
            v(-400., 0., 25.),
            0.,
            ControllerConfig::Explore,
        )],
    );
    for _ in 0..20 {
        m.step();
    }
    let p = m.sim.players[0];
    botarena::game::life::kill(&mut m.sim, p, "stuck", None);
    m.step();
    assert_eq!(
        m.sim.world.get::<&SpawnWish>(p.entity).unwrap().0,
        Some(want),
        "the dead explorer's wish"
    );
    let back = (0..40).find_map(|_| {
        m.step();
        m.sim.events.iter().find_map(|e| match e {
            botarena::sim::SimEvent::Spawn { spot, .. } => Some(*spot),
            _ => None,
        })
    });
    assert_eq!(back, Some(want), "came back at another spawn point");
    assert_eq!(m.sim.world.get::<&SpawnWish>(p.entity).unwrap().0, None);
}

/// Just teleported, an explorer chooses its way afresh where it came out (the target it
/// walked toward is behind it) and tries again the items it had given up on (e1m3's super
/// nailgun, given up on from the floor under its ledge, is in sight at the exit of the
/// teleporter up there); an item it goes for is walked at on the bot's own level, wherever
/// that is now (a target left below read as a way down to the movement stage).
#[test]
fn an_explorer_just_teleported_chooses_afresh_and_walks_at_items_on_its_own_level() {
    use botarena::bot::explore::{Explorer, TARGET_SECONDS, VisitMap};
    use botarena::bot::movement::MoveStatus;
    use botarena::bot::{Percepts, Seen, Thing};
    use botarena::nav::waypoints::WaypointGraph;
    use botarena::physics::pmove::PlayerState;
    use botarena::physics::teleport::TELEPORT_LOCK;
    let (level, cmap) = flooded_tunnel();
    let item = (0..level.items.len())
        .find(|&i| level.items[i].classname == "weapon_rocketlauncher")
        .expect("the rocket launcher");
    let (graph, visits) = (WaypointGraph::new(), VisitMap::default());
    let mut rng = botarena::sim::rng::SimRng::new(1, 1);
    let dt = 0.05;
    let mut step = |ex: &mut Explorer, s: &PlayerState, seen: &Percepts| {
        ex.step(
            &cmap,
            &graph,
            &visits,
            &level,
            s,
            seen,
            &MoveStatus::Moving,
            &mut rng,
            dt,
            None,
        )
    };
    let behind = v(-400., 200., 24.);
    let mut s = PlayerState::at(v(-300., 0., 24.), 0.0);
    s.teleport_time = TELEPORT_LOCK;
    // A bot that explores between fights goes on as it did.
    let mut between = Explorer::new(s.origin);
    between.skip = vec![(item, 10.0)];
    between.target = Some(behind);
    between.timer = 3.0;
    step(&mut between, &s, &Default::default());
    assert_eq!((between.skip.len(), between.target), (1, Some(behind)));
    let mut ex = Explorer {
        exploring: true,
        ..Explorer::new(s.origin)
    };
    ex.skip = vec![(item, 10.0)];
    ex.target = Some(behind);
    ex.timer = 3.0;
    step(&mut ex, &s, &Default::default());
    assert!(ex.skip.is_empty(), "tried again: {:?}", ex.skip);
    assert_ne!(ex.target, Some(behind));
    assert_eq!(ex.timer, TARGET_SECONDS);
    // Later in the teleport's lock the target chosen is kept.
    s.teleport_time = TELEPORT_LOCK - 3.0 * dt;
    ex.target = Some(behind);
    ex.timer = 3.0;
    step(&mut ex, &s, &Default::default());
    assert_eq!(ex.target, Some(behind));
    // Going for the rocket launcher with a target left 500 units below: the item in sight
    // is walked at on the bot's level.
    s.teleport_time = 0.0;
    ex.item = Some(item);
    ex.target = Some(v(700., 0., -476.));
    let seen = Percepts {
        visible: vec![Seen {
            thing: Thing::Item(item),
            pos: v(700., 0., 16.),
            distance: 1000.0,
        }],
        ..Default::default()
    };
    let (req, _) = step(&mut ex, &s, &seen);
    assert_eq!(ex.target, Some(v(700., 0., 24.)));
    assert_eq!(
        req.target,
        botarena::bot::movement::MoveTarget::Point(v(700., 0., 24.))
    );
}

/// An explorer going for an item it sees starts nothing new on the way: a door it passes
/// (or a plat, a teleporter, a button, a dive) waits until the item is marked or given up
/// (e1m3's super nailgun lies a jump from a teleporter's exit: bots that came out and saw
/// it turned for a door in sight below and walked off the exit's ledge).
#[test]
fn an_explorer_going_for_an_item_starts_nothing_new_on_the_way() {
    use botarena::bot::explore::{Explorer, VisitMap, doorways};
    use botarena::bot::movement::MoveStatus;
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = two_rooms(Door::Touch);
    let m = common::match_of(level, cmap, 4, vec![]);
    let views = doorways(&m.sim);
    let here = PlayerState::at(v(-256., 0., 24.), 0.0);
    let visits = VisitMap::default();
    let moving = (&MoveStatus::Moving, (None, false));
    let mut ex = Explorer::new(here.origin);
    ex.item = Some(0);
    assert_eq!(
        ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, 0.05),
        None
    );
    ex.item = None;
    assert!(
        ex.doorway(&m.sim.cmap, &visits, &views, &here, moving, 0.05)
            .is_some()
    );
}

/// Floor on both sides (x < −80, x > 80) of a 160-unit pit with lava in it, a rocket
/// launcher on the far side.
fn lava_pit() -> (Level, CollisionMap) {
    let mut b = common::sealed_room(v(-512., -256., -128.), v(512., 256., 256.));
    b.solid(v(-512., -256., -16.), v(-80., 256., 0.), "floor");
    b.solid(v(80., -256., -16.), v(512., 256., 0.), "floor");
    b.solid(v(-80., -256., -128.), v(80., 256., -64.), "pit");
    b.solid(v(-80., -256., -64.), v(80., 256., -40.), "*lava1");
    b.point("weapon_rocketlauncher", v(216., 0., 0.), &[]);
    b.point("info_player_deathmatch", v(-250., 0., 24.), &[]);
    b.build()
}

/// An explorer blocked by the lava pit on its way to the rocket launcher plans a run over
/// it, and lets go of what it was trying when it does: a doorway walk or a shot door left
/// on would take it back once the run has landed (on e1m3 a run to the super nailgun's
/// ledge landed there, and the doorway walk from before took the bot back off it).
#[test]
fn an_explorer_that_plans_a_run_lets_go_of_what_it_was_trying() {
    use botarena::bot::explore::{Explorer, VisitMap};
    use botarena::bot::movement::{BlockReason, MoveStatus};
    use botarena::nav::waypoints::WaypointGraph;
    let (level, cmap) = lava_pit();
    let item = (0..level.items.len())
        .find(|&i| level.items[i].classname == "weapon_rocketlauncher")
        .expect("the rocket launcher");
    let physics = botarena::physics::pmove::PhysicsParams::default();
    let s = botarena::nav::sample::stand_still(&cmap, &physics, v(-250., 0., 25.));
    let (graph, visits) = (WaypointGraph::new(), VisitMap::default());
    let me = botarena::map::EntId(1);
    let planned = (1..9).find_map(|seed| {
        let mut rng = botarena::sim::rng::SimRng::new(seed, 1);
        let mut ex = Explorer::new(s.origin);
        ex.item = Some(item);
        ex.target = Some(v(216., 0., 24.));
        ex.timer = 3.0;
        ex.activity = Activity::Doorway(0, v(-400., 200., 24.), 5.0);
        ex.door = Some((0, 5.0));
        ex.detour = Some(v(-400., -200., 24.));
        ex.step(
            &cmap,
            &graph,
            &visits,
            &level,
            &s,
            &Default::default(),
            &MoveStatus::Blocked(BlockReason::Hazard),
            &mut rng,
            0.05,
            Some((me, &physics)),
        );
        ex.run.is_some().then_some(ex)
    });
    let ex = planned.expect("a run over the pit on one of eight seeds");
    assert_eq!(ex.item, Some(item));
    assert!(matches!(ex.activity, Activity::Nothing));
    assert!(ex.door.is_none() && ex.detour.is_none());
}

/// A ledge 72 units high (x 200..512) with a rocket launcher on it, and beside its face,
/// off the straight way to the launcher, a crate 36 high (x 120..200, y 96..160): up only
/// by two jumps.
fn crate_and_ledge() -> (Level, CollisionMap) {
    let mut b = shell(256.);
    b.solid(v(200., -256., 0.), v(512., 256., 72.), "ledge");
    b.solid(v(120., 96., 0.), v(200., 160., 36.), "crate");
    b.point("weapon_rocketlauncher", v(320., 0., 72.), &[]);
    b.point("info_player_deathmatch", v(-300., 0., 24.), &[]);
    b.build()
}

/// In a match, the explorer in [`crate_and_ledge`] walks at the rocket launcher it sees,
/// is blocked by the ledge's face, plans a run up by the crate and plays its first command
/// on the tick it planned it, from the state it was planned from (a tick of standing
/// first left the bot where the plan's physics no longer held: e1m3's super shotgun, five
/// barrier jumps up, was marked on 9 of 16 runs before, on all 16 since), and marks the
/// launcher.
#[test]
fn an_explorer_starts_a_planned_run_on_the_tick_it_plans_it() {
    use botarena::bot::control::Controller;
    use botarena::sim::components::Command;
    let (level, cmap) = crate_and_ledge();
    let mut m = explorer_in(level, cmap, v(-300., 0., 25.));
    let e = m.sim.players[0].entity;
    let mut started = None;
    for tick in 0..20 * 20 {
        m.step();
        let c = m.sim.world.get::<&Controller>(e).expect("a controller");
        let Controller::Explore(ex) = &*c else {
            panic!("an explorer");
        };
        if let Some(run) = &ex.run {
            let played = m.sim.world.get::<&Command>(e).expect("a command").0;
            assert!(run.next >= 1, "tick {tick}: the run waits a tick");
            if run.next == 1 {
                assert_eq!(played, run.cmds[0], "tick {tick}: its first command");
                started.get_or_insert(tick);
            }
        }
        drop(c);
        if item_marked(&m) {
            break;
        }
    }
    assert!(started.is_some(), "no run planned");
    assert!(item_marked(&m), "the rocket launcher is not marked");
}

/// start.map's corridor under the floating pool (z −168) is reached only by swimming out of
/// the pool's bottom, and the way on to its Nightmare hall is a 64-unit passage north off
/// its east end, up steps to a teleporter; from the corridor's ledges an explorer sees the
/// pit 192 units below, new to it and nearer, and dropped into it (its only way out
/// teleports back to the start), and the hall, 14 % of the map, was found on half the runs.
/// An explorer about to walk off its level plans a run to the nearest place nobody has been
/// on that level first, and goes up the passage before it drops (seeds 1–6 from the
/// corridor's east end; all six dropped into the pit before).
///
/// The same explorer come to the passage's mouth at a run (280 u/s east, 6 units from the
/// pit's edge, its walk over, the mouth's cells known), as walks arrive: a run planned at
/// that speed there falls whatever it does, so it brakes first and plans standing. Of
/// seeds 1–16 it went up the passage first on 15 (on the other its three plans failed
/// standing too, and it walked off east); without the braking on 11.
#[test]
fn an_explorer_about_to_drop_off_its_level_runs_to_where_nobody_has_been_on_it_first() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let mut passages_running = 0;
    for (seed, running) in (1..=6)
        .map(|s| (s, false))
        .chain((1..=16).map(|s| (s, true)))
    {
        let at = if running {
            v(1546., 1935., -167.)
        } else {
            v(1400., 1905., -167.)
        };
        let mut m = common::explorer_on(&dir, "start", seed, at, 90.);
        // The corridor is known; the passage north (y 1936..2096) and the pit are not.
        for x in [1216., 1344., 1472.] {
            for y in [1600., 1728., 1856.] {
                m.learned.visits.visit(v(x, y, -168.));
            }
        }
        if running {
            // It has been at the passage's mouth too: what is left on its level lies up
            // the passage and along the way at its top, 500 units west.
            for (x, y) in [(1504., 1984.), (1600., 1856.), (1600., 1984.)] {
                m.learned.visits.visit(v(x, y, -168.));
            }
        }
        if running {
            // On the floor first (a placed player is not yet), then coming along it at
            // a run with its walk over.
            m.step();
            let e = m.sim.players[0].entity;
            m.sim
                .world
                .get::<&mut botarena::sim::components::Motion>(e)
                .expect("a body")
                .0
                .velocity = v(280., -20., 0.);
            let mut c = m
                .sim
                .world
                .get::<&mut botarena::bot::control::Controller>(e)
                .expect("a controller");
            let botarena::bot::control::Controller::Explore(ex) = &mut *c else {
                panic!("an explorer");
            };
            ex.target = None;
            ex.run = None;
        }
        let mut outcome = None;
        for tick in 0..30 * 20 {
            m.step();
            let o = m.sim.player_state(0).unwrap().origin;
            if o.y > 1990. && o.z > -200. {
                outcome = Some(("passage", tick));
                break;
            }
            if o.z < -300. {
                outcome = Some(("pit", tick));
                break;
            }
        }
        println!("seed {seed}, running {running}: {outcome:?}");
        if running {
            passages_running += usize::from(outcome.is_some_and(|o| o.0 == "passage"));
        } else {
            assert_eq!(
                outcome.map(|o| o.0),
                Some("passage"),
                "seed {seed}: up the passage before the pit"
            );
        }
    }
    assert!(
        passages_running >= 15,
        "at a run, up the passage first on {passages_running} of 16 seeds"
    );
}
