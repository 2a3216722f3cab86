//! `botarena route`: distances over a waypoint file to a goal, and the path from a start
//! (between waypoints, or with the map between points).

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
    #[arg(long)]
    waypoints: PathBuf,
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
    /// Allowed travel types, e.g. `walk,jump,fall` (default: all).
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
    let file = &args.waypoints;
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
