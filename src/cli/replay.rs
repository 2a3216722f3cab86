//! `botarena replay`: a replay's summary, its events as JSON, or its verification.

use std::path::PathBuf;

use botarena::replay::Replay;

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// The replay file (written by `run --record`).
    file: PathBuf,
    /// Re-simulate and compare every tick's state hash.
    #[arg(long)]
    verify: bool,
    /// Print JSON on stdout (the header and events; with --verify, the result).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let Args { file, verify, json } = args;
    let r = Replay::load(&file)?;
    let h = &r.header;
    if verify {
        let mut progress = Progress::new(h.ticks, json);
        let v = r.verify(|t| progress.tick(t))?;
        progress.done();
        if json {
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
        return match &v.divergence {
            None => {
                if !json {
                    println!(
                        "ok: {} ticks of {} match the recording",
                        v.ticks, h.scenario_path
                    );
                }
                Ok(())
            }
            Some(d) => Err(format!("{}: replay diverged at {d}", file.display()).into()),
        };
    }
    if json {
        let out = serde_json::json!({ "header": h, "events": r.events });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", r.summary(&file));
    }
    Ok(())
}
