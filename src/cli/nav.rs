//! `botarena nav compile | info`: compiled navigation (areas and physics-verified
//! reachabilities) written to a `.nav` file, and its counts.

use std::path::PathBuf;

use clap::Subcommand;
use serde_json::json;

use botarena::aas::file::{load, save};
use botarena::aas::{CompileParams, NavMesh, compile};
use botarena::map::load_level;

use super::Outcome;
use super::progress::Progress;

#[derive(Subcommand)]
pub enum Command {
    /// Compile a map: convex areas over every floor and liquid a player can be in, and the
    /// reachabilities between them (walk, step, jumps, falls, swimming, teleporters, plats),
    /// each verified and timed by running the player physics. Writes a .nav file.
    Compile {
        /// The .map file.
        map: PathBuf,
        /// Where to write the .nav file.
        #[arg(long)]
        out: PathBuf,
        /// Heightfield cell edge, units (4..=32; smaller is finer and slower).
        #[arg(long, default_value_t = 8.0)]
        cell: f32,
        /// Physics ticks per second for verifying and timing reachabilities (10..=1000).
        #[arg(long, default_value_t = 20)]
        tick_rate: u32,
        /// Worker threads (0: all cores; the file is the same for any number).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Counts of a .nav file: areas by flag, reachabilities by type, compile time, memory.
    Info {
        /// The .nav file.
        file: PathBuf,
        /// Print as JSON.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cmd: Command) -> Outcome {
    match cmd {
        Command::Compile {
            map,
            out,
            cell,
            tick_rate,
            threads,
            json,
        } => {
            let (level, cmap) = load_level(&map)?;
            let params = CompileParams {
                cell,
                tick_rate,
                threads,
            };
            let mut bar: Option<(String, Progress)> = None;
            let mesh = compile(&level, &cmap, &params, &mut |stage, done, total| {
                if bar.as_ref().is_none_or(|(s, _)| s != stage) {
                    if let Some((_, b)) = &bar {
                        b.done();
                    }
                    bar = Some((stage.to_string(), Progress::counting(total, json, stage)));
                }
                if let Some((_, b)) = bar.as_mut() {
                    b.tick(done);
                }
            })?;
            if let Some((_, b)) = &bar {
                b.done();
            }
            save(&mesh, &out).map_err(|e| super::Failed(e.to_string()))?;
            print_info(&mesh, json, Some(&out.display().to_string()));
            Ok(())
        }
        Command::Info { file, json } => {
            let mesh = load(&file)?;
            print_info(&mesh, json, None);
            Ok(())
        }
    }
}

fn print_info(mesh: &NavMesh, json: bool, wrote: Option<&str>) {
    let s = &mesh.stats;
    // Areas that are there only with a plat, door or secret door at its other end.
    let moved = mesh.areas().iter().filter(|a| a.moved.is_some()).count();
    if json {
        let flags: serde_json::Map<String, serde_json::Value> = mesh
            .areas_by_flag()
            .into_iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect();
        let kinds: serde_json::Map<String, serde_json::Value> = mesh
            .reaches_by_kind()
            .into_iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect();
        let v = json!({
            "map": mesh.map,
            "geometry_hash": mesh.geometry_hash,
            "cell": mesh.params.cell,
            "tick_rate": mesh.params.tick_rate,
            "grid": [mesh.frame.nx, mesh.frame.ny],
            "areas": mesh.areas().len(),
            "areas_by_flag": flags,
            "areas_moved": moved,
            "reachabilities": mesh.reaches().len(),
            "reachabilities_by_kind": kinds,
            "compile_seconds": s.seconds,
            "columns": s.columns,
            "spans": s.spans,
            "candidates": s.candidates,
            "dropped": s.dropped,
            "ticks_simulated": s.ticks_simulated,
            "memory_bytes": mesh.memory_bytes(),
            "wrote": wrote,
        });
        println!("{v}");
        return;
    }
    println!(
        "map {} (geometry {}), cell {} units, {} x {} columns, reachabilities timed at {} ticks/s",
        mesh.map,
        mesh.geometry_hash,
        mesh.params.cell,
        mesh.frame.nx,
        mesh.frame.ny,
        mesh.params.tick_rate
    );
    println!(
        "compiled in {:.2} s: {} spans, {} candidates run through the physics ({} ticks), {} dropped",
        s.seconds, s.spans, s.candidates, s.ticks_simulated, s.dropped
    );
    println!(
        "areas: {} ({moved} there only with a mover at its other end)",
        mesh.areas().len()
    );
    for (name, n) in mesh.areas_by_flag() {
        println!("  {name:<16} {n:>7}");
    }
    println!("reachabilities: {}", mesh.reaches().len());
    for (name, n) in mesh.reaches_by_kind() {
        println!("  {name:<16} {n:>7}");
    }
    println!("memory: {:.1} KiB", mesh.memory_bytes() as f64 / 1024.0);
    if let Some(w) = wrote {
        eprintln!("wrote {w}");
    }
}
