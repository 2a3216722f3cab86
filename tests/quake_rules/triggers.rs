//! Doors, buttons and triggers: doors with health and their linked halves, triggers and
//! buttons fired by shots, only-registered triggers, named and toggle doors, counters,
//! relays, delays and killtargets, and items riding movers.

use super::*;

/// triggers.qc and buttons.qc: a `trigger_multiple` with health is a solid box that fires
/// its targets when shot (`multi_killed`) and takes damage again `wait` seconds later; a
/// `trigger_once` with health fires once; neither fires when touched. A `func_button` with
/// health has no touch function: pressed by a shot, not by a player pushing into it.
#[test]
fn triggers_and_buttons_with_health_fire_when_shot_and_not_when_touched() {
    use botarena::physics::movers::Phase;
    let mut b = closed_box(-512.0, 512.0, -256.0, 256.0);
    // The east wall's fittings, 160 apart: the multiple (wait 1) south, the button in the
    // middle, the once north; each fires a door standing in the west half.
    type Keys<'a> = &'a [(&'a str, &'a str)];
    let fittings: [(f32, Keys, &str); 3] = [
        (
            -160.0,
            &[
                ("classname", "trigger_multiple"),
                ("health", "1"),
                ("wait", "1"),
                ("target", "d1"),
            ],
            "trigger",
        ),
        (
            160.0,
            &[
                ("classname", "trigger_once"),
                ("health", "1"),
                ("target", "d2"),
            ],
            "trigger",
        ),
        (
            0.0,
            &[
                ("classname", "func_button"),
                ("angle", "0"),
                ("health", "1"),
                ("target", "d3"),
            ],
            "button",
        ),
    ];
    for (y, keys, texture) in fittings {
        let (lo, hi) = (v(496.0, y - 16.0, 32.0), v(512.0, y + 16.0, 64.0));
        b.brush_entity(keys, &[(lo, hi, texture)]);
    }
    for (i, name) in ["d1", "d2", "d3"].iter().enumerate() {
        let y = -160.0 + 160.0 * i as f32;
        b.brush_entity(
            &[
                ("classname", "func_door"),
                ("angle", "-1"),
                ("wait", "1"),
                ("targetname", name),
            ],
            &[(v(-400.0, y - 16.0, 0.0), v(-368.0, y + 16.0, 64.0), "door")],
        );
    }
    let find = |level: &botarena::map::Level, class: &str| {
        level
            .movers
            .iter()
            .position(|m| m.classname == class)
            .unwrap()
    };
    let (level, cmap) = b.build();
    let (multiple, once, button) = (
        find(&level, "trigger_multiple"),
        find(&level, "trigger_once"),
        find(&level, "func_button"),
    );
    // Solid to shots (and players): a ray at the multiple's middle stops on it.
    let id = level.movers[multiple].id;
    let t = cmap.trace_ray(
        v(0.0, 0.0, 48.0),
        v(504.0, -160.0, 48.0),
        botarena::map::Contents::SOLID,
        None,
    );
    assert_eq!(t.ent, Some(id), "{t:?}");
    let gun = v(0.0, 0.0, 41.0);
    let yaw_at = |y: f32| (y - gun.y).atan2(504.0 - gun.x).to_degrees();
    let step = |ticks: u32, yaw: f32, fire: bool| ScriptStep {
        ticks,
        yaw,
        fire,
        ..Default::default()
    };
    // Three touchers push into the multiple, the button and the once for 5 s and leave west
    // (the middle one north-west, out of the way); then the shooter shoots the multiple for
    // 3 s, the once for 2 s and the button for 1 s.
    let touchers = [(-160.0, 180.0), (0.0, 150.0), (160.0, 180.0)].map(|(y, away)| {
        scripted(
            "toucher",
            v(470.0, y, 25.0),
            0.0,
            ControllerConfig::Script(vec![
                run_at(100, 0.0),
                run_at(60, away),
                step(1000, away, false),
            ]),
        )
    });
    let shooter = scripted(
        "shooter",
        v(0.0, 0.0, 25.0),
        0.0,
        ControllerConfig::Script(vec![
            step(250, 0.0, false),
            step(60, yaw_at(-160.0), true),
            step(40, yaw_at(160.0), true),
            step(20, 0.0, true),
            step(1000, 0.0, false),
        ]),
    );
    let mut players = vec![shooter];
    players.extend(touchers);
    let mut m = match_in(&b, players, MatchRules::default());
    let phase = |m: &Match, i: usize| m.sim.mover_state(i).unwrap().phase;
    let (mut fires, mut pressed_at) = ([0u32; 2], None);
    let triggers = [multiple, once].map(|i| m.sim.level.movers[i].id.0);
    let doors = ["d1", "d2", "d3"].map(|n| {
        let mut d = m.sim.level.movers.iter();
        d.find(|d| d.targetname.as_deref() == Some(n)).unwrap().id.0
    });
    let boxes = [multiple, button, once].map(|i| {
        let d = &m.sim.level.movers[i];
        (d.mins, d.maxs)
    });
    let (mut opened, mut touched) = ([false; 3], [false; 3]);
    for t in 0..420 {
        m.step();
        for e in &m.sim.events {
            if let SimEvent::MoverStart { mover } = e {
                if let Some(k) = doors.iter().position(|d| d == mover) {
                    opened[k] = true;
                }
                if let Some(k) = triggers.iter().position(|d| d == mover) {
                    fires[k] += 1;
                }
            }
        }
        for (k, (lo, hi)) in boxes.iter().enumerate() {
            let o = m.sim.player_state(1 + k).unwrap().origin;
            touched[k] |= botarena::map::collision::touches(
                o + v(-16.0, -16.0, -24.0),
                o + v(16.0, 16.0, 32.0),
                *lo,
                *hi,
            );
        }
        if phase(&m, button) != Phase::AtA && pressed_at.is_none() {
            pressed_at = Some(t);
        }
        if t == 249 {
            assert_eq!(touched, [true; 3], "touched multiple, button, once");
            assert_eq!(fires, [0, 0], "fired by touch");
        }
    }
    println!("fires {fires:?}, button pressed at {pressed_at:?}");
    // Shots every 0.5 s for 3 s, a second's wait after each fire: three fires.
    assert_eq!(fires, [3, 1], "multiple, once");
    assert!(
        pressed_at.is_some_and(|t| t >= 350),
        "the button pressed at tick {pressed_at:?} (shot from 350 on)"
    );
    assert_eq!(opened, [true; 3], "doors d1, d2, d3 set off");
}

/// triggers.qc `trigger_onlyregistered_touch`: in the registered game (whose maps these
/// are) a player's touch fires the targets and removes the trigger, so it fires once however
/// often it is touched again; start.map's doors to episodes 2-4 open this way.
#[test]
fn an_only_registered_trigger_fires_its_targets_once_when_touched() {
    let mut b = closed_box(-512.0, 512.0, -256.0, 256.0);
    // A trigger across the room at x -16..16; the door it names stands at the far west.
    b.brush_entity(
        &[
            ("classname", "trigger_onlyregistered"),
            ("target", "t5"),
            ("message", "You haven't registered Quake!"),
        ],
        &[(v(-16.0, -256.0, 0.0), v(16.0, 256.0, 128.0), "trigger")],
    );
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("wait", "1"),
            ("targetname", "t5"),
        ],
        &[(v(-500.0, -16.0, 0.0), v(-468.0, 16.0, 64.0), "door")],
    );
    // Through the trigger east, back west through it, east again: three touches.
    let runner = scripted(
        "runner",
        v(-200.0, 0.0, 25.0),
        0.0,
        ControllerConfig::Script(vec![
            run_at(30, 0.0),
            run_at(30, 180.0),
            run_at(30, 0.0),
            step(1000, 0.0, 0.0),
        ]),
    );
    let mut m = match_in(&b, vec![runner], MatchRules::default());
    let door = m
        .sim
        .level
        .movers
        .iter()
        .find(|d| d.targetname.as_deref() == Some("t5"));
    let door = door.expect("the door").id.0;
    let (mut starts, mut crossings, mut east) = (0, 0, false);
    for _ in 0..200 {
        m.step();
        starts += m
            .sim
            .events
            .iter()
            .filter(|e| matches!(e, SimEvent::MoverStart { mover } if *mover == door))
            .count();
        let x = m.sim.player_state(0).unwrap().origin.x;
        if (x > 40.0) != east {
            east = x > 40.0;
            crossings += 1;
        }
    }
    assert!(
        crossings >= 3,
        "the runner crossed the trigger {crossings} times"
    );
    // The door opens once: it is shut again (wait 1 s) before the third crossing, where a
    // trigger_multiple in the trigger's place opens it a second time.
    assert_eq!(starts, 1, "the door's openings");
}

/// doors.qc `LinkDoors`: touching doors move as one, the group's owner takes the
/// targetname of any door in it, and an owner with a targetname gets no trigger field. A
/// door whose partner is named therefore stays shut however close a player comes, and
/// opens (with its partner) when the name is fired (e3m2's pair by the teleporter under
/// its slime room, opened by a button behind a secret door).
#[test]
fn a_door_linked_to_a_named_door_opens_only_when_the_name_is_fired() {
    let mut b = closed_box(-512.0, 512.0, -256.0, 256.0);
    // Two touching doors across a corridor at x -16..0, north half named t7.
    b.brush_entity(
        &[("classname", "func_door"), ("angle", "-1"), ("wait", "-1")],
        &[(v(-16.0, -64.0, 0.0), v(0.0, 0.0, 112.0), "door")],
    );
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("wait", "-1"),
            ("targetname", "t7"),
        ],
        &[(v(-16.0, 0.0, 0.0), v(0.0, 64.0, 112.0), "door")],
    );
    // A trigger firing t7 at the room's east end.
    b.brush_entity(
        &[("classname", "trigger_once"), ("target", "t7")],
        &[(v(400.0, -256.0, 0.0), v(416.0, 256.0, 128.0), "trigger")],
    );
    // Run west into the unnamed door, wait there, then east through the trigger.
    let runner = scripted(
        "runner",
        v(200.0, -32.0, 25.0),
        180.0,
        ControllerConfig::Script(vec![
            run_at(40, 180.0),
            step(60, 180.0, 0.0),
            run_at(40, 0.0),
            step(1000, 0.0, 0.0),
        ]),
    );
    let mut m = match_in(&b, vec![runner], MatchRules::default());
    let ids: Vec<u32> = m.sim.level.movers.iter().map(|d| d.id.0).collect();
    assert_eq!(m.sim.level.movers[0].linked, vec![0, 1], "the doors link");
    let mut opened_at: Vec<Option<u32>> = vec![None; 2];
    let mut nearest = f32::MAX;
    for tick in 0..200 {
        m.step();
        for e in &m.sim.events {
            if let SimEvent::MoverStart { mover } = e
                && let Some(k) = ids.iter().position(|id| id == mover)
            {
                opened_at[k].get_or_insert(tick);
            }
        }
        if tick < 100 {
            nearest = nearest.min(m.sim.player_state(0).unwrap().origin.x);
        }
    }
    // The runner stood against the unnamed door (its box's west face 16 units from the
    // door's east face, well inside where a trigger field would reach).
    assert!(nearest < 20.0, "the runner came to x {nearest}");
    let (a, b) = (opened_at[0], opened_at[1]);
    assert!(
        a.is_some_and(|t| t >= 100) && a == b,
        "both doors open together, only once the trigger fires: {opened_at:?}"
    );
}

/// doors.qc `DOOR_TOGGLE` (spawnflag 32): a toggle door, once fired open, stays open past
/// its `wait` (door_hit_top sends it nowhere) until fired again, which closes it; and it
/// stays closed (e4m3's north-west floor, which sinks when a button fires it).
#[test]
fn a_toggle_door_stays_open_until_fired_again_and_then_closes() {
    use botarena::physics::movers::Phase;
    let mut b = closed_box(-512.0, 512.0, -256.0, 256.0);
    // A door against the north wall, named t9, wait 1, rising 104 units.
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("wait", "1"),
            ("spawnflags", "32"),
            ("targetname", "t9"),
        ],
        &[(v(-64.0, 192.0, 0.0), v(64.0, 256.0, 112.0), "door")],
    );
    // Two triggers firing t9 across the runner's way east, at x 0 and x 300.
    for x in [0.0, 300.0] {
        b.brush_entity(
            &[("classname", "trigger_once"), ("target", "t9")],
            &[(v(x, -256.0, 0.0), v(x + 16.0, 128.0, 128.0), "trigger")],
        );
    }
    // Through the first trigger, 10 s standing, then through the second.
    let runner = scripted(
        "runner",
        v(-200.0, 0.0, 25.0),
        0.0,
        ControllerConfig::Script(vec![
            run_at(20, 0.0),
            step(200, 0.0, 0.0),
            run_at(20, 0.0),
            step(1000, 0.0, 0.0),
        ]),
    );
    let mut m = match_in(&b, vec![runner], MatchRules::default());
    let mut phases = Vec::new();
    for tick in 0..600 {
        m.step();
        if tick % 20 == 19 {
            phases.push(m.sim.mover_state(0).unwrap().phase);
        }
    }
    println!("door each second: {phases:?}");
    // Fired at about 0.6 s, open by 2 s (104 units at 100 u/s), still open at 10 s (a
    // door that is no toggle closes 1 s after it is open); fired again at about 11.6 s,
    // closed by 14 s and still closed at 30 s.
    assert_eq!(phases[1], Phase::AtB, "open 2 s in");
    assert_eq!(phases[9], Phase::AtB, "still open 10 s in");
    assert_eq!(phases[14], Phase::AtA, "closed 15 s in, once fired again");
    assert_eq!(phases[29], Phase::AtA, "still closed 30 s in");
}

/// triggers.qc and subs.qc: a `trigger_counter` (count 2) fires its targets the second
/// time it is fired and never again; a `trigger_relay` passes firing on after its `delay`
/// and removes what its `killtarget` names; a named `trigger_once` still goes off when
/// touched (multi_touch), and one with NOTOUCH only when its name is fired (e2m2's bridge
/// to its start: two shot buttons, a counter, a relay).
#[test]
fn counters_relays_delays_and_killtargets_pass_firing_on_as_quake_does() {
    let mut b = closed_box(-512.0, 512.0, -256.0, 256.0);
    let trigger_at = |b: &mut MapBuilder, x: f32, keys: &[(&str, &str)]| {
        b.brush_entity(
            keys,
            &[(v(x - 8.0, -256.0, 0.0), v(x + 8.0, 256.0, 128.0), "trigger")],
        );
    };
    // Running east: two touches count; the second fires the counter, which removes the
    // trigger_multiple ahead that would open door "b" and fires the relay, which opens door
    // "a" a second later.
    trigger_at(
        &mut b,
        -200.0,
        &[("classname", "trigger_once"), ("target", "count")],
    );
    trigger_at(
        &mut b,
        -100.0,
        &[("classname", "trigger_once"), ("target", "count")],
    );
    b.point(
        "trigger_counter",
        v(0.0, 0.0, 64.0),
        &[
            ("targetname", "count"),
            ("target", "relay"),
            ("killtarget", "gone"),
            ("spawnflags", "1"),
        ],
    );
    b.point(
        "trigger_relay",
        v(0.0, 0.0, 64.0),
        &[("targetname", "relay"), ("target", "a"), ("delay", "1")],
    );
    trigger_at(
        &mut b,
        200.0,
        &[
            ("classname", "trigger_multiple"),
            ("targetname", "gone"),
            ("target", "b"),
        ],
    );
    // A named trigger_once still works by touch; one with NOTOUCH does not.
    trigger_at(
        &mut b,
        0.0,
        &[
            ("classname", "trigger_once"),
            ("targetname", "named"),
            ("target", "c"),
        ],
    );
    trigger_at(
        &mut b,
        100.0,
        &[
            ("classname", "trigger_once"),
            ("spawnflags", "1"),
            ("target", "d"),
        ],
    );
    for (i, name) in ["a", "b", "c", "d"].iter().enumerate() {
        let y = -200.0 + 100.0 * i as f32;
        b.brush_entity(
            &[
                ("classname", "func_door"),
                ("angle", "-1"),
                ("wait", "-1"),
                ("targetname", name),
            ],
            &[(v(-500.0, y, 0.0), v(-468.0, y + 32.0, 64.0), "door")],
        );
    }
    let runner = scripted(
        "runner",
        v(-300.0, 0.0, 25.0),
        0.0,
        ControllerConfig::Script(vec![run_at(50, 0.0), step(1000, 0.0, 0.0)]),
    );
    let mut m = match_in(&b, vec![runner], MatchRules::default());
    assert_eq!(m.sim.level.relays.len(), 2, "the counter and the relay");
    let door = |m: &Match, name: &str| {
        let d = m
            .sim
            .level
            .movers
            .iter()
            .find(|d| d.targetname.as_deref() == Some(name));
        d.expect("the door").id.0
    };
    let doors: Vec<u32> = ["a", "b", "c", "d"].iter().map(|n| door(&m, n)).collect();
    let mut started: Vec<Option<u32>> = vec![None; 4];
    let mut crossed: Vec<Option<u32>> = vec![None; 4];
    let lines = [-200.0, -100.0, 0.0, 200.0];
    for tick in 0..120 {
        m.step();
        for e in &m.sim.events {
            if let SimEvent::MoverStart { mover } = e
                && let Some(k) = doors.iter().position(|id| id == mover)
            {
                started[k].get_or_insert(tick);
            }
        }
        let x = m.sim.player_state(0).unwrap().origin.x;
        for (k, line) in lines.iter().enumerate() {
            if x + 16.0 >= line - 8.0 {
                crossed[k].get_or_insert(tick);
            }
        }
    }
    assert!(
        crossed.iter().all(Option::is_some),
        "the runner ran through: {crossed:?}"
    );
    let second = crossed[1].unwrap();
    // Door "a": a second (20 ticks) after the second touch, within the tick it is seen in.
    let a = started[0].expect("door a opens");
    assert!(
        (second + 20..=second + 21).contains(&a),
        "door a opened at tick {a}, the counter completed at {second}"
    );
    assert_eq!(started[1], None, "the killtarget removed door b's trigger");
    assert_eq!(
        started[2], crossed[2],
        "the named trigger_once fired when touched"
    );
    assert_eq!(
        started[3], None,
        "a NOTOUCH trigger is not set off by a touch"
    );
}

/// Relays and counters are entities of their own whether or not the map gives them a brush
/// (e2m2's counter has one), a counter without a count counts to 2, and a killtarget that
/// names a brush entity (start.map's func_wall) is reported, since it stays.
#[test]
fn relays_and_counters_load_and_a_killtarget_of_a_wall_is_reported() {
    use botarena::map::level::RelayKind;
    let mut b = closed_box(-256.0, 256.0, -256.0, 256.0);
    b.brush_entity(
        &[
            ("classname", "trigger_counter"),
            ("targetname", "c"),
            ("target", "w"),
        ],
        &[(v(-8.0, -8.0, 0.0), v(8.0, 8.0, 16.0), "trigger")],
    );
    b.point("trigger_counter", v(0.0, 0.0, 32.0), &[("count", "3")]);
    b.point("trigger_relay", v(0.0, 0.0, 32.0), &[("killtarget", "w")]);
    b.brush_entity(
        &[("classname", "func_wall"), ("targetname", "w")],
        &[(v(100.0, -8.0, 0.0), v(116.0, 8.0, 64.0), "wall")],
    );
    let (level, _) = b.build();
    let kinds: Vec<RelayKind> = level.relays.iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds,
        vec![
            RelayKind::Counter { count: 2 },
            RelayKind::Counter { count: 3 },
            RelayKind::Relay
        ]
    );
    assert!(
        level
            .triggers
            .iter()
            .all(|t| t.classname != "trigger_counter")
    );
    let warned = level.map.warnings.iter().any(|w| {
        w.message.contains("killtarget \"w\" names a func_wall") && w.line == level.relays[2].line
    });
    assert!(warned, "warnings: {:?}", level.map.warnings);
}

/// sv_phys.c `SV_PushMove`: a pusher moves every entity standing on it, items included
/// (an item dropped onto a plat or a hatch at spawn rides along); subs.qc `SetMovedir`: a
/// door's `angles` give its direction, pitch 90 down.
#[test]
fn an_item_on_a_mover_rides_with_it() {
    let mut b = room();
    // A hatch 8 thick, its top at 256, fired at once by a trigger round the spawn points;
    // it goes down 8 + 192 units and stays (lip -192, wait -1), a rocket launcher on it.
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("targetname", "hatch"),
            // subs.qc SetMovedir over the angles: pitch 90 is straight down.
            ("angles", "90 0 0"),
            ("lip", "-192"),
            ("wait", "-1"),
            ("speed", "200"),
        ],
        &[(v(-64.0, -64.0, 248.0), v(64.0, 64.0, 256.0), "HATCH")],
    )
    .brush_entity(
        &[("classname", "trigger_once"), ("target", "hatch")],
        &[(v(-1000.0, -500.0, 0.0), v(-800.0, 500.0, 128.0), "trigger")],
    )
    .point("weapon_rocketlauncher", v(0.0, 0.0, 264.0), &[]);
    let mut m = match_in(
        &b,
        vec![scripted(
            "still",
            v(-900.0, 0.0, 25.0),
            0.0,
            ControllerConfig::Script(vec![step(200, 0.0, 0.0)]),
        )],
        MatchRules::default(),
    );
    let z = |m: &Match| {
        let e = m.sim.items[0];
        m.sim
            .world
            .get::<&botarena::sim::components::ItemSlot>(e)
            .unwrap()
            .origin
            .z
    };
    assert!(
        (z(&m) - 256.0).abs() < 0.1,
        "dropped onto the hatch: {}",
        z(&m)
    );
    for _ in 0..100 {
        m.step();
    }
    assert!(
        (z(&m) - 56.0).abs() < 0.1,
        "carried down with the hatch: {}",
        z(&m)
    );
}
