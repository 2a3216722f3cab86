//! Water and slime: pools dived into and swum through to rooms beyond, a pool behind a
//! rim, a floating pool, the way out of the water, and slime tunnels with and without the
//! biosuit (e1m1's among them).

use super::*;

/// Steps `m` (its explorer in a [`liquid_tunnel`]) for up to `seconds` and asserts the
/// explorer got to the east room.
fn to_the_east_room(m: &mut botarena::Match, seconds: u32) {
    let beyond = first_tick(m, seconds, |m| {
        let s = m.sim.player_state(0).unwrap();
        s.origin.x > 400.0 && s.origin.z > 0.0
    });
    println!("in the east room at tick {beyond:?}");
    assert!(beyond.is_some(), "the explorer never got to the east room");
}

/// With nothing in sight beyond it, a swimmer in the west part of [`flooded_tunnel`]'s pool
/// finds the tunnel by looking along the pool's bottom (e4m3's east part is entered only
/// by such a tunnel): the dive goes for its far end, down first, and the explorer comes up
/// in the east room.
#[test]
fn an_explorer_in_a_pool_dives_into_the_flooded_tunnel_at_its_bottom() {
    use botarena::bot::explore::{Explorer, VisitMap};
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = flooded_tunnel_with(false);
    let mut s = PlayerState::at(v(-64., 0., -30.), 90.0);
    s.water_level = 3;
    let mut ex = Explorer::new(s.origin);
    let visits = VisitMap::default();
    assert!(target(ex.dive(&cmap, &level, &visits, &s, 0.05)).is_some());
    let Activity::Dive(end, _) = ex.activity else {
        panic!("a dive into the tunnel, not {:?}", ex.activity);
    };
    assert!(end.x > 256.0 && end.z < -96.0, "the dive goes for {end}");
    // Down first: the tunnel's mouth lies under the wall ahead.
    let go = target(ex.dive(&cmap, &level, &visits, &s, 0.05)).expect("diving");
    assert!(
        go.truncate().distance(s.origin.truncate()) < 1.0 && go.z < -96.0,
        "{go}"
    );
    // Far under the surface (back from a passage), a swimmer gets air first.
    let deep = PlayerState {
        origin: v(-64., 0., -120.),
        ..s
    };
    assert!(
        Explorer::new(deep.origin)
            .dive(&cmap, &level, &visits, &deep, 0.05)
            .is_none()
    );
    // Somebody has been at its far end: a swimmer there looks no further.
    // (Across the width of the pool's east part: the far end along another direction,
    // under the other half, is another place.)
    let mut seen = VisitMap::default();
    for y in [-192., -64., 64., 192.] {
        seen.visit(v(end.x, y, end.z));
    }
    assert!(
        Explorer::new(s.origin)
            .dive(&cmap, &level, &seen, &s, 0.05)
            .is_none()
    );
    let mut m = explorer_in(level, cmap, s.origin);
    to_the_east_room(&mut m, 20);
}

#[test]
fn an_explorer_swims_through_a_flooded_tunnel_to_the_room_beyond() {
    let (level, cmap) = flooded_tunnel();
    let mut m = explorer_in(level, cmap, v(-400., 0., 25.));
    to_the_east_room(&mut m, 40);
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// [`flooded_tunnel`] with the west room's floor 24 under the water's surface and the
/// pool behind a rim 32 high (8 over the surface), as e4m3's pool in the hall west of its
/// flooded tunnel: no walk from the floor goes in. A rocket launcher in the east room.
fn rimmed_pool() -> (Level, CollisionMap) {
    let mut b = liquid_tunnel_from("*water0", -96., -24.);
    b.point("weapon_rocketlauncher", v(700., 0., 0.), &[]);
    b.build()
}

/// An explorer on the floor by [`rimmed_pool`]'s rim sees the water beyond it, with a
/// tunnel under it to where nobody has been, and walks (jumping the rim) to a point under
/// its surface; not where the team has swum, not where the tunnel leads where the team has
/// been, not a third time at one place, not from the water.
#[test]
fn an_explorer_goes_into_water_it_sees_where_nobody_has_swum() {
    use botarena::bot::explore::{BUTTON_TRIES, Explorer, VisitMap};
    use botarena::physics::pmove::PlayerState;
    let (_, cmap) = rimmed_pool();
    // The pool's surface, where a player's box rests on it (the tunnel's roof hides the
    // water under the wall).
    let surfaces = botarena::nav::sample::liquid_surfaces(&cmap, 64.0);
    assert!(!surfaces.is_empty());
    for (p, c) in &surfaces {
        assert_eq!(*c, botarena::map::Contents::WATER);
        assert!(
            (p.x > -128. && p.x < 0.) || (p.x > 256. && p.x < 384.),
            "{p}"
        );
        assert!((p.z - 24.).abs() < 1.0, "{p}");
    }
    let mut s = PlayerState::at(v(-300., 0., 0.), 0.0);
    s.on_ground = Some(botarena::map::EntId::WORLD);
    let visits = VisitMap::default();
    let mut ex = Explorer::new(s.origin);
    let to = target(ex.pool(&cmap, &visits, &s, 0.05)).expect("a walk into the pool");
    assert!(
        to.x > -128.0 && to.x < 0.0,
        "into the pool's west part: {to}"
    );
    assert!(to.z < -24.0, "under the surface: {to}");
    // Going on while out of the water; done once swimming.
    assert_eq!(target(ex.pool(&cmap, &visits, &s, 0.05)), Some(to));
    let swimming = PlayerState {
        origin: v(-64., 0., -30.),
        water_level: 3,
        on_ground: None,
        ..s
    };
    assert!(ex.pool(&cmap, &visits, &swimming, 0.05).is_none());
    assert!(matches!(ex.activity, Activity::Nothing));
    assert!(
        Explorer::new(s.origin)
            .pool(&cmap, &visits, &swimming, 0.05)
            .is_none()
    );
    // Where the team has swum, nothing to go in for.
    let mut swum = VisitMap::default();
    for y in [-192., -64., 64., 192.] {
        swum.visit_wet(v(-64., y, -30.));
    }
    assert!(
        Explorer::new(s.origin)
            .pool(&cmap, &swum, &s, 0.05)
            .is_none()
    );
    // Water with no way on under it to where nobody has been: left alone (the team has
    // been in the pool's east part, where its tunnel comes up).
    let mut beyond = VisitMap::default();
    for y in [-192., -64., 64., 192.] {
        beyond.visit(v(320., y, -135.));
    }
    let mut ex = Explorer::new(s.origin);
    for _ in 0..20 {
        assert!(ex.pool(&cmap, &beyond, &s, 0.05).is_none());
    }
    // At most BUTTON_TRIES times at one place, and then no more.
    let mut ex = Explorer::new(s.origin);
    let mut cells: Vec<(i32, i32, i32)> = Vec::new();
    for _ in 0..100 {
        let Some(to) = target(ex.pool(&cmap, &visits, &s, 0.05)) else {
            break;
        };
        cells.push(VisitMap::cell(to));
        ex.activity = Activity::Nothing;
    }
    assert!(
        !cells.is_empty() && cells.len() < 100,
        "{} tries",
        cells.len()
    );
    for c in &cells {
        let n = cells.iter().filter(|d| *d == c).count() as u32;
        assert!(n <= BUTTON_TRIES, "{n} tries at {c:?}");
    }
}

/// From [`rimmed_pool`]'s west room the explorer goes into the pool behind the rim, finds
/// the flooded tunnel at its bottom and comes up in the east room (e4m3's east part, behind
/// such a pool, was found on half the runs, by explorers that happened to fall in).
#[test]
fn an_explorer_jumps_into_a_pool_behind_a_rim_and_swims_its_tunnel_to_the_room_beyond() {
    let (level, cmap) = rimmed_pool();
    let mut m = explorer_in(level, cmap, v(-400., 0., 1.));
    to_the_east_room(&mut m, 40);
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// A swimmer with its head out at the surface of [`flooded_tunnel`]'s east pool (the room
/// beyond lies at the water's level, past the pool's edge) feels its way on from the
/// surface, as one with its head under does: its choices are in the east room. Felt from
/// where it swims, every walk east met the room's floor edge (above the swimmer's step) and
/// its choices all lay on the pool's bottom: e4m3's east part lies past such an edge 7
/// units over its pool's surface, and a swimmer that came up there turned back along the
/// bottom.
#[test]
fn a_swimmer_at_the_surface_feels_its_way_on_out_of_the_water() {
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = flooded_tunnel_with(false);
    let in_room = |s: &PlayerState| {
        choices(&level, &cmap, s)
            .iter()
            .filter(|t| t.x > 384.0 && t.z > 0.0)
            .count()
    };
    // Head out: eyes (22 over the origin) above the surface at z 0, waist under it.
    let mut s = PlayerState::at(v(320., -100., -10.), 0.0);
    s.water_level = 2;
    s.on_ground = None;
    let out = in_room(&s);
    println!("{out} of 40 choices in the east room");
    assert!(out >= 10, "{out} of 40 choices in the east room");
    // The same place with the head under: as before.
    let under = PlayerState {
        water_level: 3,
        origin: v(320., -100., -40.),
        ..s
    };
    assert!(in_room(&under) >= 10);
}

/// A hall (floor z 0, ceiling z 640) under a pool that floats in its east part (x 0..512,
/// z 352..480, nothing under it but air), beside a ledge in its west part (x −512..0, top
/// z 512) where the explorer starts: walked off, the ledge drops into the pool, which spans
/// the hall's width, so the hall's floor (512 below the ledge) is reached only out of the
/// pool's bottom, as start.map's Nightmare hall is. A rocket launcher lies on it.
fn floating_pool() -> (Level, CollisionMap) {
    let mut b = ledge_over_hall(512., 640.);
    b.solid(v(0., -256., 352.), v(528., 256., 480.), "*water0");
    b.build()
}

#[test]
fn an_explorer_in_a_floating_pool_dives_out_of_its_bottom_to_the_hall_below() {
    let (level, cmap) = floating_pool();
    let mut m = explorer_in(level, cmap, v(-300., 0., 537.));
    let mut swam = false;
    // Five seconds: it dives on getting into the pool (under three), not after planned
    // runs toward the rocket launcher seen through the water (seven without the dive).
    let down = first_tick(&mut m, 5, |m| {
        let s = m.sim.player_state(0).unwrap();
        swam |= s.water_level >= 2;
        s.origin.z < 64.0 && s.on_ground.is_some()
    });
    println!("on the hall's floor at tick {down:?}");
    assert!(swam, "the explorer never got into the pool");
    assert!(down.is_some(), "the explorer never got down to the hall");
    assert!(item_marked(&m), "the rocket launcher has no item waypoint");
}

/// A pillar (64 by 64, top z 0) in a hall whose floor is 320 lower: deeper than a match bot
/// walks off (200), a fall an explorer takes (Quake's fall costs at most 5 health). From
/// the pillar's top an explorer's choice of where to go is down in the hall, whatever the
/// seed; a bot that explores between fights stays on the pillar; and the movement stage of
/// an exploring bot is tuned to walk that drop.
#[test]
fn an_explorer_chooses_the_drop_into_a_hall_deeper_than_a_match_bot_walks_off() {
    use botarena::bot::explore::{MAX_DROP, VisitMap, choose_target, hazards};
    use botarena::bot::movement::MoveParams;
    use botarena::physics::pmove::PlayerState;
    let mut b = MapBuilder::new();
    b.solid(v(-528., -272., -336.), v(544., 272., -320.), "floor")
        .solid(v(-528., -272., 256.), v(544., 272., 272.), "ceiling")
        .solid(v(-528., -272., -320.), v(-512., 272., 256.), "wall")
        .solid(v(528., -272., -320.), v(544., 272., 256.), "wall")
        .solid(v(-528., -272., -320.), v(544., -256., 256.), "wall")
        .solid(v(-528., 256., -320.), v(544., 272., 256.), "wall")
        .solid(v(-32., -32., -320.), v(32., 32., 0.), "pillar");
    b.point("info_player_deathmatch", v(0., 0., 25.), &[]);
    let (level, cmap) = b.build();
    let s = PlayerState::at(v(0., 0., 24.03125), 0.0);
    let (graph, visits) = (Default::default(), VisitMap::default());
    let down = |max_drop: f32| {
        (0..40)
            .filter(|seed| {
                let mut rng = botarena::sim::rng::SimRng::new(*seed, 7);
                let (t, item) = choose_target(
                    &cmap,
                    &graph,
                    &visits,
                    &level,
                    &s,
                    &Default::default(),
                    &[],
                    (max_drop, max_drop == MAX_DROP, hazards(0.0), |_| false),
                    &mut rng,
                );
                assert_eq!(item, None);
                t.z < -200.0
            })
            .count()
    };
    assert_eq!(down(MAX_DROP), 40, "an explorer's choice: the hall");
    let keeps = MoveParams::default().max_drop;
    assert_eq!(down(keeps), 0, "a match bot's choice: the corridor");
    let m = explorer_in(level, cmap, v(0., 0., 25.));
    let e = m.sim.players[0].entity;
    let tuned = *m.sim.world.get::<&MoveParams>(e).expect("a bot's tuning");
    assert_eq!(tuned.max_drop, MAX_DROP);
    assert!(
        tuned.hold_edges,
        "an explorer holds ledges' edges when it turns"
    );
    let c = m.sim.world.get::<&botarena::bot::control::Controller>(e);
    let Ok(botarena::bot::control::Controller::Explore(ex)) = c.as_deref() else {
        panic!("an explorer's controller");
    };
    assert!(ex.edge_stops && ex.exploring, "an exploring bot's choices");
}

/// Under water the way on is felt from the surface: a swimmer at the bottom of
/// [`flooded_tunnel`]'s pool chooses where to go from where it comes up, not along the
/// bottom (it stayed down there until it drowned).
#[test]
fn an_explorer_under_water_chooses_its_way_from_the_surface() {
    use botarena::bot::explore::{VisitMap, choose_target};
    use botarena::nav::waypoints::WaypointGraph;
    use botarena::physics::pmove::PlayerState;
    let (level, cmap) = flooded_tunnel_with(false);
    let visits = VisitMap::default();
    let graph = WaypointGraph::new();
    for seed in 0..20 {
        let mut s = PlayerState::at(v(-64., 0., -130.), 0.0);
        s.water_level = 3;
        let mut rng = botarena::sim::rng::SimRng::new(seed, 1);
        let (to, _) = choose_target(
            &cmap,
            &graph,
            &visits,
            &level,
            &s,
            &Default::default(),
            &[],
            (
                botarena::bot::explore::MAX_DROP,
                true,
                botarena::bot::explore::hazards(0.0),
                |_| false,
            ),
            &mut rng,
        );
        assert!(to.z > -8.0, "seed {seed}: chose {to} down in the pool");
    }
}

/// A swimmer in [`slime_tunnel`]'s west pool, come from the west room, searches the slime
/// for where nobody has swum under a roof (the tunnel, not the pool open to the air, which
/// is seen from its banks), and with nothing new left, for an opening with land beside it
/// (the east pool); openings risen to before are not gone to again, but for a swimmer
/// running out of the biosuit.
#[test]
fn a_swimmer_in_slime_finds_the_tunnel_under_the_roof_and_the_opening_beyond() {
    use botarena::bot::explore::{SlimeWay, VisitMap, slime_way};
    use botarena::physics::pmove::PlayerState;
    let (_, cmap) = slime_tunnel(false);
    let s = PlayerState::at(v(-64., 0., -40.), 0.0);
    // The west room is where the swimmer came from.
    let mut visits = VisitMap::default();
    for x in [-400., -200., -100.] {
        for y in [-100., 100.] {
            visits.visit(v(x, y, 24.));
        }
    }
    let way = slime_way(&cmap, &visits, &s, (&[], &[]), false);
    let Some(SlimeWay::Swim(to, _)) = way else {
        panic!("no way into the tunnel: {way:?}");
    };
    // Down under the edge of the roof, then on under it.
    assert!(to.x > s.origin.x && to.z < -64.0, "toward the tunnel: {to}");
    let on = PlayerState::at(to, 0.0);
    let Some(SlimeWay::Swim(to, _)) = slime_way(&cmap, &visits, &on, (&[], &[]), false) else {
        panic!("no way on under the roof");
    };
    assert!(to.x >= 0.0 && to.z < -64.0, "under the roof: {to}");
    // The tunnel swum (its cells and those of the pools), the east pool is the way on,
    // risen to from below it.
    let mut swum = VisitMap::default();
    for (x, y, z) in [-64., 64., 192., 320.]
        .into_iter()
        .flat_map(|x| [-200., -100., 0., 100., 200.].map(|y| (x, y)))
        .flat_map(|(x, y)| [-140., -100., -20.].map(|z| (x, y, z)))
    {
        swum.visit(v(x, y, z));
        swum.visit_wet(v(x, y, z));
    }
    let under = PlayerState::at(v(320., 0., -120.), 0.0);
    match slime_way(&cmap, &swum, &under, (&[], &[]), false) {
        Some(SlimeWay::Rise(top, land)) => {
            assert!(top.x > 256.0 && top.z > 0.0, "rises at {top}");
            assert!(land.x > 384.0 && land.z > 0.0, "walks out onto {land}");
        }
        Some(SlimeWay::Swim(to, _)) => assert!(to.x > 256.0, "swims on to {to}"),
        None => panic!("no opening found"),
    }
    // Openings risen to before (every cell of both pools' surfaces) are not gone to again:
    // with nothing new either, there is nowhere to go.
    let surfaced: Vec<(i32, i32, i32)> = (-1..=3)
        .flat_map(|x| (-2..=1).map(move |y| (x, y, 0)))
        .collect();
    assert_eq!(
        slime_way(&cmap, &swum, &under, (&[], &surfaced), false),
        None
    );
    // Running out of the suit in the tunnel, the nearest opening is the way out, risen to
    // before or not.
    let mid = PlayerState::at(v(200., 0., -120.), 0.0);
    assert!(slime_way(&cmap, &swum, &mid, (&[], &surfaced), true).is_some());
}

/// In the biosuit an explorer goes into slime and swims through [`slime_tunnel`] to the
/// room beyond and its rocket launcher (e1m1's invulnerability lies past such a tunnel);
/// without it, it never goes into slime.
#[test]
fn an_explorer_in_the_biosuit_swims_a_tunnel_of_slime_and_one_without_keeps_out() {
    use botarena::map::Contents;
    for suit in [true, false] {
        let (level, cmap) = slime_tunnel(suit);
        let mut m = explorer_in(level, cmap, v(-300., 0., 25.));
        // Ticks swimming in slime (waist deep or more): one without the suit may slip in
        // at the edge of a pool level with the floor, and gets out.
        let mut swam = 0;
        let beyond = first_tick(&mut m, 40, |m| {
            let s = m.sim.player_state(0).unwrap();
            swam += (s.water_level >= 2 && s.water_type.intersects(Contents::SLIME)) as u32;
            s.origin.x > 400.0 && s.origin.z > 0.0
        });
        println!("biosuit {suit}: in the east room at tick {beyond:?}, {swam} ticks in slime");
        assert_eq!(beyond.is_some(), suit);
        assert_eq!(item_marked(&m), suit);
        assert_eq!(swam > 20, suit);
    }
}

/// e1m1's invulnerability lies behind a teleporter in a room reached only through a
/// tunnel of slime from under the biosuit's ledge: four explorers (seed 1) mark it (on 31
/// of seeds 0-31; on seed 0 the one explorer that takes the biosuit finds no slime to go
/// into while it lasts).
#[test]
fn explorers_on_e1m1_swim_its_slime_tunnel_in_the_biosuit_to_the_invulnerability() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let m = common::explorers_on_map(&dir, "e1m1", 1);
    let invulnerability = m
        .sim
        .level
        .items
        .iter()
        .position(|it| it.classname == "item_artifact_invulnerability")
        .expect("e1m1 has an invulnerability");
    assert!(
        m.learned.waypoints.item_waypoint(invulnerability).is_some(),
        "the invulnerability is not marked"
    );
}
