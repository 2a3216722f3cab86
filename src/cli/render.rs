//! `botarena render`: a map, and optionally a waypoint graph over it, as SVG.

use std::path::PathBuf;

use botarena::map::load_level;
use botarena::nav::waypoint_file::load_for;
use botarena::render::{Overlay, render_map};

use super::Outcome;

#[derive(clap::Args)]
pub struct Args {
    /// The .map file.
    map: PathBuf,
    /// A waypoint file made for this map to draw over it.
    #[arg(long)]
    waypoints: Option<PathBuf>,
    /// A .nav file compiled for this map (`botarena nav compile`): its areas shaded by flag
    /// and its reachabilities as arrows by type.
    #[arg(long)]
    nav: Option<PathBuf>,
    /// Where to write the SVG.
    #[arg(short, long)]
    out: PathBuf,
    /// Picture width in pixels.
    #[arg(long, default_value_t = 1200.0)]
    width: f32,
}

pub fn run(args: Args) -> Outcome {
    let Args {
        map,
        waypoints,
        nav,
        out,
        width,
    } = args;
    if !(100.0..=20000.0).contains(&width) {
        return Err(format!("--width {width}: must be 100..=20000").into());
    }
    let (level, _) = load_level(&map)?;
    let graph = waypoints.map(|f| load_for(&f, &level)).transpose()?;
    let mesh = nav
        .map(|f| botarena::aas::file::load_for(&f, &level))
        .transpose()?;
    let svg = render_map(
        &level,
        &Overlay {
            waypoints: graph.as_ref(),
            nav: mesh.as_ref(),
            ..Default::default()
        },
        width,
    );
    super::write_out(&out, svg)?;
    eprintln!("wrote {}", out.display());
    Ok(())
}
