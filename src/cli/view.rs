//! `botarena view`: a replay as one self-contained HTML page that plays the match.

use std::path::PathBuf;

use botarena::replay::Replay;
use botarena::view::{Frames, page::page};

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// The replay file (written by `run --record`).
    file: PathBuf,
    /// Where to write the page.
    #[arg(short, long)]
    out: PathBuf,
    /// Print the result as JSON on stdout (no progress bar).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let Args { file, out, json } = args;
    let name = file.display().to_string();
    let r = Replay::load(&file)?;
    let mut progress = Progress::new(r.header.ticks, json);
    let frames = Frames::record(&r, &name, |t| progress.tick(t))?;
    progress.done();
    let map = frames.map_name();
    let title = format!(
        "{} on {} · seed {} · {} ticks",
        r.header.scenario_path, map, r.header.seed, r.header.ticks
    );
    let html = page(&frames, &title);
    std::fs::write(&out, &html).map_err(|e| format!("{}: {e}", out.display()))?;
    if json {
        let o = serde_json::json!({
            "replay": name,
            "page": out.display().to_string(),
            "bytes": html.len(),
            "ticks": r.header.ticks,
        });
        println!("{}", serde_json::to_string_pretty(&o)?);
    } else {
        println!(
            "wrote {} ({:.1} MB, {} ticks of {}); open it in a browser",
            out.display(),
            html.len() as f64 / 1e6,
            r.header.ticks,
            r.header.scenario_path
        );
    }
    Ok(())
}
