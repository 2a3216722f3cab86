use super::*;
use glam::Vec3;

use crate::map::parse::MapData;

use crate::map::builder::MapBuilder;

fn level(b: &MapBuilder) -> Level {
    Level::from_map(MapData::parse(b.to_map_text("t").as_bytes(), "t.map", "t").unwrap())
}

#[test]
fn touching_doors_link_and_share_one_field() {
    let mut b = MapBuilder::new();
    b.solid(
        Vec3::new(-512., -512., -16.),
        Vec3::new(512., 512., 0.),
        "F",
    );
    let door = |b: &mut MapBuilder, x0: f32, x1: f32, flags: &str| {
        b.brush_entity(
            &[
                ("classname", "func_door"),
                ("angle", "0"),
                ("spawnflags", flags),
            ],
            &[(Vec3::new(x0, 0., 0.), Vec3::new(x1, 8., 128.), "DOOR")],
        );
    };
    door(&mut b, -64., 0., "0");
    door(&mut b, 0., 64., "0");
    door(&mut b, 200., 264., "0");
    door(&mut b, 264., 328., "4"); // don't link
    let l = level(&b);
    assert_eq!(l.movers[0].linked, vec![0, 1]);
    assert_eq!(l.movers[1].linked, vec![0, 1]);
    assert_eq!(l.movers[2].linked, vec![2]);
    assert_eq!(l.movers[3].linked, vec![3]);
    let fields: Vec<_> = l
        .triggers
        .iter()
        .filter(|t| matches!(t.kind, TriggerKind::DoorField { .. }))
        .collect();
    assert_eq!(fields.len(), 3);
    assert_eq!(fields[0].mins, Vec3::new(-124., -60., -8.));
    assert_eq!(fields[0].maxs, Vec3::new(124., 68., 136.));
    // angle 0 moves along +X by its width minus the 8-unit lip.
    let MoverKind::Door { open, .. } = l.movers[0].kind else {
        panic!()
    };
    assert_eq!(open, Vec3::new(56., 0., 0.));
}

#[test]
fn a_trigger_painted_with_the_teleport_texture_is_still_a_trigger() {
    // e3m2's teleporter behind its shot door: one brush whose faces are *teleport (and
    // sky). The texture makes a world brush a surface only; a trigger is its box.
    let mut b = MapBuilder::new();
    b.solid(
        Vec3::new(-512., -512., -16.),
        Vec3::new(512., 512., 0.),
        "F",
    );
    b.brush_entity(
        &[("classname", "trigger_teleport"), ("target", "there")],
        &[(
            Vec3::new(100., 0., 0.),
            Vec3::new(164., 24., 96.),
            "*teleport",
        )],
    );
    b.point(
        "info_teleport_destination",
        Vec3::new(-300., 0., 40.),
        &[("targetname", "there")],
    );
    let l = level(&b);
    assert!(l.map.warnings.is_empty(), "{:?}", l.map.warnings);
    assert_eq!(l.triggers.len(), 1);
    let t = &l.triggers[0];
    assert!(matches!(t.kind, TriggerKind::Teleport { dest: Some(0) }));
    assert_eq!(
        (t.mins, t.maxs),
        (Vec3::new(100., 0., 0.), Vec3::new(164., 24., 96.))
    );
}

#[test]
fn bad_values_warn_and_keep_defaults() {
    let mut b = MapBuilder::new();
    b.solid(
        Vec3::new(-512., -512., -16.),
        Vec3::new(512., 512., 0.),
        "F",
    );
    b.brush_entity(
        &[("classname", "func_plat"), ("speed", "fast")],
        &[(Vec3::new(0., 0., -100.), Vec3::new(64., 64., 8.), "P")],
    );
    b.brush_entity(
        &[("classname", "info_player_deathmatch"), ("origin", "1 2")],
        &[],
    );
    b.point("weapon_nailgun", Vec3::new(1., 2., 3.), &[]);
    b.brush_entity(
        &[("classname", "trigger_teleport"), ("target", "nowhere")],
        &[(
            Vec3::new(100., 0., 0.),
            Vec3::new(164., 64., 64.),
            "trigger",
        )],
    );
    let l = level(&b);
    assert_eq!(l.movers[0].speed, 150.0);
    assert!(
        l.map
            .warnings
            .iter()
            .any(|w| w.message.contains("\"speed\" \"fast\""))
    );
    assert!(
        l.spawns.is_empty(),
        "the spawn with a bad origin is skipped"
    );
    assert!(
        l.map
            .warnings
            .iter()
            .any(|w| w.message.contains("not three numbers"))
    );
    assert!(l.map.warnings.iter().any(|w| w.message.contains("nowhere")));
    assert_eq!(l.items.len(), 1);
    // A plat without height drops by its height minus 8.
    let MoverKind::Plat { low } = l.movers[0].kind else {
        panic!()
    };
    assert_eq!(low, Vec3::new(0., 0., -100.));
}
