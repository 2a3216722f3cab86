//! A compiled-navigation bot's item tour on a map: per item, the time the area graph
//! predicted and the time the bot took.
//!
//! `cargo run --release --example compiled_tour -- MAP [SEED] [SECONDS]`
use std::sync::Arc;

use botarena::aas::{CompileParams, compile};
use botarena::map::load_level;
use botarena::scenario::tour::{tour_compiled, tour_items};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let map = args.get(1).expect("MAP");
    let seed: u64 = args.get(2).map(|s| s.parse().expect("seed")).unwrap_or(1);
    let secs: f32 = args
        .get(3)
        .map(|s| s.parse().expect("seconds"))
        .unwrap_or(60.0);
    let (level, cmap) = load_level(std::path::Path::new(map)).expect("map");
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).expect("nav");
    let items = tour_items(&level, &cmap);
    let debug = std::env::var("DBG").is_ok();
    let mesh = Arc::new(mesh);
    let mut last = None;
    let stops = tour_compiled(Arc::new(level), cmap, mesh, &items, seed, secs, |m, s| {
        if !debug {
            return;
        }
        let st = m.sim.player_state(0).unwrap();
        let nav: botarena::bot::compiled::AreaNav = m.sim.player_component(0).unwrap();
        let key = (nav.area, nav.reach, nav.played.is_some());
        if s.is_some() || last != Some(key) || std::env::var("DBG_ALL").is_ok() {
            let r = nav.reach.map(|r| {
                let r = &m.nav.as_ref().unwrap().mesh.reaches()[r as usize];
                format!(
                    "{}->{} {} start {:.0} {:.0} {:.0} end {:.0} {:.0} {:.0}",
                    r.from,
                    r.to,
                    r.kind.name(),
                    r.start.x,
                    r.start.y,
                    r.start.z,
                    r.end.x,
                    r.end.y,
                    r.end.z
                )
            });
            eprintln!(
                "t{} at {:.0} {:.0} {:.0} v {:.0} area {:?} reach {:?} played {:?} avoid {:?}{}",
                m.sim.tick,
                st.origin.x,
                st.origin.y,
                st.origin.z,
                st.velocity.truncate().length(),
                nav.area,
                r,
                nav.played,
                nav.avoid.iter().flatten().map(|a| a.0).collect::<Vec<_>>(),
                s.map(|s| format!(" == STOP {} {:?}", s.item.label, s.reached_after))
                    .unwrap_or_default()
            );
            last = Some(key);
        }
    })
    .expect("match");
    let mut ok = 0;
    let mut within = 0;
    for s in &stops {
        let r = s.ratio();
        ok += s.reached_after.is_some() as usize;
        within += r.is_some_and(|r| (r - 1.0).abs() <= 0.1) as usize;
        println!(
            "{:24} from {:>6.0} {:>6.0} {:>5.0}  predicted {:>6}  took {:>6}  ratio {}",
            s.item.label,
            s.from.x,
            s.from.y,
            s.from.z,
            s.predicted.map(|p| format!("{p:.2}")).unwrap_or("-".into()),
            s.reached_after
                .map(|p| format!("{p:.2}"))
                .unwrap_or("-".into()),
            r.map(|r| format!("{r:.2}")).unwrap_or("-".into()),
        );
    }
    println!("reached {ok}/{}, within 10 %: {within}", stops.len());
}
