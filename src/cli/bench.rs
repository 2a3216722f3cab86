//! `botarena bench`: ticks per second of whole matches, and BENCHMARKS.md.

use std::path::PathBuf;

use botarena::bench::{BenchOptions, parse_threads, root_from, run_bench};

use super::Outcome;
use super::progress::Progress;

#[derive(clap::Args)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// A fifth of the ticks (a rough figure in seconds).
    #[arg(long)]
    quick: bool,
    /// Also write the results, machine and method as Markdown to this file
    /// (BENCHMARKS.md is made with `botarena bench --markdown BENCHMARKS.md`).
    #[arg(long)]
    markdown: Option<PathBuf>,
    /// Thread counts to measure, comma-separated (1 is always measured: the speed-ups
    /// are against it), e.g. `1,2,4,8,16` on a machine with more cores.
    #[arg(long, value_name = "LIST", default_value = "1,2")]
    threads: String,
    /// Only these maps, comma-separated (arena, dm4).
    #[arg(long, value_name = "LIST")]
    maps: Option<String>,
    /// Only these bot counts, comma-separated (1, 8, 32, 128).
    #[arg(long, value_name = "LIST")]
    bots: Option<String>,
    /// Only the real matches (`real`) or only the first seconds (`first`).
    #[arg(long, value_parser = ["real", "first"])]
    only: Option<String>,
    /// Only the match cases: no trace rates, no navigation compile times.
    #[arg(long)]
    matches_only: bool,
    /// Busy threads to run beside the measurement (each spins a core), to see the speed a
    /// match gets on a loaded machine (a build, other matches, a CI job beside it).
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    load: u16,
}

/// The sections of BENCHMARKS.md that `bench --markdown` writes; the file's other sections
/// (measured by hand or by python/benches/, on other machines) are kept after them.
const OWN_SECTIONS: [&str; 2] = ["## Method", "## Results"];

/// Where the first section of `old` that `bench` does not write starts.
fn kept_from(old: &str) -> Option<usize> {
    let mut at = 0;
    for line in old.split_inclusive('\n') {
        if line.starts_with("## ") && !OWN_SECTIONS.contains(&line.trim_end()) {
            return Some(at);
        }
        at += line.len();
    }
    None
}

pub fn run(args: Args) -> Outcome {
    let bots = match &args.bots {
        Some(list) => list
            .split(',')
            .map(|b| match b.trim().parse::<usize>() {
                Ok(n @ (1 | 8 | 32 | 128)) => Ok(n),
                _ => Err(format!("--bots {list}: each must be 1, 8, 32 or 128")),
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let opts = BenchOptions {
        threads: parse_threads(&args.threads)?,
        maps: args
            .maps
            .iter()
            .flat_map(|l| l.split(','))
            .map(|m| m.trim().to_string())
            .collect(),
        bots,
        real: args.only.as_deref().map(|o| o == "real"),
        matches_only: args.matches_only,
        ..BenchOptions::all(args.quick)
    };
    let root = root_from(&std::env::current_dir()?);
    let load = BusyLoad::start(usize::from(args.load));
    let mut progress = None;
    let report = run_bench(&root, &opts, |done, total| {
        progress
            .get_or_insert_with(|| Progress::counting(total as u64, args.json, "cases"))
            .tick(done as u64);
    })?;
    if let Some(p) = &progress {
        p.done();
    }
    drop(load);
    let mut report = report;
    if args.load > 0 {
        report.machine += &format!(
            ", with {} busy threads beside the measurement (--load)",
            args.load
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
    } else {
        print!("{}", report.to_text());
    }
    if let Some(file) = args.markdown {
        // Sections measured otherwise (the Python module's, by hand, on other machines): kept.
        let kept = std::fs::read_to_string(&file)
            .ok()
            .and_then(|old| kept_from(&old).map(|at| format!("\n{}", &old[at..])))
            .unwrap_or_default();
        super::write_out(&file, report.to_markdown() + &kept)?;
        eprintln!("wrote {}", file.display());
    }
    Ok(())
}

/// Threads that keep cores busy until dropped (`bench --load`).
struct BusyLoad {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl BusyLoad {
    fn start(k: usize) -> BusyLoad {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..k)
            .map(|_| {
                let stop = std::sync::Arc::clone(&stop);
                std::thread::spawn(move || {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        BusyLoad { stop, threads }
    }
}

impl Drop for BusyLoad {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::kept_from;

    #[test]
    fn markdown_keeps_every_section_bench_does_not_write() {
        let old = "# Benchmarks\n\n## Method\n\ntext\n\n## Results\n\n| a |\n\n## A 16-core machine\n\nx\n\n## Python environments\n\ny\n";
        let at = kept_from(old).expect("a kept section");
        assert!(old[at..].starts_with("## A 16-core machine\n"));
        assert!(old[at..].contains("## Python environments"));
        assert_eq!(kept_from("## Method\n\n## Results\n| a |\n"), None);
    }
}
