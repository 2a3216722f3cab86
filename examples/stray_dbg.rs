//! local debug: strays and nearest core reach answers.
use botarena::map::{MapData, build_level};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (_level, cmap) = build_level(MapData::load(std::path::Path::new(&args[1])).unwrap());
    let (_h, g) = botarena::nav::waypoint_file::load(std::path::Path::new(&args[2]), None).unwrap();
    let comps = g.strong_components();
    let mut in_core = vec![false; g.len()];
    for &n in &comps[0] {
        in_core[n as usize] = true;
    }
    println!(
        "components {:?}",
        comps.iter().map(|c| c.len()).collect::<Vec<_>>()
    );
    let p = botarena::nav::ReachParams {
        max_distance: 1024.0,
        max_fall: 320.0,
        ..Default::default()
    };
    for c in comps.iter().skip(1) {
        println!("component {:?}", c);
        for &n in c {
            let w = g.get(n).unwrap();
            println!("  stray {n} {:?} at {}", w.kind, w.origin);
            for (m, d) in g
                .near(w.origin, 512.0)
                .into_iter()
                .filter(|(m, _)| in_core[*m as usize])
                .take(4)
            {
                let o = g.get(m).unwrap().origin;
                let a = botarena::nav::reachable(&cmap, o, w.origin, &p);
                let b = botarena::nav::reachable(&cmap, w.origin, o, &p);
                println!("    core {m} at {o} d {d:.0}: core->stray {a:?}, stray->core {b:?}");
            }
        }
    }
}
