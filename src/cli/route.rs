//! `botarena route`: distances over a waypoint file to a goal, and the path from a start
//! (between waypoints, or with the map between points); or, with `--nav`, the quickest
//! route in seconds between two points over a compiled navigation file.

use std::path::PathBuf;

use botarena::bot::routing::route_ends;
use botarena::map::load_level;
use botarena::nav::routing::{RouteAnswer, TravelFlags};
use botarena::nav::waypoint_file::{geometry_hash, load};

use super::Outcome;

#[derive(clap::Args)]
pub struct Args {
    /// The .map file (needed for --from/--to points).
    map: Option<PathBuf>,
    /// The waypoint file.
    #[arg(long, required_unless_present = "nav", conflicts_with = "nav")]
    waypoints: Option<PathBuf>,
    /// A compiled navigation file (`botarena nav compile`): route between --from and --to
    /// in seconds over its areas (needs the map).
    #[arg(long, requires_all = ["map", "from", "to"])]
    nav: Option<PathBuf>,
    /// The goal waypoint's number.
    #[arg(long, conflicts_with = "to")]
    to_waypoint: Option<u32>,
    /// A start waypoint: print its path to the goal.
    #[arg(long, conflicts_with = "from")]
    from_waypoint: Option<u32>,
    /// Start point `x,y,z` (a player origin; needs the map).
    #[arg(long, requires = "map", allow_hyphen_values = true)]
    from: Option<String>,
    /// Goal point `x,y,z` (a player origin; needs the map).
    #[arg(long, requires = "map", allow_hyphen_values = true)]
    to: Option<String>,
    /// Allowed travel types, e.g. `walk,jump,fall` (default: all). With --nav the
    /// reachability kinds: walk, step_up, barrier_jump, jump, walk_off_ledge, swim,
    /// water_jump, teleport, elevator, jump_pad; slime and lava (into those liquids);
    /// all (every kind, slime and lava); and keys (locked doors).
    #[arg(long, default_value = "all")]
    flags: String,
    /// Print as JSON.
    #[arg(long)]
    json: bool,
}

fn parse_point(name: &str, s: &str) -> Result<glam::Vec3, String> {
    let v: Vec<f32> = s
        .split(',')
        .map(|t| t.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{name} {s:?}: expected x,y,z"))?;
    match v[..] {
        [x, y, z] if v.iter().all(|c| c.is_finite()) => Ok(glam::Vec3::new(x, y, z)),
        _ => Err(format!("{name} {s:?}: expected x,y,z")),
    }
}

pub fn run(args: Args) -> Outcome {
    if let Some(nav) = &args.nav {
        return run_nav(&args, nav);
    }
    let flags = TravelFlags::parse(&args.flags).map_err(|e| format!("--flags: {e}"))?;
    let from_p = args
        .from
        .as_deref()
        .map(|s| parse_point("--from", s))
        .transpose()?;
    let to_p = args
        .to
        .as_deref()
        .map(|s| parse_point("--to", s))
        .transpose()?;
    let map = args.map.as_deref().map(load_level).transpose()?;
    let expect = map
        .as_ref()
        .map(|(level, _)| (level.map.name.clone(), geometry_hash(level)));
    let file = args
        .waypoints
        .as_ref()
        .expect("clap requires --waypoints or --nav");
    let (header, graph) = load(file, expect.as_ref().map(|(m, h)| (m.as_str(), h.as_str())))?;
    // Points become waypoints as a route bot picks them: the goal's nearest waypoint that
    // reaches it, the start's nearest that it reaches (each settled onto the floor first).
    let (to, from, points) = match (&map, to_p) {
        (Some((_, cmap)), Some(tp)) => {
            let ends = route_ends(cmap, &graph, from_p, tp);
            let goal = ends
                .to
                .1
                .ok_or_else(|| format!("no waypoint within reach of --to {}", ends.to.0))?;
            let start = match ends.from {
                Some((f, w)) => {
                    Some(w.ok_or_else(|| format!("no waypoint within reach of --from {f}"))?)
                }
                None => args.from_waypoint,
            };
            let points = ends.from.map(|(f, _)| (f, ends.to.0));
            (goal, start, points)
        }
        (_, None) => match args.to_waypoint {
            Some(t) => (t, args.from_waypoint, None),
            None => return Err("give --to-waypoint N, or a map with --to x,y,z".into()),
        },
        (None, Some(_)) => return Err("--to x,y,z needs the map".into()),
    };
    let answer = RouteAnswer::new(&graph, to, from, flags, points).map_err(|e| {
        format!(
            "{} {}: {} has waypoints 0..{}",
            if e.start {
                "--from-waypoint"
            } else {
                "--to-waypoint"
            },
            e.waypoint,
            file.display(),
            e.count.saturating_sub(1)
        )
    })?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&answer.to_json(&header.map))?
        );
    } else {
        print!("{}", answer.to_text(&header.map));
    }
    Ok(())
}

/// `route --nav`: the quickest route between two points over compiled navigation.
fn run_nav(args: &Args, nav: &std::path::Path) -> Outcome {
    use botarena::aas::route::{Route, Travel, build_cache, route, run_path_timed};
    let travel = Travel::parse(&args.flags).map_err(|e| format!("--flags: {e}"))?;
    let (level, cmap) = load_level(args.map.as_deref().expect("clap requires the map"))?;
    let mesh = botarena::aas::file::load_for(nav, &level)?;
    let world = botarena::aas::NavWorld::new(&level, &cmap);
    let point = |name: &str, s: &Option<String>| -> Result<(glam::Vec3, u32), String> {
        let p = parse_point(name, s.as_deref().expect("clap requires --from and --to"))?;
        // As given, or settled on the floor as a player put there would be (an item's
        // origin lies lower than a player's: tried a little higher too).
        let physics = botarena::physics::pmove::PhysicsParams::default();
        std::iter::once(p)
            .chain([0.0, 24.0, 48.0].map(|up| {
                botarena::nav::sample::stand_still(&world.cmap, &physics, p + glam::Vec3::Z * up)
                    .origin
            }))
            .find_map(|o| mesh.area_at(o).map(|a| (o, a)))
            .ok_or_else(|| format!("{name} {p}: no area there (is it inside the map, on a floor?)"))
    };
    let (from, from_area) = point("--from", &args.from)?;
    let (to, to_area) = point("--to", &args.to)?;
    let cache = build_cache(&mesh, to_area, travel);
    // The runner's time with the jumps and falls it takes on the run as a compiled bot
    // does, tried through the player physics (the tour's prediction does the same).
    let ctx = botarena::aas::run::RunWorld {
        map: &world.cmap,
        physics: botarena::physics::pmove::PhysicsParams::default(),
        dt: 1.0 / mesh.params.tick_rate as f32,
        me: None,
    };
    let on_the_run = botarena::aas::run::on_the_run(&ctx, &mesh);
    let r = route(&mesh, &cache, from, to).map(|r| {
        let (run_seconds, path, last_run) = run_path_timed(
            &mesh,
            from,
            glam::Vec3::ZERO,
            to,
            &r.reaches,
            |_, t| t,
            Some(&on_the_run),
        );
        Route {
            run_seconds,
            path,
            last_run,
            ..r
        }
    });
    let steps: Vec<serde_json::Value> = r
        .iter()
        .flat_map(|r| &r.reaches)
        .map(|&i| {
            let x = &mesh.reaches()[i as usize];
            serde_json::json!({
                "reachability": i,
                "kind": x.kind.name(),
                "from_area": x.from,
                "to_area": x.to,
                "start": [x.start.x, x.start.y, x.start.z],
                "end": [x.end.x, x.end.y, x.end.z],
                "seconds": x.seconds,
                "needs": x.needs,
            })
        })
        .collect();
    if args.json {
        let v = serde_json::json!({
            "map": mesh.map,
            "from": [from.x, from.y, from.z],
            "from_area": from_area,
            "to": [to.x, to.y, to.z],
            "to_area": to_area,
            "reachable": r.is_some(),
            "seconds": r.as_ref().map(|r| r.seconds),
            "run_seconds": r.as_ref().map(|r| r.run_seconds),
            "path": r.as_ref().map(|r| r.path.iter().map(|p| [p.x, p.y, p.z]).collect::<Vec<_>>()),
            "steps": steps,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    let Some(r) = r else {
        println!(
            "{}: no route from {from} (area {from_area}) to {to} (area {to_area}) with --flags {}",
            mesh.map, args.flags
        );
        return Ok(());
    };
    println!(
        "{}: {:.2} s from {from} (area {from_area}) to {to} (area {to_area}) for a runner from a stand, {} reachabilities ({:.2} s adding up their measured times)",
        mesh.map,
        r.run_seconds,
        r.reaches.len(),
        r.seconds,
    );
    for &i in &r.reaches {
        let x = &mesh.reaches()[i as usize];
        println!(
            "  {:<15} area {:>5} -> {:<5} {:>6.2} s  from {} to {}{}",
            x.kind.name(),
            x.from,
            x.to,
            x.seconds,
            x.start,
            x.end,
            if x.needs.is_empty() {
                String::new()
            } else {
                format!("  needs {:?}", x.needs)
            }
        );
    }
    Ok(())
}
