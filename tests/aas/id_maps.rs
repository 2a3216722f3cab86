//! id's maps and the shipped ones: every map compiles, areas cover floors, spawns and
//! items, spawns reach every weapon, armour and powerup (and the start the exit), stored
//! reachabilities replay in their time, falls and jumps land where routes go on, and the
//! compile is the same for any thread count.

use super::*;

/// Standing origins on random columns, found the way a player would be: a box dropped down
/// the column onto floor it can stand on, clear of liquids deeper than the feet and of
/// movers, inside the map.
fn random_floor_points(world: &NavWorld, n: usize, seed: u64) -> Vec<Vec3> {
    let (lo, hi) = world.cmap.bounds();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mask = Contents::MASK_PLAYER_NO_BODIES;
    let mut tries = 0;
    while out.len() < n && tries < n * 400 {
        tries += 1;
        let u = (rng.next_u32() as f32) / (u32::MAX as f32);
        let v = (rng.next_u32() as f32) / (u32::MAX as f32);
        let xy = Vec2::new(lo.x + (hi.x - lo.x) * u, lo.y + (hi.y - lo.y) * v);
        let mut z = hi.z - 40.0;
        // One random floor of the column: the k-th found.
        let pick = rng.next_u32() % 4;
        let mut k = 0;
        while z > lo.z {
            let t = world.cmap.trace(
                xy.extend(z),
                xy.extend(lo.z),
                PLAYER_MINS,
                PLAYER_MAXS,
                mask,
                None,
            );
            if t.start_solid {
                z -= 16.0;
                continue;
            }
            if t.fraction >= 1.0 {
                break;
            }
            let o = t.end_pos;
            z = o.z - 57.0;
            let inside = world
                .cmap
                .trace_ray(o, xy.extend(hi.z + 256.0), Contents::SOLID, None)
                .fraction
                < 1.0;
            let dry = botarena::physics::pmove::water_level(&world.cmap, o).0 < 2;
            let on_mover = t.ent.is_some_and(|e| e.0 != 0);
            if t.normal.z >= 0.7 && inside && dry && !on_mover {
                if k == pick {
                    out.push(o);
                    break;
                }
                k += 1;
            }
        }
    }
    out
}

#[test]
fn areas_cover_floors_spawns_and_items() {
    for name in all_maps() {
        let c = compiled(name).unwrap();
        let (level, cmap, mesh) = (&c.0, &c.1, &c.2);
        let world = NavWorld::new(level, cmap);
        // Two samplers: the planner's floor grid (16 units apart, off the cells' centres)
        // and random columns.
        // Both keep floors outside the sealed world too (roofs, closed pockets no entity is
        // in); a player is never there.
        let flood = botarena::map::seal::Flood::of(level).expect("structural brushes");
        let grid: Vec<Vec3> = floor_points(level, &world.cmap, 16.0)
            .into_iter()
            .filter(|p| flood.inside(*p))
            .collect();
        let random: Vec<Vec3> = random_floor_points(&world, 3000, 7)
            .into_iter()
            .filter(|p| flood.inside(*p))
            .collect();
        for (what, pts) in [("grid", &grid), ("random", &random)] {
            let missed: Vec<&Vec3> = pts.iter().filter(|p| mesh.area_at(**p).is_none()).collect();
            let share = 1.0 - missed.len() as f64 / pts.len().max(1) as f64;
            eprintln!(
                "{name} {what}: {} of {} floor points in an area ({:.2} %), e.g. {:?}",
                pts.len() - missed.len(),
                pts.len(),
                share * 100.0,
                missed.iter().take(3).collect::<Vec<_>>()
            );
            assert!(pts.len() > 100, "{name} {what}: too few floor points");
            assert!(
                share >= 0.99,
                "{name} {what}: {:.2} % covered",
                share * 100.0
            );
        }
        for (i, s) in level.spawns.iter().enumerate() {
            let p = settled(&world, s.origin);
            assert!(
                mesh.area_at(p).is_some(),
                "{name}: spawn {i} at {p} in no area"
            );
        }
        for it in botarena::planner::times::items(level, cmap) {
            let p = settled(&world, it.stand);
            assert!(
                mesh.area_at(p).is_some(),
                "{name}: {} standing at {p} in no area",
                it.label
            );
        }
    }
}

/// Items that matter in a deathmatch: weapons, armour, powerups (and megahealth).
fn key_item(kind: ItemKind) -> bool {
    matches!(
        kind,
        ItemKind::Weapon | ItemKind::Armor | ItemKind::Powerup | ItemKind::MegaHealth
    )
}

/// Areas of each item that a player standing at it is in.
fn item_areas(level: &Level, cmap: &CollisionMap, mesh: &NavMesh) -> Vec<(String, ItemKind, u32)> {
    let world = NavWorld::new(level, cmap);
    botarena::planner::times::items(level, cmap)
        .into_iter()
        .map(|it| {
            let kind = level.items[it.index].kind;
            let a = mesh
                .area_at(settled(&world, it.stand))
                .unwrap_or_else(|| panic!("{} in an area", it.label));
            (it.label, kind, a)
        })
        .collect()
}

#[test]
fn deathmatch_spawns_reach_every_weapon_armour_and_powerup() {
    let mut maps = vec!["arena"];
    if quake_maps().is_some() {
        maps.extend(["dm4", "dm6"]);
    }
    for name in maps {
        let c = compiled(name).unwrap();
        let (level, cmap, mesh) = (&c.0, &c.1, &c.2);
        let world = NavWorld::new(level, cmap);
        let items = item_areas(level, cmap, mesh);
        let mut missing = Vec::new();
        for (i, s) in level.spawns.iter().enumerate() {
            let from = mesh.area_at(settled(&world, s.origin)).unwrap();
            let seen = mesh.reachable_from(from, |_| true);
            for (label, kind, a) in &items {
                if key_item(*kind) && !seen[*a as usize] {
                    missing.push(format!("spawn {i} -> {label} (area {a})"));
                }
            }
        }
        assert!(missing.is_empty(), "{name}: unreachable: {missing:#?}");
    }
}

#[test]
fn single_player_start_reaches_every_weapon_and_the_exit() {
    let Some(_) = quake_maps() else { return };
    let mut all_missing = Vec::new();
    for name in ["e1m1", "e1m3", "e1m5", "e2m2", "e3m2", "e4m3", "start"] {
        let c = compiled(name).unwrap();
        let (level, cmap, mesh) = (&c.0, &c.1, &c.2);
        let world = NavWorld::new(level, cmap);
        let start = level
            .map
            .entities
            .iter()
            .find(|e| e.classname == "info_player_start")
            .and_then(|e| e.get("origin"))
            .map(|o| {
                let v: Vec<f32> = o.split_whitespace().map(|x| x.parse().unwrap()).collect();
                Vec3::new(v[0], v[1], v[2] + 1.0)
            })
            .expect("info_player_start");
        let from = mesh
            .area_at(settled(&world, start))
            .unwrap_or_else(|| panic!("{name}: start in an area"));
        let seen = mesh.reachable_from(from, |_| true);
        let mut missing = Vec::new();
        for (label, kind, a) in item_areas(level, cmap, mesh) {
            let known = KNOWN_GAPS
                .iter()
                .find(|(m, item, _)| *m == name && label.starts_with(item));
            if kind != ItemKind::Weapon {
                continue;
            }
            match known {
                Some((_, _, why)) => {
                    assert!(
                        !seen[a as usize],
                        "{name}: {label} is reached now: drop it from KNOWN_GAPS"
                    );
                    eprintln!("{name}: {label} not reached: {why}");
                }
                None if !seen[a as usize] => missing.push(format!("{label} (area {a})")),
                None => {}
            }
        }
        // The exit: a trigger_changelevel some reached area's player box touches.
        let exits: Vec<_> = level
            .triggers
            .iter()
            .filter(|t| t.classname == "trigger_changelevel")
            .collect();
        let exit_reached = exits.iter().any(|t| {
            mesh.areas().iter().any(|a| {
                seen[a.id as usize]
                    && botarena::map::collision::touches(
                        a.mins + PLAYER_MINS,
                        a.maxs + PLAYER_MAXS,
                        t.mins,
                        t.maxs,
                    )
            })
        });
        let known = KNOWN_GAPS
            .iter()
            .find(|(m, what, _)| *m == name && *what == "exit");
        match known {
            Some((_, _, why)) => {
                assert!(
                    !exit_reached,
                    "{name}: the exit is reached now: drop it from KNOWN_GAPS"
                );
                eprintln!("{name}: exit not reached: {why}");
            }
            None if !exits.is_empty() && !exit_reached => {
                missing.push("the exit (trigger_changelevel)".into())
            }
            None => {}
        }
        all_missing.extend(missing.into_iter().map(|m| format!("{name}: {m}")));
    }
    assert!(
        all_missing.is_empty(),
        "unreachable from the start: {all_missing:#?}"
    );
}

#[test]
fn stored_reachabilities_replay_through_pmove_in_their_time() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    for name in all_maps() {
        let c = compiled(name).unwrap();
        let (level, cmap, mesh) = (&c.0, &c.1, &c.2);
        // Through the file, as a user's program would get them.
        let dir = TempDir::new(&format!("aas-replay-{name}"));
        let path = dir.join("m.nav");
        botarena::aas::file::save(mesh, &path).unwrap();
        let mesh = botarena::aas::file::load_for(&path, level).unwrap();
        let world = NavWorld::new(level, cmap);
        let n = mesh.reaches().len();
        // Every kind present at least once, then random ones.
        let mut picks: Vec<usize> = ReachKind::ALL
            .iter()
            .filter_map(|k| mesh.reaches().iter().position(|r| r.kind == *k))
            .collect();
        // And a reachability in a world with a mover moved, and a carry to or from one.
        let moved = |a: u32| mesh.areas()[a as usize].moved;
        picks.extend(mesh.reaches().iter().position(|r| {
            r.kind != ReachKind::Elevator && moved(r.from).or(moved(r.to)).is_some()
        }));
        picks.extend(
            mesh.reaches()
                .iter()
                .position(|r| r.kind == ReachKind::Elevator && moved(r.from) != moved(r.to)),
        );
        picks.extend((0..40).map(|_| (rng.next_u32() as usize) % n));
        let dt = 1.0 / mesh.params.tick_rate as f32;
        for i in picks {
            let r = &mesh.reaches()[i];
            let got = run_reach(&world, &mesh, r)
                .unwrap_or_else(|| panic!("{name}: reachability {i} {r:?} does not arrive"));
            let t = got.ticks as f32 * dt;
            assert!(
                (t - r.seconds).abs() <= dt + 1e-4,
                "{name}: reachability {i} arrived after {t} s, stored {} s",
                r.seconds
            );
            assert_eq!(mesh.area_at(got.state.origin), Some(r.to), "{name}: {i}");
        }
    }
}

/// A long fall at running speed comes down over its end area and may land far beyond it;
/// the compile keeps a walk off a ledge only where it lands (held still after its commands,
/// as a bot checks a run before playing it) in its end area or one a walk joins to it, so a
/// route through it is where the bot ends up. dm6's walkway above the grenade launcher was
/// the case found: its falls came down over a strip one cell wide and landed two areas on.
/// Every stored walk off a ledge and every jump, replayed and then held still, comes down
/// in its end area or one a walk joins to it: the compile's arrival is the first tick
/// over the end area coming down, and a jump that tops out over a ledge's edge from a
/// stand falls back (dm6's stair foot: four such jumps a bot gave up on in turn) — those
/// are taken with a run-up, or kept to where they land, or dropped.
#[test]
fn falls_and_jumps_land_where_their_routes_go_on() {
    for name in all_maps() {
        let c = compiled(name).unwrap();
        let (level, cmap, mesh) = (&c.0, &c.1, &c.2);
        let world = NavWorld::new(level, cmap);
        let dt = 1.0 / mesh.params.tick_rate as f32;
        let mut falls = 0;
        for (i, r) in mesh.reaches().iter().enumerate() {
            let run = matches!(
                r.kind,
                ReachKind::WalkOffLedge | ReachKind::Jump | ReachKind::BarrierJump
            );
            if !run || !r.needs.is_empty() {
                continue;
            }
            falls += 1;
            let got = run_reach(&world, mesh, r)
                .unwrap_or_else(|| panic!("{name}: run {i} {r:?} does not arrive"));
            let hold = botarena::physics::pmove::UserCmd {
                yaw: r.commands.last().unwrap().cmd.yaw,
                ..Default::default()
            };
            let mut s = got.state;
            let mut last = Vec3::splat(f32::MAX);
            for _ in 0..40 {
                if s.on_ground.is_some() || s.water_level >= 2 || s.origin == last {
                    break;
                }
                last = s.origin;
                s = botarena::physics::pmove::pmove(
                    &s,
                    &hold,
                    cmap,
                    &PhysicsParams::default(),
                    dt,
                    None,
                )
                .0;
            }
            let landed = mesh.area_at(s.origin);
            assert!(
                landed.is_some_and(|l| mesh.walk_joined(r.to, l)),
                "{name}: {} {i} {}->{} lands at {:?} in {landed:?}",
                r.kind.name(),
                r.from,
                r.to,
                s.origin
            );
        }
        assert!(falls > 0 || name == "proving", "{name}: no fall compiled");
    }
}

#[test]
fn compile_is_the_same_for_any_thread_count() {
    let (level, cmap) = shipped("arena");
    let one = CompileParams {
        threads: 1,
        ..Default::default()
    };
    let two = CompileParams {
        threads: 3,
        ..Default::default()
    };
    let a = compile(&level, &cmap, &one, &mut |_, _, _| {}).unwrap();
    let b = compile(&level, &cmap, &two, &mut |_, _, _| {}).unwrap();
    assert_eq!(a.areas(), b.areas());
    assert_eq!(a.reaches(), b.reaches());
}

/// A pool of water hanging over air (as start.map's way down into its fourth episode's
/// hall): it is a swim area, a walk off the ledge beside it ends in it, and a player leaves
/// it through its bottom onto the floor below.
#[test]
fn a_liquid_with_air_under_it_is_swum_and_left_through_its_bottom() {
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., 0.), v(512., 256., 512.));
    // A ledge 256 up on the west side, and the pool beside it from 200 to 300.
    b.solid(v(0., 0., 0.), v(192., 256., 256.), "LEDGE")
        .solid(v(192., 0., 200.), v(512., 256., 300.), "*water1")
        .point("info_player_deathmatch", v(96., 128., 280.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let ledge = mesh
        .area_at(v(96., 128., 256. + 24.))
        .expect("the ledge is an area");
    let pool = mesh
        .area_at(v(352., 128., 250.))
        .expect("the hanging pool is an area");
    let pool_area = &mesh.areas()[pool as usize];
    assert!(pool_area.flags.has(AreaFlags::SWIM | AreaFlags::WATER));
    // From waist deep at its bottom (200 - 4) up to its surface.
    assert!(
        (pool_area.mins.z - 197.0).abs() <= 1.0,
        "{:?}",
        pool_area.mins
    );
    assert!(
        (pool_area.maxs.z - 300.0).abs() <= 1.0,
        "{:?}",
        pool_area.maxs
    );
    let floor = mesh
        .area_at(v(352., 128., 24.))
        .expect("the floor is an area");
    assert!(
        mesh.reachabilities_from(ledge).any(|r| r.to == pool),
        "ledge -> pool"
    );
    let out = mesh
        .reachabilities_from(pool)
        .find(|r| r.to == floor)
        .expect("pool -> floor below");
    assert_eq!(out.kind, ReachKind::WalkOffLedge);
    // And the stored commands do it.
    let world = NavWorld::new(&level, &cmap);
    let arrival = run_reach(&world, &mesh, out).expect("replays");
    assert_eq!(mesh.area_at(arrival.state.origin), Some(floor));
    let seen = mesh.reachable_from(ledge, |_| true);
    assert!(seen[floor as usize]);
}
