//! `botarena replay`: a replay's summary, its events as JSON, or its verification.

use std::path::PathBuf;

use botarena::replay::Replay;
use botarena::view::Frames;

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
    /// Re-simulate (checking every tick) and write every tick's state to this JSON file:
    /// players, projectiles, items, movers, sounds, waypoints and events (the layout is in
    /// the docs of `botarena::view::frames`).
    #[arg(long, value_name = "FILE.json", conflicts_with = "verify")]
    frames: Option<PathBuf>,
}

pub fn run(args: Args) -> Outcome {
    let Args {
        file,
        verify,
        json,
        frames,
    } = args;
    let r = Replay::load(&file)?;
    let h = &r.header;
    if let Some(out) = frames {
        let mut progress = Progress::new(h.ticks, json);
        let f = Frames::record(&r, &file.display().to_string(), |t| progress.tick(t))?;
        progress.done();
        let text = f.to_json();
        super::write_out(&out, &text)?;
        if json {
            let o = serde_json::json!({
                "frames": out.display().to_string(),
                "bytes": text.len(),
                "ticks": f.ticks(),
            });
            println!("{}", serde_json::to_string_pretty(&o)?);
        } else {
            eprintln!(
                "wrote {} ({:.2} MB, ticks 0..={})",
                out.display(),
                text.len() as f64 / 1e6,
                f.ticks()
            );
        }
        return Ok(());
    }
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
            Some(d) => Err(Box::new(super::Failed(format!(
                "{}: replay diverged at {d}",
                file.display()
            )))),
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
