//! `botarena batch`: a match per seed, a JSON line each, written as each finishes.

use std::io::Write;
use std::path::PathBuf;

use botarena::scenario::Scenario;
use botarena::scenario::batch::{parse_seeds, run_batch};

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// The scenario (TOML).
    scenario: PathBuf,
    /// Seeds: `A-B` or `A..=B` (both include B), or one number.
    #[arg(long)]
    seeds: String,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Ticks per match (default: the scenario's `ticks`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=botarena::scenario::MAX_TICKS))]
    ticks: Option<u64>,
    /// The JSON-lines file to write (replaced, unless --resume).
    #[arg(long)]
    out: PathBuf,
    /// Run only every N-th seed, starting at the I-th (0-based): `--shard I/N`, so that a
    /// Slurm array or a Kubernetes indexed job splits a sweep (each shard its own --out).
    #[arg(long)]
    shard: Option<String>,
    /// Keep the lines already in --out and run only the seeds they lack (a half-written
    /// last line, from an interrupted run, is dropped).
    #[arg(long)]
    resume: bool,
}

/// Parses `I/N` (0 <= I < N).
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard {s:?}: expected I/N with 0 <= I < N, e.g. 0/4");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The whole lines of an earlier run's output and the seeds they hold; a last line cut
/// short (no newline, or not JSON with a seed) is left out.
fn finished_lines(path: &std::path::Path) -> Result<(String, Vec<u64>), String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((String::new(), Vec::new()));
        }
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut keep = String::new();
    let mut seeds = Vec::new();
    for (k, piece) in text.split_inclusive('\n').enumerate() {
        let whole = piece.ends_with('\n');
        let seed = serde_json::from_str::<serde_json::Value>(piece.trim_end())
            .ok()
            .and_then(|v| v["seed"].as_u64());
        match (whole, seed) {
            (true, Some(seed)) => {
                keep.push_str(piece);
                seeds.push(seed);
            }
            // The last line of an interrupted run: dropped.
            (false, _) => {}
            (true, None) => {
                return Err(format!(
                    "{}:{}: not a batch result line; --resume only continues a batch's own output",
                    path.display(),
                    k + 1
                ));
            }
        }
    }
    Ok((keep, seeds))
}

pub fn run(args: Args) -> Outcome {
    let mut seeds = parse_seeds(&args.seeds)?;
    if let Some(sh) = &args.shard {
        let (i, n) = parse_shard(sh)?;
        seeds = seeds
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % n == i)
            .map(|(_, s)| s)
            .collect();
    }
    let scenario = Scenario::load(&args.scenario)?;
    // Fail on a bad map or spawn before the output file is touched.
    scenario.build()?;
    let out = &args.out;
    let (kept, done_seeds) = if args.resume {
        finished_lines(out)?
    } else {
        (String::new(), Vec::new())
    };
    let before = seeds.len();
    seeds.retain(|s| !done_seeds.contains(s));
    if args.resume {
        eprintln!(
            "{}: {} finished lines kept, {} of {before} seeds left to run",
            out.display(),
            done_seeds.len(),
            seeds.len()
        );
    }
    // Resuming, the file is cut after its whole lines (they are its beginning: only a last
    // line can be cut short) and each finished match is appended; else it is replaced.
    let io = |e: std::io::Error| super::Failed(format!("{}: {e}", out.display()));
    let mut file = if args.resume {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(out)
            .map_err(io)?;
        f.set_len(kept.len() as u64).map_err(io)?;
        std::io::Seek::seek(&mut f, std::io::SeekFrom::End(0)).map_err(io)?;
        f
    } else {
        std::fs::File::create(out).map_err(io)?
    };
    if seeds.is_empty() {
        eprintln!("nothing to run");
        return Ok(());
    }
    let mut progress = Progress::counting(seeds.len() as u64, false, "matches");
    let mut written = 0u64;
    let done = run_batch(
        &scenario,
        &seeds,
        args.threads.map(usize::from),
        args.ticks,
        |line| {
            // One write per finished match: an interrupted batch keeps whole lines.
            file.write_all(format!("{line}\n").as_bytes())
                .and_then(|_| file.flush())
                .map_err(|e| format!("{}: {e}", out.display()))?;
            written += 1;
            progress.tick(written);
            Ok(())
        },
    )?;
    progress.done();
    eprintln!("{done} matches written to {}", out.display());
    Ok(())
}
