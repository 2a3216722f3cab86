//! Jump pads (`trigger_push`): speed times ten along its angles, push-once, grenades thrown
//! too, and compiled navigation and the planner using one.

use super::*;

#[test]
fn a_trigger_push_sets_speed_times_ten_along_its_angles_and_push_once_goes_away() {
    // triggers.qc trigger_push_touch: other.velocity = self.speed * self.movedir * 10 for a
    // living player, every frame it touches; subs.qc SetMovedir: makevectors(angles), so
    // pitch −45 points 45° up along +x. Speed 80 → (565.7, 0, 565.7).
    let (level, _) = jump_pad_hall("0").build();
    let push = level
        .triggers
        .iter()
        .find_map(|t| match t.kind {
            botarena::map::level::TriggerKind::Push { velocity, once } => Some((velocity, once)),
            _ => None,
        })
        .expect("the push is loaded");
    assert!(
        (push.0 - v(565.69, 0.0, 565.69)).length() < 0.1,
        "{:?}",
        push.0
    );
    assert!(!push.1);

    let mut m = match_in(
        &jump_pad_hall("0"),
        vec![runner("flyer", -200.0, 1)],
        MatchRules::default(),
    );
    let mut thrown = false;
    for _ in 0..120 {
        m.step();
        let s = m.sim.player_state(0).unwrap();
        if (s.velocity - push.0).length() < 0.5 {
            thrown = true;
        }
    }
    let end = m.sim.player_state(0).unwrap();
    assert!(thrown, "the velocity was set to the push's");
    assert!(
        end.origin.x > 420.0 && (end.origin.z - 152.0).abs() < 1.0,
        "on the ledge: {}",
        end.origin
    );

    // PUSH_ONCE: the first touch uses it up; a second runner stays on the floor.
    let mut m = match_in(
        &jump_pad_hall("1"),
        vec![runner("first", -200.0, 1), runner("second", -450.0, 60)],
        MatchRules::default(),
    );
    for _ in 0..220 {
        m.step();
    }
    let (a, b) = (
        m.sim.player_state(0).unwrap().origin,
        m.sim.player_state(1).unwrap().origin,
    );
    assert!(a.z > 150.0, "the first is thrown onto the ledge: {a}");
    assert!(b.z < 30.0 && b.x < 400.0, "the second is not: {b}");
}

#[test]
fn a_trigger_push_throws_grenades_too() {
    // triggers.qc: `if (other.classname == "grenade") other.velocity = …` as for players.
    let mut m = grenadier(&jump_pad_hall("0"), -150.0);
    let mut top = 0.0f32;
    for _ in 0..30 {
        m.step();
        if let Some(g) = m.game.combat.grenades.grenades().first() {
            top = top.max(m.game.combat.grenades.motion(g).1.z);
        }
    }
    assert!(top > 500.0, "thrown upward: {top}");
}

#[test]
fn compiled_navigation_and_the_planner_use_a_jump_pad() {
    use botarena::aas::{CompileParams, ReachKind, compile};
    let (level, cmap) = jump_pad_hall("0").build();
    let mesh =
        compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).expect("compiles");
    let pads: Vec<_> = mesh
        .reaches()
        .iter()
        .filter(|r| r.kind == ReachKind::JumpPad)
        .collect();
    assert!(
        pads.iter().any(|r| r.end.z > 150.0 && r.end.x > 400.0),
        "a jump pad reachability onto the ledge: {pads:?}"
    );
    // Only the pad leads up: every reachability into a ledge area from the floor is one.
    let up: Vec<_> = mesh
        .reaches()
        .iter()
        .filter(|r| r.start.z < 30.0 && r.end.z > 150.0)
        .collect();
    assert!(!up.is_empty() && up.iter().all(|r| r.kind == ReachKind::JumpPad));

    use botarena::planner::times::{items, plan_pair, planning};
    let all = items(&level, &cmap);
    let by = |c: &str| all.iter().find(|r| r.class == c).unwrap();
    let cfg = botarena::planner::PlanConfig {
        expansions: 20_000,
        seed: 4,
        ..Default::default()
    };
    let (open, free, with) = planning(&level, &cmap, &cfg);
    let physics = PhysicsParams::default();
    let plan = plan_pair(
        &open,
        &physics,
        &free,
        by("item_armor1"),
        by("weapon_supershotgun"),
        &with,
    );
    let t = plan.time().expect("the planner takes the pad");
    eprintln!("armour → super shotgun over the pad: {t:.2} s");
    let mut without = with.clone();
    without.pushes.clear();
    assert_eq!(
        plan_pair(
            &open,
            &physics,
            &free,
            by("item_armor1"),
            by("weapon_supershotgun"),
            &without
        )
        .time(),
        None,
        "no way up without it"
    );
}

/// doors.qc: a door with health is killed by any damage (id's maps give such doors 1), and
/// `door_killed` uses the group's owner — every door linked with it opens, the half shot
/// need not have the health; walking up to it does nothing (it has no trigger field), and
/// it takes no damage until it starts back down (`door_go_down` restores `takedamage`).
#[test]
fn a_door_with_health_opens_with_its_linked_half_when_shot_and_not_when_walked_up_to() {
    use botarena::map::level::MoverKind;
    use botarena::physics::movers::Phase;
    let mut b = closed_box(-512.0, 512.0, -256.0, 256.0);
    // A wall across at x 0..16 with a 128-wide doorway, closed by two halves that touch.
    b.solid(v(0.0, -256.0, 0.0), v(16.0, -64.0, 512.0), "W");
    b.solid(v(0.0, 64.0, 0.0), v(16.0, 256.0, 512.0), "W");
    b.solid(v(0.0, -64.0, 128.0), v(16.0, 64.0, 512.0), "W");
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("angle", "90"),
            ("wait", "3"),
            ("health", "1"),
        ],
        &[(v(0.0, 0.0, 0.0), v(16.0, 64.0, 128.0), "D")],
    );
    b.brush_entity(
        &[("classname", "func_door"), ("angle", "270"), ("wait", "3")],
        &[(v(0.0, -64.0, 0.0), v(16.0, 0.0, 128.0), "D")],
    );
    let (level, _) = b.build();
    for m in &level.movers {
        assert!(m.kind.is_shootable(), "{:?}", m.kind);
        assert!(matches!(
            m.kind,
            MoverKind::Door {
                touch_opens: false,
                ..
            }
        ));
    }
    // Walks into the doorway for 2 s, then shoots the half without health (south of the
    // middle) for 2 s, on while the doors stand open, and stands.
    let walk = ScriptStep {
        ticks: 40,
        forward: 320.0,
        ..Default::default()
    };
    let shoot = ScriptStep {
        ticks: 40,
        yaw: -30.0,
        fire: true,
        ..Default::default()
    };
    let stand = ScriptStep {
        ticks: 1000,
        yaw: -30.0,
        ..Default::default()
    };
    let p = scripted(
        "shooter",
        v(-200.0, 0.0, 25.0),
        0.0,
        ControllerConfig::Script(vec![walk, shoot, stand]),
    );
    let mut m = match_in(&b, vec![p], MatchRules::default());
    let phases = |m: &Match| [0, 1].map(|i| m.sim.mover_state(i).unwrap().phase);
    for _ in 0..40 {
        m.step();
        assert_eq!(phases(&m), [Phase::AtA; 2], "opened by walking up to it");
    }
    let mut opened_at = None;
    let mut open_ticks = 0;
    let id = m.sim.level.movers[0].id;
    for t in 40..300 {
        m.step();
        let ph = phases(&m);
        if ph[0] != Phase::AtA && opened_at.is_none() {
            opened_at = Some(t);
            assert_ne!(ph[1], Phase::AtA, "the linked half stayed shut");
        }
        if ph == [Phase::AtB; 2] {
            open_ticks += 1;
            // Damage while open (the shots pass through the doorway by then): nothing.
            botarena::game::movers::damage_mover(&mut m.sim, id);
        }
    }
    assert!(opened_at.is_some(), "the doors never opened");
    // Open its 3 s (60 ticks) and no longer.
    assert!(
        (55..=62).contains(&open_ticks),
        "open for {open_ticks} ticks"
    );
}
