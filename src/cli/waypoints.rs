//! `botarena waypoints grid | merge | info`: waypoint files laid on a grid, merged, counted.

use std::path::PathBuf;

use clap::Subcommand;

use botarena::map::load_level;
use botarena::nav::grid::{GridParams, seed_grid, stitch};
use botarena::nav::waypoint_file::{geometry_hash, load, merge_files, save};
use botarena::scenario::explore::coverage;

use super::Outcome;

#[derive(Subcommand)]
pub enum Command {
    /// Lay waypoints on every walkable floor at a spacing and link neighbours that reach
    /// each other (with terrain weights for water and lava edges).
    Grid {
        /// The .map file.
        map: PathBuf,
        /// Distance between grid columns, units.
        #[arg(long, default_value_t = 64.0)]
        spacing: f32,
        /// Leave all link weights at 1.
        #[arg(long)]
        no_terrain_weights: bool,
        /// Where to write the waypoint file (JSON).
        #[arg(long)]
        out: PathBuf,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Merge waypoint files made for the same map into one.
    Merge {
        /// The files.
        #[arg(required = true, num_args = 2..)]
        files: Vec<PathBuf>,
        /// With the map: link the first file's waypoints to the others' within this many
        /// units wherever reachability holds (e.g. an explored graph into a grid).
        #[arg(long, requires = "map")]
        stitch: Option<f32>,
        /// The .map file (needed for --stitch).
        #[arg(long)]
        map: Option<PathBuf>,
        /// Where to write the merged file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Counts of a waypoint file.
    Info {
        /// The waypoint file.
        file: PathBuf,
        /// The .map file it was made for: also measure the routable part against what the
        /// map allows (waypoints in places the compiled graph never leads back to, such as a
        /// spawn ledge, are one-way and not held against the graph).
        #[arg(long)]
        map: Option<PathBuf>,
        /// The map's compiled navigation (`botarena nav compile`); compiled here when not
        /// given.
        #[arg(long, requires = "map")]
        nav: Option<PathBuf>,
        /// Print as JSON.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cmd: Command) -> Outcome {
    match cmd {
        Command::Grid {
            map,
            spacing,
            no_terrain_weights,
            out,
            json,
        } => {
            if !(16.0..=1024.0).contains(&spacing) {
                return Err(format!("--spacing {spacing}: must be 16..=1024").into());
            }
            let (level, cmap) = load_level(&map)?;
            let params = GridParams {
                spacing,
                terrain_weights: !no_terrain_weights,
                ..Default::default()
            };
            let graph = seed_grid(&cmap, &params);
            save(&graph, &level.map.name, &geometry_hash(&level), &out)
                .map_err(|e| super::Failed(e.to_string()))?;
            let report = coverage(&level, &cmap, &graph, 0, 0.0, 0);
            if json {
                println!("{}", serde_json::to_string_pretty(&report.graph)?);
            } else {
                print!("{}", report.graph.to_text());
                println!("in solid    {}", report.waypoints_in_solid);
                println!("written     {}", out.display());
            }
            Ok(())
        }
        Command::Merge {
            files,
            out,
            stitch: radius,
            map,
        } => {
            let mut merged = merge_files(&files)?;
            let h = &merged.header;
            if let (Some(radius), Some(m)) = (radius, &map) {
                if !(16.0..=1024.0).contains(&radius) {
                    return Err(format!("--stitch {radius}: must be 16..=1024").into());
                }
                let (level, cmap) = load_level(m)?;
                if level.map.name != h.map || geometry_hash(&level) != h.geometry_hash {
                    return Err(format!(
                        "{}: the waypoint files were made for map {:?}, not this one",
                        m.display(),
                        h.map
                    )
                    .into());
                }
                let added = stitch(&cmap, &mut merged.graph, 0..merged.first, radius, 6);
                println!("stitched {added} links");
            }
            let h = &merged.header;
            save(&merged.graph, &h.map, &h.geometry_hash, &out)
                .map_err(|e| super::Failed(e.to_string()))?;
            let st = merged.graph.stats();
            println!(
                "merged {} files: {} waypoints, {} links, {} components -> {}",
                files.len(),
                st.waypoints,
                st.links,
                st.components,
                out.display()
            );
            Ok(())
        }
        Command::Info {
            file,
            map,
            nav,
            json,
        } => {
            let (h, g, routable) = match map {
                None => {
                    let (h, g) = load(&file, None)?;
                    (h, g, None)
                }
                Some(map) => {
                    let (level, cmap) = load_level(&map)?;
                    let hash = geometry_hash(&level);
                    let (h, g) = load(&file, Some((&level.map.name, &hash)))?;
                    let mesh = super::nav_or_compile(nav.as_deref(), &level, &cmap)?;
                    let r = botarena::scenario::explore::routable(&mesh, &g);
                    (h, g, Some(r))
                }
            };
            let st = g.stats();
            if json {
                let mut v = serde_json::to_value(&st)?;
                if let (Some(r), Some(o)) = (routable, v.as_object_mut()) {
                    o.insert("routable".into(), serde_json::to_value(r)?);
                }
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                println!("map         {} (geometry {})", h.map, h.geometry_hash);
                print!("{}", st.to_text());
                if let Some(r) = routable {
                    println!("{}", r.to_text());
                }
            }
            Ok(())
        }
    }
}
