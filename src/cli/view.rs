//! `botarena view`: a replay as one self-contained HTML page that plays the match, or a map
//! (with a waypoint graph) as an interactive picture.

use std::path::{Path, PathBuf};

use botarena::map::load_level;
use botarena::nav::waypoint_file::load_for;
use botarena::replay::Replay;
use botarena::view::{Frames, page::page};

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// The replay file (written by `run --record`), or a .map file to look at with no match.
    file: PathBuf,
    /// Where to write the page.
    #[arg(short, long)]
    out: PathBuf,
    /// With a .map: a waypoint file made for it (`explore --out`, `waypoints grid`), drawn
    /// as a layer.
    #[arg(long, value_name = "wp.json")]
    waypoints: Option<PathBuf>,
    /// Print the result as JSON on stdout (no progress bar).
    #[arg(long)]
    json: bool,
}

fn is_map(file: &Path) -> bool {
    file.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("map"))
}

pub fn run(args: Args) -> Outcome {
    let Args {
        file,
        out,
        waypoints,
        json,
    } = args;
    let name = file.display().to_string();
    let (frames, title, ticks) = if is_map(&file) {
        let (level, _) = load_level(&file)?;
        let graph = waypoints.map(|w| load_for(&w, &level)).transpose()?;
        let frames = Frames::of_map(&level, graph.as_ref(), &name);
        let title = match &graph {
            Some(g) => format!("{} · {} waypoints", frames.map_name(), g.len()),
            None => frames.map_name(),
        };
        (frames, title, 0)
    } else {
        if waypoints.is_some() {
            return Err(format!(
                "--waypoints goes with a .map file; {name} is a replay (its waypoints are the ones the bots learned, a layer of the page)"
            )
            .into());
        }
        let r = Replay::load(&file)?;
        let mut progress = Progress::new(r.header.ticks, json);
        let frames = Frames::record(&r, &name, |t| progress.tick(t))?;
        progress.done();
        let title = format!(
            "{} on {} · seed {} · {} ticks",
            r.header.scenario_path,
            frames.map_name(),
            r.header.seed,
            r.header.ticks
        );
        (frames, title, r.header.ticks)
    };
    let html = page(&frames, &title);
    super::write_out(&out, &html)?;
    if json {
        let o = serde_json::json!({
            "input": name,
            "page": out.display().to_string(),
            "bytes": html.len(),
            "ticks": ticks,
        });
        println!("{}", serde_json::to_string_pretty(&o)?);
    } else {
        eprintln!(
            "wrote {} ({:.1} MB, {}); open it in a browser",
            out.display(),
            html.len() as f64 / 1e6,
            if ticks > 0 {
                format!("{ticks} ticks of {name}")
            } else {
                format!("the map {name}")
            }
        );
    }
    Ok(())
}
