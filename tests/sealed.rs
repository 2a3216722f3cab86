//! The sealed world: a map whose structural brushes leave a way out is found to leak, with
//! the way out from an entity inside to beyond the map; a player who walks out through the
//! hole dies in the void.

use std::path::Path;

use botarena::map::load_level;
use botarena::map::seal::find_leak;
use botarena::scenario::Scenario;
use botarena::sim::SimEvent as Event;
use glam::Vec3;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_hole_in_the_hull_is_a_leak_from_inside_to_outside() {
    let (level, cmap) = load_level(&root().join("maps/leak.map")).unwrap();
    let leak = find_leak(&level).expect("the map leaks");
    assert_eq!(leak.classname, "info_player_deathmatch");
    let first = Vec3::from(leak.path[0]);
    let last = Vec3::from(*leak.path.last().unwrap());
    assert_eq!(first, Vec3::from(leak.origin), "from the entity");
    let (mn, mx) = cmap.bounds();
    assert!(
        last.cmplt(mn).any() || last.cmpgt(mx).any(),
        "to beyond every brush: {last}"
    );
    // Out through the hole in the east wall (y 224..288, z 0..96).
    let out = leak
        .path
        .iter()
        .map(|p| Vec3::from(*p))
        .find(|p| p.x > 512.0)
        .unwrap();
    assert!(
        (224.0..288.0).contains(&out.y) && (0.0..96.0).contains(&out.z),
        "{out}"
    );
    // One point a line, three numbers each.
    let pts = leak.pointfile();
    assert_eq!(pts.lines().count(), leak.path.len());
    assert!(
        pts.lines()
            .all(|l| l.split(' ').filter_map(|t| t.parse::<f32>().ok()).count() == 3)
    );
    // The sealed maps beside it do not leak.
    for m in ["arena.map", "proving.map", "layers.map", "prefab.map"] {
        let (level, _) = load_level(&root().join("maps").join(m)).unwrap();
        assert!(find_leak(&level).is_none(), "{m}");
    }
}

#[test]
fn a_player_who_walks_out_through_the_hole_dies_in_the_void() {
    let text = "map = \"../maps/leak.map\"\nseed = 1\nticks = 400\n\
        [[players]]\nname = \"walker\"\ncontroller = \"script\"\nspawn = 0\n\
        script = [{ ticks = 400, forward = 320, yaw = 0 }]\n";
    let s = Scenario::parse(text, &root().join("scenarios/leak.toml")).unwrap();
    let mut m = s.build().unwrap();
    let mut cause = None;
    for _ in 0..400 {
        m.step();
        for e in &m.sim.events {
            if let Event::Death { cause: c, .. } = e {
                cause = Some(*c);
            }
        }
        if cause.is_some() {
            break;
        }
    }
    assert_eq!(cause, Some("void"));
    // The dead player did not fall far below the map first.
    let z = m.sim.player_state(0).unwrap().origin.z;
    assert!(z > -1000.0, "{z}");
}
