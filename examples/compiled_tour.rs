//! A compiled-navigation bot's item tour on a map: per item, the time the area graph
//! predicted and the time the bot took.
//!
//! `cargo run --release --example compiled_tour -- MAP [SEED] [SECONDS]`
//!
//! Diagnostics, by environment variable:
//! - `DBG=1`: a line on stderr whenever the bot's area, reachability or playing changes
//!   (`DBG_ALL=1`: every tick), with its command and movement request;
//! - `ATTR=1`: per leg, where the time went (walking, in the air, playing a run, slowing
//!   onto a run's start, settling after one, nothing followed) beside the prediction's
//!   walking and playing parts;
//! - `MOVERS=7,15`: with `DBG`, those movers' (by index) phase and offset on each line;
//! - `LEG=LABEL`: for that item's leg, the predicted runner's path and, tick by tick, the
//!   bot's position, speed, the distance walked and how far along the path it is;
//! - `WHY=1`: per leg not reached or over 10 %, what the bot was doing tick by tick
//!   ([`botarena::survey::doing::doing`]), summed, and each death with its cause and what
//!   the bot was doing before it; a total over the legs at the end;
//! - `PROBE=x0,y0,z0,x1,y1,z1`: no tour; the areas along that line and the reachabilities
//!   out of them.
use std::collections::BTreeMap;
use std::sync::Arc;

use botarena::aas::route::{Route, Travel, build_cache, floor_walk, route};
use botarena::aas::{CompileParams, NavMesh, compile};
use botarena::bot::compiled::AreaNav;
use botarena::map::load_level;
use botarena::scenario::tour::{CompiledStop, tour_compiled, tour_items};
use botarena::tick::Match;
use glam::Vec3;

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
    let every = std::env::var("DBG_ALL").is_ok();
    let attr = std::env::var("ATTR").is_ok();
    let leg = std::env::var("LEG").ok();
    let why = std::env::var("WHY").is_ok();
    let mut doing: BTreeMap<String, u32> = BTreeMap::new();
    let mut died: Vec<String> = Vec::new();
    let mut total: BTreeMap<String, u32> = BTreeMap::new();
    let mut before = String::new();
    if let Ok(line) = std::env::var("PROBE") {
        probe(&mesh, &line);
        return;
    }
    let mesh = Arc::new(mesh);
    let graph = Arc::clone(&mesh);
    let mut last = None;
    let mut spent: BTreeMap<&'static str, u32> = BTreeMap::new();
    let mut trail: Vec<(u64, Vec3, f32)> = Vec::new();
    let stops = tour_compiled(Arc::new(level), cmap, mesh, &items, seed, secs, |m, s| {
        if attr {
            *spent.entry(activity(m)).or_default() += 1;
            if let Some(stop) = s {
                attribute(&graph, stop, &spent);
                spent.clear();
            }
        }
        if why {
            let what = botarena::survey::doing::doing(m);
            for e in &m.sim.events {
                if let botarena::sim::SimEvent::Death { cause, .. } = e {
                    died.push(format!("{cause} during {before}"));
                }
            }
            *doing.entry(what.clone()).or_default() += 1;
            before = what;
            if let Some(stop) = s {
                let bad = stop.ratio().is_none_or(|r| r > 1.1);
                if bad {
                    let mut v: Vec<_> = doing.iter().collect();
                    v.sort_by(|a, b| b.1.cmp(a.1));
                    let top: Vec<String> = v
                        .iter()
                        .take(5)
                        .map(|(k, n)| format!("{k} {:.1}s", **n as f32 * 0.05))
                        .collect();
                    println!(
                        "WHY {} pred {:?} took {:?}: {} | deaths: {}",
                        stop.item.label,
                        stop.predicted,
                        stop.reached_after,
                        top.join(", "),
                        died.join("; ")
                    );
                    for (k, n) in &doing {
                        *total.entry(k.clone()).or_default() += n;
                    }
                    for d in &died {
                        *total.entry(format!("DEATH {d}")).or_default() += 1;
                    }
                }
                doing.clear();
                died.clear();
            }
        }
        if let Some(leg) = &leg {
            let st = m.sim.player_state(0).expect("the tourist");
            trail.push((m.sim.tick, st.origin, st.velocity.truncate().length()));
            if let Some(stop) = s {
                if &stop.item.label == leg {
                    follow_report(&graph, stop, &trail);
                }
                trail.clear();
            }
        }
        if debug {
            for e in &m.sim.events {
                if let botarena::sim::SimEvent::Death { cause, killer, .. } = e {
                    eprintln!("DEATH t{} cause {cause} killer {killer:?}", m.sim.tick);
                }
            }
            let nav: AreaNav = m.sim.player_component(0).expect("the tourist");
            let key = (
                nav.area,
                nav.reach,
                nav.played.is_some(),
                nav.detour.map(|d| d.door),
            );
            if s.is_some() || last != Some(key) || every {
                eprintln!("{}", tick_line(m, &nav, s));
                last = Some(key);
            }
        }
    })
    .expect("match");
    let mut ok = 0;
    let mut within = 0;
    for s in &stops {
        let r = s.ratio();
        ok += s.reached_after.is_some() as usize;
        within += r.is_some_and(|r| r <= 1.1) as usize;
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
        if s.down {
            println!(
                "  (died {} times; still down when the time ran out)",
                s.deaths
            );
        } else if s.deaths > 0 {
            println!("  (died {} times; timed from the last respawn)", s.deaths);
        }
    }
    println!("reached {ok}/{}, within 10 %: {within}", stops.len());
    if why {
        let mut v: Vec<_> = total.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1));
        for (k, n) in v {
            println!("WHYTOTAL {n:>6} {k}");
        }
    }
}

/// `PROBE=x0,y0,z0,x1,y1,z1`: the areas under 41 points along the line (each once, in
/// order), with their floor, flags and cells and the reachabilities out of them.
fn probe(mesh: &NavMesh, line: &str) {
    let v: Vec<f32> = line
        .split(',')
        .filter_map(|x| x.trim().parse().ok())
        .collect();
    let [x0, y0, z0, x1, y1, z1] = v[..] else {
        eprintln!("PROBE wants six numbers, x0,y0,z0,x1,y1,z1: {line:?}");
        std::process::exit(2);
    };
    let (a, b) = (Vec3::new(x0, y0, z0), Vec3::new(x1, y1, z1));
    let mut last = None;
    for k in 0..=40 {
        let p = a.lerp(b, k as f32 / 40.0);
        let under = mesh.area_under(p);
        if under.map(|x| x.1) == last {
            continue;
        }
        last = under.map(|x| x.1);
        let Some((q, id)) = under else {
            println!("{p:.0}: no area");
            continue;
        };
        let area = &mesh.areas()[id as usize];
        println!(
            "{p:.0}: area {id} floor {:.0} flags {:?} cells {:?}-{:?} z {:.0}..{:.0}",
            area.floor_z(q.truncate()),
            area.flags,
            area.cell_min,
            area.cell_max,
            area.mins.z,
            area.maxs.z
        );
        for r in mesh.reachabilities_from(id) {
            println!(
                "    -> {} {} {:.2}s {:.0} -> {:.0}",
                r.to,
                r.kind.name(),
                r.seconds,
                r.start,
                r.end
            );
        }
    }
}

/// What the tourist is doing this tick.
fn activity(m: &Match) -> &'static str {
    let nav: AreaNav = m.sim.player_component(0).expect("the tourist");
    let st = m.sim.player_state(0).expect("the tourist");
    let mesh = &m.nav.as_ref().expect("compiled").mesh;
    match (nav.reach, nav.played) {
        (_, Some(_)) => "play",
        (Some(r), None) if floor_walk(mesh, &mesh.reaches()[r as usize]) => {
            if st.on_ground.is_some() {
                "walk"
            } else {
                "walk_air"
            }
        }
        (Some(_), None) => "approach",
        (None, None) if nav.settle => "settle",
        (None, None) if st.on_ground.is_none() => "air",
        (None, None) => "none",
    }
}

/// The route from the leg's start to its item, from a stand: on dry land, or through slime
/// and lava from a start in one (as the bot's routes go from in there).
fn leg_route(mesh: &NavMesh, stop: &CompiledStop) -> Option<Route> {
    let g = mesh.area_at(stop.item.stand)?;
    [Travel::ALL.dry(), Travel::ALL]
        .into_iter()
        .find_map(|t| route(mesh, &build_cache(mesh, g, t), stop.from, stop.item.stand))
}

/// One line per leg: the seconds spent per activity beside the prediction's parts.
fn attribute(mesh: &NavMesh, stop: &CompiledStop, spent: &BTreeMap<&'static str, u32>) {
    let (walk, play) = leg_route(mesh, stop).map_or((f32::NAN, f32::NAN), |r| {
        let play: f32 = r
            .reaches
            .iter()
            .map(|&i| &mesh.reaches()[i as usize])
            .filter(|x| !floor_walk(mesh, x))
            .map(|x| x.seconds)
            .sum();
        (r.run_seconds - play, play)
    });
    let f = |k: &str| *spent.get(k).unwrap_or(&0) as f32 * 0.05;
    println!(
        "ATTR {:26} took {:5.2} pred {:5.2} | walk {:5.2}+air {:4.2} vs {:5.2} | play {:4.2} vs {:4.2} | approach {:4.2} settle {:4.2} air {:4.2} none {:4.2}",
        stop.item.label,
        stop.reached_after.unwrap_or(f32::NAN),
        stop.predicted.unwrap_or(f32::NAN),
        f("walk"),
        f("walk_air"),
        walk,
        f("play"),
        play,
        f("approach"),
        f("settle"),
        f("air"),
        f("none")
    );
}

/// The leg's predicted path, then the bot tick by tick against it.
fn follow_report(mesh: &NavMesh, stop: &CompiledStop, trail: &[(u64, Vec3, f32)]) {
    let Some(r) = leg_route(mesh, stop) else {
        println!(
            "LEG {}: no route (from {} in {:?}, stand {} in {:?})",
            stop.item.label,
            stop.from,
            mesh.area_at(stop.from),
            stop.item.stand,
            mesh.area_at(stop.item.stand)
        );
        return;
    };
    println!(
        "LEG {} from {} run {:.2} graph {:.2}",
        stop.item.label, stop.from, r.run_seconds, r.seconds
    );
    for &i in &r.reaches {
        let x = &mesh.reaches()[i as usize];
        if !floor_walk(mesh, x) {
            println!(
                "  reach {} {}->{} {:.2}s {:.0} -> {:.0}",
                x.kind.name(),
                x.from,
                x.to,
                x.seconds,
                x.start,
                x.end
            );
        }
    }
    let mut along = vec![0.0f32];
    for w in r.path.windows(2) {
        along.push(along.last().unwrap() + (w[1] - w[0]).truncate().length());
    }
    for (q, d) in r.path.iter().zip(&along) {
        println!("  path {q:.0} at {d:.0} u ({:.2} s at 320)", d / 320.0);
    }
    let t0 = trail.first().map_or(0, |t| t.0);
    let mut walked = 0.0;
    let mut prev = trail.first().map_or(stop.from, |t| t.1);
    for &(t, o, v) in trail {
        walked += (o - prev).truncate().length();
        prev = o;
        // The nearest point of the path: how far along it, and how far off.
        let (off, progress) = r
            .path
            .windows(2)
            .zip(&along)
            .map(|(w, d)| {
                let (a, b) = (w[0], w[1]);
                let ab = (b - a).truncate();
                let u =
                    ((o - a).truncate().dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
                let p = a.lerp(b, u);
                ((o - p).truncate().length(), d + ab.length() * u)
            })
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .unwrap_or((0.0, 0.0));
        println!(
            "  t{t:>4} +{:.2}s at {o:.0} v {v:.0} walked {walked:.0} progress {progress:.0} off {off:.0}",
            (t - t0 + 1) as f32 * 0.05
        );
    }
}

/// A debugging line for the tick: command, movement request, position, the followed
/// reachability.
fn tick_line(m: &Match, nav: &AreaNav, s: Option<&CompiledStop>) -> String {
    let st = m.sim.player_state(0).expect("the tourist");
    let r = nav.reach.map(|r| {
        let r = &m.nav.as_ref().expect("compiled").mesh.reaches()[r as usize];
        format!(
            "{}->{} {} start {:.0} end {:.0}{}",
            r.from,
            r.to,
            r.kind.name(),
            r.start,
            r.end,
            if r.needs.is_empty() {
                String::new()
            } else {
                format!(" needs {:?}", r.needs)
            }
        )
    });
    let cmd = m
        .sim
        .player_component::<botarena::sim::components::Command>(0)
        .map(|c| {
            let c = c.0;
            format!(
                "cmd f{:.0} s{:.0} yaw{:.0}{}",
                c.forward_move,
                c.side_move,
                c.yaw,
                if c.jump { " J" } else { "" }
            )
        })
        .unwrap_or_default();
    let intent = m
        .sim
        .player_component::<botarena::bot::movement::MoveIntent>(0)
        .and_then(|i| i.0)
        .map(|i| match i.target {
            botarena::bot::movement::MoveTarget::Point(p) => format!("to {p:.0}"),
            botarena::bot::movement::MoveTarget::Direction(d) => format!("along {d:.2}"),
        })
        .unwrap_or_default();
    // `MOVERS=7,8`: those movers' phase and offset too.
    let movers: String = std::env::var("MOVERS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|k| k.parse::<usize>().ok())
        .filter_map(|k| {
            m.sim
                .mover_state(k)
                .map(|x| format!(" m{k} {:?} {:.0}", x.phase, x.offset))
        })
        .collect();
    format!(
        "{cmd} {intent} t{} hp {:.0} at {:.3} v {:.0} ground {:?} held {:.2} area {:?} reach {:?} played {:?} avoid {:?} detour {:?}{movers}{}",
        m.sim.tick,
        m.sim
            .player_component::<botarena::sim::components::Vitals>(0)
            .map_or(f32::NAN, |v| v.health),
        st.origin,
        st.velocity.truncate().length(),
        st.on_ground.map(|e| e.0),
        nav.held,
        nav.area,
        r,
        nav.played,
        nav.avoid.iter().flatten().map(|a| a.0).collect::<Vec<_>>(),
        nav.detour.map(|d| (d.door, d.opener, d.left)),
        s.map(|s| format!(" == STOP {} {:?}", s.item.label, s.reached_after))
            .unwrap_or_default()
    )
}
